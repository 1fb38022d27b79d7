import { membersAmong } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import { can } from '../foundation/auth/policy.ts';
import { displayName, type RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRow, lockRows } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { forbidden, notFound } from '../kernel/errors.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import type {
  AccessMode,
  AccessState,
  AssignAccessGroupInput,
  GrantAccessInput,
  UpdateProjectAccessInput,
} from './project-access.schemas.ts';

/**
 * The caller is the project's current owner, as a person (in a session or through an OAuth
 * token, contract §16): an API token never acts as the user who created it.
 */
export const isProjectOwner = (ctx: Pick<RequestContext, 'identity'>, project: { ownerUserId: string | null }) =>
  ctx.identity.kind !== 'api_token' && project.ownerUserId === ctx.identity.user.id;

/** The right to change a project's access: organization owner/admin, or the project's current owner. */
function assertCanManageAccess(ctx: RequestContext, project: ProjectRow): void {
  if (!can(ctx, 'project_access.manage') && !isProjectOwner(ctx, project)) {
    throw forbidden("Changing this project's access needs an organization owner or admin, or the project's owner");
  }
}

const toAccess = (project: ProjectRow) => ({ mode: project.accessMode as AccessMode, ownerUlid: project.ownerUserId });

/**
 * The project whose access is about to change, under a lock that keeps its mode and owner (and so
 * who may change it) until commit, read again under that lock. `no key update`: rows referring
 * to the project (suites, runs …) can still be written meanwhile. A group is locked before it.
 */
async function projectForAccessChange(tx: Db, ctx: RequestContext, code: string): Promise<ProjectRow> {
  const found = await resolveProject(ctx, code, { db: tx });
  await lockRow(tx, 'projects', found.id, { orgId: ctx.org.id, strength: 'no key update' });
  const project = await tx.project.findFirstOrThrow({ where: { id: found.id } });
  assertCanManageAccess(ctx, project);
  return project;
}

const projectEvent = (project: ProjectRow) => ({ entityType: 'project', entityUlid: project.id, entityLabel: project.name });

/** GET /projects/{code}/access: mode and owner, for anyone who sees the project. */
export async function getProjectAccess(ctx: RequestContext, code: string) {
  return toAccess(await resolveProject(ctx, code));
}

/**
 * PATCH /projects/{code}/access: the mode and the owner (a member of the organization, 404
 * otherwise, or null). Grants, revocations and group assignments are never touched.
 */
export async function updateProjectAccess(ctx: RequestContext, code: string, input: UpdateProjectAccessInput) {
  return inTransaction(ctx.db, async (tx) => {
    const project = await projectForAccessChange(tx, ctx, code);
    if (input.ownerUlid && !(await membersAmong(tx, [input.ownerUlid])).has(input.ownerUlid)) throw notFound('User');
    const changes: Change[] = [];
    if (input.mode !== undefined && input.mode !== project.accessMode) changes.push(change('mode', project.accessMode, input.mode));
    if (input.ownerUlid !== undefined && input.ownerUlid !== project.ownerUserId) {
      changes.push(change('ownerUlid', project.ownerUserId, input.ownerUlid));
    }
    if (changes.length === 0) return toAccess(project);
    const updated = await tx.project.update({
      where: { id: project.id },
      data: { accessMode: input.mode, ownerUserId: input.ownerUlid, updatedAt: new Date() },
    });
    await emitAudit(tx, ctx, { action: 'project.access_changed', ...projectEvent(updated), metadata: { changes } });
    return toAccess(updated);
  });
}

type AccessMemberRow = Awaited<ReturnType<Db['projectAccessMember']['findFirstOrThrow']>> & {
  user: { firstName: string; lastName: string; email: string };
};

const toAccessMember = (row: AccessMemberRow) => ({
  userUlid: row.userId,
  displayName: displayName(row.user),
  email: row.user.email,
  state: row.state as AccessState,
  updatedAt: row.updatedAt.getTime(),
});

