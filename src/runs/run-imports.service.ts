import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { AppError, notFound } from '../kernel/errors.ts';
import { findRunCasesByUlid } from './internal/run-case-record.ts';
import { isAssigneeLocked } from './internal/run-marking.ts';
import { lockRun } from './run-access.service.ts';
import { appendResults, type SubmitEntry } from './run-bulk.service.ts';
import { caseDisplayIdOf } from './run-events.service.ts';
import { addRunCases } from './run-membership.service.ts';

/** What an import brings for a case from one test: its final result after its earlier attempts; the test names it in a refusal. */
export type ImportedResult = Omit<SubmitEntry, 'runCase'> & { caseId: string; testName: string };

/**
 * Appends an import's results (src/result-imports/) to the open run `runUlid` of the project
 * `projectId` (404 for another project's), inside the import's transaction: the cases the run
 * lacks are added, then the results (every attempt) are appended in the entries' order with the one
 * run.cases_bulk_marked event carrying `summary` (appendResults). A case only its assignee may mark
 * (assigneeResultLock) is 403 run_case_assignee_locked, naming the test.
 */
export async function appendImportedResults(
  tx: Db,
  ctx: RequestContext,
  target: { runUlid: string; projectId: string },
  results: ImportedResult[],
  summary: Record<string, unknown>,
) {
  const locked = await lockRun(tx, ctx, target.runUlid, 'result.execute');
  if (locked.projectId !== target.projectId) throw notFound('Run');
  const caseIds = [...new Set(results.map((result) => result.caseId))];
  const present = await findRunCasesByUlid(tx, ctx, locked.id, caseIds);
  const missing = caseIds.filter((caseId) => !present.has(caseId));
  if (missing.length > 0) await addRunCases(ctx, locked.id, { caseUlids: missing });
  // Adding cases changed the run's counters: read it again.
  const run = missing.length > 0 ? await lockRun(tx, ctx, locked.id, 'result.execute') : locked;
  const runCases = missing.length > 0 ? await findRunCasesByUlid(tx, ctx, run.id, caseIds) : present;
  const entries = results.map(({ caseId, testName, ...mark }) => {
    const runCase = runCases.get(caseId)!;
    if (isAssigneeLocked(ctx, run, runCase)) {
      throw new AppError('run_case_assignee_locked', `Only the assignee of ${caseDisplayIdOf(run, runCase)} may mark it (${testName})`);
    }
    return { ...mark, runCase };
  });
  return appendResults(tx, ctx, run, entries, { source: 'import', summary });
}
