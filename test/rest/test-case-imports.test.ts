import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { auditEvents, type Caller, createProject, createSuite, expectError, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { createField, type Field, fieldsOf } from '../support/custom-fields.ts';
import { createCase } from '../support/runs.ts';

const t = useTestApp();
const fixture = (name: string) => readFile(path.join(import.meta.dirname, '../fixtures/test-case-imports', name), 'utf8');

type Suite = { ulid: string; name: string; parentUlid: string | null };
type Step = { action: string; expectedResult: string | null };
type CaseBody = {
  ulid: string;
  displayId: string;
  title: string;
  description: string | null;
  suiteUlid: string | null;
  tags: string[];
  steps: Step[];
  customFieldValues: Array<{ fieldUlid: string; value: unknown }>;
};

const importCsv = (caller: Caller, code: string, body: string, query: Record<string, string> = {}) =>
  t.http.post(`/api/v1/projects/${code}/test-case-imports`).query(query).set(caller.headers).set('Content-Type', 'text/csv').send(body);

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

/** The suites of a project as paths ("A / B") by ULID, read through the API. */
async function suitePaths(caller: Caller, code: string): Promise<Map<string, string>> {
  const response = await t.http.get(`/api/v1/projects/${code}/suites?limit=200`).set(caller.headers);
  expect(response.status).toBe(200);
  const suites = response.body.items as Suite[];
  const byUlid = new Map(suites.map((suite) => [suite.ulid, suite]));
  const pathOf = (suite: Suite): string => (suite.parentUlid ? `${pathOf(byUlid.get(suite.parentUlid)!)} / ${suite.name}` : suite.name);
  return new Map(suites.map((suite) => [suite.ulid, pathOf(suite)]));
}

async function casesOf(caller: Caller, code: string): Promise<CaseBody[]> {
  const response = await t.http.get(`/api/v1/projects/${code}/test-cases?limit=200`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body.items as CaseBody[];
}

/** A project's cases through the API, in a shape two projects can be compared by: suites as paths. */
async function projectContent(caller: Caller, code: string) {
  const paths = await suitePaths(caller, code);
  const cases = await casesOf(caller, code);
  return {
    suites: [...paths.values()].sort(),
    cases: cases
      .map((each) => ({
        title: each.title,
        description: each.description,
        suite: each.suiteUlid ? paths.get(each.suiteUlid) : null,
        tags: each.tags,
        steps: each.steps.map((step) => ({ action: step.action, expectedResult: step.expectedResult })),
        values: each.customFieldValues.map((value) => ({ fieldUlid: value.fieldUlid, value: value.value })),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
}

/** What an import could have written in the organization. */
async function writtenIn(orgId: string) {
  const [cases, suites, steps, values, imported] = await Promise.all([
    prisma().testCase.count({ where: { orgId } }),
    prisma().suite.count({ where: { orgId } }),
    prisma().testCaseStep.count({ where: { orgId } }),
    prisma().testCaseFieldValue.count({ where: { orgId } }),
    prisma().auditEvent.count({ where: { orgId, action: 'test_case.imported' } }),
  ]);
  return { cases, suites, steps, values, imported };
}

const HEADER = 'title,suite_path,description,steps,expected_results,tags';

describe('POST /api/v1/projects/{projectId}/test-case-imports (CSV)', () => {
  it('creates suites by path (reusing existing ones), cases with steps, tags and fields by system key or title; one audit event', async () => {
    const { owner, code, project } = await ownerWithProject(t.http);
    const platforms = await createField(t.http, owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Platforms',
      options: [{ name: 'Linux' }, { name: 'Windows' }],
    });
    const fields = await fieldsOf(t.http, owner);
    const existing = await createSuite(t.http, owner, code, { name: 'Checkout' });
    const body = csv(
      `${HEADER},priority,Platforms,Flaky,colour`,
      'Pay by card,Checkout / Cards,"Needs a cart","1. Open the cart\n2. Pay\nwith a card","1. The cart shows\n2. ","smoke, payments",High,"Windows, Linux",true,red',
      'Refund,Checkout > Refunds,,,,,low,,false,',
      'No suite,,,Just one step,,,,,,',
      ',,,,,,,,,',
    );
    const response = await importCsv(owner, code, body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({
      createdSuites: 2,
      createdCases: 3,
      updatedCases: 0,
      warnings: [{ row: 1, message: 'Unknown column "colour" is ignored' }],
    });

    const paths = await suitePaths(owner, code);
    expect([...paths.values()].sort()).toEqual(['Checkout', 'Checkout / Cards', 'Checkout / Refunds']);
    expect([...paths.entries()].find(([, name]) => name === 'Checkout')![0]).toBe(existing.ulid);
    const cases = await casesOf(owner, code);
    const card = cases.find((each) => each.title === 'Pay by card')!;
    expect(paths.get(card.suiteUlid!)).toBe('Checkout / Cards');
    expect(card.description).toBe('Needs a cart');
    expect(card.tags).toEqual(['smoke', 'payments']);
    expect(card.steps.map((step) => [step.action, step.expectedResult])).toEqual([
      ['Open the cart', 'The cart shows'],
      ['Pay\nwith a card', null],
    ]);
    const valueIn = (testCase: CaseBody, field: Field) => testCase.customFieldValues.find((value) => value.fieldUlid === field.ulid)?.value;
    const option = (field: Field, name: string) => field.options.find((each) => each.name === name)!.ulid;
    expect(valueIn(card, fields.priority!)).toBe(option(fields.priority!, 'High'));
    expect(valueIn(card, platforms)).toEqual([option(platforms, 'Windows'), option(platforms, 'Linux')]);
    expect(valueIn(card, fields.is_flaky!)).toBe(true);
    const refund = cases.find((each) => each.title === 'Refund')!;
    expect(valueIn(refund, fields.priority!)).toBe(option(fields.priority!, 'Low'));
    expect(paths.get(refund.suiteUlid!)).toBe('Checkout / Refunds');
    const bare = cases.find((each) => each.title === 'No suite')!;
    expect(bare.suiteUlid).toBeNull();
    expect(bare.steps.map((step) => step.action)).toEqual(['Just one step']);

    const events = await auditEvents(t.http, owner, { action: 'test_case.imported' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityType: 'project', entityUlid: project.ulid });
    expect(events[0]!.metadata).toMatchObject({ format: 'csv', createdSuites: 2, createdCases: 3, updatedCases: 0 });
  });

  it("updates the case a display_id of the project names; an unknown one of the project is a warning and a new case, another project's is a new case", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const fields = await fieldsOf(t.http, owner);
    const suite = await createSuite(t.http, owner, code, { name: 'Old' });
    const target = await createCase(t.http, owner, code, {
      title: 'Old title',
      suiteUlid: suite.ulid,
      tags: ['old'],
      steps: [{ action: 'Old step', expectedResult: 'Old result' }],
      customFieldValues: [{ fieldUlid: fields.priority!.ulid, value: fields.priority!.options.find((each) => each.name === 'Low')!.ulid }],
    });
    const body = csv(
      `display_id,${HEADER},priority`,
      `${target.displayId},New title,New / Place,New description,"1. New step",,new,Critical`,
      `${code}-999,Unknown number,,,,,,`,
      'ELSEWHERE-3,From another project,,,,,,',
    );
    const response = await importCsv(owner, code, body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({
      createdSuites: 2,
      createdCases: 2,
      updatedCases: 1,
      warnings: [{ row: 3, message: `${code}-999 names no case of the project; a new case is created` }],
    });
    const updated = (await t.http.get(`/api/v1/test-cases/${target.ulid}`).set(owner.headers)).body as CaseBody;
    const paths = await suitePaths(owner, code);
    expect(updated).toMatchObject({ title: 'New title', description: 'New description', tags: ['new'] });
    expect(paths.get(updated.suiteUlid!)).toBe('New / Place');
    expect(updated.steps.map((step) => [step.action, step.expectedResult])).toEqual([['New step', null]]);
    expect(updated.customFieldValues.find((value) => value.fieldUlid === fields.priority!.ulid)!.value).toBe(
      fields.priority!.options.find((each) => each.name === 'Critical')!.ulid,
    );
    expect((await casesOf(owner, code)).map((each) => each.title).sort()).toEqual(['From another project', 'New title', 'Unknown number']);
  });

  it('a display_id twice in one file is parse_failed naming the second row', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code, { title: 'Once' });
    const response = await importCsv(owner, code, csv('display_id,title', `${target.displayId},A`, `${target.displayId},B`));
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.details).toMatchObject({ row: 3 });
  });

  it('dryRun=true answers 200 with the same counts and writes nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code, { title: 'Kept', steps: [{ action: 'Kept step' }] });
    const body = csv(`display_id,${HEADER}`, `${target.displayId},Changed,A / B,,1. Other,,`, ',Fresh,A / C,,,,', ',Second,,,,,');
    const before = await writtenIn(owner.orgId);
    const dry = await importCsv(owner, code, body, { dryRun: 'true' });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toEqual({ createdSuites: 3, createdCases: 2, updatedCases: 1, warnings: [] });
    expect(await writtenIn(owner.orgId)).toEqual(before);
    const kept = (await t.http.get(`/api/v1/test-cases/${target.ulid}`).set(owner.headers)).body as CaseBody;
    expect(kept.title).toBe('Kept');
    expect(kept.steps.map((step) => step.action)).toEqual(['Kept step']);

    const real = await importCsv(owner, code, body, { dryRun: 'false' });
    expect(real.status).toBe(201);
    expect(real.body).toEqual(dry.body);
  });

  it('is atomic: a bad cell late in the file writes nothing and names its row', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const rows = Array.from({ length: 60 }, (_, index) => `Case ${index},Suite ${index},,1. Step,,tag,Medium`);
    rows[57] = 'Bad case,Somewhere,,,,,Soonish';
    const before = await writtenIn(owner.orgId);
    const response = await importCsv(owner, code, csv(`${HEADER},priority`, ...rows));
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.details).toMatchObject({ row: 59 });
    expect(response.body.error.message).toContain('Soonish');
    expect(await writtenIn(owner.orgId)).toEqual(before);
  });

  it('parse_failed: malformed CSV names the line; a bad checkbox or an over-long title names the row', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const malformed = await importCsv(owner, code, csv('title,description', 'Fine,ok', 'Broken,"never closed', 'x,y'));
    expectError(malformed, 422, 'parse_failed');
    expect(malformed.body.error.details.line).toBeGreaterThanOrEqual(3);

    const checkbox = await importCsv(owner, code, csv('title,is_flaky', 'One,maybe'));
    expectError(checkbox, 422, 'parse_failed');
    expect(checkbox.body.error.details).toMatchObject({ row: 2 });

    const long = await importCsv(owner, code, csv('title', 'Fine', 'x'.repeat(501)));
    expectError(long, 422, 'parse_failed');
    expect(long.body.error.details).toMatchObject({ row: 3 });

    const noTitle = await importCsv(owner, code, csv('name,description', 'A,B'));
    expectError(noTitle, 422, 'parse_failed');
    // csv-parse's INVALID_OPENING_QUOTE, whose code alone does not start with CSV_.
    const quoteInField = await importCsv(owner, code, '<?xml version="1.0"?><testsuite name="w"/>', { format: 'csv' });
    expectError(quoteInField, 422, 'parse_failed');
    expect(quoteInField.body.error.details).toEqual({ line: 1, column: expect.any(Number) });
    expect(await writtenIn(owner.orgId)).toMatchObject({ cases: 0, suites: 0, imported: 0 });
  });

  it('text the database cannot store (NUL, a lone surrogate) is imported as U+FFFD', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await importCsv(owner, code, csv('title,suite_path,description', 'Pay\u0000by card,Check\u0000out,Lone \ud800 half'));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const [imported] = await casesOf(owner, code);
    expect(imported).toMatchObject({ title: 'Pay\uFFFDby card', description: 'Lone \uFFFD half' });
    expect([...(await suitePaths(owner, code)).values()]).toEqual(['Check\uFFFDout']);
  });

  it("a user picker cell takes a member's ULID; anyone else is parse_failed naming the row", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const reviewer = await createField(t.http, owner, { entity: 'test_case', valueType: 'user_picker', title: 'Reviewer' });
    const stranger = await ownerWithProject(t.http);
    const refused = await importCsv(owner, code, csv('title,Reviewer', `Mine,${owner.userId}`, `Theirs,${stranger.owner.userId}`));
    expectError(refused, 422, 'parse_failed');
    expect(refused.body.error.details).toMatchObject({ row: 3 });
    const accepted = await importCsv(owner, code, csv('title,Reviewer', `Mine,${owner.userId}`));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const [mine] = await casesOf(owner, code);
    expect(mine!.customFieldValues.find((value) => value.fieldUlid === reviewer.ulid)!.value).toBe(owner.userId);
  });

  it('empty_import: a file with only the header, or blank', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    expectError(await importCsv(owner, code, csv(HEADER)), 422, 'empty_import');
    expectError(await importCsv(owner, code, ' \n'), 422, 'empty_import');
  });

  it('too_many_cases past 10,000 cases, too_many_suites past 1,000 new suites; nothing written', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = Array.from({ length: 10_001 }, (_, index) => `Case ${index}`);
    expectError(await importCsv(owner, code, csv('title', ...cases)), 422, 'too_many_cases');
    const suites = Array.from({ length: 1_001 }, (_, index) => `Case ${index},Suite ${index}`);
    const response = await importCsv(owner, code, csv('title,suite_path', ...suites));
    expectError(response, 422, 'too_many_suites');
    expect(await writtenIn(owner.orgId)).toMatchObject({ cases: 0, suites: 0, imported: 0 });
    const fits = await importCsv(owner, code, csv('title,suite_path', ...suites.slice(0, 1_000)));
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expect(fits.body).toMatchObject({ createdSuites: 1_000, createdCases: 1_000 });
  });

  it('a member imports (multipart file too); a viewer gets 403', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await importCsv(viewer, code, csv('title', 'Nope')), 403, 'forbidden');
    const response = await t.http
      .post(`/api/v1/projects/${code}/test-case-imports`)
      .set(member.headers)
      .attach('file', Buffer.from(csv('title', 'By a member')), 'cases.csv');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((await casesOf(owner, code)).map((each) => each.title)).toEqual(['By a member']);
  });
});

