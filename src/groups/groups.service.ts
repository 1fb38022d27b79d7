import { assertMembers, userRefs } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import { displayName, type RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict, notFound } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import {
  assignGroupToProjects,
  lockGroup,
  projectsForGroupAssignment,
  recordGroupUnassigned,
} from '../project-access/project-access.service.ts';
import { toProject } from '../projects/projects.service.ts';
import type {
  AddGroupMembersInput,
  AssignGroupProjectsInput,
  CreateGroupInput,
  GroupListQuery,
  UpdateGroupInput,
} from './groups.schemas.ts';

/** Member and project counts computed by the same query as the groups (no query per group). */
const WITH_COUNTS = { _count: { select: { members: true, projects: true } } } as const;

type GroupRow = Prisma.UserGroupGetPayload<{ include: typeof WITH_COUNTS }>;

export const toGroup = (row: GroupRow) => ({
  ulid: row.id,
  name: row.name,
  description: row.description,
  memberCount: row._count.members,
  projectCount: row._count.projects,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

const GROUP_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.UserGroupOrderByWithRelationInput[];

const nameTaken = (name: string) => ({ field: 'name', message: `A group named ${name} already exists` });

const groupEvent = (group: { id: string; name: string }) => ({ entityType: 'user_group', entityUlid: group.id, entityLabel: group.name });

const readGroup = (db: Db, id: string) => db.userGroup.findFirstOrThrow({ where: { id }, include: WITH_COUNTS });

/** A group of the active organization with its counts (any member), or 404. */
export async function resolveGroup(ctx: RequestContext, userGroupUlid: string) {
  authorize(ctx, 'organization.read');
  const group = await ctx.db.userGroup.findFirst({ where: { id: userGroupUlid }, include: WITH_COUNTS });
  if (!group) throw notFound('User group');
  return group;
}

/** Adds the users that are not members of the group yet, one user_group.member_added each; answers how many. */
async function addMembers(tx: Db, ctx: RequestContext, group: { id: string; name: string }, userIds: string[]): Promise<number> {
  const present = await tx.userGroupMember.findMany({ where: { groupId: group.id, userId: { in: userIds } }, select: { userId: true } });
  const already = new Set(present.map((row) => row.userId));
  const fresh = userIds.filter((userId) => !already.has(userId));
  if (fresh.length === 0) return 0;
  await tx.userGroupMember.createMany({ data: fresh.map((userId) => ({ groupId: group.id, userId, orgId: ctx.org.id })) });
  const refOf = await userRefs(tx, fresh);
  for (const userId of fresh) {
    await emitAudit(tx, ctx, {
      action: 'user_group.member_added',
      ...groupEvent(group),
      metadata: { userUlid: userId, userName: refOf(userId)?.name ?? null },
    });
  }
  return fresh.length;
}

const distinct = (ids: string[] | undefined) => [...new Set(ids ?? [])];

/**
 * POST /groups (owner/admin). The seeded members (organization members) and projects (public or
 * private) commit with the group or not at all: an unknown one answers 404 and nothing is written.
 * The name is unique per organization, case-insensitively (the index user_groups_org_id_name_key).
 */
export async function createGroup(ctx: RequestContext, input: CreateGroupInput) {
  authorize(ctx, 'group.manage');
  const memberIds = distinct(input.memberUserUlids);
  return uniqueOrConflict(
    () =>
      inTransaction(ctx.db, async (tx) => {
        await assertMembers(tx, memberIds);
        const projects = await projectsForGroupAssignment(tx, ctx, distinct(input.projectUlids));
        const group = await tx.userGroup.create({
          data: { id: newId(), orgId: ctx.org.id, name: input.name, description: input.description ?? null },
        });
        await emitAudit(tx, ctx, {
          action: 'user_group.created',
          ...groupEvent(group),
          metadata: { name: group.name, description: group.description, memberCount: memberIds.length, projectCount: projects.length },
        });
        await addMembers(tx, ctx, group, memberIds);
        await assignGroupToProjects(tx, ctx, group, projects);
        return readGroup(tx, group.id);
      }),
    nameTaken(input.name),
  );
}

const groupSearch = (q: string | undefined): Prisma.UserGroupWhereInput =>
  q ? { name: { contains: likeLiteral(q), mode: 'insensitive' } } : {};

/** GET /groups (any member): oldest first; `q` matches the name case-insensitively. */
export async function listGroups(ctx: RequestContext, query: GroupListQuery) {
  authorize(ctx, 'organization.read');
  const where = groupSearch(query.q);
  const [rows, total] = await Promise.all([
    ctx.db.userGroup.findMany({ where, include: WITH_COUNTS, orderBy: GROUP_ORDER, ...pageWindow(query) }),
    ctx.db.userGroup.count({ where }),
  ]);
  return pageOf(rows.map(toGroup), query, total);
}

/** Groups for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findGroups(ctx: RequestContext, q: string | undefined, window: Prisma.UserGroupFindManyArgs) {
  authorize(ctx, 'organization.read');
  return ctx.db.userGroup.findMany({ ...window, where: groupSearch(q), orderBy: GROUP_ORDER });
}

export async function countGroups(ctx: RequestContext, q: string | undefined) {
  authorize(ctx, 'organization.read');
  return ctx.db.userGroup.count({ where: groupSearch(q) });
}

/** PATCH /groups/{ulid} (owner/admin): name and description only; unchanged values record nothing. */
export async function updateGroup(ctx: RequestContext, userGroupUlid: string, input: UpdateGroupInput) {
  authorize(ctx, 'group.manage');
  return uniqueOrConflict(
    () =>
      inTransaction(ctx.db, async (tx) => {
        const before = await lockGroup(tx, ctx, userGroupUlid);
        const changes = changesBetween({ name: before.name, description: before.description }, input);
        if (changes.length === 0) return readGroup(tx, before.id);
        const updated = await tx.userGroup.update({
          where: { id: before.id },
          data: { name: input.name, description: input.description, updatedAt: new Date() },
        });
        await emitAudit(tx, ctx, { action: 'user_group.updated', ...groupEvent(updated), metadata: { changes } });
        return readGroup(tx, updated.id);
      }),
    nameTaken(input.name ?? ''),
  );
}

/**
 * DELETE /groups/{ulid} (owner/admin): its memberships and assignments go with it; each project
 * it was assigned to records project.group_unassigned (the access it granted ends).
 */
export async function deleteGroup(ctx: RequestContext, userGroupUlid: string): Promise<void> {
  authorize(ctx, 'group.manage');
  await inTransaction(ctx.db, async (tx) => {
    if (!(await lockRow(tx, 'user_groups', userGroupUlid, { orgId: ctx.org.id }))) throw notFound('User group');
    const group = await readGroup(tx, userGroupUlid);
    const assignments = await tx.projectGroupAssignment.findMany({
      where: { groupId: group.id },
      include: { project: true },
      orderBy: { projectId: 'asc' },
    });
    await tx.userGroup.delete({ where: { id: group.id } });
    await emitAudit(tx, ctx, {
      action: 'user_group.deleted',
      ...groupEvent(group),
      metadata: { name: group.name, memberCount: group._count.members, projectCount: group._count.projects },
    });
    await recordGroupUnassigned(
      tx,
      ctx,
      group,
      assignments.map((assignment) => assignment.project),
      'group_deleted',
    );
  });
}

const MEMBER_ORDER = [{ addedAt: 'asc' }, { userId: 'asc' }] satisfies Prisma.UserGroupMemberOrderByWithRelationInput[];

/** GET /groups/{ulid}/members (any member): a page in the order they were added. */
export async function listGroupMembers(ctx: RequestContext, userGroupUlid: string, query: PageQuery) {
  const group = await resolveGroup(ctx, userGroupUlid);
  const where = { groupId: group.id };
  const [rows, total] = await Promise.all([
    ctx.db.userGroupMember.findMany({
      where,
      include: { user: { select: { firstName: true, lastName: true, email: true } } },
      orderBy: MEMBER_ORDER,
      ...pageWindow(query),
    }),
    ctx.db.userGroupMember.count({ where }),
  ]);
  const items = rows.map((row) => ({
    userUlid: row.userId,
    displayName: displayName(row.user),
    email: row.user.email,
    addedAt: row.addedAt.getTime(),
  }));
  return pageOf(items, query, total);
}

/** Members of a group for a GraphQL connection. */
export async function findGroupMembers(ctx: RequestContext, group: { id: string }, window: Prisma.UserGroupMemberFindManyArgs) {
  authorize(ctx, 'organization.read');
  return ctx.db.userGroupMember.findMany({ ...window, where: { groupId: group.id }, orderBy: MEMBER_ORDER });
}

export async function countGroupMembers(ctx: RequestContext, group: { id: string }) {
  authorize(ctx, 'organization.read');
  return ctx.db.userGroupMember.count({ where: { groupId: group.id } });
}

/**
 * POST /groups/{ulid}/members (owner/admin): all or nothing. A user who is not a member of the
 * organization answers 404 and nobody is added; when every user already belongs, 409 conflict.
 */
export async function addGroupMembers(ctx: RequestContext, userGroupUlid: string, input: AddGroupMembersInput) {
  authorize(ctx, 'group.manage');
  const userIds = distinct(input.userUlid === undefined ? input.userUlids : [input.userUlid]);
  return inTransaction(ctx.db, async (tx) => {
    const group = await lockGroup(tx, ctx, userGroupUlid);
    await assertMembers(tx, userIds);
    if ((await addMembers(tx, ctx, group, userIds)) === 0) {
      throw conflict('Every user named is already a member of this group', {
        path: [input.userUlid === undefined ? 'userUlids' : 'userUlid'],
      });
    }
    return readGroup(tx, group.id);
  });
}

/** DELETE /groups/{ulid}/members/{userUlid} (owner/admin): 404 when the user is not in the group. */
export async function removeGroupMember(ctx: RequestContext, userGroupUlid: string, userUlid: string): Promise<void> {
  authorize(ctx, 'group.manage');
  await inTransaction(ctx.db, async (tx) => {
    const group = await lockGroup(tx, ctx, userGroupUlid);
    const { count } = await tx.userGroupMember.deleteMany({ where: { groupId: group.id, userId: userUlid } });
    if (count === 0) throw notFound('Group member');
    const name = (await userRefs(tx, [userUlid]))(userUlid)?.name ?? null;
    await emitAudit(tx, ctx, { action: 'user_group.member_removed', ...groupEvent(group), metadata: { userUlid, userName: name } });
  });
}

/** The group's projects; the tenant client leaves out a private one the caller cannot discover. */
const groupProjectsWhere = (group: { id: string }): Prisma.ProjectWhereInput => ({ groupAssignments: { some: { groupId: group.id } } });

const PROJECT_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.ProjectOrderByWithRelationInput[];

/** GET /groups/{ulid}/projects (any member): owners and admins see every assigned project. */
export async function listGroupProjects(ctx: RequestContext, userGroupUlid: string, query: PageQuery) {
  const group = await resolveGroup(ctx, userGroupUlid);
  const where = groupProjectsWhere(group);
  const [rows, total] = await Promise.all([
    ctx.db.project.findMany({ where, orderBy: PROJECT_ORDER, ...pageWindow(query) }),
    ctx.db.project.count({ where }),
  ]);
  return pageOf(rows.map(toProject), query, total);
}

/** Projects of a group for a GraphQL connection, with the same visibility. */
export async function findGroupProjects(ctx: RequestContext, group: { id: string }, window: Prisma.ProjectFindManyArgs) {
  authorize(ctx, 'organization.read');
  return ctx.db.project.findMany({ ...window, where: groupProjectsWhere(group), orderBy: PROJECT_ORDER });
}

export async function countGroupProjects(ctx: RequestContext, group: { id: string }) {
  authorize(ctx, 'organization.read');
  return ctx.db.project.count({ where: groupProjectsWhere(group) });
}

/**
 * POST /groups/{ulid}/projects: no role gate; each project needs the right to change its access
 * (owner/admin or the project's owner). All or nothing in one transaction: one project that is
 * unknown or unseen (404) or not the caller's to change (403) rejects everything. Already
 * assigned projects are no error; each new assignment records project.group_assigned.
 */
export async function assignGroupProjects(ctx: RequestContext, userGroupUlid: string, input: AssignGroupProjectsInput) {
  authorize(ctx, 'organization.read');
  return inTransaction(ctx.db, async (tx) => {
    const group = await lockGroup(tx, ctx, userGroupUlid);
    const projects = await projectsForGroupAssignment(tx, ctx, input.projectUlids);
    await assignGroupToProjects(tx, ctx, group, projects);
    return readGroup(tx, group.id);
  });
}
