import { Prisma } from '../../prisma/generated/client/client.ts';
import {
  type CustomFieldChange,
  type CustomFieldValue,
  isVisibleIn,
  loadReadDefinitions,
  presentFieldValues,
  readCaseFieldValues,
  writeCaseFieldValues,
} from '../custom-fields/field-values.service.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId, ULID_PATTERN } from '../kernel/ids.ts';
import { cursorPageOf, type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { findLiveMilestoneInProject } from '../milestones/milestones.service.ts';
import { allocateNumber } from '../projects/numbering.service.ts';
import { caseDisplayId, parseDisplayId } from '../projects/projects.schemas.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { findLiveSuiteInProject } from '../suites/suites.service.ts';
import { releaseAttachmentsOf, toStepAttachment } from './step-attachments.ts';
import { type StepsChange, saveSteps } from './steps.service.ts';
import type {
  CaseScalarPatch,
  CreateTestCaseInput,
  StepInput,
  TestCaseFilter,
  TestCaseListQuery,
  UpdateTestCaseInput,
} from './test-cases.schemas.ts';

export type TestCaseRow = Awaited<ReturnType<Db['testCase']['findFirstOrThrow']>>;

/** What a TestCase response is made of: the case, its project, its steps with their attachments. */
export const CASE_INCLUDE = {
  project: true,
  steps: {
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    include: { attachments: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } },
  },
} satisfies Prisma.TestCaseInclude;
export type CaseRecord = Prisma.TestCaseGetPayload<{ include: typeof CASE_INCLUDE }>;

export const caseLabel = (testCase: { caseNumber: number; title: string; project: { code: string } }) =>
  `${caseDisplayId(testCase.project.code, testCase.caseNumber)} · ${testCase.title}`;

export function toTestCase(record: CaseRecord, customFieldValues: CustomFieldValue[]) {
  return {
    ulid: record.id,
    projectUlid: record.projectId,
    caseNumber: record.caseNumber,
    displayId: caseDisplayId(record.project.code, record.caseNumber),
    title: record.title,
    description: record.description,
    suiteUlid: record.suiteId,
    milestoneUlid: record.milestoneId,
    tags: record.tags,
    automationKey: record.automationKey,
    steps: record.steps.map((step) => ({
      ulid: step.id,
      position: step.position,
      action: step.action,
      expectedResult: step.expectedResult,
      attachments: step.attachments.map(toStepAttachment),
    })),
    customFieldValues,
    archivedAt: epochMsOrNull(record.archivedAt),
    createdAt: record.createdAt.getTime(),
    updatedAt: record.updatedAt.getTime(),
  };
}
export type TestCaseOut = ReturnType<typeof toTestCase>;

/** TestCase responses for many cases; their custom field values are read in one batch. */
export async function presentTestCases(ctx: RequestContext, records: CaseRecord[]): Promise<TestCaseOut[]> {
  const values = await readCaseFieldValues(ctx, records);
  return records.map((record) => toTestCase(record, values.get(record.id) ?? []));
}

export const presentTestCase = async (ctx: RequestContext, record: CaseRecord) => (await presentTestCases(ctx, [record]))[0]!;

export const caseNotFound = () => notFound('Test case');

/** A write that sets an automation key: a key another case of the project holds (archived ones too) is a 409. */
export const keyUniqueOrConflict = <T>(write: () => Promise<T>) =>
  uniqueOrConflict(write, { field: 'automationKey', message: 'Another test case of the project has this automation key' });

/**
 * A case ULID of the active organization, with its project, gated like its project: 404 for an
 * unknown, foreign or malformed ULID, 403 project_locked for a case of a locked project.
 */
export async function resolveTestCase(
  ctx: RequestContext,
  caseUlid: string,
  options: { db?: Db } = {},
): Promise<TestCaseRow & { project: ProjectRow }> {
  authorize(ctx, 'project.read');
  // A string that is not a ULID names no case (and never reaches SQL).
  if (!ULID_PATTERN.test(caseUlid)) throw caseNotFound();
  const testCase = await (options.db ?? ctx.db).testCase.findFirst({ where: { id: caseUlid }, include: { project: true } });
  if (!testCase) throw caseNotFound();
  assertProjectUnlocked(testCase.project);
  return testCase;
}

/** The full record of a case already resolved in this request. */
export async function readRecord(db: Db, caseId: string): Promise<CaseRecord> {
  const record = await db.testCase.findFirst({ where: { id: caseId }, include: CASE_INCLUDE });
  if (!record) throw caseNotFound();
  return record;
}

