import type { Prisma } from '../../prisma/generated/client/client.ts';
import { authorColumns, toAuthor } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change, changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE, softDelete } from '../foundation/soft-delete.ts';
import type { Db } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { findLiveMilestoneInProject } from '../milestones/milestones.service.ts';
import { allocateNumber } from '../projects/numbering.service.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { pageOfRuns } from '../runs/runs.service.ts';
import { BUCKET_ORDER, type BucketRow, progressBuckets, progressOf, readPlanProgress } from './plan-progress.service.ts';
import type { CreatePlanInput, PlanListQuery, PlanRunsQuery, PlanStatus, UpdatePlanInput } from './plans.schemas.ts';

/** Selection rows whose case is live (not archived): what caseCount, the case list and run seeding see. */
export const LIVE_SELECTION = { testCase: { archivedAt: null } } satisfies Prisma.TestPlanCaseWhereInput;

/** What every plan read loads with the plan row (one statement). */
export const PLAN_INCLUDE = {
  milestone: { select: { id: true, name: true } },
  _count: { select: { cases: { where: LIVE_SELECTION } } },
} satisfies Prisma.TestPlanInclude;

export type PlanRecord = Prisma.TestPlanGetPayload<{ include: typeof PLAN_INCLUDE }>;

export const PLAN_ORDER = [{ planNumber: 'asc' }] satisfies Prisma.TestPlanOrderByWithRelationInput[];

/** The plan object of the list (the detail adds `progress`, see planDetail). */
export const toPlan = (plan: PlanRecord) => ({
  ulid: plan.id,
  projectUlid: plan.projectId,
  planNumber: plan.planNumber,
  name: plan.name,
  description: plan.description,
  author: toAuthor(plan),
  caseCount: plan._count.cases,
  status: plan.status as PlanStatus,
  milestoneUlid: plan.milestoneId,
  milestone: plan.milestone ? { ulid: plan.milestone.id, name: plan.milestone.name } : null,
  createdAt: plan.createdAt.getTime(),
  updatedAt: plan.updatedAt.getTime(),
});

/** The PATCH answer: the plan with its progress. */
export async function planDetail(ctx: RequestContext, plan: PlanRecord) {
  const progress = await readPlanProgress(ctx, [plan.id]);
  return { ...toPlan(plan), progress: progress.get(plan.id)! };
}

type PlanDetailRow = Omit<PlanRecord, 'milestone' | '_count'> & {
  milestoneName: string | null;
  caseCount: number;
  projectLockedAt: Date | null;
  buckets: BucketRow[];
};

/**
 * GET of one plan with its progress, in one typed statement: the plan's milestone, live case
 * count, project lock and progress buckets with it. It applies the tenant client's confinement
 * itself (organization, private projects off the caller's allowlist) and findLivePlan's refusals.
 */
export async function readPlanDetail(ctx: RequestContext, planUlid: string) {
  authorize(ctx, 'project.read');
  const [row] = await queryRaw<PlanDetailRow[]>(
    ctx.db,
    sql`
    SELECT p.id, p.org_id AS "orgId", p.project_id AS "projectId", p.plan_number AS "planNumber", p.name, p.description,
           p.status, p.milestone_id AS "milestoneId", p.excluded_combo_keys AS "excludedComboKeys",
           p.author_kind AS "authorKind", p.author_id AS "authorId", p.author_name AS "authorName",
           p.author_avatar_key AS "authorAvatarKey", p.deleted_at AS "deletedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
           m.name AS "milestoneName", project.locked_at AS "projectLockedAt",
           (SELECT count(*)::int FROM test_plan_cases AS selected JOIN test_cases AS c ON c.id = selected.case_id
            WHERE selected.plan_id = p.id AND c.archived_at IS NULL) AS "caseCount",
           (SELECT coalesce(json_agg(bucket ORDER BY bucket.${BUCKET_ORDER}), '[]'::json)
            FROM (${progressBuckets(ctx.org.id, sql`= p.id`)}) AS bucket) AS buckets
    FROM test_plans AS p
    JOIN projects AS project ON project.id = p.project_id
    LEFT JOIN milestones AS m ON m.id = p.milestone_id
    WHERE p.id = ${planUlid} AND p.org_id = ${ctx.org.id} AND p.deleted_at IS NULL
      AND p.project_id <> ALL(${ctx.hiddenProjectIds}::char(26)[])`,
  );
  if (!row) throw notFound('Plan');
  assertProjectUnlocked({ lockedAt: row.projectLockedAt });
  const { milestoneName, caseCount, projectLockedAt, buckets, ...plan } = row;
  const record: PlanRecord = {
    ...plan,
    milestone: plan.milestoneId === null ? null : { id: plan.milestoneId, name: milestoneName! },
    _count: { cases: caseCount },
  };
  return { ...toPlan(record), progress: progressOf([plan.id], buckets).get(plan.id)! };
}

