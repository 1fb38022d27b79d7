import { Prisma as PrismaValues } from '../../prisma/generated/client/client.ts';
import { authorColumns } from '../actors.ts';
import type { RequestContext } from '../context.ts';
import type { Db, Prisma } from '../database/client.ts';
import { newId } from '../ids.ts';
import { chargeMachineResults } from './result-usage.ts';
import type { LockedRun } from './run-access.ts';
import { applyRunChange } from './run-counters.ts';
import { addTransition, type CaseStatus, type StatusDelta } from './run-status.ts';

/** What marking needs of a run case. */
export type MarkableCase = { id: string; caseId: string | null; status: string };

export type MarkEntry = { runCase: MarkableCase; status: CaseStatus; elapsedMs?: number | null; comment?: string | null };

export type ResultSource = 'manual' | 'api' | 'bulk';

/** manual for a person in a session, api for a machine caller; bulk operations say bulk. */
export const singleSource = (ctx: RequestContext): ResultSource => (ctx.identity.kind === 'session' ? 'manual' : 'api');

/**
 * Whether the run's assigneeResultLock keeps this caller from marking the case: the lock is on,
 * the case has an assignee, and the caller is neither that assignee (a token acts as its
 * creator) nor an owner/admin in a session. API tokens are never exempt by role.
 */
export function isAssigneeLocked(ctx: RequestContext, run: LockedRun, runCase: { assigneeId: string | null }): boolean {
  if (!run.settings.assigneeResultLock || runCase.assigneeId === null) return false;
  if (runCase.assigneeId === ctx.identity.user.id) return false;
  return !(ctx.identity.kind === 'session' && (ctx.role === 'owner' || ctx.role === 'admin'));
}

/** The status steps take when their case is set to `status`: untested/retested reset them. */
const stepStatusFor = (status: CaseStatus) => (status === 'untested' || status === 'retested' ? 'untested' : status);

/**
 * Sets the status of run cases and appends their results, inside the
 * caller's transaction after lockRun. Entries apply in order (one case may appear several
 * times); a result is appended for an entry whose status differs from the case's current one,
 * or for every entry with `appendUnchanged` (bulk submit-result). The steps of a case whose
 * status is set take it too, unless `stepsFollow` is false (a step mark, where the case status
 * is the aggregate of steps already marked). Counters, durations and auto-close follow through
 * applyRunChange; machine-authored results are charged last. Audit events are the caller's: one
 * per case or one bulk event.
 * Returns the run as it now is and, per entry, its status before and its result ULID (or null).
 */
export async function recordResults(
  tx: Db,
  ctx: RequestContext,
  run: LockedRun,
  entries: MarkEntry[],
  options: { source: ResultSource; appendUnchanged?: boolean; stepsFollow?: boolean },
) {
  const at = new Date();
  const current = new Map<string, CaseStatus>();
  const original = new Map<string, CaseStatus>();
  const finalOf = new Map<string, { status: CaseStatus; elapsedMs: number | null | undefined }>();
  const results: Prisma.TestRunResultCreateManyInput[] = [];
  const author = authorColumns(ctx.identity);
  const outcomes = entries.map((entry) => {
    const id = entry.runCase.id;
    const from = current.get(id) ?? (entry.runCase.status as CaseStatus);
    if (!original.has(id)) original.set(id, from);
    current.set(id, entry.status);
    const previous = finalOf.get(id);
    // An explicit null clears the case's elapsedMs; only an absent one keeps it.
    finalOf.set(id, { status: entry.status, elapsedMs: entry.elapsedMs !== undefined ? entry.elapsedMs : previous?.elapsedMs });
    if (from === entry.status && !options.appendUnchanged) return { entry, from, resultUlid: null };
    const resultUlid = newId();
    results.push({
      id: resultUlid,
      orgId: ctx.org.id,
      runId: run.id,
      runCaseId: id,
      caseId: entry.runCase.caseId,
      status: entry.status,
      elapsedMs: entry.elapsedMs ?? null,
      comment: entry.comment ?? null,
      source: options.source,
      executedAt: at,
      executedById: ctx.identity.user.id,
      ...author,
    });
    return { entry, from, resultUlid };
  });

  const withResults = new Set(results.map((row) => row.runCaseId));
  const touched = [...finalOf].filter(([id, next]) => next.status !== original.get(id) || withResults.has(id));
  if (touched.length > 0) {
    // One statement for any number of cases; raw SQL, so the tenant filter is written out.
    const rows = PrismaValues.join(
      touched.map(([id, next]) => PrismaValues.sql`(${id}, ${next.status}, ${next.elapsedMs ?? null}::int, ${next.elapsedMs !== undefined}::boolean)`),
    );
    await tx.$executeRaw`
      UPDATE test_run_cases AS c
      SET status = v.status, elapsed_ms = CASE WHEN v.set_elapsed THEN v.elapsed ELSE c.elapsed_ms END,
          last_result_at = ${at}, updated_at = ${at}
      FROM (VALUES ${rows}) AS v(id, status, elapsed, set_elapsed)
      WHERE c.id = v.id AND c.org_id = ${ctx.org.id}`;
    if (options.stepsFollow !== false) {
      const steps = PrismaValues.join(touched.map(([id, next]) => PrismaValues.sql`(${id}, ${stepStatusFor(next.status)})`));
      await tx.$executeRaw`
        UPDATE test_run_case_steps AS s SET status = v.status, updated_at = ${at}
        FROM (VALUES ${steps}) AS v(run_case_id, status)
        WHERE s.run_case_id = v.run_case_id AND s.org_id = ${ctx.org.id} AND s.status <> v.status`;
    }
  }
  if (results.length > 0) await tx.testRunResult.createMany({ data: results });

  const statusDelta: StatusDelta = {};
  for (const [id, next] of finalOf) addTransition(statusDelta, original.get(id)!, next.status);
  const durationMs = results.reduce((sum, row) => sum + (row.elapsedMs ?? 0), 0);
  const updated = await applyRunChange(tx, ctx, run, { statusDelta, results: { count: results.length, durationMs, at } });
  await chargeMachineResults(tx, ctx, results.length, at);
  return { run: { ...run, ...updated }, outcomes };
}