export async function getTestCase(ctx: RequestContext, caseUlid: string): Promise<CaseRecord> {
  authorize(ctx, 'project.read');
  if (!ULID_PATTERN.test(caseUlid)) throw caseNotFound();
  const record = await ctx.db.testCase.findFirst({ where: { id: caseUlid }, include: CASE_INCLUDE });
  if (!record) throw caseNotFound();
  assertProjectUnlocked(record.project);
  return record;
}

export async function getTestCaseByDisplayId(ctx: RequestContext, projectCode: string, displayId: string): Promise<CaseRecord> {
  authorize(ctx, 'project.read');
  const project = await resolveProject(ctx, projectCode);
  const caseNumber = parseDisplayId(displayId, project.code, 'case');
  const record = await ctx.db.testCase.findFirst({ where: { projectId: project.id, caseNumber }, include: CASE_INCLUDE });
  if (!record) throw caseNotFound();
  return record;
}

export const auditOf = (record: CaseRecord) => ({
  entityType: 'test_case',
  entityUlid: record.id,
  entityLabel: caseLabel(record),
});

export async function createTestCase(ctx: RequestContext, projectCode: string, input: CreateTestCaseInput): Promise<CaseRecord> {
  authorize(ctx, 'case.write');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    if (input.suiteUlid) await findLiveSuiteInProject(tx, project.id, input.suiteUlid);
    if (input.milestoneUlid) await findLiveMilestoneInProject(tx, project.id, input.milestoneUlid);
    const caseNumber = await allocateNumber(tx, project.id, 'case');
    const created = await keyUniqueOrConflict(() =>
      tx.testCase.create({
        data: {
          id: newId(),
          orgId: ctx.org.id,
          projectId: project.id,
          caseNumber,
          title: input.title,
          description: input.description ?? null,
          suiteId: input.suiteUlid ?? null,
          milestoneId: input.milestoneUlid ?? null,
          tags: input.tags ?? [],
          automationKey: input.automationKey ?? null,
        },
      }),
    );
    if (input.steps?.length) await saveSteps(tx, ctx, created.id, input.steps);
    if (input.customFieldValues?.length) {
      await writeCaseFieldValues(tx, ctx, created, input.customFieldValues, { mode: 'merge', pathPrefix: ['customFieldValues'] });
    }
    const record = await readRecord(tx, created.id);
    await emitAudit(tx, ctx, {
      action: 'test_case.created',
      ...auditOf(record),
      metadata: {
        displayId: caseDisplayId(project.code, caseNumber),
        suiteUlid: record.suiteId,
        stepCount: record.steps.length,
      },
    });
    return record;
  });
}

/** 404 unless the `suiteUlid` filter names a suite of the project. */
async function checkFilter(ctx: RequestContext, projectId: string, filter: TestCaseFilter): Promise<void> {
  if (filter.suiteUlid) await findLiveSuiteInProject(ctx.db, projectId, filter.suiteUlid);
}

/** The list's filter as a condition on `test_cases c`. */
function caseListCondition(projectId: string, filter: TestCaseFilter): Prisma.Sql {
  const conditions = [sql`c.project_id = ${projectId}`, filter.archived ? sql`c.archived_at IS NOT NULL` : sql`c.archived_at IS NULL`];
  if (filter.suiteUlid) conditions.push(sql`c.suite_id = ${filter.suiteUlid}`);
  if (filter.q) conditions.push(sql`c.title ILIKE ${`%${likeLiteral(filter.q)}%`}`);
  if (filter.tag) conditions.push(sql`${filter.tag} = ANY (c.tags)`);
  if (filter.automationKey !== undefined) conditions.push(sql`c.automation_key = ${filter.automationKey}`);
  return Prisma.join(conditions, ' AND ');
}

/** A case of the list as its statement answers it: steps already in response shape, stored values by field ULID. */
type CaseListRow = Omit<
  TestCaseOut,
  'ulid' | 'projectUlid' | 'displayId' | 'customFieldValues' | 'archivedAt' | 'createdAt' | 'updatedAt'