/** The audit fields of every plan event: entity test_plan, labelled with the plan's name. */
export const planEvent = (plan: { id: string; name: string }) => ({
  entityType: 'test_plan',
  entityUlid: plan.id,
  entityLabel: plan.name,
});

/** A live plan of the active organization by ULID, with its project (locked project: 403 project_locked). */
export async function resolvePlan(ctx: RequestContext, planUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  return findLivePlan(options.db ?? ctx.db, planUlid);
}

/** GET /plans/{planUlid}/runs: the runs generated from a live plan, most recent first. */
export async function listPlanRuns(ctx: RequestContext, planUlid: string, query: PlanRunsQuery) {
  const plan = await resolvePlan(ctx, planUlid);
  return pageOfRuns(ctx, { planId: plan.id }, query);
}

async function findLivePlan(db: Db, planUlid: string) {
  const plan = await db.testPlan.findFirst({
    where: { id: planUlid, ...LIVE },
    include: { ...PLAN_INCLUDE, project: { select: { lockedAt: true } } },
  });
  if (!plan) throw notFound('Plan');
  assertProjectUnlocked(plan.project);
  return plan;
}

/** A plan read again with the selection a GraphQL query needs (Pothos's `query`: includes or selects). */
export async function withSelection(ctx: RequestContext, plan: { id: string }, selection: Omit<Prisma.TestPlanFindUniqueArgs, 'where'>) {
  authorize(ctx, 'project.read');
  return ctx.db.testPlan.findUniqueOrThrow({ ...selection, where: { id: plan.id } });
}

/**
 * The gate of every plan mutation, called first inside its transaction: checks planning.write and
 * takes the plan's row lock, so that concurrent writes to one plan (two selection replaces, say)
 * apply one after the other. FOR NO KEY UPDATE leaves run creation (which references the plan) free.
 */
export async function lockPlan(tx: Db, ctx: RequestContext, planUlid: string) {
  authorize(ctx, 'planning.write');
  await lockRow(tx, 'test_plans', planUlid, { orgId: ctx.org.id, strength: 'no key update' });
  return resolvePlan(ctx, planUlid, { db: tx });
}

/** A change of the plan's selection (cases, assignees, configurations, exclusions) bumps its updatedAt. */
export const touchPlan = (tx: Db, plan: { id: string }) => tx.testPlan.update({ where: { id: plan.id }, data: { updatedAt: new Date() } });

/** One live plan per name and project: the partial unique index test_plans_live_name_key. */
const uniqueName = <T>(name: string | undefined, write: () => Promise<T>) =>
  name === undefined
    ? write()
    : uniqueOrConflict(write, { field: 'name', message: `A live plan named ${name} already exists in this project` });

