import { emitAudit } from '../../audit/audit.service.ts';
import type { RequestContext } from '../../context.ts';
import type { Db, Prisma } from '../../database/client.ts';
import { runAggregates, runEvent } from './run-events.ts';
import { runTotal } from '../runs.schemas.ts';
import { COUNTER_OF, type StatusDelta } from './run-status.ts';

type TestRunRow = Awaited<ReturnType<Db['testRun']['findFirstOrThrow']>>;

/** What the change needs to know of the run: a locked run, or one created in this transaction. */
type RunForChange = Pick<TestRunRow, 'id' | 'name' | 'firstResultAt' | 'lastResultAt'>;

/** Results appended in one transaction: how many, their summed elapsedMs, and when. */
export type AppendedResults = { count: number; durationMs: number; at: Date };

/**
 * Applies a mutation's effect to the run's counters, inside the mutation's transaction and under
 * the run lock taken by lockRun (or on a run created in the same transaction): case counts per status move by `statusDelta`; appended results
 * add their duration and advance first/lastResultAt. Then closes the run automatically when it
 * is open, has cases, and every case carries an outcome (run.closed with `automatic: true`).
 * Returns the run as it now is.
 */
export async function applyRunChange<R extends RunForChange>(
  tx: Db,
  ctx: RequestContext,
  run: R,
  change: { statusDelta?: StatusDelta; results?: AppendedResults },
): Promise<R & TestRunRow> {
  const data: Prisma.TestRunUpdateInput = { updatedAt: new Date() };
  for (const [status, delta] of Object.entries(change.statusDelta ?? {})) {
    if (delta) data[COUNTER_OF[status as keyof typeof COUNTER_OF]] = { increment: delta };
  }
  const results = change.results;
  if (results && results.count > 0) {
    data.totalDurationMs = { increment: BigInt(results.durationMs) };
    data.firstResultAt = run.firstResultAt ?? results.at;
    data.lastResultAt = run.lastResultAt && run.lastResultAt > results.at ? run.lastResultAt : results.at;
  }
  let updated = { ...run, ...(await tx.testRun.update({ where: { id: run.id }, data })) };
  if (updated.state === 'open' && runTotal(updated) > 0 && updated.countUntested + updated.countRetested === 0) {
    updated = { ...updated, ...(await tx.testRun.update({ where: { id: run.id }, data: { state: 'closed', closedAt: new Date() } })) };
    await emitAudit(tx, ctx, {
      action: 'run.closed',
      ...runEvent(run),
      metadata: { runAggregates: runAggregates(updated), automatic: true },
    });
  }
  return updated;
}
