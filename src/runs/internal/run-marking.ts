import { Prisma } from '../../../prisma/generated/client/client.ts';
import { authorColumns } from '../../foundation/actors.ts';
import type { AuditEntry } from '../../foundation/audit/audit.service.ts';
import type { RequestContext } from '../../foundation/context.ts';
import type { Db } from '../../kernel/database/client.ts';
import { sql } from '../../kernel/database/raw-sql.ts';
import { newId } from '../../kernel/ids.ts';
import type { CaseStatus } from '../../kernel/statuses.ts';
import type { RunSettings } from '../../run-settings/run-settings.service.ts';
import type { RunCaseRecord } from './run-case-record.ts';
import { applyRunChange, applyRunChangeAlone, type RunChangeWrite } from './run-counters.ts';
import { addTransition, type StatusDelta } from './run-status.ts';

/** What marking needs of a run case. */
export type MarkableCase = { id: string; caseId: string | null; status: string };

/**
 * `flaky`, `attempt` and `parameters` are what an imported result keeps of its test runner's
 * report: each run of a retried test is a result, `attempt` its number (from 1) within the import.
 */
export type MarkEntry = {
  runCase: MarkableCase;
  status: CaseStatus;
  elapsedMs?: number | null;
  comment?: string | null;
  flaky?: boolean;
  attempt?: number;
  parameters?: unknown;
};

export type ResultSource = 'manual' | 'api' | 'bulk' | 'import';

/** manual for a person in a session, api for a machine caller; bulk operations say bulk. */
export const singleSource = (ctx: RequestContext): ResultSource => (ctx.identity.kind === 'session' ? 'manual' : 'api');

/**
 * Whether the run's assigneeResultLock keeps this caller from marking the case: the lock is on,
 * the case has an assignee, and the caller is a person in a session who is neither that assignee
 * nor an owner/admin, or an API token. A token is an actor of its own: it is never the assignee
 * (not even of its creator's cases) and never exempt by role. An OAuth token is its user (contract §16).
 */
export function isAssigneeLocked(ctx: RequestContext, run: { settings: RunSettings }, runCase: { assigneeId: string | null }): boolean {
  if (!run.settings.assigneeResultLock || runCase.assigneeId === null) return false;
  if (ctx.identity.kind === 'api_token') return true;
  return runCase.assigneeId !== ctx.identity.user.id && ctx.role !== 'owner' && ctx.role !== 'admin';
}

/** The status steps take when their case is set to `status`: untested/retested reset them. */
const stepStatusFor = (status: CaseStatus) => (status === 'untested' || status === 'retested' ? 'untested' : status);

/**
 * A run case as recordResults leaves it when marked with its steps following, from the record
 * read under the case lock: a single mark answers without reading the case again.
 */
export function markedRunCase(
  runCase: RunCaseRecord,
  mark: { status: CaseStatus; elapsedMs?: number | null | undefined },
  at: Date,
): RunCaseRecord {
  const stepStatus = stepStatusFor(mark.status);
  return {
    ...runCase,
    status: mark.status,
    elapsedMs: mark.elapsedMs !== undefined ? mark.elapsedMs : runCase.elapsedMs,
    lastResultAt: at,
    updatedAt: at,
    steps: runCase.steps.map((step) => (step.status === stepStatus ? step : { ...step, status: stepStatus, updatedAt: at })),
  };
}

type RecordOptions = {
  source: ResultSource;
  appendUnchanged?: boolean;
  stepsFollow?: boolean;
  whileAccepting?: { allowClosed: boolean };
  audit?: AuditEntry;
};

/**
 * Sets the status of run cases and appends their results, inside the caller's transaction after
 * lockRun or lockRunForCases (or lockRunCase, which passes `whileAccepting` on to applyRunChange). Entries apply in order (one case may appear several
 * times); a result is appended for an entry whose status differs from the case's current one,
 * or for every entry with `appendUnchanged` (bulk submit-result). The steps of a case whose
 * status is set take it too, unless `stepsFollow` is false (a step mark, where the case status
 * is the aggregate of steps already marked). Counters, durations and auto-close follow through
 * applyRunChange, which charges machine-authored results too. Audit events are the caller's: one
 * per case or one bulk event; `audit` is written by applyRunChange's statement.
 * Returns the run as it now is, when the results were executed, and per entry its status before and its result ULID (or null).
 */