describe('POST /api/v1/projects/{projectId}/test-case-imports (TestRail XML)', () => {
  it('reads a TestRail export: sections as suite paths, preconds, separated and text steps, references as tags, priority and type', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const fields = await fieldsOf(t.http, owner);
    const xml = await fixture('testrail-suite.xml');
    const response = await t.http
      .post(`/api/v1/projects/${code}/test-case-imports`)
      .set(owner.headers)
      .set('Content-Type', 'application/xml')
      .send(xml);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ createdSuites: 3, createdCases: 3, updatedCases: 0 });
    expect(response.body.warnings).toEqual([
      { row: expect.any(Number), message: '"Urgent" is not an option of Priority; the field is left as it is' },
    ]);

    const content = await projectContent(owner, code);
    expect(content.suites).toEqual(['Checkout', 'Checkout / Refunds', 'Search']);
    const option = (field: Field, name: string) => field.options.find((each) => each.name === name)!.ulid;
    const valueIn = (testCase: (typeof content.cases)[number], field: Field) =>
      testCase.values.find((value) => value.fieldUlid === field.ulid)!.value;
    const [card, refund, search] = content.cases as [
      (typeof content.cases)[number],
      (typeof content.cases)[number],
      (typeof content.cases)[number],
    ];
    expect(card).toMatchObject({
      title: 'Pay by card',
      suite: 'Checkout',
      description: 'A cart with one item',
      tags: ['SHOP-12', 'SHOP-14'],
      steps: [
        { action: 'Open the cart', expectedResult: 'The cart shows one item' },
        { action: 'Pay with card <4242>', expectedResult: 'The order is confirmed' },
      ],
    });
    expect(valueIn(card, fields.priority!)).toBe(option(fields.priority!, 'High'));
    expect(valueIn(card, fields.type!)).toBe(option(fields.type!, 'Functional'));
    expect(refund).toMatchObject({
      title: 'Refund a paid order',
      suite: 'Checkout / Refunds',
      steps: [{ action: 'Open the order and press Refund', expectedResult: 'The refund is listed' }],
    });
    expect(valueIn(refund, fields.type!)).toBe(option(fields.type!, 'Regression'));
    expect(search).toMatchObject({ title: 'Search by name', suite: 'Search', steps: [], tags: [] });
  });

  it('malformed XML is parse_failed with its line; another XML document or a DOCTYPE is parse_failed; no case is empty_import', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const post = (xml: string) =>
      t.http.post(`/api/v1/projects/${code}/test-case-imports`).set(owner.headers).set('Content-Type', 'text/xml').send(xml);
    const broken = await post('<suite>\n<sections>\n<section><name>A</name>\n<cases><case><title>x</case>');
    expectError(broken, 422, 'parse_failed');
    expect(broken.body.error.details.line).toBe(4);
    expectError(await post('<testsuites><testsuite/></testsuites>'), 422, 'parse_failed');
    const entity = await post(
      '<?xml version="1.0"?>\n<!DOCTYPE suite [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<suite><sections/></suite>',
    );
    expectError(entity, 422, 'parse_failed');
    expect(entity.body.error.message).toContain('DOCTYPE');
    expectError(await post('<suite><sections/></suite>'), 422, 'empty_import');
  });
});

