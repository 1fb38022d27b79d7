import { assertMembers, userRefs } from '../foundation/actors.ts';
import { type AuditEntry, emitAudit } from '../foundation/audit/audit.service.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError } from '../kernel/errors.ts';
import type { CaseStatus } from '../kernel/statuses.ts';
import { findRunCasesByUlid, type RunCaseRow } from './internal/run-case-record.ts';
import { applyRunChange } from './internal/run-counters.ts';
import { isAssigneeLocked, type MarkEntry, type ResultSource, recordResults } from './internal/run-marking.ts';
import { addTransition, type StatusDelta } from './internal/run-status.ts';
import { lockRunForCases, type RunOfCaseMutation } from './run-access.service.ts';
import type { BulkAssignInput, BulkCasesInput, BulkMarkInput, BulkResult, SubmitResultsInput } from './run-bulk.schemas.ts';
import { type CaseEntry, caseDisplayIdOf, caseEntry, listedEntries, runEvent } from './run-events.service.ts';

/** The one value all of `values` share, or undefined when they differ (or there are none). */
function uniform<T>(values: T[], key: (value: T) => unknown = (value) => value): T | undefined {
  if (values.length === 0) return undefined;
  return values.every((value) => key(value) === key(values[0]!)) ? values[0] : undefined;
}

/**
 * The run cases `caseUlids` name, in request order and each once (a ULID may be the run case's
 * or its test case's). ULIDs naming no case of the run are skipped as not_found, a case named a
 * second time (by its other ULID) as unchanged.
 */
async function selectCases(tx: Db, ctx: RequestContext, run: RunOfCaseMutation, caseUlids: string[]) {
  const found = await findRunCasesByUlid(tx, ctx, run.id, caseUlids);
  const cases: RunCaseRow[] = [];
  const skipped: CaseEntry[] = [];
  const seen = new Set<string>();
  for (const ulid of caseUlids) {
    const runCase = found.get(ulid);
    if (!runCase) skipped.push({ ulid, caseDisplayId: null, titleSnapshot: null, skipped: 'not_found' });
    else if (seen.has(runCase.id)) skipped.push(caseEntry(run, runCase, { skipped: 'unchanged' }));
    else {
      seen.add(runCase.id);
      cases.push(runCase);
    }
  }
  return { cases, skipped };
}

type BulkAction = 'run.cases_bulk_marked' | 'run.cases_bulk_assigned' | 'run.cases_bulk_retried' | 'run.cases_bulk_removed';

/**
 * The one event of a bulk operation, recorded before its effects apply (or with them, on the run
 * counters' statement) so that an automatic run.closed it causes follows it. Changed cases are
 * listed first, then unchanged ones. An operation that changes nothing records nothing, unless
 * `evenIfUnchanged` (results appended).
 */
function bulkEvent(
  run: RunOfCaseMutation,
  action: BulkAction,
  changed: CaseEntry[],
  unchanged: CaseEntry[],
  summary: Record<string, unknown> = {},
  options: { evenIfUnchanged?: boolean } = {},
): { result: BulkResult; audit: AuditEntry | undefined } {
  const result = { affected: changed.length, unchanged: unchanged.length };
  if (changed.length === 0 && !options.evenIfUnchanged) return { result, audit: undefined };
  const metadata = { bulkCases: { ...listedEntries([...changed, ...unchanged]), summary: { ...result, ...summary } } };
  return { result, audit: { action, ...runEvent(run), metadata } };
}

/** Records bulkEvent's event before the operation's effects. */
async function recordBulkEvent(tx: Db, ctx: RequestContext, ...event: Parameters<typeof bulkEvent>): Promise<BulkResult> {
  const { result, audit } = bulkEvent(...event);
  if (audit) await emitAudit(tx, ctx, audit);
  return result;
}

/** POST /runs/{runUlid}/cases/bulk-mark: one result per case whose status changes. */
export function bulkMarkRunCases(ctx: RequestContext, runUlid: string, input: BulkMarkInput): Promise<BulkResult> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRunForCases(tx, ctx, runUlid, 'result.execute');
    const { cases, skipped } = await selectCases(tx, ctx, run, input.caseUlids);
    const marked: RunCaseRow[] = [];
    for (const runCase of cases) {
      if (runCase.status === input.status) skipped.push(caseEntry(run, runCase, { skipped: 'unchanged' }));
      else if (isAssigneeLocked(ctx, run, runCase)) skipped.push(caseEntry(run, runCase, { skipped: 'locked' }));
      else marked.push(runCase);
    }
    const changed = marked.map((runCase) => caseEntry(run, runCase, { fromStatus: runCase.status, toStatus: input.status }));
    const statusFrom = uniform(marked.map((runCase) => runCase.status));
    // The event is there only when cases change, and then rides on their writes.
    const { result, audit } = bulkEvent(run, 'run.cases_bulk_marked', changed, skipped, {
      ...(statusFrom ? { statusFrom } : {}),
      statusTo: input.status,
    });
    if (marked.length > 0) {
      await recordResults(
        tx,
        ctx,
        run,
        marked.map((runCase) => ({ runCase, status: input.status })),
        { source: 'bulk', audit },
      );
    }
    return result;
  });
}

