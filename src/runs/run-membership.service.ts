import { assertMembers, membersAmong, userRefs } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE } from '../foundation/soft-delete.ts';
import type { Db } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict } from '../kernel/errors.ts';
import { RUN_CASE_INCLUDE, type RunCaseRecord } from './internal/run-case-record.ts';
import { RUN_INCLUDE, type RunRecord } from './internal/run-record.ts';
import { snapshotCases } from './internal/run-snapshot.ts';
import { type LockedRun, lockRun } from './run-access.service.ts';
import type { AddRunCasesInput } from './run-bulk.schemas.ts';
import { removeRunCases } from './run-bulk.service.ts';
import { AUDIT_CASE_ENTRIES_MAX, caseEntry, caseSnapshot, listedEntries, runCaseEvent, runEvent } from './run-events.service.ts';

/** A case to add to a run, with the assignee it starts with. */
type CaseSeed = { caseId: string; assigneeId: string | null };

/** The position after the run's last case (0 for an empty run). */
async function nextPosition(tx: Db, runId: string): Promise<number> {
  const { _max } = await tx.testRunCase.aggregate({ where: { runId }, _max: { position: true } });
  return (_max.position ?? -1) + 1;
}

/** The run's default assignee while they are a member, else null. */
async function defaultAssigneeOf(tx: Db, run: LockedRun): Promise<string | null> {
  const id = run.defaultAssigneeId;
  return id && (await membersAmong(tx, [id])).has(id) ? id : null;
}

/**
 * Snapshots `seeds` after the run's last case and records run.case_added (the first 20 cases,
 * omittedCount for the rest); nothing when there is nothing to add.
 */
async function appendCases(
  tx: Db,
  ctx: RequestContext,
  run: LockedRun,
  seeds: CaseSeed[],
  metadata: Record<string, unknown> = {},
): Promise<number> {
  if (seeds.length === 0) return 0;
  const firstPosition = await nextPosition(tx, run.id);
  const { count } = await snapshotCases(
    tx,
    ctx,
    run,
    {
      caseIds: seeds.map((seed) => seed.caseId),
      planId: null,
      requested: new Map(seeds.map((seed) => [seed.caseId, seed.assigneeId])),
      defaultAssigneeId: null,
    },
    firstPosition,
  );
  const listed = await tx.testRunCase.findMany({
    where: { runId: run.id, position: { gte: firstPosition } },
    orderBy: { position: 'asc' },
    take: AUDIT_CASE_ENTRIES_MAX,
  });
  await emitAudit(tx, ctx, {
    action: 'run.case_added',
    ...runEvent(run),
    metadata: {
      added: count,
      ...listedEntries(
        listed.map((runCase) => caseEntry(run, runCase)),
        count,
      ),
      ...metadata,
    },
  });
  return count;
}

/**
 * POST /runs/{runUlid}/cases: snapshots live cases of the run's project after its last case
 * (404 for any other, nothing added); cases already in the run are skipped. The added cases go to
 * `assigneeUlid` (a member; null: unassigned), without it to the run's default assignee.
 * Returns the run case of every listed case, in request order, and how many were added.
 */
export function addRunCases(
  ctx: RequestContext,
  runUlid: string,
  input: AddRunCasesInput,
): Promise<{ items: RunCaseRecord[]; added: number; projectCode: string }> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute');
    if (input.assigneeUlid) await assertMembers(tx, [input.assigneeUlid]);
    const present = await tx.testRunCase.findMany({ where: { runId: run.id, caseId: { in: input.caseUlids } }, select: { caseId: true } });
    const inRun = new Set(present.map((row) => row.caseId));
    const assigneeId = input.assigneeUlid !== undefined ? input.assigneeUlid : await defaultAssigneeOf(tx, run);
    const seeds = input.caseUlids.filter((caseId) => !inRun.has(caseId)).map((caseId) => ({ caseId, assigneeId }));
    const added = await appendCases(tx, ctx, run, seeds);
    const listed = await tx.testRunCase.findMany({ where: { runId: run.id, caseId: { in: input.caseUlids } }, include: RUN_CASE_INCLUDE });
    const byCase = new Map(listed.map((runCase) => [runCase.caseId, runCase]));
    return { items: input.caseUlids.map((ulid) => byCase.get(ulid)!), added, projectCode: run.project.code };
  });
}