describe('round trip', () => {
  it('a project exported as CSV and imported into an empty project has the same suites, cases, steps, tags and field values', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const platforms = await createField(t.http, owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Platforms',
      options: [{ name: 'Linux' }, { name: 'macOS' }],
    });
    await createField(t.http, owner, { entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    const fields = await fieldsOf(t.http, owner);
    const root = await createSuite(t.http, owner, code, { name: 'Root' });
    const child = await createSuite(t.http, owner, code, { name: 'Child', parentUlid: root.ulid });
    await createSuite(t.http, owner, code, { name: 'Sibling', parentUlid: root.ulid });
    await createCase(t.http, owner, code, {
      title: '=1+1 checkout',
      description: '@everyone pays\nwith "quotes", commas',
      suiteUlid: child.ulid,
      tags: ['smoke', '-negative'],
      steps: [
        { action: 'Open the cart', expectedResult: 'The cart shows' },
        { action: '+ Pay\non two lines', expectedResult: null },
        { action: 'Leave', expectedResult: 'Bye' },
      ],
      customFieldValues: [
        { fieldUlid: fields.priority!.ulid, value: fields.priority!.options.find((option) => option.name === 'High')!.ulid },
        { fieldUlid: fields.is_flaky!.ulid, value: true },
        { fieldUlid: platforms.ulid, value: [platforms.options[1]!.ulid, platforms.options[0]!.ulid] },
        { fieldUlid: fields.Notes!.ulid, value: '- a note' },
      ],
    });
    await createCase(t.http, owner, code, { title: 'In root', suiteUlid: root.ulid, steps: [{ action: 'Only step' }] });
    await createCase(t.http, owner, code, { title: 'No suite' });

    const exported = await t.http.get(`/api/v1/projects/${code}/exports?format=csv`).set(owner.headers);
    expect(exported.status).toBe(200);
    const empty = await createProject(t.http, owner, { name: 'Copy' });
    const response = await importCsv(owner, empty.id, exported.text);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({ createdSuites: 2, createdCases: 3, updatedCases: 0, warnings: [] });

    const source = await projectContent(owner, code);
    const copy = await projectContent(owner, empty.id);
    // An empty suite has no case to carry it in the export.
    expect(source.suites).toEqual(['Root', 'Root / Child', 'Root / Sibling']);
    expect(copy.suites).toEqual(['Root', 'Root / Child']);
    expect(copy.cases).toEqual(source.cases);
  });
});
