import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE } from '../foundation/soft-delete.ts';
import { fileStorage } from '../foundation/storage/file-storage.ts';
import { chargeStorage, releaseObjects, releaseStorage, type UploadedFile } from '../foundation/storage/storage.service.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { UNRESOLVED_DEFECT_STATUSES } from '../kernel/statuses.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { applyProjectLocks } from '../orgs/orgs.service.ts';
import { normalizeAvatar } from './avatar-image.ts';
import {
  type CreateProjectInput,
  PROJECT_CODE_PATTERN,
  type ProjectConnectionFilter,
  type ProjectListQuery,
  type UpdateProjectInput,
} from './projects.schemas.ts';
import { type ProjectTeam, readTeams, teamFilter } from './team.ts';

export type { ProjectTeam };

export type ProjectRow = Awaited<ReturnType<Db['project']['findFirstOrThrow']>>;

export const toProject = (project: ProjectRow) => ({
  ulid: project.id,
  name: project.name,
  id: project.code,
  description: project.description,
  avatarKey: project.avatarKey,
  avatarVersion: project.avatarVersion,
  lockedAt: epochMsOrNull(project.lockedAt),
  createdAt: project.createdAt.getTime(),
  updatedAt: project.updatedAt.getTime(),
});

const projectLocked = () =>
  new AppError('project_locked', 'This project is locked: the organization holds more projects than its plan allows');

/**
 * Routes that reach a project through one of its entities (a suite, a case, a milestone …) are
 * gated like `/projects/{projectId}/*`: a locked project answers 403 project_locked.
 */
export function assertProjectUnlocked(project: { lockedAt: Date | null }): void {
  if (project.lockedAt) throw projectLocked();
}

/**
 * Finds a project of the active organization by its code. Every route under a project goes
 * through here, so a locked project answers 403 project_locked everywhere except DELETE.
 */
export async function resolveProject(
  ctx: RequestContext,
  code: string,
  options: { allowLocked?: boolean; db?: Db } = {},
): Promise<ProjectRow> {
  authorize(ctx, 'project.read');
  // A string that is not a project code names no project (and never reaches SQL).
  if (!PROJECT_CODE_PATTERN.test(code)) throw notFound('Project');
  // Typed SQL (nearly every project-scoped request starts here), confined as the tenant client would.
  const [project] = await queryRaw<ProjectRow[]>(
    options.db ?? ctx.db,
    sql`
    SELECT id, org_id AS "orgId", code, name, description, avatar_key AS "avatarKey", avatar_version AS "avatarVersion",
           avatar_size_bytes AS "avatarSizeBytes", locked_at AS "lockedAt", last_suite_number AS "lastSuiteNumber",
           last_case_number AS "lastCaseNumber", last_plan_number AS "lastPlanNumber", last_defect_number AS "lastDefectNumber",
           run_settings AS "runSettings", access_mode AS "accessMode", owner_user_id AS "ownerUserId",
           created_at AS "createdAt", updated_at AS "updatedAt"
    FROM projects
    WHERE org_id = ${ctx.org.id} AND code = ${code} AND id <> ALL(${ctx.hiddenProjectIds}::char(26)[])`,
  );
  if (!project) throw notFound('Project');
  if (!options.allowLocked) assertProjectUnlocked(project);
  return project;
}

/** Creates a project; its code is unique in the organization (the index projects_org_id_code_key). */
export async function createProject(ctx: RequestContext, input: CreateProjectInput) {
  authorize(ctx, 'project.manage');
  const conflict = { field: 'id', message: `A project with id ${input.id} already exists` };
  return uniqueOrConflict(
    () =>
      inTransaction(ctx.db, async (tx) => {
        // Serializes project creation per organization so that the ceiling holds under concurrency.
        await lockRow(tx, 'organizations', ctx.org.id);
        const { maxProjects } = ctx.org.limits;
        if (maxProjects !== null && (await tx.project.count()) >= maxProjects) {
          throw new AppError('project_limit_exceeded', `The ${ctx.org.plan} plan allows ${maxProjects} projects`);
        }
        const created = await tx.project.create({
          data: {
            id: newId(),
            orgId: ctx.org.id,
            code: input.id,
            name: input.name,
            description: input.description ?? null,
          },
        });
        await emitAudit(tx, ctx, {
          action: 'project.created',
          entityType: 'project',
          entityUlid: created.id,
          entityLabel: created.name,
          metadata: { id: created.code, name: created.name },
        });
        return created;
      }),
    conflict,
  );
}

