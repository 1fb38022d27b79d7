import { emitAudit } from '../foundation/audit/audit.service.ts';
import { change } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRows } from '../kernel/database/locks.ts';
import { executeRaw, queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict } from '../kernel/errors.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { resolveProject } from '../projects/projects.service.ts';
import type { MergeTestCasesInput } from './test-cases.schemas.ts';
import { auditOf, type CaseRecord, caseNotFound, keyUniqueOrConflict, readRecord, writeArchived } from './test-cases.service.ts';

/**
 * Run cases of the sources re-pointed to the target, one per run: a run that already holds the
 * target (or two sources) keeps the others on their archived source, as (run, case) is unique.
 */
async function moveRunCases(tx: Db, orgId: string, targetId: string, sourceIds: string[]): Promise<number> {
  return executeRaw(
    tx,
    sql`
    UPDATE test_run_cases SET case_id = ${targetId}
    WHERE org_id = ${orgId} AND id IN (
      SELECT DISTINCT ON (run_id) id FROM test_run_cases
      WHERE org_id = ${orgId} AND case_id = ANY(${sourceIds}::char(26)[])
        AND run_id NOT IN (SELECT run_id FROM test_run_cases WHERE org_id = ${orgId} AND case_id = ${targetId})
      ORDER BY run_id, id
    )`,
  );
}

/** Plan selections of the sources moved to the target, one per plan; a plan's other rows of them are dropped. */
async function movePlanCases(tx: Db, orgId: string, targetId: string, sourceIds: string[]) {
  const [counts] = await queryRaw<Array<{ moved: number; dropped: number }>>(
    tx,
    sql`
    WITH keep AS (
      SELECT DISTINCT ON (plan_id) id FROM test_plan_cases
      WHERE org_id = ${orgId} AND case_id = ANY(${sourceIds}::char(26)[])
        AND plan_id NOT IN (SELECT plan_id FROM test_plan_cases WHERE org_id = ${orgId} AND case_id = ${targetId})
      ORDER BY plan_id, position, id
    ), dropped AS (
      DELETE FROM test_plan_cases
      WHERE org_id = ${orgId} AND case_id = ANY(${sourceIds}::char(26)[]) AND id NOT IN (SELECT id FROM keep)
      RETURNING id
    ), moved AS (
      UPDATE test_plan_cases SET case_id = ${targetId} WHERE id IN (SELECT id FROM keep) RETURNING id
    )
    SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM dropped)::int AS dropped`,
  );
  return counts!;
}

/**
 * Folds duplicate cases into one in one transaction: the sources' results, run cases and plan
 * selections move to the target, the sources are archived (each with its `test_case.archived`)
 * and release their automation keys; a target without a key takes the first source's that has
 * one. Comments, steps and field values stay on the sources. One `test_case.merged` on the target.
 */
export async function mergeTestCases(ctx: RequestContext, projectCode: string, input: MergeTestCasesInput): Promise<CaseRecord> {
  authorize(ctx, 'case.write');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    const orgId = ctx.org.id;
    const ids = [input.targetUlid, ...input.sourceUlids];
    // The runs first, as everywhere (the run, then what it holds): a mark holds its run's key share
    // until it commits (lockRunCase) and its result takes a key share of its case, so locking the
    // cases first would deadlock with it. Adding run cases holds the cases' locks, so only a run
    // that took a source between the first read and the case locks is locked after them.
    const holdingRuns = () =>
      tx.testRunCase
        .findMany({ where: { caseId: { in: input.sourceUlids } }, select: { runId: true }, distinct: ['runId'] })
        .then((rows) => rows.map((row) => row.runId));
    const lockedRuns = await holdingRuns();
    await lockRows(tx, 'test_runs', lockedRuns, { orgId, strength: 'update' });
    await lockRows(tx, 'test_cases', ids, { orgId });
    const addedRuns = (await holdingRuns()).filter((runId) => !lockedRuns.includes(runId));
    await lockRows(tx, 'test_runs', addedRuns, { orgId, strength: 'update' });
    const found = await tx.testCase.findMany({ where: { id: { in: ids }, projectId: project.id } });
    if (found.length !== ids.length) throw caseNotFound();
    const byId = new Map(found.map((testCase) => [testCase.id, testCase]));
    const target = byId.get(input.targetUlid)!;
    const sources = input.sourceUlids.map((id) => byId.get(id)!);
    if (target.archivedAt) throw conflict('The target case is archived; restore it first', { path: ['targetUlid'] });

    // Replacing plan selections holds these rows' locks: none interleaves.
    const selections = await tx.testPlanCase.findMany({
      where: { caseId: { in: input.sourceUlids } },
      select: { planId: true },
      distinct: ['planId'],
    });
    await lockRows(
      tx,
      'test_plans',
      selections.map((row) => row.planId),
      { orgId, strength: 'no key update' },
    );

    const movedResults = (await tx.testRunResult.updateMany({ where: { caseId: { in: input.sourceUlids } }, data: { caseId: target.id } }))
      .count;
    const movedRunCases = await moveRunCases(tx, orgId, target.id, input.sourceUlids);
    const planCases = await movePlanCases(tx, orgId, target.id, input.sourceUlids);

    const inheritedKey =
      target.automationKey === null ? (sources.find((source) => source.automationKey !== null)?.automationKey ?? null) : null;
    await tx.testCase.updateMany({ where: { id: { in: input.sourceUlids }, automationKey: { not: null } }, data: { automationKey: null } });
    for (const source of sources) await writeArchived(tx, ctx, source, true);
    await keyUniqueOrConflict(() =>
      tx.testCase.update({
        where: { id: target.id },
        data: { ...(inheritedKey !== null ? { automationKey: inheritedKey } : {}), updatedAt: new Date() },
      }),
    );

    const record = await readRecord(tx, target.id);
    await emitAudit(tx, ctx, {
      action: 'test_case.merged',
      ...auditOf(record),
      metadata: {
        sourceUlids: input.sourceUlids,
        sourceDisplayIds: sources.map((source) => caseDisplayId(project.code, source.caseNumber)),
        movedResults,
        movedRunCases,
        movedPlanCases: planCases.moved,
        droppedPlanCases: planCases.dropped,
        ...(inheritedKey !== null ? { changes: [change('automationKey', null, inheritedKey)] } : {}),
      },
    });
    return record;
  });
}
