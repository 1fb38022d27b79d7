import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { executeRaw, queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { newId, ULID_PATTERN } from '../kernel/ids.ts';
import { type CursorQuery, cursorPageOf } from '../kernel/pagination.ts';
import { allocateNumber, allocateNumbers } from '../projects/numbering.service.ts';
import { parseDisplayId, suiteDisplayId } from '../projects/projects.schemas.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import type { CreateSuiteInput, UpdateSuiteInput } from './suites.schemas.ts';

export type SuiteRow = Awaited<ReturnType<Db['suite']['findFirstOrThrow']>>;

export const toSuite = (suite: SuiteRow & { project: { code: string } }) => ({
  ulid: suite.id,
  projectUlid: suite.projectId,
  suiteNumber: suite.suiteNumber,
  displayId: suiteDisplayId(suite.project.code, suite.suiteNumber),
  name: suite.name,
  description: suite.description,
  parentUlid: suite.parentId,
  position: suite.position,
  createdAt: suite.createdAt.getTime(),
  updatedAt: suite.updatedAt.getTime(),
});

const SIBLING_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.SuiteOrderByWithRelationInput[];

/** A suite ULID of the active organization (with its project), gated like its project. */
export async function resolveSuite(ctx: RequestContext, suiteUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  // A string that is not a ULID names no suite (and never reaches SQL).
  if (!ULID_PATTERN.test(suiteUlid)) throw notFound('Suite');
  const suite = await (options.db ?? ctx.db).suite.findFirst({ where: { id: suiteUlid }, include: { project: true } });
  if (!suite) throw notFound('Suite');
  assertProjectUnlocked(suite.project);
  return suite;
}

/** The suite `suiteUlid` of the project, or 404: how other modules validate a `suiteUlid` they take. */
export async function findLiveSuiteInProject(db: Db, projectId: string, suiteUlid: string): Promise<SuiteRow> {
  const suite = ULID_PATTERN.test(suiteUlid) ? await db.suite.findFirst({ where: { id: suiteUlid, projectId } }) : null;
  if (!suite) throw notFound('Suite');
  return suite;
}

/**
 * Every tree edit (create, move, reorder, delete) of a project holds its row lock until
 * commit, so concurrent edits cannot build a cycle or give two siblings one position.
 */
async function lockProjectTree(tx: Db, ctx: RequestContext, projectId: string): Promise<void> {
  await lockRow(tx, 'projects', projectId, { orgId: ctx.org.id });
}

/** Locks the project of a suite before the suite is read, so the read sees the latest tree. */
async function lockTreeOfSuite(tx: Db, ctx: RequestContext, suiteUlid: string): Promise<void> {
  if (!ULID_PATTERN.test(suiteUlid)) return;
  const suite = await tx.suite.findFirst({ where: { id: suiteUlid }, select: { projectId: true } });
  if (suite) await lockProjectTree(tx, ctx, suite.projectId);
}

type Placement = { id: string; position: number };

/** The children of `parentId` (roots for null) in position order. */
const childrenOf = (tx: Db, projectId: string, parentId: string | null): Promise<Placement[]> =>
  tx.suite.findMany({ where: { projectId, parentId }, orderBy: SIBLING_ORDER, select: { id: true, position: true } });

/** Gives `siblings` the positions 0..n-1 in their order, in one statement for the rows that change. */
async function renumber(tx: Db, ctx: RequestContext, siblings: Placement[], now: Date): Promise<void> {
  const moved = siblings.flatMap((row, index) => (row.position === index ? [] : [{ id: row.id, position: index }]));
  if (moved.length === 0) return;
  const ids = moved.map((row) => row.id);
  const positions = moved.map((row) => row.position);
  await executeRaw(
    tx,
    sql`
    UPDATE suites SET position = placed.position, updated_at = ${now}
    FROM unnest(${ids}::text[], ${positions}::int[]) AS placed(id, position)
    WHERE suites.id = placed.id AND suites.org_id = ${ctx.org.id}`,
  );
}

/** True when `candidateId` is `suiteId` or lies below it. */
async function isInSubtree(tx: Db, ctx: RequestContext, suiteId: string, candidateId: string): Promise<boolean> {
  const hits = await queryRaw<Array<{ id: string }>>(
    tx,
    sql`
    WITH RECURSIVE ancestors(id, parent_id) AS (
      SELECT id, parent_id FROM suites WHERE id = ${candidateId} AND org_id = ${ctx.org.id}
      UNION ALL
      SELECT s.id, s.parent_id FROM suites s JOIN ancestors a ON s.id = a.parent_id WHERE s.org_id = ${ctx.org.id}
    )
    SELECT id FROM ancestors WHERE id = ${suiteId} LIMIT 1`,
  );
  return hits.length > 0;
}

/**
 * ULIDs of the project's suites depth-first, siblings by position then ULID, starting after
 * `after` (exclusive) and at most `take` of them (all for null). Each suite's sort key is the
 * chain of fixed-width `<position><ulid>` segments from its root, so byte order is tree order.
 */
async function treeOrder(ctx: RequestContext, projectId: string, after: string | null, take: number | null) {
  const rows = await queryRaw<Array<{ id: string }>>(
    ctx.db,
    sql`
    WITH RECURSIVE tree(id, sort_key) AS (
      SELECT id, lpad(position::text, 10, '0') || id::text
      FROM suites WHERE org_id = ${ctx.org.id} AND project_id = ${projectId} AND parent_id IS NULL
      UNION ALL
      SELECT s.id, tree.sort_key || lpad(s.position::text, 10, '0') || s.id::text
      FROM suites s JOIN tree ON s.parent_id = tree.id
      WHERE s.org_id = ${ctx.org.id}
    )
    SELECT id FROM tree
    WHERE ${after}::text IS NULL OR sort_key COLLATE "C" > (SELECT sort_key FROM tree WHERE id = ${after}) COLLATE "C"
    ORDER BY sort_key COLLATE "C"
    LIMIT ${take}::int`,
  );
  return rows.map((row) => row.id);
}

/** `rows` in the order of `ids`. */
function inOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One cursor page of the project's suite tree, depth-first (`cursor`: the last suite of the previous page). */
export async function listSuites(ctx: RequestContext, code: string, query: CursorQuery) {
  authorize(ctx, 'project.read');
  const project = await resolveProject(ctx, code);
  if (query.cursor && !(await ctx.db.suite.findFirst({ where: { id: query.cursor, projectId: project.id }, select: { id: true } }))) {
    throw validationFailed('cursor: not a suite of this project', { path: ['cursor'], location: 'query' });
  }
  const ids = await treeOrder(ctx, project.id, query.cursor ?? null, query.limit + 1);
  const rows = await ctx.db.suite.findMany({ where: { id: { in: ids } } });
  const page = cursorPageOf(inOrder(ids, rows), query.limit);
  return { items: page.items.map((suite) => ({ ...suite, project })), nextCursor: page.nextCursor };
}

/** The whole tree of a project depth-first, for GraphQL (`query` carries Pothos's selection). */
export async function findSuiteTree(
  ctx: RequestContext,
  project: Pick<ProjectRow, 'id' | 'lockedAt'>,
  query: Omit<Prisma.SuiteFindManyArgs, 'where' | 'orderBy'> = {},
) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  const ids = await treeOrder(ctx, project.id, null, null);
  return inOrder(ids, await ctx.db.suite.findMany({ ...query, where: { id: { in: ids } } }));
}