const WITH_USER = { user: { select: { firstName: true, lastName: true, email: true } } } as const;

/** GET /projects/{code}/access/members: the allowlist rows, granted and revoked, oldest first. */
export async function listAccessMembers(ctx: RequestContext, code: string) {
  const project = await resolveProject(ctx, code);
  assertCanManageAccess(ctx, project);
  const rows = await ctx.db.projectAccessMember.findMany({
    where: { projectId: project.id },
    include: WITH_USER,
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
  return { items: rows.map(toAccessMember) };
}

/**
 * Sets a member's allowlist row to `state` (creating it when there is none) and records the
 * change; a row already in that state stays as it is and nothing is recorded.
 */
async function setAccessState(ctx: RequestContext, code: string, userUlid: string, state: AccessState) {
  return inTransaction(ctx.db, async (tx) => {
    const project = await projectForAccessChange(tx, ctx, code);
    if (!(await membersAmong(tx, [userUlid])).has(userUlid)) throw notFound('User');
    const key = { projectId_userId: { projectId: project.id, userId: userUlid } };
    const before = await tx.projectAccessMember.findUnique({ where: key });
    if (before?.state === state) return toAccessMember(await tx.projectAccessMember.findUniqueOrThrow({ where: key, include: WITH_USER }));
    const row = await tx.projectAccessMember.upsert({
      where: key,
      create: { projectId: project.id, userId: userUlid, orgId: ctx.org.id, state },
      update: { state, updatedAt: new Date() },
      include: WITH_USER,
    });
    await emitAudit(tx, ctx, {
      action: state === 'granted' ? 'project.member_granted' : 'project.member_revoked',
      ...projectEvent(project),
      metadata: { userUlid, userName: displayName(row.user), previousState: before?.state ?? null },
    });
    return toAccessMember(row);
  });
}

/** POST /projects/{code}/access/members: grants a member of the organization (a revoked row flips back). */
export const grantProjectAccess = (ctx: RequestContext, code: string, input: GrantAccessInput) =>
  setAccessState(ctx, code, input.userUlid, 'granted');

/**
 * DELETE /projects/{code}/access/members/{userUlid}: the member's row becomes revoked (created
 * revoked when there was none). The mode never changes, also when the last grant goes.
 */
export async function revokeProjectAccess(ctx: RequestContext, code: string, userUlid: string): Promise<void> {
  await setAccessState(ctx, code, userUlid, 'revoked');
}

type AccessGroupRow = { group: { id: string; name: string; _count: { members: number } } };

const toAccessGroup = ({ group }: AccessGroupRow) => ({ userGroupUlid: group.id, name: group.name, memberCount: group._count.members });

const GROUP_WITH_MEMBER_COUNT = { group: { select: { id: true, name: true, _count: { select: { members: true } } } } } as const;

/** GET /projects/{code}/access/groups: the groups assigned to the project, in assignment order. */
export async function listAccessGroups(ctx: RequestContext, code: string) {
  const project = await resolveProject(ctx, code);
  const rows = await ctx.db.projectGroupAssignment.findMany({
    where: { projectId: project.id },
    select: GROUP_WITH_MEMBER_COUNT,
    orderBy: [{ createdAt: 'asc' }, { groupId: 'asc' }],
  });
  return { items: rows.map(toAccessGroup) };
}

/**
 * A group about to change or be (un)assigned, locked until commit, or 404. Groups are locked
 * before projects, with `no key update` so that rows referring to the group can still be inserted.
 */
export async function lockGroup(tx: Db, ctx: RequestContext, userGroupUlid: string) {
  if (!(await lockRow(tx, 'user_groups', userGroupUlid, { orgId: ctx.org.id, strength: 'no key update' }))) throw notFound('User group');
  return tx.userGroup.findFirstOrThrow({ where: { id: userGroupUlid } });
}

/**
 * The projects named by `projectUlids` (repeats dropped) for assigning a group to them, all or
 * none: each must be one the caller sees (404 otherwise), not locked (403 project_locked), and
 * one whose access the caller may change (403). They stay share-locked until commit, so that
 * their owner cannot change meanwhile. The caller has locked the group first (`lockGroup`).
 */
export async function projectsForGroupAssignment(tx: Db, ctx: RequestContext, projectUlids: string[]): Promise<ProjectRow[]> {
  const ids = [...new Set(projectUlids)];
  await lockRows(tx, 'projects', ids, { orgId: ctx.org.id, strength: 'share' });
  const projects = await tx.project.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } });
  if (projects.length !== ids.length) throw notFound('Project');
  for (const project of projects) {
    assertProjectUnlocked(project);
    assertCanManageAccess(ctx, project);
  }
  return projects;
}

