import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, createProject, createSuite, joinAs, signUp, useTestApp } from '../support/app.ts';
import { createField, type Field, fieldsOf } from '../support/custom-fields.ts';
import { createCase } from '../support/runs.ts';

const t = useTestApp();

type ExportedCase = {
  ulid: string;
  displayId: string;
  title: string;
  description: string | null;
  suiteUlid: string | null;
  suitePath: string;
  tags: string[];
  steps: Array<{ position: number; action: string; expectedResult: string | null }>;
  customFieldValues: Array<{ fieldUlid: string; value: unknown; systemKey: string | null; optionName: string | null }>;
};
type ProjectExport = {
  project: { ulid: string; id: string; name: string };
  suites: Array<{ ulid: string; name: string; parentUlid: string | null; path: string }>;
  cases: ExportedCase[];
};

const exportOf = (caller: Caller, code: string, format?: string, headers: Record<string, string> = {}) =>
  t.http
    .get(`/api/v1/projects/${code}/exports${format ? `?format=${format}` : ''}`)
    .set(caller.headers)
    .set(headers);

/**
 * One project for every test: a suite tree Root > Child, a case in Child with steps, tags and
 * values (a formula-like title and description), a case without suite, an archived case, a
 * custom field of the project and one of another project.
 */
const fixture = {} as {
  owner: Caller;
  viewer: Caller;
  code: string;
  projectUlid: string;
  fields: Record<string, Field>;
  full: { ulid: string; displayId: string };
  bare: { ulid: string; displayId: string };
  archived: { ulid: string };
};

beforeAll(async () => {
  const owner = await signUp(t.http);
  const project = await createProject(t.http, owner, { name: 'Shop' });
  const other = await createProject(t.http, owner, { name: 'Elsewhere' });
  const platforms = await createField(t.http, owner, {
    entity: 'test_case',
    valueType: 'select_multi',
    title: 'Platforms',
    options: [{ name: 'Linux' }, { name: 'macOS' }, { name: 'Windows' }],
  });
  await createField(t.http, owner, { entity: 'test_case', valueType: 'checkbox', title: 'Hidden here', projectUlids: [other.ulid] });
  const fields = await fieldsOf(t.http, owner);
  const root = await createSuite(t.http, owner, project.id, { name: 'Root' });
  const child = await createSuite(t.http, owner, project.id, { name: 'Child', parentUlid: root.ulid });
  const full = await createCase(t.http, owner, project.id, {
    title: '=1+1 checkout',
    description: '@everyone pays',
    suiteUlid: child.ulid,
    tags: ['smoke', '-negative'],
    steps: [
      { action: 'Open the cart', expectedResult: 'The cart shows' },
      { action: '+ Pay', expectedResult: null },
    ],
    customFieldValues: [
      { fieldUlid: fields.priority!.ulid, value: fields.priority!.options.find((option) => option.name === 'High')!.ulid },
      { fieldUlid: fields.is_flaky!.ulid, value: true },
      { fieldUlid: platforms.ulid, value: [platforms.options[2]!.ulid, platforms.options[0]!.ulid] },
    ],
  });
  const bare = await createCase(t.http, owner, project.id, { title: 'No suite' });
  const archived = await createCase(t.http, owner, project.id, { title: 'Archived' });
  expect((await t.http.post(`/api/v1/test-cases/${archived.ulid}/archive`).set(owner.headers)).status).toBe(200);
  Object.assign(fixture, {
    owner,
    viewer: await joinAs(t.http, owner, 'viewer'),
    code: project.id,
    projectUlid: project.ulid,
    fields,
    full,
    bare,
    archived,
  });
});

