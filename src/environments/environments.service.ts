import { emitAudit } from '../foundation/audit/audit.service.ts';
import { changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE, softDelete } from '../foundation/soft-delete.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { assertProjectUnlocked, resolveProject } from '../projects/projects.service.ts';
import { type CreateEnvironmentInput, type EnvironmentListQuery, SLUG_MAX, type UpdateEnvironmentInput } from './environments.schemas.ts';

type EnvironmentRow = Awaited<ReturnType<Db['environment']['findFirstOrThrow']>>;

export const toEnvironment = (row: EnvironmentRow) => ({
  ulid: row.id,
  projectUlid: row.projectId,
  name: row.name,
  slug: row.slug,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

/**
 * The slug of a name: accents dropped, lower-cased, every run of other characters one `-`,
 * no leading or trailing `-` ("Staging (EU)" → "staging-eu", "Prüfung" → "prufung").
 */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
}

export const ENVIRONMENT_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.EnvironmentOrderByWithRelationInput[];

/** A live environment by ULID, with its project (locked project: 403 project_locked). */
export async function resolveEnvironment(ctx: RequestContext, environmentUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  const environment = await (options.db ?? ctx.db).environment.findFirst({
    where: { id: environmentUlid, ...LIVE },
    include: { project: true },
  });
  if (!environment) throw notFound('Environment');
  assertProjectUnlocked(environment.project);
  return environment;
}

/** A live environment of the project, or 404: how other modules validate an `environmentId` they take. */
export async function findLiveEnvironmentInProject(db: Db, projectId: string, environmentUlid: string): Promise<EnvironmentRow> {
  const environment = await db.environment.findFirst({ where: { id: environmentUlid, projectId, ...LIVE } });
  if (!environment) throw notFound('Environment');
  return environment;
}

/** One live environment per slug and project: the partial unique index environments_live_slug_key. */
const uniqueSlug = <T>(slug: string | undefined, write: () => Promise<T>) =>
  slug === undefined
    ? write()
    : uniqueOrConflict(write, { field: 'slug', message: `A live environment with slug ${slug} already exists in this project` });

const environmentEvent = (environment: EnvironmentRow) => ({
  entityType: 'environment',
  entityUlid: environment.id,
  entityLabel: environment.name,
});

export async function createEnvironment(ctx: RequestContext, projectCode: string, input: CreateEnvironmentInput) {
  authorize(ctx, 'planning.write');
  const slug = input.slug ?? slugOf(input.name);
  if (!slug) throw validationFailed('The name holds no letter or digit to derive a slug from: send a slug', { path: ['slug'] });
  return uniqueSlug(slug, () =>
    inTransaction(ctx.db, async (tx) => {
      const project = await resolveProject(ctx, projectCode, { db: tx });
      const created = await tx.environment.create({
        data: { id: newId(), orgId: ctx.org.id, projectId: project.id, name: input.name, slug },
      });
      await emitAudit(tx, ctx, {
        action: 'environment.created',
        ...environmentEvent(created),
        metadata: { name: created.name, slug: created.slug },
      });
      return created;
    }),
  );
}

/**
 * The live environment that a run's legacy free-text `environment` names (by its slug), created
 * when the project has none: concurrent creates of one slug settle on one row. Null when the text
 * holds no letter or digit.
 */
export async function environmentForLegacyText(tx: Db, ctx: RequestContext, projectId: string, text: string) {
  const slug = slugOf(text);
  if (!slug) return null;
  // The tenant column is written out: raw SQL does not pass through the confined client.
  const inserted = await queryRaw<Array<{ id: string }>>(
    tx,
    sql`
    INSERT INTO environments (id, org_id, project_id, name, slug) VALUES (${newId()}, ${ctx.org.id}, ${projectId}, ${text}, ${slug})
    ON CONFLICT (project_id, slug) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
  );
  const environment = await tx.environment.findFirstOrThrow({ where: { projectId, slug, ...LIVE } });
  if (inserted.length > 0) {
    await emitAudit(tx, ctx, {
      action: 'environment.created',
      ...environmentEvent(environment),
      metadata: { name: environment.name, slug: environment.slug },
    });
  }
  return environment;
}

const environmentSearch = (projectId: string, q: string | undefined): Prisma.EnvironmentWhereInput => ({
  projectId,
  ...LIVE,
  ...(q
    ? {
        OR: [{ name: { contains: likeLiteral(q), mode: 'insensitive' } }, { slug: { contains: likeLiteral(q), mode: 'insensitive' } }],
      }
    : {}),
});

/** Live environments of a project, oldest first; `q` matches the name or the slug. */
export async function listEnvironments(ctx: RequestContext, projectCode: string, query: EnvironmentListQuery) {
  const project = await resolveProject(ctx, projectCode);
  const where = environmentSearch(project.id, query.q);
  const [items, total] = await Promise.all([
    ctx.db.environment.findMany({ where, orderBy: ENVIRONMENT_ORDER, ...pageWindow(query) }),
    ctx.db.environment.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** Environments for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findEnvironments(
  ctx: RequestContext,
  project: { id: string },
  q: string | undefined,
  window: Prisma.EnvironmentFindManyArgs,
) {
  authorize(ctx, 'project.read');
  return ctx.db.environment.findMany({ ...window, where: environmentSearch(project.id, q), orderBy: ENVIRONMENT_ORDER });
}

export async function countEnvironments(ctx: RequestContext, project: { id: string }, q: string | undefined) {
  authorize(ctx, 'project.read');
  return ctx.db.environment.count({ where: environmentSearch(project.id, q) });
}

/** Renaming keeps the slug; an explicit slug taken by another live environment answers 409. */
export async function updateEnvironment(ctx: RequestContext, environmentUlid: string, input: UpdateEnvironmentInput) {
  authorize(ctx, 'planning.write');
  return uniqueSlug(input.slug, () =>
    inTransaction(ctx.db, async (tx) => {
      const before = await resolveEnvironment(ctx, environmentUlid, { db: tx });
      const changes = changesBetween(toEnvironment(before), input);
      if (changes.length === 0) return before;
      const updated = await tx.environment.update({
        where: { id: before.id },
        data: { name: input.name, slug: input.slug, updatedAt: new Date() },
      });
      await emitAudit(tx, ctx, { action: 'environment.updated', ...environmentEvent(updated), metadata: { changes } });
      return updated;
    }),
  );
}

/** Soft delete: the environment is no longer live and its slug is free again. */
export async function deleteEnvironment(ctx: RequestContext, environmentUlid: string): Promise<void> {
  authorize(ctx, 'planning.write');
  await inTransaction(ctx.db, async (tx) => {
    const environment = await resolveEnvironment(ctx, environmentUlid, { db: tx });
    await softDelete(
      tx,
      ctx,
      { table: 'environments', id: environment.id, what: 'Environment' },
      {
        action: 'environment.deleted',
        ...environmentEvent(environment),
        metadata: { name: environment.name, slug: environment.slug },
      },
    );
  });
}