export async function findSuiteByDisplayId(ctx: RequestContext, code: string, displayId: string) {
  authorize(ctx, 'project.read');
  const project = await resolveProject(ctx, code);
  const suiteNumber = parseDisplayId(displayId, project.code, 'suite');
  const suite = await ctx.db.suite.findFirst({ where: { projectId: project.id, suiteNumber } });
  if (!suite) throw notFound('Suite');
  return { ...suite, project };
}

/**
 * The suite at the end of each path of names from the root (`['checkout', 'PaymentTest']`), created
 * with the suites missing on the way, inside the caller's transaction: one counter update and one
 * insert for all of them, each appended after its siblings. Keyed by the path's names joined with
 * a NUL, with how many were created. Names are matched exactly (the first sibling of that name, by position).
 */
export async function ensureSuitePaths(tx: Db, ctx: RequestContext, projectId: string, paths: string[][]) {
  const resolved = new Map<string, string>();
  if (paths.length === 0) return { suiteIds: resolved, created: 0 };
  await lockProjectTree(tx, ctx, projectId);
  const existing = await tx.suite.findMany({
    where: { projectId },
    orderBy: SIBLING_ORDER,
    select: { id: true, name: true, parentId: true },
  });
  const childOf = new Map<string, string>();
  const childCount = new Map<string | null, number>();
  const slot = (parentId: string | null, name: string) => `${parentId ?? ''}\u0000${name}`;
  for (const suite of existing) {
    if (!childOf.has(slot(suite.parentId, suite.name))) childOf.set(slot(suite.parentId, suite.name), suite.id);
    childCount.set(suite.parentId, (childCount.get(suite.parentId) ?? 0) + 1);
  }
  const created: Array<{ id: string; name: string; parentId: string | null; position: number }> = [];
  for (const names of paths) {
    let parentId: string | null = null;
    for (const name of names) {
      let id = childOf.get(slot(parentId, name));
      if (!id) {
        id = newId();
        const position = childCount.get(parentId) ?? 0;
        childCount.set(parentId, position + 1);
        childOf.set(slot(parentId, name), id);
        created.push({ id, name, parentId, position });
      }
      parentId = id;
    }
    resolved.set(names.join('\u0000'), parentId!);
  }
  if (created.length > 0) {
    const first = await allocateNumbers(tx, projectId, 'suite', created.length);
    await tx.suite.createMany({
      data: created.map((suite, index) => ({ ...suite, orgId: ctx.org.id, projectId, suiteNumber: first + index })),
    });
  }
  return { suiteIds: resolved, created: created.length };
}