export async function recordResults<R extends { id: string; name: string }>(
  tx: Db,
  ctx: RequestContext,
  run: R,
  entries: MarkEntry[],
  options: RecordOptions,
) {
  const at = new Date();
  const marking = markingOf(ctx, run, entries, options, at);
  const updated = await applyRunChange(tx, ctx, run, {
    statusDelta: marking.statusDelta,
    results: marking.results,
    whileAccepting: options.whileAccepting,
    audit: options.audit,
    writes: marking.writes,
  });
  return { run: updated, at, outcomes: marking.outcomes };
}

/** A step of a run case as recordResultAlone answers it. */
type AnsweredStep = Omit<RunCaseRecord['steps'][number], 'updatedAt'> & { updatedAt: string };

/**
 * recordResults for one case whose status changes, outside a transaction: one statement that
 * commits alone (applyRunChangeAlone). It takes the run's row FOR KEY SHARE before the case's,
 * lockRunCase's order, and writes only while the case row is still the `version` readRunCase read.
 * It writes every step of the case, not only those whose status changes, so that a step changed
 * since the read (its case row only locked, not changed) is written from its current row; the
 * steps are answered as they now are. Undefined when the case, the run or the month changed
 * meanwhile, or the mark would close the run: nothing was written.
 */
export async function recordResultAlone(
  ctx: RequestContext,
  run: { id: string; name: string },
  entry: MarkEntry & { runCase: RunCaseRecord },
  version: string,
  options: Omit<RecordOptions, 'appendUnchanged' | 'stepsFollow'>,
) {
  const at = new Date();
  const marking = markingOf(ctx, run, [entry], options, at, { version });
  const answers = await applyRunChangeAlone(ctx.db, ctx, run, {
    statusDelta: marking.statusDelta,
    results: marking.results,
    whileAccepting: options.whileAccepting,
    audit: options.audit,
    writes: marking.writes,
    requires: [sql`(SELECT count(*) FROM marked_cases) = 1`],
    answers: ['marked_steps'],
  });
  if (!answers) return undefined;
  const steps = (answers.marked_steps as AnsweredStep[])
    .map((step) => ({ ...step, updatedAt: new Date(step.updatedAt) }))
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  return {
    resultUlid: marking.outcomes[0]!.resultUlid,
    runCase: { ...markedRunCase(entry.runCase, entry, at), steps },
  };
}

/**
 * What recordResults writes, as writes for applyRunChange: the cases, their steps and the
 * results, for any number of cases. Columns travel as arrays (unnest), which costs far less to
 * build than a row of parameters per case. Raw SQL names org_id itself. `alone` makes them
 * recordResultAlone's.
 */
