import { assertMembers, userRefs } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import type { AssignPlanCaseInput, SetPlanCasesInput } from './plans.schemas.ts';
import { LIVE_SELECTION, lockPlan, planEvent, resolvePlan, touchPlan } from './plans.service.ts';

const PLAN_CASE_INCLUDE = {
  testCase: { select: { caseNumber: true, title: true, suite: { select: { name: true } }, project: { select: { code: true } } } },
} satisfies Prisma.TestPlanCaseInclude;

type PlanCaseRecord = Prisma.TestPlanCaseGetPayload<{ include: typeof PLAN_CASE_INCLUDE }>;

/** The selection's live cases in plan order (an archived case keeps its row but is left out). */
export const SELECTION_QUERY = {
  where: LIVE_SELECTION,
  orderBy: [{ position: 'asc' }, { id: 'asc' }],
} satisfies Prisma.TestPlanCaseFindManyArgs;

export const toPlanCase = (row: PlanCaseRecord) => ({
  ulid: row.id,
  caseUlid: row.caseId,
  displayId: caseDisplayId(row.testCase.project.code, row.testCase.caseNumber),
  title: row.testCase.title,
  suiteName: row.testCase.suite?.name ?? null,
  position: row.position,
  assigneeUlid: row.assigneeId,
});

const selectionOf = (db: Db, plan: { id: string }) =>
  db.testPlanCase.findMany({ ...SELECTION_QUERY, where: { ...SELECTION_QUERY.where, planId: plan.id }, include: PLAN_CASE_INCLUDE });

/** GET /plans/{planUlid}/cases: the selection items by position. */
export async function listPlanCases(ctx: RequestContext, planUlid: string) {
  const plan = await resolvePlan(ctx, planUlid);
  return selectionOf(ctx.db, plan);
}

/** What a replace of the selection changed. */
type SelectionChange = { added: number; removed: number; updated: number; reassigned: number; reordered: boolean };

/**
 * Makes the live selection of a plan `caseIds` in this order (positions 0..n-1), each with its
 * assignee, in one set-based statement: a case that stays keeps its row (updated only when its
 * position or assignee moves), removed rows are deleted, new ones inserted. Rows of archived cases
 * are not part of the selection a client sees; they stay as they are.
 */
async function replaceSelection(tx: Db, ctx: RequestContext, planId: string, caseIds: string[], assigneeOf: Map<string, string | null>) {
  const orgId = ctx.org.id;
  const [change] = await queryRaw<[SelectionChange]>(
    tx,
    sql`
    WITH wanted AS (
      SELECT entry.case_id, (entry.ord - 1)::int AS position, asked.assignee_id
      FROM unnest(${caseIds}::char(26)[]) WITH ORDINALITY AS entry(case_id, ord)
      LEFT JOIN unnest(${[...assigneeOf.keys()]}::char(26)[], ${[...assigneeOf.values()]}::char(26)[]) AS asked(case_id, assignee_id)
        ON asked.case_id = entry.case_id
    ),
    current AS (
      SELECT row.id, row.case_id, row.position, row.assignee_id
      FROM test_plan_cases AS row JOIN test_cases AS live ON live.id = row.case_id AND live.archived_at IS NULL
      WHERE row.plan_id = ${planId} AND row.org_id = ${orgId}
    ),
    kept AS (
      SELECT current.id, wanted.position, wanted.assignee_id, current.assignee_id IS DISTINCT FROM wanted.assignee_id AS reassigned,
             current.position <> wanted.position OR current.assignee_id IS DISTINCT FROM wanted.assignee_id AS changed,
             row_number() OVER (ORDER BY current.position, current.id) AS rank_before,
             row_number() OVER (ORDER BY wanted.position) AS rank_after
      FROM current JOIN wanted ON wanted.case_id = current.case_id
    ),
    removed AS (
      DELETE FROM test_plan_cases AS row USING current
      WHERE row.id = current.id AND current.case_id <> ALL(${caseIds}::char(26)[])
      RETURNING 1
    ),
    updated AS (
      UPDATE test_plan_cases AS row SET position = kept.position, assignee_id = kept.assignee_id
      FROM kept WHERE row.id = kept.id AND kept.changed
      RETURNING kept.reassigned
    ),
    added AS (
      INSERT INTO test_plan_cases (id, org_id, plan_id, case_id, position, assignee_id)
      SELECT tcms_ulid(), ${orgId}, ${planId}, wanted.case_id, wanted.position, wanted.assignee_id
      FROM wanted WHERE NOT EXISTS (SELECT 1 FROM current WHERE current.case_id = wanted.case_id)
      ON CONFLICT (plan_id, case_id) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM removed)::int AS removed,
           (SELECT count(*) FROM updated)::int AS updated, (SELECT count(*) FROM updated WHERE reassigned)::int AS reassigned,
           EXISTS (SELECT 1 FROM kept WHERE rank_before <> rank_after) AS reordered`,
  );
  return change;
}

