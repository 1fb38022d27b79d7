import { type CustomFieldValue, type FieldValueInput, readFieldValues, writeValues } from '../custom-fields/field-values.service.ts';
import { assertMembers, authorColumns, toAuthor } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { newId, ULID_PATTERN } from '../kernel/ids.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import type { DefectStatus } from '../kernel/statuses.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { allocateNumber } from '../projects/numbering.service.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import type { CreateDefectInput, DefectFilter, DefectListQuery, UpdateDefectInput } from './defects.schemas.ts';

type DefectRow = Awaited<ReturnType<Db['defect']['findFirstOrThrow']>>;

/** The fields a PATCH writes, as the response shows them. */
const editableFieldsOf = (row: DefectRow) => ({
  title: row.title,
  description: row.description,
  status: row.status as DefectStatus,
  assigneeUlid: row.assigneeId,
  externalUrl: row.externalUrl,
});

export function toDefect(row: DefectRow, customFieldValues: CustomFieldValue[]) {
  return {
    ulid: row.id,
    projectUlid: row.projectId,
    defectNumber: row.defectNumber,
    ...editableFieldsOf(row),
    author: toAuthor(row),
    customFieldValues,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}
export type DefectOut = ReturnType<typeof toDefect>;

/** Defect responses for many defects; their custom field values are read in one batch. */
export async function presentDefects(ctx: RequestContext, rows: DefectRow[]): Promise<DefectOut[]> {
  const values = await readFieldValues(ctx, 'defect', rows);
  return rows.map((row) => toDefect(row, values.get(row.id) ?? []));
}

export const presentDefect = async (ctx: RequestContext, row: DefectRow) => (await presentDefects(ctx, [row]))[0]!;

/** Newest first. */
const DEFECT_ORDER = [{ defectNumber: 'desc' }] satisfies Prisma.DefectOrderByWithRelationInput[];

const defectEvent = (defect: DefectRow) => ({ entityType: 'defect', entityUlid: defect.id, entityLabel: defect.title });

/**
 * A defect of the active organization by ULID, gated like its project: 404 for an unknown,
 * foreign or malformed ULID (or a hidden project's defect), 403 project_locked.
 */
export async function resolveDefect(ctx: RequestContext, defectUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  if (!ULID_PATTERN.test(defectUlid)) throw notFound('Defect');
  const defect = await (options.db ?? ctx.db).defect.findFirst({ where: { id: defectUlid }, include: { project: true } });
  if (!defect) throw notFound('Defect');
  assertProjectUnlocked(defect.project);
  return defect;
}

/** A defect mutation: the write role first, then the defect's row lock, then the defect as it is under it. */
function inDefectTransaction<T>(
  ctx: RequestContext,
  defectUlid: string,
  work: (tx: Db, defect: DefectRow & { project: ProjectRow }) => Promise<T>,
) {
  authorize(ctx, 'defect.write');
  return inTransaction(ctx.db, async (tx) => {
    if (ULID_PATTERN.test(defectUlid)) await lockRow(tx, 'defects', defectUlid, { orgId: ctx.org.id });
    return work(tx, await resolveDefect(ctx, defectUlid, { db: tx }));
  });
}

const writeDefectFieldValues = (tx: Db, ctx: RequestContext, defect: DefectRow, values: FieldValueInput[], mode: 'merge' | 'create') =>
  writeValues(tx, ctx, { entity: 'defect', id: defect.id, projectId: defect.projectId }, values, {
    mode,
    pathOf: (index) => ['customFieldValues', index],
    listPath: ['customFieldValues'],
  });

/** The result attempts named, each in a run of the defect's project (any other: 404). */
async function findLinkableResults(db: Db, projectId: string, resultUlids: string[]) {
  if (resultUlids.length === 0) return [];
  const results = await db.testRunResult.findMany({
    where: { id: { in: resultUlids }, run: { projectId } },
    select: {
      id: true,
      runId: true,
      runCaseId: true,
      runCase: { select: { caseNumber: true } },
      run: { select: { project: { select: { code: true } } } },
    },
  });
  if (results.length !== new Set(resultUlids).size) throw notFound('Result');
  return results;
}

type LinkableResult = Awaited<ReturnType<typeof findLinkableResults>>[number];

const linkMetadata = (result: LinkableResult) => ({
  resultUlid: result.id,
  runUlid: result.runId,
  runCaseUlid: result.runCaseId,
  caseDisplayId: result.runCase ? caseDisplayId(result.run.project.code, result.runCase.caseNumber) : null,
});

export async function createDefect(ctx: RequestContext, projectCode: string, input: CreateDefectInput) {
  authorize(ctx, 'defect.write');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    if (input.assigneeUlid) await assertMembers(tx, [input.assigneeUlid]);
    const results = await findLinkableResults(tx, project.id, input.resultUlids ?? []);
    const created = await tx.defect.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: project.id,
        defectNumber: await allocateNumber(tx, project.id, 'defect'),
        title: input.title,
        description: input.description ?? null,
        status: input.status ?? 'open',
        assigneeId: input.assigneeUlid ?? null,
        externalUrl: input.externalUrl ?? null,
        ...authorColumns(ctx.identity),
      },
    });
    await writeDefectFieldValues(tx, ctx, created, input.customFieldValues ?? [], 'create');
    if (results.length > 0) {
      await tx.defectResultLink.createMany({
        data: results.map((result) => ({ defectId: created.id, resultId: result.id, orgId: ctx.org.id })),
      });
    }
    await emitAudit(tx, ctx, {
      action: 'defect.created',
      ...defectEvent(created),
      metadata: {
        defectNumber: created.defectNumber,
        status: created.status,
        assigneeUlid: created.assigneeId,
        resultUlids: results.map((result) => result.id),
      },
    });
    return created;
  });
}