> & {
  id: string;
  values: Record<string, unknown> | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Cases of a project by ULID ascending, cursor-paged (`cursor`: the last ULID of the previous
 * page), as TestCase responses. A page is one statement (each case with its steps, their
 * attachments and its stored values) plus the field definitions: Prisma's nested include and its
 * result mapping cost several times the database's work on this hot read. The project was
 * resolved through the tenant client (a project hidden from the caller is a 404), so its cases
 * are the caller's to see. ULIDs compare bytewise (COLLATE "C"), an order only the index on
 * (project_id, id COLLATE "C") holds: no plan can walk the primary key through other projects' cases.
 */
export async function listTestCases(ctx: RequestContext, projectCode: string, query: TestCaseListQuery) {
  authorize(ctx, 'project.read');
  const project = await resolveProject(ctx, projectCode);
  await checkFilter(ctx, project.id, query);
  const rows = await queryRaw<CaseListRow[]>(
    ctx.db,
    sql`
    SELECT c.id, c.case_number AS "caseNumber", c.title, c.description, c.suite_id AS "suiteUlid",
      c.milestone_id AS "milestoneUlid", c.tags, c.automation_key AS "automationKey",
      COALESCE((
        SELECT json_agg(json_build_object(
          'ulid', s.id, 'position', s.position, 'action', s.action, 'expectedResult', s.expected_result,
          'attachments', COALESCE((
            SELECT json_agg(json_build_object(
              'ulid', a.id, 'fileName', a.file_name, 'contentType', a.content_type, 'sizeBytes', a.size_bytes,
              'createdAt', (extract(epoch FROM a.created_at) * 1000)::bigint) ORDER BY a.position, a.id)
            FROM step_attachments a WHERE a.step_id = s.id), '[]')) ORDER BY s.position, s.id)
        FROM test_case_steps s WHERE s.case_id = c.id), '[]') AS steps,
      (SELECT json_object_agg(v.field_id, v.value) FROM test_case_field_values v WHERE v.case_id = c.id) AS values,
      c.archived_at AS "archivedAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt"
    FROM test_cases c
    WHERE c.org_id = ${ctx.org.id} AND ${caseListCondition(project.id, query)}
      ${query.cursor ? sql`AND c.id COLLATE "C" > ${query.cursor}` : Prisma.empty}
    ORDER BY c.id COLLATE "C"
    LIMIT ${query.limit + 1}`,
  );
  const page = cursorPageOf(rows, query.limit);
  const definitions = (await loadReadDefinitions(ctx.db, ctx.org.id, 'test_case')).filter((definition) =>
    isVisibleIn(definition, project.id),
  );
  const items: TestCaseOut[] = page.items.map((row) => ({
    ulid: row.id,
    projectUlid: project.id,
    caseNumber: row.caseNumber,
    displayId: caseDisplayId(project.code, row.caseNumber),
    title: row.title,
    description: row.description,
    suiteUlid: row.suiteUlid,
    milestoneUlid: row.milestoneUlid,
    tags: row.tags,
    automationKey: row.automationKey,
    steps: row.steps,
    customFieldValues: presentFieldValues(definitions, row.values ?? {}, ctx.locale),
    archivedAt: epochMsOrNull(row.archivedAt),
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  }));
  return { items, nextCursor: page.nextCursor };
}

/** Every archived case of a project, most recently archived first. */
export async function listArchivedTestCases(ctx: RequestContext, projectCode: string, query: PageQuery) {
  authorize(ctx, 'project.read');
  const project = await resolveProject(ctx, projectCode);
  const where = { projectId: project.id, archivedAt: { not: null } } satisfies Prisma.TestCaseWhereInput;
  const [items, total] = await Promise.all([
    ctx.db.testCase.findMany({
      where,
      orderBy: [{ archivedAt: 'desc' }, { id: 'desc' }],
      include: CASE_INCLUDE,
      ...pageWindow(query),
    }),
    ctx.db.testCase.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/**
 * Cases for GraphQL connections: `window` carries Pothos's cursor, take/skip (a negative take
 * pages backwards) and selection. The page's ULIDs are read in byte order with the list's own
 * index, as listTestCases reads them; the cases then by those ULIDs, with the selection.
 */
export async function findTestCases(
  ctx: RequestContext,
  project: Pick<ProjectRow, 'id' | 'lockedAt'>,
  filter: TestCaseFilter,
  window: Omit<Prisma.TestCaseFindManyArgs, 'where' | 'orderBy'>,
) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  await checkFilter(ctx, project.id, filter);
  const { cursor, take = 0, skip = 0, ...selection } = window;
  const backward = take < 0;
  const bound = cursor?.id
    ? sql`AND c.id COLLATE "C" ${backward ? sql`<` : sql`>`}${skip > 0 ? Prisma.empty : sql`=`} ${cursor.id}`
    : Prisma.empty;
  const page = await queryRaw<Array<{ id: string }>>(
    ctx.db,
    sql`
    SELECT c.id FROM test_cases c
    WHERE c.org_id = ${ctx.org.id} AND ${caseListCondition(project.id, filter)} ${bound}
    ORDER BY c.id COLLATE "C" ${backward ? sql`DESC` : sql`ASC`}
    LIMIT ${Math.abs(take)} OFFSET ${cursor?.id ? Math.max(skip - 1, 0) : skip}`,
  );
  if (page.length === 0) return [];
  const ids = page.map((row) => row.id).sort();
  const cases = await ctx.db.testCase.findMany({ ...selection, where: { id: { in: ids } } });
  const position = new Map(ids.map((id, index) => [id, index]));
  return cases.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

export async function countTestCases(ctx: RequestContext, project: Pick<ProjectRow, 'id'>, filter: TestCaseFilter) {
  authorize(ctx, 'project.read');
  const [row] = await queryRaw<Array<{ count: number }>>(
    ctx.db,
    sql`SELECT count(*)::int AS count FROM test_cases c WHERE c.org_id = ${ctx.org.id} AND ${caseListCondition(project.id, filter)}`,
  );
  return row!.count;
}

/**
 * Runs `work` on a case in one transaction holding the case's row lock, so that concurrent
 * writes of one case (steps, fields, archive) apply one after the other.
 */
export function inCaseTransaction<T>(
  ctx: RequestContext,
  caseUlid: string,
  work: (tx: Db, testCase: TestCaseRow & { project: ProjectRow }) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (tx) => {
    if (ULID_PATTERN.test(caseUlid)) await lockRow(tx, 'test_cases', caseUlid, { orgId: ctx.org.id });
    return work(tx, await resolveTestCase(ctx, caseUlid, { db: tx }));
  });
}

/** Archives (or restores) a case locked by `tx`, with its audit event; already so: nothing written. */
export async function writeArchived(tx: Db, ctx: RequestContext, testCase: TestCaseRow, archived: boolean): Promise<CaseRecord> {
  if ((testCase.archivedAt !== null) === archived) return readRecord(tx, testCase.id);
  const now = new Date();
  await tx.testCase.update({ where: { id: testCase.id }, data: { archivedAt: archived ? now : null, updatedAt: now } });
  const record = await readRecord(tx, testCase.id);
  await emitAudit(tx, ctx, { action: archived ? 'test_case.archived' : 'test_case.restored', ...auditOf(record) });
  return record;
}

async function setArchived(ctx: RequestContext, caseUlid: string, archived: boolean): Promise<CaseRecord> {
  authorize(ctx, 'case.write');
  return inCaseTransaction(ctx, caseUlid, (tx, testCase) => writeArchived(tx, ctx, testCase, archived));
}

/** Archiving an archived case (or restoring an active one) answers the case and records nothing. */
export const archiveTestCase = (ctx: RequestContext, caseUlid: string) => setArchived(ctx, caseUlid, true);
export const restoreTestCase = (ctx: RequestContext, caseUlid: string) => setArchived(ctx, caseUlid, false);

/** Deletes a case with its steps, values and comments; its attachment files go after commit. */
export async function deleteTestCase(ctx: RequestContext, caseUlid: string): Promise<void> {
  authorize(ctx, 'case.write');
  await inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    await releaseAttachmentsOf(tx, { caseId: testCase.id });
    await tx.testCase.delete({ where: { id: testCase.id } });
    await emitAudit(tx, ctx, {
      action: 'test_case.deleted',
      entityType: 'test_case',
      entityUlid: testCase.id,
      entityLabel: caseLabel(testCase),
      metadata: { displayId: caseDisplayId(testCase.project.code, testCase.caseNumber) },
    });
  });
}

/** PUT steps: replaces the case's steps (see saveSteps); no audit event of its own. */
export async function setTestCaseSteps(ctx: RequestContext, caseUlid: string, steps: StepInput[]): Promise<CaseRecord> {
  authorize(ctx, 'case.write');
  return inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    const stepsChange = await saveSteps(tx, ctx, testCase.id, steps);
    if (stepsChange) await tx.testCase.update({ where: { id: testCase.id }, data: { updatedAt: new Date() } });
    return readRecord(tx, testCase.id);
  });
}