/**
 * Assigns the group to each project it is not assigned to yet (already assigned ones are no
 * error), with one project.group_assigned per new assignment. Answers how many were new.
 */
export async function assignGroupToProjects(
  tx: Db,
  ctx: RequestContext,
  group: { id: string; name: string },
  projects: ProjectRow[],
): Promise<number> {
  const assigned = await tx.projectGroupAssignment.findMany({
    where: { groupId: group.id, projectId: { in: projects.map((project) => project.id) } },
    select: { projectId: true },
  });
  const already = new Set(assigned.map((row) => row.projectId));
  const fresh = projects.filter((project) => !already.has(project.id));
  if (fresh.length === 0) return 0;
  await tx.projectGroupAssignment.createMany({
    data: fresh.map((project) => ({ projectId: project.id, groupId: group.id, orgId: ctx.org.id })),
  });
  for (const project of fresh) {
    await emitAudit(tx, ctx, {
      action: 'project.group_assigned',
      ...projectEvent(project),
      metadata: { userGroupUlid: group.id, groupName: group.name },
    });
  }
  return fresh.length;
}

/**
 * POST /projects/{code}/access/groups: assigns a group, also to a public project (the assignment
 * is dormant until the project turns private). Assigning it again answers the same item.
 */
export async function assignAccessGroup(ctx: RequestContext, code: string, input: AssignAccessGroupInput) {
  return inTransaction(ctx.db, async (tx) => {
    await resolveProject(ctx, code, { db: tx });
    const group = await lockGroup(tx, ctx, input.userGroupUlid);
    const project = await projectForAccessChange(tx, ctx, code);
    await assignGroupToProjects(tx, ctx, group, [project]);
    const row = await tx.projectGroupAssignment.findFirstOrThrow({
      where: { projectId: project.id, groupId: group.id },
      select: GROUP_WITH_MEMBER_COUNT,
    });
    return toAccessGroup(row);
  });
}

/** Records project.group_unassigned on each project the group no longer grants. */
export async function recordGroupUnassigned(
  tx: Db,
  ctx: RequestContext,
  group: { id: string; name: string },
  projects: ProjectRow[],
  via: 'unassign' | 'group_deleted',
): Promise<void> {
  for (const project of projects) {
    await emitAudit(tx, ctx, {
      action: 'project.group_unassigned',
      ...projectEvent(project),
      metadata: { userGroupUlid: group.id, groupName: group.name, via },
    });
  }
}

/**
 * DELETE /projects/{code}/access/groups/{userGroupUlid}: never 409, also for the last group; a
 * group that is not assigned answers 204 and records nothing (an unknown group is 404).
 */
export async function unassignAccessGroup(ctx: RequestContext, code: string, userGroupUlid: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await resolveProject(ctx, code, { db: tx });
    const group = await lockGroup(tx, ctx, userGroupUlid);
    const project = await projectForAccessChange(tx, ctx, code);
    const { count } = await tx.projectGroupAssignment.deleteMany({ where: { projectId: project.id, groupId: group.id } });
    if (count > 0) await recordGroupUnassigned(tx, ctx, group, [project], 'unassign');
  });
}