function defectSearch(projectId: string, filter: DefectFilter): Prisma.DefectWhereInput {
  return {
    projectId,
    ...(filter.q ? { title: { contains: likeLiteral(filter.q), mode: 'insensitive' } } : {}),
    ...(filter.status.length > 0 ? { status: { in: filter.status } } : {}),
    ...(filter.assigneeUlid !== undefined ? { assigneeId: filter.assigneeUlid === '' ? null : filter.assigneeUlid } : {}),
  };
}

export async function listDefects(ctx: RequestContext, projectCode: string, query: DefectListQuery) {
  const project = await resolveProject(ctx, projectCode);
  const where = defectSearch(project.id, query);
  const [rows, total] = await Promise.all([
    ctx.db.defect.findMany({ where, orderBy: DEFECT_ORDER, ...pageWindow(query) }),
    ctx.db.defect.count({ where }),
  ]);
  return pageOf(rows, query, total);
}

/** Defects for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findDefects(ctx: RequestContext, project: { id: string }, filter: DefectFilter, window: Prisma.DefectFindManyArgs) {
  authorize(ctx, 'project.read');
  return ctx.db.defect.findMany({ ...window, where: defectSearch(project.id, filter), orderBy: DEFECT_ORDER });
}

export async function countDefects(ctx: RequestContext, project: { id: string }, filter: DefectFilter) {
  authorize(ctx, 'project.read');
  return ctx.db.defect.count({ where: defectSearch(project.id, filter) });
}

/** Every field present is written; unchanged values record nothing, and an all-unchanged PATCH answers the defect as it is. */
export async function updateDefect(ctx: RequestContext, defectUlid: string, input: UpdateDefectInput) {
  return inDefectTransaction(ctx, defectUlid, async (tx, before) => {
    const { customFieldValues, ...scalars } = input;
    const changes = changesBetween(editableFieldsOf(before), scalars);
    if (scalars.assigneeUlid && changes.some((entry) => entry.field === 'assigneeUlid')) await assertMembers(tx, [scalars.assigneeUlid]);
    const customFieldChanges = customFieldValues ? await writeDefectFieldValues(tx, ctx, before, customFieldValues, 'merge') : [];
    if (changes.length === 0 && customFieldChanges.length === 0) return before;
    const updated = await tx.defect.update({
      where: { id: before.id },
      data: {
        title: scalars.title,
        description: scalars.description,
        status: scalars.status,
        assigneeId: scalars.assigneeUlid,
        externalUrl: scalars.externalUrl,
        updatedAt: new Date(),
      },
    });
    await emitAudit(tx, ctx, {
      action: 'defect.updated',
      ...defectEvent(updated),
      metadata: {
        ...(changes.length > 0 ? { changes } : {}),
        ...(customFieldChanges.length > 0 ? { customFieldChanges } : {}),
      },
    });
    return updated;
  });
}

/** A hard delete: its links, custom field values and comments go with it. */
export async function deleteDefect(ctx: RequestContext, defectUlid: string): Promise<void> {
  await inDefectTransaction(ctx, defectUlid, async (tx, defect) => {
    await tx.defect.delete({ where: { id: defect.id } });
    await emitAudit(tx, ctx, { action: 'defect.deleted', ...defectEvent(defect), metadata: { defectNumber: defect.defectNumber } });
  });
}

/**
 * Links a result attempt of the defect's project. Linking a linked result answers the link as
 * it is and records nothing (`created: false`).
 */
export async function linkResult(ctx: RequestContext, defectUlid: string, resultUlid: string) {
  return inDefectTransaction(ctx, defectUlid, async (tx, defect) => {
    const [result] = await findLinkableResults(tx, defect.projectId, [resultUlid]);
    const { count } = await tx.defectResultLink.createMany({
      data: [{ defectId: defect.id, resultId: result!.id, orgId: ctx.org.id }],
      skipDuplicates: true,
    });
    if (count > 0) {
      await emitAudit(tx, ctx, { action: 'defect.linked', ...defectEvent(defect), runId: result!.runId, metadata: linkMetadata(result!) });
    }
    return { created: count > 0, link: await readLinkedResult(tx, defect.id, result!.id) };
  });
}