const PROJECT_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.ProjectOrderByWithRelationInput[];

/** `q`: case-insensitive substring of the name or the code. */
const projectSearch = (q: string | undefined): Prisma.ProjectWhereInput =>
  q
    ? {
        OR: [{ name: { contains: likeLiteral(q), mode: 'insensitive' } }, { code: { contains: likeLiteral(q), mode: 'insensitive' } }],
      }
    : {};

/** One `has`/`without` filter: its tokens are OR-ed. */
const presence = (tokens: Array<'has' | 'without'>, has: Prisma.ProjectWhereInput, without: Prisma.ProjectWhereInput) => ({
  OR: tokens.map((token) => (token === 'has' ? has : without)),
});

const unresolvedDefects = { status: { in: UNRESOLVED_DEFECT_STATUSES } };

/** The list filters of "Project list query parameters", AND-ed (`memberUlid` comes from `teamFilter`). */
function projectListWhere(query: ProjectListQuery, team: Prisma.ProjectWhereInput | undefined): Prisma.ProjectWhereInput {
  const filters: Prisma.ProjectWhereInput[] = [projectSearch(query.q)];
  if (team) filters.push(team);
  if (query.cases) {
    filters.push(presence(query.cases, { testCases: { some: { archivedAt: null } } }, { testCases: { none: { archivedAt: null } } }));
  }
  if (query.milestones) {
    filters.push(presence(query.milestones, { milestones: { some: LIVE } }, { milestones: { none: LIVE } }));
  }
  if (query.runs) {
    const runFilter = { without: { runs: { none: {} } }, active: { runs: { some: { state: 'open' } } }, any: { runs: { some: {} } } };
    filters.push({ OR: query.runs.map((token) => runFilter[token]) });
  }
  if (query.defects) {
    filters.push(presence(query.defects, { defects: { some: unresolvedDefects } }, { defects: { none: unresolvedDefects } }));
  }
  return { AND: filters };
}

/** The `memberUlid` filter (absent when no member is listed, or none of them is known). */
const memberFilter = (ctx: RequestContext, memberUlids: string[] | undefined) =>
  memberUlids ? teamFilter(ctx, memberUlids) : Promise.resolve(undefined);

export async function listProjects(ctx: RequestContext, query: ProjectListQuery) {
  authorize(ctx, 'project.read');
  const where = projectListWhere(query, await memberFilter(ctx, query.memberUlid));
  const [items, total] = await Promise.all([
    ctx.db.project.findMany({ where, orderBy: PROJECT_ORDER, ...pageWindow(query) }),
    ctx.db.project.count({ where }),
  ]);
  const page = pageOf(items.map(toProject), query, total);
  if (query.include !== 'stats') return page;
  const projectIds = items.map((project) => project.id);
  const [stats, teams] = await Promise.all([projectStats(ctx, projectIds), readTeams(ctx, projectIds)]);
  return { ...page, items: page.items.map((item) => ({ ...item, stats: stats.get(item.ulid)!, ...teams.get(item.ulid)! })) };
}

export type ProjectStats = { cases: number; runs: number; runsInProgress: number; defectsUnresolved: number; milestones: number };

/**
 * `stats` of projects the caller has already reached, in a fixed number of queries: the REST list
 * with include=stats and GraphQL's Project.stats (batched) both count here.
 */