function markingOf(
  ctx: RequestContext,
  run: { id: string },
  entries: MarkEntry[],
  options: Omit<RecordOptions, 'whileAccepting' | 'audit'>,
  at: Date,
  alone?: { version: string },
) {
  const original = new Map<string, CaseStatus>();
  const finalOf = new Map<string, { status: CaseStatus; elapsedMs: number | null | undefined }>();
  const results: Array<{
    id: string;
    runCaseId: string;
    caseId: string | null;
    status: CaseStatus;
    elapsedMs: number | null;
    comment: string | null;
    flaky: boolean;
    attempt: number;
    parameters: string | null;
  }> = [];
  const outcomes = entries.map((entry) => {
    const id = entry.runCase.id;
    const previous = finalOf.get(id);
    const from = previous?.status ?? (entry.runCase.status as CaseStatus);
    if (!original.has(id)) original.set(id, from);
    // An explicit null clears the case's elapsedMs; only an absent one keeps it.
    finalOf.set(id, { status: entry.status, elapsedMs: entry.elapsedMs !== undefined ? entry.elapsedMs : previous?.elapsedMs });
    if (from === entry.status && !options.appendUnchanged) return { entry, from, resultUlid: null };
    const resultUlid = newId();
    results.push({
      id: resultUlid,
      runCaseId: id,
      caseId: entry.runCase.caseId,
      status: entry.status,
      elapsedMs: entry.elapsedMs ?? null,
      comment: entry.comment ?? null,
      flaky: entry.flaky ?? false,
      attempt: entry.attempt ?? 1,
      parameters: entry.parameters === undefined || entry.parameters === null ? null : JSON.stringify(entry.parameters),
    });
    return { entry, from, resultUlid };
  });

  const withResults = new Set(results.map((row) => row.runCaseId));
  const touched = [...finalOf].filter(([id, next]) => next.status !== original.get(id) || withResults.has(id));
  const writes: RunChangeWrite[] = [];
  if (touched.length > 0) {
    const ids = touched.map(([id]) => id);
    const author = authorColumns(ctx.identity);
    if (alone) {
      writes.push({
        name: 'run_gate',
        statement: sql`SELECT id FROM test_runs WHERE id = ${run.id} AND org_id = ${ctx.org.id} FOR KEY SHARE`,
      });
    }
    writes.push({
      name: 'marked_cases',
      statement: sql`
        UPDATE test_run_cases AS c
        SET status = v.status, elapsed_ms = CASE WHEN v.set_elapsed THEN v.elapsed ELSE c.elapsed_ms END,
            last_result_at = ${at}, updated_at = ${at}
        FROM unnest(${ids}::char(26)[], ${touched.map(([, next]) => next.status)}::text[],
                    ${touched.map(([, next]) => next.elapsedMs ?? null)}::int[], ${touched.map(([, next]) => next.elapsedMs !== undefined)}::boolean[])
          AS v(id, status, elapsed, set_elapsed)
          ${alone ? sql`, run_gate` : Prisma.empty}
        WHERE c.id = v.id AND c.org_id = ${ctx.org.id}
          ${alone ? sql`AND c.run_id = run_gate.id AND c.xmin = ${alone.version}::xid` : Prisma.empty}
        RETURNING c.id`,
    });
    if (options.stepsFollow !== false) {
      const statuses = sql`unnest(${ids}::char(26)[], ${touched.map(([, next]) => stepStatusFor(next.status))}::text[]) AS v(run_case_id, status)`;
      writes.push({
        name: 'marked_steps',
        statement: alone
          ? sql`
            UPDATE test_run_case_steps AS s
            SET status = v.status, updated_at = CASE WHEN s.status = v.status THEN s.updated_at ELSE ${at} END
            FROM ${statuses}, marked_cases AS marked
            WHERE s.run_case_id = v.run_case_id AND marked.id = v.run_case_id AND s.org_id = ${ctx.org.id}
            RETURNING s.id, s.org_id AS "orgId", s.run_case_id AS "runCaseId", s.position, s.action,
                      s.expected_result AS "expectedResult", s.status, s.actual_result AS "actualResult", s.updated_at AS "updatedAt"`
          : sql`
            UPDATE test_run_case_steps AS s SET status = v.status, updated_at = ${at}
            FROM ${statuses}
            WHERE s.run_case_id = v.run_case_id AND s.org_id = ${ctx.org.id} AND s.status <> v.status
            RETURNING s.id`,
      });
    }
    writes.push({
      name: 'appended_results',
      statement: sql`
      INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, executed_at,
                                    executed_by_id, author_kind, author_id, author_name, author_avatar_key, flaky, attempt, parameters)
      SELECT r.id, ${ctx.org.id}, ${run.id}, r.run_case_id, r.case_id, r.status, r.elapsed_ms, r.comment, ${options.source}, ${at},
             ${ctx.identity.user.id}, ${author.authorKind}, ${author.authorId}, ${author.authorName}, ${author.authorAvatarKey},
             r.flaky, r.attempt, r.parameters::jsonb
      FROM unnest(${results.map((row) => row.id)}::char(26)[], ${results.map((row) => row.runCaseId)}::char(26)[],
                  ${results.map((row) => row.caseId)}::char(26)[], ${results.map((row) => row.status)}::text[],
                  ${results.map((row) => row.elapsedMs)}::int[], ${results.map((row) => row.comment)}::text[],
                  ${results.map((row) => row.flaky)}::boolean[], ${results.map((row) => row.attempt)}::int[],
                  ${results.map((row) => row.parameters)}::text[])
        AS r(id, run_case_id, case_id, status, elapsed_ms, comment, flaky, attempt, parameters)
      RETURNING id`,
    });
  }

  const statusDelta: StatusDelta = {};
  for (const [id, next] of finalOf) addTransition(statusDelta, original.get(id)!, next.status);
  const durationMs = results.reduce((sum, row) => sum + (row.elapsedMs ?? 0), 0);
  return { writes, statusDelta, results: { count: results.length, durationMs, at }, outcomes };
}