type LabelledChange = Change & { fromLabel?: string | null; toLabel?: string | null };

const tagsText = (tags: string[]) => (tags.length > 0 ? tags.join(', ') : null);
const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((tag, index) => tag === b[index]);

/** The scalar part of a consolidated PATCH: what to write and the `changes` entries. */
async function scalarChanges(tx: Db, testCase: TestCaseRow, patch: CaseScalarPatch) {
  const data: Prisma.TestCaseUncheckedUpdateInput = {};
  const changes: LabelledChange[] = [];
  if (patch.title !== undefined && patch.title !== testCase.title) {
    data.title = patch.title;
    changes.push(change('title', testCase.title, patch.title));
  }
  if (patch.description !== undefined && patch.description !== testCase.description) {
    data.description = patch.description;
    changes.push(change('description', testCase.description, patch.description));
  }
  if (patch.suiteUlid !== undefined && patch.suiteUlid !== testCase.suiteId) {
    const to = patch.suiteUlid ? await findLiveSuiteInProject(tx, testCase.projectId, patch.suiteUlid) : null;
    const from = testCase.suiteId ? await tx.suite.findFirst({ where: { id: testCase.suiteId }, select: { name: true } }) : null;
    data.suiteId = patch.suiteUlid;
    changes.push({ ...change('suiteUlid', testCase.suiteId, patch.suiteUlid), fromLabel: from?.name ?? null, toLabel: to?.name ?? null });
  }
  if (patch.milestoneUlid !== undefined && patch.milestoneUlid !== testCase.milestoneId) {
    const to = patch.milestoneUlid ? await findLiveMilestoneInProject(tx, testCase.projectId, patch.milestoneUlid) : null;
    const from = testCase.milestoneId
      ? await tx.milestone.findFirst({ where: { id: testCase.milestoneId }, select: { name: true } })
      : null;
    data.milestoneId = patch.milestoneUlid;
    changes.push({
      ...change('milestoneUlid', testCase.milestoneId, patch.milestoneUlid),
      fromLabel: from?.name ?? null,
      toLabel: to?.name ?? null,
    });
  }
  if (patch.tags !== undefined && !sameTags(patch.tags, testCase.tags)) {
    data.tags = patch.tags;
    changes.push(change('tags', tagsText(testCase.tags), tagsText(patch.tags)));
  }
  if (patch.automationKey !== undefined && patch.automationKey !== testCase.automationKey) {
    data.automationKey = patch.automationKey;
    changes.push(change('automationKey', testCase.automationKey, patch.automationKey));
  }
  return { data, changes, moved: data.suiteId !== undefined };
}

