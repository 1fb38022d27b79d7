import { type CustomFieldValue, type DefinitionRow, isVisibleIn, loadDefinitions } from '../custom-fields/field-values.service.ts';
import type { RequestContext } from '../foundation/context.ts';
import { type ProjectRow, resolveProject, toProject } from '../projects/projects.service.ts';
import { findSuiteTree, toSuite } from '../suites/suites.service.ts';
import { CASE_INCLUDE, type CaseRecord, presentTestCases, type TestCaseOut } from '../test-cases/test-cases.service.ts';
import { csvRows, streamOf } from './csv.ts';
import type { ProjectExportFormat } from './exports.schemas.ts';

const BATCH = 500;
const CASE_COLUMNS = ['display_id', 'title', 'suite_path', 'description', 'tags', 'steps', 'expected_results'] as const;

/** The project's live cases by case number, in keyset batches. */
async function* caseBatches(ctx: RequestContext, project: ProjectRow): AsyncGenerator<CaseRecord[]> {
  let after = 0;
  for (;;) {
    const batch = await ctx.db.testCase.findMany({
      where: { projectId: project.id, archivedAt: null, caseNumber: { gt: after } },
      include: CASE_INCLUDE,
      orderBy: { caseNumber: 'asc' },
      take: BATCH,
    });
    if (batch.length > 0) yield batch;
    if (batch.length < BATCH) return;
    after = batch.at(-1)!.caseNumber;
  }
}

/** A value as a CSV cell: options by their English name, a checkbox as true/false, nothing as empty. */
function valueCell(definition: DefinitionRow, value: unknown): string {
  if (value === null || value === undefined) return '';
  const nameOf = (each: unknown) => definition.options.find((option) => option.id === each)?.nameEn ?? String(each);
  if (Array.isArray(value)) return value.map(nameOf).join(', ');
  return typeof value === 'string' ? nameOf(value) : String(value);
}

const numbered = (lines: Array<string | null>) => lines.map((line, index) => `${index + 1}. ${line ?? ''}`).join('\n');

function caseCells(testCase: TestCaseOut, suitePath: string, columns: DefinitionRow[]): string[] {
  const values = new Map(testCase.customFieldValues.map((value: CustomFieldValue) => [value.fieldUlid, value.value]));
  return [
    testCase.displayId,
    testCase.title,
    suitePath,
    testCase.description ?? '',
    testCase.tags.join(', '),
    numbered(testCase.steps.map((step) => step.action)),
    numbered(testCase.steps.map((step) => step.expectedResult)),
    ...columns.map((definition) => valueCell(definition, values.get(definition.id))),
  ];
}

/**
 * GET /projects/{projectId}/exports (contract §11): every live case with its suite path, steps,
 * tags and custom field values, streamed batch by batch so memory does not grow with the project.
 * Option names are English-canonical whatever the caller's locale.
 */
export async function exportProject(ctx: RequestContext, code: string, format: ProjectExportFormat) {
  const project = await resolveProject(ctx, code);
  const english: RequestContext = { ...ctx, locale: 'en' };
  const suites = await findSuiteTree(ctx, project);
  const byId = new Map(suites.map((suite) => [suite.id, suite]));
  const pathOf = (suiteId: string | null): string => {
    const names: string[] = [];
    for (let suite = suiteId ? byId.get(suiteId) : undefined; suite; suite = suite.parentId ? byId.get(suite.parentId) : undefined) {
      names.unshift(suite.name);
    }
    return names.join(' / ');
  };
  const presentBatches = async function* () {
    for await (const batch of caseBatches(ctx, project)) yield presentTestCases(english, batch);
  };

  async function* csv() {
    const columns = (await loadDefinitions(ctx.db, 'test_case')).filter((definition) => isVisibleIn(definition, project.id));
    const header = [...CASE_COLUMNS, ...columns.map((definition) => definition.systemKey ?? definition.titleEn)];
    yield csvRows([], header);
    for await (const cases of presentBatches()) {
      yield csvRows(cases.map((testCase) => caseCells(testCase, pathOf(testCase.suiteUlid), columns)));
    }
  }

  async function* json() {
    const suiteList = suites.map((suite) => ({ ...toSuite({ ...suite, project }), path: pathOf(suite.id) }));
    yield `{"project":${JSON.stringify(toProject(project))},"suites":${JSON.stringify(suiteList)},"cases":[`;
    let separator = '';
    for await (const cases of presentBatches()) {
      yield separator + cases.map((testCase) => JSON.stringify({ ...testCase, suitePath: pathOf(testCase.suiteUlid) })).join(',');
      separator = ',';
    }
    yield ']}';
  }

  return { fileName: `${project.code}-test-cases.${format}`, body: streamOf(format === 'csv' ? csv : json) };
}