/** Unlinks a result attempt; a result that is not linked answers 404. */
export async function unlinkResult(ctx: RequestContext, defectUlid: string, resultUlid: string): Promise<void> {
  await inDefectTransaction(ctx, defectUlid, async (tx, defect) => {
    const link = ULID_PATTERN.test(resultUlid)
      ? await tx.defectResultLink.findFirst({ where: { defectId: defect.id, resultId: resultUlid } })
      : null;
    if (!link) throw notFound('Link');
    const [result] = await findLinkableResults(tx, defect.projectId, [resultUlid]);
    await tx.defectResultLink.delete({ where: { defectId_resultId: { defectId: defect.id, resultId: resultUlid } } });
    await emitAudit(tx, ctx, { action: 'defect.unlinked', ...defectEvent(defect), runId: result!.runId, metadata: linkMetadata(result!) });
  });
}

const LINKED_RESULT_INCLUDE = {
  result: {
    select: {
      id: true,
      status: true,
      executedAt: true,
      runCaseId: true,
      runCase: { select: { caseNumber: true } },
      run: { select: { id: true, name: true, project: { select: { code: true } } } },
    },
  },
} satisfies Prisma.DefectResultLinkInclude;

type LinkRecord = Prisma.DefectResultLinkGetPayload<{ include: typeof LINKED_RESULT_INCLUDE }>;

const toLinkedResult = ({ result, createdAt }: LinkRecord) => ({
  resultUlid: result.id,
  runUlid: result.run.id,
  runTitle: result.run.name,
  runCaseUlid: result.runCaseId,
  caseDisplayId: result.runCase ? caseDisplayId(result.run.project.code, result.runCase.caseNumber) : null,
  status: result.status,
  executedAt: result.executedAt.getTime(),
  linkedAt: createdAt.getTime(),
});

async function readLinkedResult(db: Db, defectId: string, resultId: string) {
  const link = await db.defectResultLink.findFirstOrThrow({ where: { defectId, resultId }, include: LINKED_RESULT_INCLUDE });
  return toLinkedResult(link);
}

const LINK_ORDER = [{ result: { executedAt: 'desc' } }, { resultId: 'desc' }] satisfies Prisma.DefectResultLinkOrderByWithRelationInput[];

/** The result attempts a defect is linked to, most recently executed first. */
export async function listLinkedResults(ctx: RequestContext, defectUlid: string, query: PageQuery) {
  const defect = await resolveDefect(ctx, defectUlid);
  const where = { defectId: defect.id };
  const [links, total] = await Promise.all([
    ctx.db.defectResultLink.findMany({ where, include: LINKED_RESULT_INCLUDE, orderBy: LINK_ORDER, ...pageWindow(query) }),
    ctx.db.defectResultLink.count({ where }),
  ]);
  return pageOf(links.map(toLinkedResult), query, total);
}

/** The linked results of many defects at once (GraphQL batches a page of defects). */
export async function linkedResultsOf(ctx: RequestContext, defectIds: readonly string[]) {
  authorize(ctx, 'project.read');
  const links = await ctx.db.defectResultLink.findMany({
    where: { defectId: { in: [...defectIds] } },
    include: LINKED_RESULT_INCLUDE,
    orderBy: LINK_ORDER,
  });
  return defectIds.map((defectId) => links.filter((link) => link.defectId === defectId).map(toLinkedResult));
}

const linkedThrough = (results: Prisma.TestRunResultWhereInput): Prisma.DefectWhereInput => ({
  resultLinks: { some: { result: results } },
});

/** A run case detail's `linkedDefects`: distinct defects linked through any attempt on the case, by number. */
export async function linkedDefectsOfRunCase(db: Db, runCaseId: string) {
  const defects = await db.defect.findMany({ where: linkedThrough({ runCaseId }), orderBy: { defectNumber: 'asc' } });
  return defects.map((defect) => ({
    ulid: defect.id,
    defectNumber: defect.defectNumber,
    title: defect.title,
    status: defect.status as DefectStatus,
    assigneeUlid: defect.assigneeId,
  }));
}

/** Defects linked to any result of a run, for a GraphQL connection. */
export async function findRunDefects(ctx: RequestContext, run: { id: string }, window: Prisma.DefectFindManyArgs) {
  authorize(ctx, 'project.read');
  return ctx.db.defect.findMany({ ...window, where: linkedThrough({ runId: run.id }), orderBy: DEFECT_ORDER });
}

export async function countRunDefects(ctx: RequestContext, run: { id: string }) {
  authorize(ctx, 'project.read');
  return ctx.db.defect.count({ where: linkedThrough({ runId: run.id }) });
}