/** POST /runs/{runUlid}/cases/bulk-assign: `assigneeUlid` must be a member (404), null unassigns. */
export function bulkAssignRunCases(ctx: RequestContext, runUlid: string, input: BulkAssignInput): Promise<BulkResult> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRunForCases(tx, ctx, runUlid, 'result.execute');
    if (input.assigneeUlid) await assertMembers(tx, [input.assigneeUlid]);
    const { cases, skipped } = await selectCases(tx, ctx, run, input.caseUlids);
    const reassigned: RunCaseRow[] = [];
    for (const runCase of cases) {
      if (runCase.assigneeId === input.assigneeUlid) skipped.push(caseEntry(run, runCase, { skipped: 'unchanged' }));
      else reassigned.push(runCase);
    }
    const refOf = await userRefs(tx, [input.assigneeUlid, ...reassigned.map((runCase) => runCase.assigneeId)]);
    const toAssignee = refOf(input.assigneeUlid);
    const changed = reassigned.map((runCase) => caseEntry(run, runCase, { fromAssignee: refOf(runCase.assigneeId), toAssignee }));
    const from = uniform(reassigned, (runCase) => runCase.assigneeId);
    const result = await recordBulkEvent(tx, ctx, run, 'run.cases_bulk_assigned', changed, skipped, {
      ...(from ? { assigneeFrom: refOf(from.assigneeId) } : {}),
      assigneeTo: toAssignee,
    });
    if (reassigned.length > 0) {
      await tx.testRunCase.updateMany({
        where: { id: { in: reassigned.map((runCase) => runCase.id) } },
        data: { assigneeId: input.assigneeUlid, updatedAt: new Date() },
      });
    }
    return result;
  });
}

/**
 * POST /runs/{runUlid}/cases/bulk-retry: the cases and their steps become untested and lose their
 * elapsed time; no result is appended (the history keeps the earlier attempts).
 */
export function bulkRetryRunCases(ctx: RequestContext, runUlid: string, input: BulkCasesInput): Promise<BulkResult> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRunForCases(tx, ctx, runUlid, 'result.execute');
    const { cases, skipped } = await selectCases(tx, ctx, run, input.caseUlids);
    const retried: RunCaseRow[] = [];
    for (const runCase of cases) {
      if (runCase.status === 'untested') skipped.push(caseEntry(run, runCase, { skipped: 'unchanged' }));
      else retried.push(runCase);
    }
    const changed = retried.map((runCase) => caseEntry(run, runCase, { fromStatus: runCase.status, toStatus: 'untested' }));
    const statusFrom = uniform(retried.map((runCase) => runCase.status));
    const result = await recordBulkEvent(tx, ctx, run, 'run.cases_bulk_retried', changed, skipped, {
      ...(statusFrom ? { statusFrom } : {}),
      statusTo: 'untested',
    });
    if (retried.length > 0) {
      const ids = retried.map((runCase) => runCase.id);
      const now = new Date();
      await tx.testRunCase.updateMany({ where: { id: { in: ids } }, data: { status: 'untested', elapsedMs: null, updatedAt: now } });
      await tx.testRunCaseStep.updateMany({
        where: { runCaseId: { in: ids }, status: { not: 'untested' } },
        data: { status: 'untested', updatedAt: now },
      });
      const statusDelta: StatusDelta = {};
      for (const runCase of retried) addTransition(statusDelta, runCase.status as CaseStatus, 'untested');
      await applyRunChange(tx, ctx, run, { statusDelta });
    }
    return result;
  });
}

/**
 * Removes run cases from a run inside the caller's transaction (after lockRun): their steps go
 * with them, their results stay (run_case_id becomes null), the counters shrink, and the run may
 * close itself when every remaining case has an outcome.
 */
export async function removeRunCases(tx: Db, ctx: RequestContext, run: RunOfCaseMutation, removed: Array<{ id: string; status: string }>) {
  if (removed.length === 0) return;
  await tx.testRunCase.deleteMany({ where: { id: { in: removed.map((runCase) => runCase.id) } } });
  const statusDelta: StatusDelta = {};
  for (const runCase of removed) addTransition(statusDelta, runCase.status as CaseStatus, null);
  await applyRunChange(tx, ctx, run, { statusDelta });
}