export async function projectStats(ctx: RequestContext, projectIds: string[]): Promise<Map<string, ProjectStats>> {
  authorize(ctx, 'project.read');
  const [cases, milestones, runs, defects] = await Promise.all([
    ctx.db.testCase.groupBy({ by: ['projectId'], where: { projectId: { in: projectIds }, archivedAt: null }, _count: { _all: true } }),
    ctx.db.milestone.groupBy({ by: ['projectId'], where: { projectId: { in: projectIds }, ...LIVE }, _count: { _all: true } }),
    ctx.db.testRun.groupBy({ by: ['projectId', 'state'], where: { projectId: { in: projectIds } }, _count: { _all: true } }),
    ctx.db.defect.groupBy({ by: ['projectId'], where: { projectId: { in: projectIds }, ...unresolvedDefects }, _count: { _all: true } }),
  ]);
  const countOf = (rows: Array<{ projectId: string; _count: { _all: number } }>, projectId: string) =>
    rows.find((row) => row.projectId === projectId)?._count._all ?? 0;
  return new Map(
    projectIds.map((projectId) => [
      projectId,
      {
        cases: countOf(cases, projectId),
        runs: runs.filter((row) => row.projectId === projectId).reduce((sum, row) => sum + row._count._all, 0),
        runsInProgress: runs.find((row) => row.projectId === projectId && row.state === 'open')?._count._all ?? 0,
        defectsUnresolved: countOf(defects, projectId),
        milestones: countOf(milestones, projectId),
      },
    ]),
  );
}

/** `team` and `teamCount` of projects the caller has already reached (GraphQL batches them). */
export async function projectTeams(ctx: RequestContext, projectIds: string[]): Promise<Map<string, ProjectTeam>> {
  authorize(ctx, 'project.read');
  return readTeams(ctx, projectIds);
}

const connectionWhere = async (ctx: RequestContext, filter: ProjectConnectionFilter): Promise<Prisma.ProjectWhereInput> => ({
  AND: [projectSearch(filter.q), (await memberFilter(ctx, filter.memberUlid)) ?? {}],
});

/** Projects for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findProjects(ctx: RequestContext, filter: ProjectConnectionFilter, window: Prisma.ProjectFindManyArgs) {
  authorize(ctx, 'project.read');
  return ctx.db.project.findMany({ ...window, where: await connectionWhere(ctx, filter), orderBy: PROJECT_ORDER });
}

export async function countProjects(ctx: RequestContext, filter: ProjectConnectionFilter) {
  authorize(ctx, 'project.read');
  return ctx.db.project.count({ where: await connectionWhere(ctx, filter) });
}

export async function updateProject(ctx: RequestContext, code: string, input: UpdateProjectInput) {
  authorize(ctx, 'project.manage');
  if (input.id !== undefined) {
    throw new AppError('immutable_field', 'The project id cannot be changed', { path: ['id'] });
  }
  if (input.name === undefined && input.description === undefined) {
    throw validationFailed('Provide at least one of name, description');
  }
  const project = await inTransaction(ctx.db, async (tx) => {
    const before = await resolveProject(ctx, code, { db: tx });
    const changes: Change[] = [];
    if (input.name !== undefined && input.name !== before.name) changes.push(change('name', before.name, input.name));
    if (input.description !== undefined && input.description !== before.description) {
      changes.push(change('description', before.description, input.description));
    }
    if (changes.length === 0) return before;
    const updated = await tx.project.update({
      where: { id: before.id },
      data: { name: input.name, description: input.description, updatedAt: new Date() },
    });
    await emitAudit(tx, ctx, {
      action: 'project.updated',
      entityType: 'project',
      entityUlid: updated.id,
      entityLabel: updated.name,
      metadata: { changes },
    });
    return updated;
  });
  return project;
}

/**
 * Deletes a project (also a locked one); the next-oldest locked project reopens when it fits.
 * Its avatar and its cases' and results' attachments give their bytes back and their files go after commit.
 */