/**
 * PUT /plans/{planUlid}/cases: the selection becomes `caseUlids` in this order (positions 0..n-1),
 * each with its `caseAssignees` entry or unassigned. Every case must be live in the plan's project
 * and every assignee an organization member (404), checked before anything changes. A case that
 * stays keeps its selection row (and ULID); removed rows are deleted, new ones inserted. A replace
 * that changes nothing records nothing; otherwise one plan.cases_replaced event.
 */
export async function setPlanCases(ctx: RequestContext, planUlid: string, input: SetPlanCasesInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const plan = await lockPlan(tx, ctx, planUlid);
    const listed = new Set(input.caseUlids);
    const assigneeOf = new Map(
      (input.caseAssignees ?? []).filter((entry) => listed.has(entry.caseUlid)).map((entry) => [entry.caseUlid, entry.assigneeUlid]),
    );
    await assertMembers(
      tx,
      [...assigneeOf.values()].filter((id): id is string => id !== null),
    );
    const [{ live }] = await queryRaw<[{ live: number }]>(
      tx,
      sql`
      SELECT count(*)::int AS live FROM test_cases
      WHERE id = ANY(${input.caseUlids}::char(26)[]) AND org_id = ${ctx.org.id} AND project_id = ${plan.projectId} AND archived_at IS NULL`,
    );
    if (live !== input.caseUlids.length) throw notFound('Test case');

    const { added, removed, updated, reassigned, reordered } = await replaceSelection(tx, ctx, plan.id, input.caseUlids, assigneeOf);
    if (added + removed + updated === 0) return selectionOf(tx, plan);
    await touchPlan(tx, plan);
    await emitAudit(tx, ctx, {
      action: 'plan.cases_replaced',
      ...planEvent(plan),
      metadata: { added, removed, reassigned, reordered, total: input.caseUlids.length },
    });
    return selectionOf(tx, plan);
  });
}

/**
 * PATCH /plans/{planUlid}/cases/{planCaseUlid}: the assignee runs generated from now on start with
 * (runs already generated keep theirs). The same assignee again answers 200 and records nothing.
 */
export async function assignPlanCase(ctx: RequestContext, planUlid: string, planCaseUlid: string, input: AssignPlanCaseInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const plan = await lockPlan(tx, ctx, planUlid);
    const row = await tx.testPlanCase.findFirst({
      where: { id: planCaseUlid, planId: plan.id, ...LIVE_SELECTION },
      include: PLAN_CASE_INCLUDE,
    });
    if (!row) throw notFound('Plan case');
    if (input.assigneeUlid) await assertMembers(tx, [input.assigneeUlid]);
    if (row.assigneeId === input.assigneeUlid) return row;
    const updated = await tx.testPlanCase.update({
      where: { id: row.id },
      data: { assigneeId: input.assigneeUlid },
      include: PLAN_CASE_INCLUDE,
    });
    await touchPlan(tx, plan);
    const item = toPlanCase(updated);
    const refOf = await userRefs(tx, [row.assigneeId, input.assigneeUlid]);
    await emitAudit(tx, ctx, {
      action: 'plan.case_assigned',
      ...planEvent(plan),
      metadata: {
        planCaseUlid: item.ulid,
        caseUlid: item.caseUlid,
        caseDisplayId: item.displayId,
        assigneeChange: { from: refOf(row.assigneeId), to: refOf(input.assigneeUlid) },
      },
    });
    return updated;
  });
}