export async function createPlan(ctx: RequestContext, projectCode: string, input: CreatePlanInput) {
  authorize(ctx, 'planning.write');
  return uniqueName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const project = await resolveProject(ctx, projectCode, { db: tx });
      const planNumber = await allocateNumber(tx, project.id, 'plan');
      const created = await tx.testPlan.create({
        data: {
          id: newId(),
          orgId: ctx.org.id,
          projectId: project.id,
          planNumber,
          name: input.name,
          description: input.description ?? null,
          status: input.status ?? 'draft',
          ...authorColumns(ctx.identity),
        },
        include: PLAN_INCLUDE,
      });
      await emitAudit(tx, ctx, {
        action: 'plan.created',
        ...planEvent(created),
        metadata: { planNumber, name: created.name, status: created.status },
      });
      return created;
    }),
  );
}

const planSearch = (projectId: string, q: string | undefined): Prisma.TestPlanWhereInput => ({
  projectId,
  ...LIVE,
  ...(q ? { name: { contains: likeLiteral(q), mode: 'insensitive' } } : {}),
});

/** Live plans of a project by planNumber; `q` matches the name case-insensitively. */
export async function listPlans(ctx: RequestContext, projectCode: string, query: PlanListQuery) {
  const project = await resolveProject(ctx, projectCode);
  const where = planSearch(project.id, query.q);
  const [items, total] = await Promise.all([
    ctx.db.testPlan.findMany({ where, orderBy: PLAN_ORDER, include: PLAN_INCLUDE, ...pageWindow(query) }),
    ctx.db.testPlan.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** Plans for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findPlans(
  ctx: RequestContext,
  project: Pick<ProjectRow, 'id' | 'lockedAt'>,
  q: string | undefined,
  window: Prisma.TestPlanFindManyArgs,
) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  return ctx.db.testPlan.findMany({ ...window, where: planSearch(project.id, q), orderBy: PLAN_ORDER });
}

export async function countPlans(ctx: RequestContext, project: Pick<ProjectRow, 'id' | 'lockedAt'>, q: string | undefined) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  return ctx.db.testPlan.count({ where: planSearch(project.id, q) });
}

type LabelledChange = Change & { fromLabel?: string | null; toLabel?: string | null };

/**
 * Changes name, description, status and milestone together with one plan.updated event. A PATCH
 * that changes nothing (a status equal to the current one included) answers the plan as it is and
 * records nothing; an unresolved milestone (unknown, deleted, another project's) is 404 and
 * changes nothing.
 */
export async function updatePlan(ctx: RequestContext, planUlid: string, input: UpdatePlanInput) {
  authorize(ctx, 'planning.write');
  return uniqueName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const before = await lockPlan(tx, ctx, planUlid);
      const changes: LabelledChange[] = changesBetween(
        { name: before.name, description: before.description, status: before.status },
        { name: input.name, description: input.description, status: input.status },
      );
      if (input.milestoneId !== undefined && input.milestoneId !== before.milestoneId) {
        const to = input.milestoneId ? await findLiveMilestoneInProject(tx, before.projectId, input.milestoneId) : null;
        changes.push({
          ...change('milestoneUlid', before.milestoneId, input.milestoneId),
          fromLabel: before.milestone?.name ?? null,
          toLabel: to?.name ?? null,
        });
      }
      if (changes.length === 0) return before;
      const updated = await tx.testPlan.update({
        where: { id: before.id },
        data: {
          name: input.name,
          description: input.description,
          status: input.status,
          milestoneId: input.milestoneId,
          updatedAt: new Date(),
        },
        include: PLAN_INCLUDE,
      });
      await emitAudit(tx, ctx, { action: 'plan.updated', ...planEvent(updated), metadata: { changes } });
      return updated;
    }),
  );
}

/** Soft delete: the plan stops being live (404 from then on), its name is free, its runs stay. */
export async function deletePlan(ctx: RequestContext, planUlid: string): Promise<void> {
  authorize(ctx, 'planning.write');
  await inTransaction(ctx.db, async (tx) => {
    const plan = await lockPlan(tx, ctx, planUlid);
    await softDelete(
      tx,
      ctx,
      { table: 'test_plans', id: plan.id, what: 'Plan' },
      {
        action: 'plan.deleted',
        ...planEvent(plan),
        metadata: { planNumber: plan.planNumber, name: plan.name },
      },
    );
  });
}