export async function createSuite(ctx: RequestContext, code: string, input: CreateSuiteInput) {
  authorize(ctx, 'suite.write');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, code, { db: tx });
    await lockProjectTree(tx, ctx, project.id);
    const parentId = input.parentUlid ? (await findLiveSuiteInProject(tx, project.id, input.parentUlid)).id : null;
    const position = await tx.suite.count({ where: { projectId: project.id, parentId } });
    const suiteNumber = await allocateNumber(tx, project.id, 'suite');
    const created = await tx.suite.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: project.id,
        suiteNumber,
        name: input.name,
        description: input.description ?? null,
        parentId,
        position,
      },
      include: { project: true },
    });
    await emitAudit(tx, ctx, {
      action: 'suite.created',
      entityType: 'suite',
      entityUlid: created.id,
      entityLabel: created.name,
      metadata: { displayId: suiteDisplayId(project.code, suiteNumber), parentUlid: parentId, position },
    });
    return created;
  });
}

/** Renames and/or moves a suite; siblings on both sides keep positions 0..n-1. */
export async function updateSuite(ctx: RequestContext, suiteUlid: string, input: UpdateSuiteInput) {
  authorize(ctx, 'suite.write');
  if (Object.values(input).every((value) => value === undefined)) {
    throw validationFailed('Provide at least one of name, description, parentUlid, position');
  }
  return inTransaction(ctx.db, async (tx) => {
    await lockTreeOfSuite(tx, ctx, suiteUlid);
    const suite = await resolveSuite(ctx, suiteUlid, { db: tx });
    const changes: Change[] = [];
    if (input.name !== undefined && input.name !== suite.name) changes.push(change('name', suite.name, input.name));
    if (input.description !== undefined && input.description !== suite.description) {
      changes.push(change('description', suite.description, input.description));
    }

    const parentId = input.parentUlid === undefined ? suite.parentId : input.parentUlid;
    const moved = parentId !== suite.parentId;
    if (moved && parentId !== null) {
      await findLiveSuiteInProject(tx, suite.projectId, parentId);
      if (await isInSubtree(tx, ctx, suite.id, parentId)) {
        throw validationFailed('A suite cannot move under itself or one of its descendants', { path: ['parentUlid'] });
      }
    }
    if (moved) changes.push(change('parentUlid', suite.parentId, parentId));

    const now = new Date();
    const targetChildren = await childrenOf(tx, suite.projectId, parentId);
    const siblings = targetChildren.filter((row) => row.id !== suite.id);
    // Without `position` a moved suite goes last, a suite that stays keeps its place.
    const currentIndex = moved ? siblings.length : targetChildren.findIndex((row) => row.id === suite.id);
    const position = Math.min(input.position ?? currentIndex, siblings.length);
    if (position !== suite.position) changes.push(change('position', suite.position, position));
    if (changes.length === 0) return suite;

    if (moved) {
      const formerSiblings = (await childrenOf(tx, suite.projectId, suite.parentId)).filter((row) => row.id !== suite.id);
      await renumber(tx, ctx, formerSiblings, now);
    }
    await renumber(tx, ctx, siblings.toSpliced(position, 0, { id: suite.id, position: suite.position }), now);
    const updated = await tx.suite.update({
      where: { id: suite.id },
      data: { name: input.name, description: input.description, parentId, updatedAt: now },
      include: { project: true },
    });
    await emitAudit(tx, ctx, {
      action: moved ? 'suite.moved' : 'suite.updated',
      entityType: 'suite',
      entityUlid: updated.id,
      entityLabel: updated.name,
      metadata: { changes },
    });
    return updated;
  });
}

/**
 * Deletes a suite without losing anything: its child suites move up to its parent (after the
 * parent's own children, in their order) and its cases too (unassigned for a root suite).
 */
export async function deleteSuite(ctx: RequestContext, suiteUlid: string): Promise<void> {
  authorize(ctx, 'suite.write');
  await inTransaction(ctx.db, async (tx) => {
    await lockTreeOfSuite(tx, ctx, suiteUlid);
    const suite = await resolveSuite(ctx, suiteUlid, { db: tx });
    const now = new Date();
    const children = await childrenOf(tx, suite.projectId, suite.id);
    const remaining = (await childrenOf(tx, suite.projectId, suite.parentId)).filter((row) => row.id !== suite.id);
    await tx.suite.updateMany({ where: { parentId: suite.id }, data: { parentId: suite.parentId, updatedAt: now } });
    const movedCases = await tx.testCase.updateMany({ where: { suiteId: suite.id }, data: { suiteId: suite.parentId, updatedAt: now } });
    await tx.suite.delete({ where: { id: suite.id } });
    await renumber(tx, ctx, [...remaining, ...children], now);
    await emitAudit(tx, ctx, {
      action: 'suite.deleted',
      entityType: 'suite',
      entityUlid: suite.id,
      entityLabel: suite.name,
      metadata: {
        displayId: suiteDisplayId(suite.project.code, suite.suiteNumber),
        movedSuites: children.length,
        movedCases: movedCases.count,
        parentUlid: suite.parentId,
      },
    });
  });
}