describe('GET /api/v1/projects/{projectId}/exports', () => {
  it('answers JSON by default: the project, its suites with paths and every live case, option names in English', async () => {
    const { viewer, code, fields, full, bare, archived } = fixture;
    const response = await exportOf(viewer, code, undefined, { 'Accept-Language': 'es' });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${code}-test-cases.json"`);
    const body = JSON.parse(response.text) as ProjectExport;
    expect(Object.keys(body)).toEqual(['project', 'suites', 'cases']);
    expect(body.project).toMatchObject({ ulid: fixture.projectUlid, id: code, name: 'Shop' });
    expect(body.suites.map((suite) => [suite.name, suite.path])).toEqual([
      ['Root', 'Root'],
      ['Child', 'Root / Child'],
    ]);
    expect(body.cases.map((each) => each.ulid)).toEqual([full.ulid, bare.ulid]);
    expect(body.cases.map((each) => each.ulid)).not.toContain(archived.ulid);

    const [exported, plain] = body.cases as [ExportedCase, ExportedCase];
    expect(exported).toMatchObject({
      displayId: full.displayId,
      title: '=1+1 checkout',
      suitePath: 'Root / Child',
      tags: ['smoke', '-negative'],
    });
    expect(exported.steps.map((step) => [step.action, step.expectedResult])).toEqual([
      ['Open the cart', 'The cart shows'],
      ['+ Pay', null],
    ]);
    const priority = exported.customFieldValues.find((value) => value.systemKey === 'priority')!;
    expect(priority.optionName).toBe('High'); // not "Alta", whatever the caller's locale
    expect(exported.customFieldValues.map((value) => value.fieldUlid)).not.toContain(fields['Hidden here']!.ulid);
    expect(plain.suitePath).toBe('');
    expect(plain.steps).toEqual([]);
  });

  it('answers CSV: the fixed columns, then one per visible field by system key or title, English option names, defused formulas', async () => {
    const { owner, code, full, bare } = fixture;
    const response = await exportOf(owner, code, 'csv', { 'Accept-Language': 'es' });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${code}-test-cases.csv"`);
    const [header, ...rows] = parse(response.text) as string[][];
    expect(header!.slice(0, 7)).toEqual(['display_id', 'title', 'suite_path', 'description', 'tags', 'steps', 'expected_results']);
    expect(header!.slice(7)).toEqual([
      'priority',
      'severity',
      'status',
      'type',
      'layer',
      'behavior',
      'automation_status',
      'is_flaky',
      'preconditions',
      'postconditions',
      'Platforms',
    ]);
    expect(rows).toHaveLength(2);
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    const [first, second] = rows as [string[], string[]];
    expect(cell(first, 'display_id')).toBe(full.displayId);
    expect(cell(first, 'title')).toBe("'=1+1 checkout");
    expect(cell(first, 'suite_path')).toBe('Root / Child');
    expect(cell(first, 'description')).toBe("'@everyone pays");
    expect(cell(first, 'tags')).toBe('smoke, -negative');
    expect(cell(first, 'steps')).toBe('1. Open the cart\n2. + Pay');
    expect(cell(first, 'expected_results')).toBe('1. The cart shows\n2. ');
    expect(cell(first, 'priority')).toBe('High');
    expect(cell(first, 'severity')).toBe('Normal'); // the materialized default, in English
    expect(cell(first, 'is_flaky')).toBe('true');
    expect(cell(first, 'Platforms')).toBe('Windows, Linux');
    expect(cell(first, 'layer')).toBe('');
    expect(cell(second, 'display_id')).toBe(bare.displayId);
    expect(cell(second, 'suite_path')).toBe('');
    expect(cell(second, 'steps')).toBe('');
  });

  it('refuses an unknown format and an unknown project', async () => {
    const { owner, code } = fixture;
    expect((await exportOf(owner, code, 'xml')).status).toBe(422);
    expect((await exportOf(owner, 'NOPE')).status).toBe(404);
  });

  it('streams a project of several batches completely, in case-number order, as valid JSON and CSV', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Big' });
    const count = 1_203;
    await prisma().$executeRaw`
      INSERT INTO test_cases (id, org_id, project_id, case_number, title)
      SELECT ${newId().slice(0, 16)} || lpad(upper(to_hex(i)), 10, '0'), ${owner.orgId}, ${project.ulid}, i, 'Case ' || i
      FROM generate_series(1, ${count}::int) AS i`;
    const json = JSON.parse((await exportOf(owner, project.id)).text) as ProjectExport;
    expect(json.cases.map((each) => each.title)).toEqual(Array.from({ length: count }, (_, i) => `Case ${i + 1}`));
    const [, ...rows] = parse((await exportOf(owner, project.id, 'csv')).text) as string[][];
    expect(rows.map((row) => row[0])).toEqual(Array.from({ length: count }, (_, i) => `${project.id}-${i + 1}`));
  });
});

describe('CSV cells a spreadsheet would run (OWASP CSV injection)', () => {
  /** Each description as the CSV export writes its cell. */
  const DEFUSED: Array<[string, string]> = [
    ['\tTAB first', "'\tTAB first"],
    ['\rCR first', "'\rCR first"],
    ['=1+1', "'=1+1"],
    ["'=already quoted", "''=already quoted"],
    ["''@twice", "'''@twice"],
    ["it's plain", "it's plain"],
    ["'plain after an apostrophe", "'plain after an apostrophe"],
  ];

  async function projectWithDescriptions(owner: Caller) {
    const project = await createProject(t.http, owner, { name: 'Injection' });
    for (const [index, [description]] of DEFUSED.entries())
      await createCase(t.http, owner, project.id, { title: `Case ${index}`, description });
    return project;
  }

  const casesOf = async (owner: Caller, code: string) => {
    const body = JSON.parse((await exportOf(owner, code)).text) as ProjectExport;
    return body.cases.map(({ title, description }) => ({ title, description }));
  };

  it('prefixes a cell starting with =, +, -, @, TAB or CR with an apostrophe, and one more before an apostrophe already there', async () => {
    const owner = await signUp(t.http);
    const project = await projectWithDescriptions(owner);
    const [header, ...rows] = parse((await exportOf(owner, project.id, 'csv')).text) as string[][];
    const description = header!.indexOf('description');
    expect(rows.map((row) => row[description])).toEqual(DEFUSED.map(([, cell]) => cell));
  });

  it('imports back unchanged: the test case import takes exactly that apostrophe off again', async () => {
    const owner = await signUp(t.http);
    const source = await projectWithDescriptions(owner);
    const copy = await createProject(t.http, owner, { name: 'Copy' });
    const exported = await exportOf(owner, source.id, 'csv');
    const imported = await t.http
      .post(`/api/v1/projects/${copy.id}/test-case-imports`)
      .set(owner.headers)
      .set('Content-Type', 'text/csv')
      .send(exported.text);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(await casesOf(owner, copy.id)).toEqual(await casesOf(owner, source.id));
  });
});