/**
 * The consolidated PATCH: scalars, steps and custom field values in one transaction with one
 * audit event (`test_case.moved` when the suite changed, else `test_case.updated`) carrying only
 * the buckets that changed. Nothing changed: 200 and no event. Any failure: nothing written.
 */
export async function updateTestCase(ctx: RequestContext, caseUlid: string, input: UpdateTestCaseInput): Promise<CaseRecord> {
  authorize(ctx, 'case.write');
  if (input.patch === undefined && input.steps === undefined && input.customFieldValues === undefined) {
    throw validationFailed('Provide at least one of patch, steps, customFieldValues');
  }
  return inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    const scalars = input.patch
      ? await scalarChanges(tx, testCase, input.patch)
      : { data: {}, changes: [] as LabelledChange[], moved: false };
    const stepsChange: StepsChange | null = input.steps ? await saveSteps(tx, ctx, testCase.id, input.steps) : null;
    const customFieldChanges: CustomFieldChange[] = input.customFieldValues
      ? await writeCaseFieldValues(tx, ctx, testCase, input.customFieldValues, { mode: 'merge', pathPrefix: ['customFieldValues'] })
      : [];
    if (scalars.changes.length === 0 && !stepsChange && customFieldChanges.length === 0) return readRecord(tx, testCase.id);

    await keyUniqueOrConflict(() => tx.testCase.update({ where: { id: testCase.id }, data: { ...scalars.data, updatedAt: new Date() } }));
    const record = await readRecord(tx, testCase.id);
    await emitAudit(tx, ctx, {
      action: scalars.moved ? 'test_case.moved' : 'test_case.updated',
      ...auditOf(record),
      metadata: {
        ...(scalars.changes.length > 0 ? { changes: scalars.changes } : {}),
        ...(stepsChange ? { stepsChange } : {}),
        ...(customFieldChanges.length > 0 ? { customFieldChanges } : {}),
      },
    });
    return record;
  });
}
