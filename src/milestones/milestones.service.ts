import { emitAudit } from '../foundation/audit/audit.service.ts';
import { changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE, softDelete } from '../foundation/soft-delete.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { epochMsOrNull, newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { assertProjectUnlocked, resolveProject } from '../projects/projects.service.ts';
import type { CreateMilestoneInput, MilestoneListQuery, UpdateMilestoneInput } from './milestones.schemas.ts';

type MilestoneRow = Awaited<ReturnType<Db['milestone']['findFirstOrThrow']>>;

export const toMilestone = (row: MilestoneRow) => ({
  ulid: row.id,
  projectUlid: row.projectId,
  name: row.name,
  description: row.description,
  dueAt: epochMsOrNull(row.dueAt),
  completedAt: epochMsOrNull(row.completedAt),
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

const toDate = (ms: number | null | undefined) => (ms === undefined ? undefined : ms === null ? null : new Date(ms));

/** Milestones oldest first. */
export const MILESTONE_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.MilestoneOrderByWithRelationInput[];

/**
 * A live milestone of the active organization by ULID, with its project; a soft-deleted one is
 * not found, and a locked project answers 403 project_locked.
 */
export async function resolveMilestone(ctx: RequestContext, milestoneUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  const milestone = await (options.db ?? ctx.db).milestone.findFirst({
    where: { id: milestoneUlid, ...LIVE },
    include: { project: true },
  });
  if (!milestone) throw notFound('Milestone');
  assertProjectUnlocked(milestone.project);
  return milestone;
}

/** A live milestone of the project, or 404: how other modules validate a `milestoneUlid` they take. */
export async function findLiveMilestoneInProject(db: Db, projectId: string, milestoneUlid: string): Promise<MilestoneRow> {
  const milestone = await db.milestone.findFirst({ where: { id: milestoneUlid, projectId, ...LIVE } });
  if (!milestone) throw notFound('Milestone');
  return milestone;
}

const milestoneEvent = (milestone: MilestoneRow) => ({
  entityType: 'milestone',
  entityUlid: milestone.id,
  entityLabel: milestone.name,
});

export async function createMilestone(ctx: RequestContext, projectCode: string, input: CreateMilestoneInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    const created = await tx.milestone.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: project.id,
        name: input.name,
        description: input.description ?? null,
        dueAt: toDate(input.dueAt) ?? null,
      },
    });
    await emitAudit(tx, ctx, {
      action: 'milestone.created',
      ...milestoneEvent(created),
      metadata: { name: created.name, dueAt: epochMsOrNull(created.dueAt) },
    });
    return created;
  });
}

const milestoneSearch = (projectId: string, q: string | undefined): Prisma.MilestoneWhereInput => ({
  projectId,
  ...LIVE,
  ...(q ? { name: { contains: likeLiteral(q), mode: 'insensitive' } } : {}),
});

/** Live milestones of a project, oldest first; `q` matches the name case-insensitively. */
export async function listMilestones(ctx: RequestContext, projectCode: string, query: MilestoneListQuery) {
  const project = await resolveProject(ctx, projectCode);
  const where = milestoneSearch(project.id, query.q);
  const [items, total] = await Promise.all([
    ctx.db.milestone.findMany({ where, orderBy: MILESTONE_ORDER, ...pageWindow(query) }),
    ctx.db.milestone.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** Milestones for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findMilestones(
  ctx: RequestContext,
  project: { id: string },
  q: string | undefined,
  window: Prisma.MilestoneFindManyArgs,
) {
  authorize(ctx, 'project.read');
  return ctx.db.milestone.findMany({ ...window, where: milestoneSearch(project.id, q), orderBy: MILESTONE_ORDER });
}

export async function countMilestones(ctx: RequestContext, project: { id: string }, q: string | undefined) {
  authorize(ctx, 'project.read');
  return ctx.db.milestone.count({ where: milestoneSearch(project.id, q) });
}

/** A PATCH with unchanged values answers the milestone as it is and records nothing. */
export async function updateMilestone(ctx: RequestContext, milestoneUlid: string, input: UpdateMilestoneInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const before = await resolveMilestone(ctx, milestoneUlid, { db: tx });
    const changes = changesBetween(toMilestone(before), input);
    if (changes.length === 0) return before;
    const updated = await tx.milestone.update({
      where: { id: before.id },
      data: {
        name: input.name,
        description: input.description,
        dueAt: toDate(input.dueAt),
        completedAt: toDate(input.completedAt),
        updatedAt: new Date(),
      },
    });
    await emitAudit(tx, ctx, { action: 'milestone.updated', ...milestoneEvent(updated), metadata: { changes } });
    return updated;
  });
}

/** Soft delete: the milestone stops being live (404 from then on); cases keep their reference. */
export async function deleteMilestone(ctx: RequestContext, milestoneUlid: string): Promise<void> {
  authorize(ctx, 'planning.write');
  await inTransaction(ctx.db, async (tx) => {
    const milestone = await resolveMilestone(ctx, milestoneUlid, { db: tx });
    await softDelete(
      tx,
      ctx,
      { table: 'milestones', id: milestone.id, what: 'Milestone' },
      {
        action: 'milestone.deleted',
        ...milestoneEvent(milestone),
        metadata: { name: milestone.name },
      },
    );
  });
}