/** POST /runs/{runUlid}/cases/bulk-remove: the event keeps a snapshot of each case and its status. */
export function bulkRemoveRunCases(ctx: RequestContext, runUlid: string, input: BulkCasesInput): Promise<BulkResult> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRunForCases(tx, ctx, runUlid, 'result.execute');
    const { cases, skipped } = await selectCases(tx, ctx, run, input.caseUlids);
    const changed = cases.map((runCase) => caseEntry(run, runCase, { statusAtRemoval: runCase.status }));
    const result = await recordBulkEvent(tx, ctx, run, 'run.cases_bulk_removed', changed, skipped);
    await removeRunCases(tx, ctx, run, cases);
    return result;
  });
}

/**
 * POST /runs/{runUlid}/results/bulk: every entry appends one result, in order (a case may appear
 * several times; the last entry sets its status). All or nothing: an entry naming no case of the
 * run answers 404, an entry the caller may not mark (assigneeResultLock) 403
 * run_case_assignee_locked, and a machine caller over the monthly ceiling 409; nothing is written.
 */
export function submitRunResults(ctx: RequestContext, runUlid: string, input: SubmitResultsInput) {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRunForCases(tx, ctx, runUlid, 'result.execute');
    const found = await findRunCasesByUlid(
      tx,
      ctx,
      run.id,
      input.results.map((entry) => entry.runCaseUlid ?? entry.caseUlid!),
    );
    const entries = input.results.map((entry, index) => {
      const runCase = found.get(entry.runCaseUlid ?? entry.caseUlid!);
      const key = entry.runCaseUlid ? 'runCaseUlid' : 'caseUlid';
      if (!runCase || (entry.runCaseUlid ? runCase.id !== entry.runCaseUlid : runCase.caseId !== entry.caseUlid)) {
        throw new AppError('not_found', `results.${index}.${key}: no case of the run has this ULID`, { path: ['results', index, key] });
      }
      if (isAssigneeLocked(ctx, run, runCase)) {
        throw new AppError(
          'run_case_assignee_locked',
          `results.${index}: only the assignee of ${caseDisplayIdOf(run, runCase)} may mark it`,
          { path: ['results', index, key] },
        );
      }
      return { runCase, status: entry.status, elapsedMs: entry.elapsedMs, comment: entry.comment };
    });
    return appendResults(tx, ctx, run, entries, { source: 'bulk' });
  });
}

/**
 * An entry of a submit: the result that sets its case's status, after the earlier attempts of its
 * test when a result import brings them (retries).
 */
export type SubmitEntry = MarkEntry & { runCase: RunCaseRow; earlierAttempts?: Array<Omit<MarkEntry, 'runCase'>> };

/** The results of a submit in the order they are appended: each entry's earlier attempts, then the entry. */
const resultsOf = (entries: SubmitEntry[]): MarkEntry[] =>
  entries.flatMap(({ earlierAttempts = [], ...entry }) => [
    ...earlierAttempts.map((attempt) => ({ ...attempt, runCase: entry.runCase })),
    entry,
  ]);

/**
 * Appends the results of every entry, in order, with the one run.cases_bulk_marked event of a
 * submit (bulk submit-result, a result import): the event lists the entries, not their earlier
 * attempts, those that change their case's status first. `summary` adds to the event's summary.
 * Answers the ULIDs of the results appended, in order.
 */
export async function appendResults(
  tx: Db,
  ctx: RequestContext,
  run: RunOfCaseMutation,
  entries: SubmitEntry[],
  options: { source: ResultSource; summary?: Record<string, unknown> },
) {
  const statusNow = new Map<string, string>();
  const changed: CaseEntry[] = [];
  const repeated: CaseEntry[] = [];
  for (const { runCase, status } of entries) {
    const from = statusNow.get(runCase.id) ?? runCase.status;
    statusNow.set(runCase.id, status);
    (from === status ? repeated : changed).push(caseEntry(run, runCase, { fromStatus: from, toStatus: status }));
  }
  const statusFrom = uniform(changed.map((entry) => entry.fromStatus));
  const statusTo = uniform(entries.map((entry) => entry.status));
  const { result, audit } = bulkEvent(
    run,
    'run.cases_bulk_marked',
    changed,
    repeated,
    { ...(statusFrom ? { statusFrom } : {}), ...(statusTo ? { statusTo } : {}), ...options.summary },
    { evenIfUnchanged: true },
  );
  const { outcomes } = await recordResults(tx, ctx, run, resultsOf(entries), { source: options.source, appendUnchanged: true, audit });
  return { ...result, resultUlids: outcomes.map((outcome) => outcome.resultUlid!) };
}