export async function deleteProject(ctx: RequestContext, code: string): Promise<void> {
  authorize(ctx, 'project.manage');
  await inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const project = await lockProject(tx, ctx, code, { allowLocked: true });
    // Deleted here rather than by the cascade: exactly the rows this statement removes are given back.
    const attachments = await queryRaw<Array<{ storageKey: string; sizeBytes: number }>>(
      tx,
      sql`
      DELETE FROM step_attachments
      WHERE org_id = ${ctx.org.id} AND case_id IN (SELECT id FROM test_cases WHERE project_id = ${project.id})
      RETURNING storage_key AS "storageKey", size_bytes AS "sizeBytes"`,
    );
    const resultAttachments = await queryRaw<Array<{ storageKey: string; sizeBytes: number }>>(
      tx,
      sql`
      DELETE FROM result_attachments
      WHERE org_id = ${ctx.org.id} AND run_id IN (SELECT id FROM test_runs WHERE project_id = ${project.id})
      RETURNING storage_key AS "storageKey", size_bytes AS "sizeBytes"`,
    );
    await releaseObjects(tx, ctx.org.id, [...attachments, ...resultAttachments, ...storedAvatarOf(project)]);
    await tx.project.delete({ where: { id: project.id } });
    await emitAudit(tx, ctx, {
      action: 'project.deleted',
      entityType: 'project',
      entityUlid: project.id,
      entityLabel: project.name,
      metadata: { id: project.code, name: project.name },
    });
    await applyProjectLocks(tx, ctx.org.id, ctx.org.limits.maxProjects);
  });
}

/** The project under its row lock, read again: for changes that depend on what it holds now. */
async function lockProject(tx: Db, ctx: RequestContext, code: string, options: { allowLocked?: boolean } = {}): Promise<ProjectRow> {
  const found = await resolveProject(ctx, code, { ...options, db: tx });
  if (!(await lockRow(tx, 'projects', found.id, { orgId: ctx.org.id }))) throw notFound('Project');
  return tx.project.findFirstOrThrow({ where: { id: found.id } });
}

const avatarKeyOf = (projectUlid: string) => `avatars/projects/${projectUlid}.webp`;

const storedAvatarOf = (project: ProjectRow) =>
  project.avatarKey ? [{ storageKey: project.avatarKey, sizeBytes: project.avatarSizeBytes }] : [];

/** Points the locked project at its new avatar (or none), bumps the version and records the change. */
async function recordAvatar(
  tx: Db,
  ctx: RequestContext,
  project: ProjectRow,
  avatar: { avatarKey: string | null; avatarSizeBytes: number },
) {
  const row = await tx.project.update({
    where: { id: project.id },
    data: { ...avatar, avatarVersion: { increment: 1 }, updatedAt: new Date() },
  });
  await emitAudit(tx, ctx, {
    action: avatar.avatarKey ? 'project.avatar_updated' : 'project.avatar_removed',
    entityType: 'project',
    entityUlid: row.id,
    entityLabel: row.name,
    metadata: { avatarVersion: row.avatarVersion },
  });
  return { avatarKey: row.avatarKey, avatarVersion: row.avatarVersion };
}

/**
 * Stores the upload as the project's avatar. The new image is charged to the storage quota (413
 * storage_quota_exceeded), less the one it replaces, before it is written.
 */
export async function setProjectAvatar(ctx: RequestContext, code: string, upload: UploadedFile) {
  authorize(ctx, 'project.manage');
  await resolveProject(ctx, code);
  const image = await normalizeAvatar(upload);
  return inTransaction(ctx.db, async (tx) => {
    const project = await lockProject(tx, ctx, code);
    await releaseStorage(tx, ctx.org.id, project.avatarSizeBytes);
    await chargeStorage(tx, ctx.org, image.length);
    const avatarKey = avatarKeyOf(project.id);
    await fileStorage().put(avatarKey, image);
    return recordAvatar(tx, ctx, project, { avatarKey, avatarSizeBytes: image.length });
  });
}

/** Removes the avatar: its bytes are given back and its file goes after commit. */
export async function removeProjectAvatar(ctx: RequestContext, code: string) {
  authorize(ctx, 'project.manage');
  return inTransaction(ctx.db, async (tx) => {
    const project = await lockProject(tx, ctx, code);
    if (!project.avatarKey) return { avatarKey: null, avatarVersion: project.avatarVersion };
    await releaseObjects(tx, ctx.org.id, storedAvatarOf(project));
    return recordAvatar(tx, ctx, project, { avatarKey: null, avatarSizeBytes: 0 });
  });
}
