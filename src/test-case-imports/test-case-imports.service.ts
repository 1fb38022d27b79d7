import {
  type DefinitionRow,
  type FieldValueInput,
  isVisibleIn,
  loadDefinitions,
  PARAGRAPH_MAX,
  writeCaseFieldValues,
} from '../custom-fields/field-values.service.ts';
import { membersAmong } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { UploadedFile } from '../foundation/storage/storage.service.ts';
import { parseInWorker } from '../foundation/uploads/parse-pool.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRow, lockRows } from '../kernel/database/locks.ts';
import { inTransaction, withSavepoint } from '../kernel/database/transactions.ts';
import { AppError, fromValidationIssues } from '../kernel/errors.ts';
import { newId, ULID_PATTERN } from '../kernel/ids.ts';
import { allocateNumbers } from '../projects/numbering.service.ts';
import { type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { ensureSuitePaths } from '../suites/suites.service.ts';
import { saveSteps } from '../test-cases/steps.service.ts';
import { createTestCaseBodySchema } from '../test-cases/test-cases.schemas.ts';
import type { CaseFileRead } from './case-file-worker.ts';
import { type FieldCell, type ImportedCase, listedWarnings, rowFailed } from './imported-case.ts';
import {
  type CaseImportFormat,
  IMPORT_NEW_SUITES_MAX,
  type ImportWarning,
  type TestCaseImport,
  type TestCaseImportQuery,
} from './test-case-imports.schemas.ts';

const SUITE_NAME_MAX = 200;
const caseBasicsSchema = createTestCaseBodySchema.pick({ title: true, description: true, steps: true, tags: true });

const CASE_FILE_WORKER = new URL('./case-file-worker.ts', import.meta.url);

/** The cases of an import file (422 empty_import when there is none), its format and its warnings; read in a parse worker. */
async function readImport(file: UploadedFile, requested: CaseImportFormat | undefined) {
  const cases: ImportedCase[] = [];
  const read = await parseInWorker<CaseImportFormat | undefined, ImportedCase, CaseFileRead>(
    CASE_FILE_WORKER,
    [file],
    requested,
    (testCase) => cases.push(testCase),
  );
  if (cases.length === 0) throw new AppError('empty_import', 'The file holds no test case');
  return { ...read, cases };
}

/** The field a column names: by system key, else by title (English or Spanish, any case). */
function fieldOfColumn(definitions: DefinitionRow[], column: string): DefinitionRow | undefined {
  const title = column.trim().toLowerCase();
  return (
    definitions.find((definition) => definition.systemKey === column.trim()) ??
    definitions.find((definition) => definition.titleEn.toLowerCase() === title || definition.titleEs?.toLowerCase() === title)
  );
}

const optionOf = (definition: DefinitionRow, name: string) => {
  const wanted = name.trim().toLowerCase();
  return definition.options.find((option) => option.nameEn.toLowerCase() === wanted || option.nameEs?.toLowerCase() === wanted);
};

/** A cell's value for its field as the export writes it (options by name, checkbox true/false); null is none. */
function cellValue(definition: DefinitionRow, text: string): { value: unknown } | { invalid: string } {
  if (text.trim() === '') return { value: null };
  const optionId = (name: string) => optionOf(definition, name)?.id;
  switch (definition.valueType) {
    case 'select_single':
    case 'radio': {
      const id = optionId(text);
      return id ? { value: id } : { invalid: `"${text.trim()}" is not an option of ${definition.titleEn}` };
    }
    case 'select_multi': {
      const names = text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const unknown = names.find((name) => !optionId(name));
      return unknown ? { invalid: `"${unknown}" is not an option of ${definition.titleEn}` } : { value: [...new Set(names.map(optionId))] };
    }
    case 'checkbox':
      return /^(true|false)$/i.test(text.trim())
        ? { value: text.trim().toLowerCase() === 'true' }
        : { invalid: `${definition.titleEn} must be true or false` };
    case 'paragraph':
      return text.length <= PARAGRAPH_MAX
        ? { value: text }
        : { invalid: `${definition.titleEn} is longer than ${PARAGRAPH_MAX} characters` };
    case 'user_picker':
      return ULID_PATTERN.test(text.trim()) ? { value: text.trim() } : { invalid: `${definition.titleEn} must be a user ULID` };
    default:
      return { invalid: `${definition.titleEn} cannot be imported` };
  }
}

/** A case checked against the project: its values by field, its display ID's case number in this project. */
type PlannedCase = ImportedCase & { values: FieldValueInput[]; caseNumber: number | null };

function planCase(testCase: ImportedCase, project: ProjectRow, definitions: DefinitionRow[], warnings: ImportWarning[]): PlannedCase {
  const { row } = testCase;
  const { title, description, steps, tags } = testCase;
  const basics = caseBasicsSchema.safeParse({ title, description, steps, tags });
  if (!basics.success) {
    const issue = basics.error.issues[0]!;
    throw rowFailed(row, `${issue.path.join('.')}: ${issue.message}`);
  }
  const longName = testCase.suitePath.find((name) => name.length > SUITE_NAME_MAX);
  if (longName) throw rowFailed(row, `a suite name is longer than ${SUITE_NAME_MAX} characters`);

  let caseNumber: number | null = null;
  if (testCase.displayId) {
    const match = /^([A-Z][A-Z0-9]*)-([1-9][0-9]{0,8})$/.exec(testCase.displayId);
    if (!match) throw rowFailed(row, `display_id "${testCase.displayId}" is not a display ID (<projectCode>-<number>)`);
    // Another project's display ID (an export of that project) creates a new case here.
    if (match[1] === project.code) caseNumber = Number(match[2]);
  }

  const values: FieldValueInput[] = [];
  for (const cell of testCase.fields) {
    const definition = fieldOfColumn(definitions, cell.column);
    if (!definition) continue;
    if (values.some((value) => value.fieldUlid === definition.id)) throw rowFailed(row, `two columns name the field ${definition.titleEn}`);
    const checked = cellValue(definition, cell.text);
    if ('invalid' in checked) {
      if (!cell.lenient) throw rowFailed(row, checked.invalid);
      warnings.push({ row, message: `${checked.invalid}; the field is left as it is` });
      continue;
    }
    values.push({ fieldUlid: definition.id, value: checked.value });
  }
  return { ...testCase, tags: [...new Set(testCase.tags)], values, caseNumber };
}

/** Columns of the file that name no field of the project: a warning each (row 1, the header). */
function unknownColumns(cases: ImportedCase[], definitions: DefinitionRow[], warnings: ImportWarning[]): void {
  const columns = new Set(cases[0]!.fields.filter((cell: FieldCell) => !cell.lenient).map((cell) => cell.column));
  for (const column of columns) {
    if (!fieldOfColumn(definitions, column)) warnings.push({ row: 1, message: `Unknown column "${column}" is ignored` });
  }
}

const suiteKey = (path: string[]) => path.join('\u0000');

/** New cases in one counter update and one insert each for cases, steps and values. */
async function createCases(
  tx: Db,
  ctx: RequestContext,
  projectId: string,
  cases: PlannedCase[],
  suiteIds: Map<string, string>,
  userFields: Set<string>,
) {
  if (cases.length === 0) return;
  const first = await allocateNumbers(tx, projectId, 'case', cases.length);
  const now = new Date();
  const rows = cases.map((testCase, index) => ({ testCase, id: newId(), caseNumber: first + index }));
  await tx.testCase.createMany({
    data: rows.map(({ testCase, id, caseNumber }) => ({
      id,
      orgId: ctx.org.id,
      projectId,
      caseNumber,
      title: testCase.title,
      description: testCase.description,
      suiteId: testCase.suitePath.length > 0 ? suiteIds.get(suiteKey(testCase.suitePath))! : null,
      tags: testCase.tags,
      createdAt: now,
      updatedAt: now,
    })),
  });
  const steps = rows.flatMap(({ testCase, id }) =>
    testCase.steps.map((step, position) => ({
      id: newId(),
      orgId: ctx.org.id,
      caseId: id,
      position,
      ...step,
      createdAt: now,
      updatedAt: now,
    })),
  );
  if (steps.length > 0) await tx.testCaseStep.createMany({ data: steps });
  const values = rows.flatMap(({ testCase, id }) =>
    testCase.values.flatMap((entry) =>
      entry.value === null ? [] : [{ caseId: id, orgId: ctx.org.id, fieldId: entry.fieldUlid, value: entry.value as object }],
    ),
  );
  const userOf = (testCase: PlannedCase) =>
    testCase.values.flatMap((entry) => (userFields.has(entry.fieldUlid) && entry.value !== null ? [entry.value as string] : []));
  const members = await membersAmong(tx, cases.flatMap(userOf));
  const stranger = cases.find((testCase) => userOf(testCase).some((user) => !members.has(user)));
  if (stranger) throw rowFailed(stranger.row, 'a user picker cell names no member of the organization');
  if (values.length > 0) await tx.testCaseFieldValue.createMany({ data: values });
}

/** An existing case takes the row's title, description, suite, tags and steps, and the values of its field columns. */
async function updateCase(
  tx: Db,
  ctx: RequestContext,
  projectId: string,
  caseId: string,
  testCase: PlannedCase,
  suiteIds: Map<string, string>,
) {
  await lockRow(tx, 'test_cases', caseId, { orgId: ctx.org.id });
  await tx.testCase.update({
    where: { id: caseId },
    data: {
      title: testCase.title,
      description: testCase.description,
      suiteId: testCase.suitePath.length > 0 ? suiteIds.get(suiteKey(testCase.suitePath))! : null,
      tags: testCase.tags,
      updatedAt: new Date(),
    },
  });
  try {
    await saveSteps(tx, ctx, caseId, testCase.steps);
    await writeCaseFieldValues(tx, ctx, { id: caseId, projectId }, testCase.values, { mode: 'merge', pathPrefix: ['customFieldValues'] });
  } catch (error) {
    if (error instanceof AppError && (error.code === 'validation_failed' || error.code === 'not_found'))
      throw rowFailed(testCase.row, error.message);
    throw error;
  }
}

/** Thrown to roll a dry run back once its counts are known. */
class DryRun {
  constructor(readonly result: TestCaseImport) {}
}

/**
 * POST /projects/{projectId}/test-case-imports (contract §17): reads a CSV (the columns of the
 * project export) or TestRail XML file, then in one transaction creates the suites along the
 * cases' paths, creates the cases (set-based) and updates those a `display_id` names, with one
 * `test_case.imported` event. Any error writes nothing; a dry run does all of it and rolls back.
 */
export async function importTestCases(
  ctx: RequestContext,
  projectCode: string,
  query: TestCaseImportQuery,
  files: UploadedFile[],
): Promise<TestCaseImport> {
  authorize(ctx, 'case.write');
  if (files.length !== 1) throw fromValidationIssues([{ path: ['file'], message: 'send exactly one file' }], 'file');
  const project = await resolveProject(ctx, projectCode);
  const { format, cases, warnings: readWarnings, warningsLeftOut } = await readImport(files[0]!, query.format);

  return inTransaction(ctx.db, async (tx) => {
    const txCtx: RequestContext = { ...ctx, db: tx };
    try {
      return await withSavepoint(tx, async () => {
        // Imports and case creations of one project queue here: numbers and suites are taken once.
        await lockRow(tx, 'projects', project.id, { orgId: ctx.org.id });
        const fieldIds = (await tx.customField.findMany({ where: { entity: 'test_case' }, select: { id: true } })).map((field) => field.id);
        await lockRows(tx, 'custom_fields', fieldIds, { orgId: ctx.org.id, strength: 'share' });
        const definitions = (await loadDefinitions(tx, 'test_case')).filter((definition) => isVisibleIn(definition, project.id));

        const warnings = [...readWarnings];
        unknownColumns(cases, definitions, warnings);
        const planned = cases.map((testCase) => planCase(testCase, project, definitions, warnings));

        const seen = new Map<number, number>();
        for (const testCase of planned) {
          if (testCase.caseNumber === null) continue;
          const before = seen.get(testCase.caseNumber);
          if (before !== undefined) throw rowFailed(testCase.row, `display_id ${testCase.displayId} is also on row ${before}`);
          seen.set(testCase.caseNumber, testCase.row);
        }
        const existing = await tx.testCase.findMany({
          where: { projectId: project.id, archivedAt: null, caseNumber: { in: [...seen.keys()] } },
          select: { id: true, caseNumber: true },
        });
        const caseIdOf = new Map(existing.map((row) => [row.caseNumber, row.id]));
        for (const testCase of planned) {
          if (testCase.caseNumber !== null && !caseIdOf.has(testCase.caseNumber)) {
            warnings.push({ row: testCase.row, message: `${testCase.displayId} names no case of the project; a new case is created` });
          }
        }

        const { suiteIds, created: createdSuites } = await ensureSuitePaths(
          tx,
          txCtx,
          project.id,
          planned.map((each) => each.suitePath).filter((path) => path.length > 0),
        );
        if (createdSuites > IMPORT_NEW_SUITES_MAX) {
          throw new AppError(
            'too_many_suites',
            `An import creates at most ${IMPORT_NEW_SUITES_MAX} suites; this one would create ${createdSuites}`,
            {
              limit: IMPORT_NEW_SUITES_MAX,
            },
          );
        }
        const toCreate = planned.filter((each) => each.caseNumber === null || !caseIdOf.has(each.caseNumber));
        const userFields = new Set(
          definitions.filter((definition) => definition.valueType === 'user_picker').map((definition) => definition.id),
        );
        await createCases(tx, txCtx, project.id, toCreate, suiteIds, userFields);
        const toUpdate = planned.filter((each) => each.caseNumber !== null && caseIdOf.has(each.caseNumber));
        for (const testCase of toUpdate) await updateCase(tx, txCtx, project.id, caseIdOf.get(testCase.caseNumber!)!, testCase, suiteIds);

        const result = {
          createdSuites,
          createdCases: toCreate.length,
          updatedCases: toUpdate.length,
          warnings: listedWarnings(warnings, warningsLeftOut),
        };
        if (query.dryRun) throw new DryRun(result);
        await emitAudit(tx, ctx, {
          action: 'test_case.imported',
          entityType: 'project',
          entityUlid: project.id,
          entityLabel: project.name,
          metadata: {
            format,
            createdSuites,
            createdCases: result.createdCases,
            updatedCases: result.updatedCases,
            warnings: warnings.length + warningsLeftOut,
          },
        });
        return result;
      });
    } catch (error) {
      if (error instanceof DryRun) return error.result;
      throw error;
    }
  });
}