/**
 * POST /runs/{runUlid}/reconcile (contract §3), for runs generated from a plan (409 otherwise,
 * and for a plan since deleted): brings the run in line with the plan's current live selection.
 * - Cases newly selected are added after the last case, assigned as at creation: the plan's
 *   stored assignee (null once they left), else the run's default assignee.
 * - Untested cases no longer selected are removed, unless they ever had a result.
 * - Cases not yet executed (untested or retested) whose plan entry names a member as assignee
 *   are assigned to that member (run.case_assigned, `via: reconcile`); a plan entry without an
 *   assignee leaves the case's assignee as it is.
 * Removal comes last, so an automatic close sees the final set of cases.
 */
export function reconcileRun(
  ctx: RequestContext,
  runUlid: string,
): Promise<{ added: number; removed: number; reassigned: number; run: RunRecord }> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute');
    if (!run.planId) throw conflict('Only runs generated from a plan can be reconciled');
    const plan = await tx.testPlan.findFirst({
      where: { id: run.planId, ...LIVE },
      include: { cases: { where: { testCase: { archivedAt: null } }, orderBy: [{ position: 'asc' }, { id: 'asc' }] } },
    });
    if (!plan) throw conflict('The plan this run was generated from was deleted');
    const members = await membersAmong(
      tx,
      plan.cases.map((each) => each.assigneeId),
    );
    const planned = new Map(
      plan.cases.map((each) => [each.caseId, each.assigneeId && members.has(each.assigneeId) ? each.assigneeId : null]),
    );
    const runCases = await tx.testRunCase.findMany({
      where: { runId: run.id },
      select: {
        id: true,
        caseId: true,
        caseNumber: true,
        title: true,
        status: true,
        assigneeId: true,
        _count: { select: { results: true } },
      },
    });

    const selected = (caseId: string | null) => caseId !== null && planned.has(caseId);
    const removed = runCases.filter(
      (runCase) => runCase.status === 'untested' && runCase._count.results === 0 && !selected(runCase.caseId),
    );
    const reassigned = runCases.flatMap((runCase) => {
      const assigneeId = runCase.caseId === null ? null : (planned.get(runCase.caseId) ?? null);
      const pending = runCase.status === 'untested' || runCase.status === 'retested';
      return pending && assigneeId !== null && assigneeId !== runCase.assigneeId ? [{ runCase, assigneeId }] : [];
    });
    const inRun = new Set(runCases.map((runCase) => runCase.caseId));
    const defaultAssigneeId = await defaultAssigneeOf(tx, run);
    const seeds = plan.cases
      .filter((each) => !inRun.has(each.caseId))
      .map((each) => ({ caseId: each.caseId, assigneeId: each.assigneeId ? (planned.get(each.caseId) ?? null) : defaultAssigneeId }));

    const refOf = await userRefs(
      tx,
      reassigned.flatMap(({ runCase, assigneeId }) => [runCase.assigneeId, assigneeId]),
    );
    for (const { runCase, assigneeId } of reassigned) {
      await tx.testRunCase.update({ where: { id: runCase.id }, data: { assigneeId, updatedAt: new Date() } });
      await emitAudit(tx, ctx, {
        action: 'run.case_assigned',
        ...runCaseEvent(run, runCase),
        metadata: {
          ...caseSnapshot(run, runCase),
          assigneeChange: { from: refOf(runCase.assigneeId), to: refOf(assigneeId), via: 'reconcile' },
        },
      });
    }
    const added = await appendCases(tx, ctx, run, seeds, { via: 'reconcile' });
    for (const runCase of removed) {
      await emitAudit(tx, ctx, {
        action: 'run.case_removed',
        ...runCaseEvent(run, runCase),
        metadata: { ...caseSnapshot(run, runCase), statusAtRemoval: runCase.status, via: 'reconcile' },
      });
    }
    await removeRunCases(tx, ctx, run, removed);
    return {
      added,
      removed: removed.length,
      reassigned: reassigned.length,
      run: await tx.testRun.findUniqueOrThrow({ where: { id: run.id }, include: RUN_INCLUDE }),
    };
  });
}
