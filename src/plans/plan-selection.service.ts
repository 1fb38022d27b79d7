import { assertMembers, userRefs } from '../actors.ts';
import { emitAudit } from '../audit/audit.service.ts';
import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import type { Db, Prisma } from '../database/client.ts';
import { notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import type { AssignPlanCaseInput, SetPlanCasesInput } from './plans.schemas.ts';
import { LIVE_SELECTION, lockPlan, planEvent, resolvePlan, touchPlan } from './plans.service.ts';
import { inTransaction } from '../database/transactions.ts';

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

type KeptRow = { id: string; position: number; assigneeId: string | null };

/** Sets position and assignee of kept selection rows in one statement (a selection holds up to 5000). */
async function updateKeptRows(tx: Db, ctx: RequestContext, rows: KeptRow[]) {
  if (rows.length === 0) return;
  // Raw SQL for a multi-row UPDATE; it names org_id itself.
  await tx.$executeRaw`
    UPDATE test_plan_cases AS row SET position = next.position, assignee_id = next.assignee_id
    FROM unnest(${rows.map((each) => each.id)}::char(26)[], ${rows.map((each) => each.position)}::int[],
                ${rows.map((each) => each.assigneeId)}::char(26)[]) AS next(id, position, assignee_id)
    WHERE row.id = next.id AND row.org_id = ${ctx.org.id}`;
}

const sameOrder = (a: string[], b: string[]) => a.length === b.length && a.every((each, index) => each === b[index]);

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
    await assertMembers(tx, [...assigneeOf.values()].filter((id): id is string => id !== null));
    const live = await tx.testCase.count({ where: { id: { in: input.caseUlids }, projectId: plan.projectId, archivedAt: null } });
    if (live !== input.caseUlids.length) throw notFound('Test case');

    // Rows of archived cases are not part of the selection a client sees; they stay as they are.
    const current = await tx.testPlanCase.findMany({ where: { planId: plan.id, ...LIVE_SELECTION }, orderBy: SELECTION_QUERY.orderBy });
    const currentOf = new Map(current.map((row) => [row.caseId, row]));
    const added: Prisma.TestPlanCaseCreateManyInput[] = [];
    const kept: KeptRow[] = [];
    let reassigned = 0;
    input.caseUlids.forEach((caseId, position) => {
      const assigneeId = assigneeOf.get(caseId) ?? null;
      const row = currentOf.get(caseId);
      if (!row) added.push({ id: newId(), orgId: ctx.org.id, planId: plan.id, caseId, position, assigneeId });
      else if (row.position !== position || row.assigneeId !== assigneeId) {
        kept.push({ id: row.id, position, assigneeId });
        if (row.assigneeId !== assigneeId) reassigned += 1;
      }
    });
    const removed = current.filter((row) => !listed.has(row.caseId));
    if (added.length + kept.length + removed.length === 0) return selectionOf(tx, plan);

    if (removed.length > 0) await tx.testPlanCase.deleteMany({ where: { id: { in: removed.map((row) => row.id) } } });
    await updateKeptRows(tx, ctx, kept);
    if (added.length > 0) await tx.testPlanCase.createMany({ data: added });
    await touchPlan(tx, plan);
    const keptBefore = current.filter((row) => listed.has(row.caseId)).map((row) => row.caseId);
    const keptAfter = input.caseUlids.filter((caseId) => currentOf.has(caseId));
    await emitAudit(tx, ctx, {
      action: 'plan.cases_replaced',
      ...planEvent(plan),
      metadata: {
        added: added.length,
        removed: removed.length,
        reassigned,
        reordered: !sameOrder(keptBefore, keptAfter),
        total: input.caseUlids.length,
      },
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
    const updated = await tx.testPlanCase.update({ where: { id: row.id }, data: { assigneeId: input.assigneeUlid }, include: PLAN_CASE_INCLUDE });
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
