import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { onQuery, prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import {
  auditEvents,
  type Caller,
  createProject,
  createSuite,
  graphql,
  joinAs,
  ownerWithProject,
  signUp,
  useTestApp,
} from '../support/app.ts';
import { dataOf, onlyError } from '../support/graphql.ts';

const t = useTestApp();

const CASE_FIELDS = `ulid projectUlid caseNumber displayId title description suiteUlid suite { name } milestoneUlid tags
  steps { ulid position action expectedResult attachments { ulid fileName } }
  customFieldValues { fieldUlid value systemKey optionName } archivedAt createdAt updatedAt`;

const CREATE = `mutation($code: String!, $input: CreateTestCaseInput!) { createTestCase(projectCode: $code, input: $input) { ${CASE_FIELDS} } }`;
const READ = `query($ulid: String!) { testCase(ulid: $ulid) { ${CASE_FIELDS} } }`;
const BY_DISPLAY_ID = `query($code: String!, $displayId: String!) { testCaseByDisplayId(projectCode: $code, displayId: $displayId) { ulid displayId } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateTestCaseInput!) { updateTestCase(ulid: $ulid, input: $input) { ${CASE_FIELDS} } }`;
const SET_STEPS = `mutation($ulid: String!, $steps: [TestCaseStepInput!]!) { setTestCaseSteps(ulid: $ulid, steps: $steps) { steps { ulid position action expectedResult } } }`;
const ARCHIVE = `mutation($ulid: String!) { archiveTestCase(ulid: $ulid) { ulid archivedAt } }`;
const RESTORE = `mutation($ulid: String!) { restoreTestCase(ulid: $ulid) { ulid archivedAt } }`;
const DELETE = `mutation($ulid: String!) { deleteTestCase(ulid: $ulid) }`;
const LIST = `query($code: String!, $first: Int, $after: String, $last: Int, $before: String, $suiteUlid: String, $q: String, $tag: String, $archived: Boolean) {
  project(code: $code) {
    testCases(first: $first, after: $after, last: $last, before: $before, suiteUlid: $suiteUlid, q: $q, tag: $tag, archived: $archived) {
      edges { node { ulid title customFieldValues { fieldUlid value } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      totalCount
    }
  }
}`;

/** A select field with two options (definitions are the custom-fields module's API; a fixture here). */
async function selectField(orgId: string) {
  const id = newId();
  const [low, high] = [newId(), newId()];
  await prisma().customField.create({
    data: {
      id,
      orgId,
      entity: 'test_case',
      group: 'custom',
      valueType: 'select_single',
      titleEn: 'Risk',
      position: 100,
      options: {
        create: [
          { id: low, orgId, nameEn: 'Low', nameEs: 'Bajo', position: 0 },
          { id: high, orgId, nameEn: 'High', nameEs: 'Alto', position: 1 },
        ],
      },
    },
  });
  return { id, low, high };
}

const create = async (caller: Caller, code: string, input: Record<string, unknown>) =>
  dataOf(await graphql(t.http, caller, CREATE, { code, input })).createTestCase;

describe('GraphQL: test cases', () => {
  it('creates a case and reads it by ULID and display ID with steps, suite and custom field values', async () => {
    const { owner, code, project } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code, { name: 'Login' });
    const risk = await selectField(owner.orgId);
    const created = await create(owner, code, {
      title: 'Sign in',
      suiteUlid: suite.ulid,
      tags: ['smoke', 'smoke', 'auth'],
      steps: [{ action: 'Open', expectedResult: 'Form' }, { action: 'Submit' }],
      customFieldValues: [{ fieldUlid: risk.id, value: risk.high }],
    });
    expect(created).toMatchObject({
      projectUlid: project.ulid,
      caseNumber: 1,
      displayId: `${code}-1`,
      title: 'Sign in',
      description: null,
      suiteUlid: suite.ulid,
      suite: { name: 'Login' },
      milestoneUlid: null,
      tags: ['smoke', 'auth'],
      archivedAt: null,
    });
    expect(created.steps.map((step: { position: number; action: string }) => [step.position, step.action])).toEqual([
      [0, 'Open'],
      [1, 'Submit'],
    ]);
    expect(created.customFieldValues).toContainEqual({ fieldUlid: risk.id, value: risk.high, systemKey: null, optionName: 'High' });

    const read = dataOf(await graphql(t.http, owner, READ, { ulid: created.ulid })).testCase;
    expect(read).toEqual(created);
    // The same object as REST.
    const rest = await t.http.get(`/api/v1/test-cases/${created.ulid}`).set(owner.headers);
    expect(rest.body.steps.map((step: { ulid: string }) => step.ulid)).toEqual(created.steps.map((step: { ulid: string }) => step.ulid));
    expect(rest.body.updatedAt).toBe(created.updatedAt);

    const byDisplayId = dataOf(await graphql(t.http, owner, BY_DISPLAY_ID, { code, displayId: `${code}-1` })).testCaseByDisplayId;
    expect(byDisplayId).toEqual({ ulid: created.ulid, displayId: `${code}-1` });
    expect(onlyError(await graphql(t.http, owner, BY_DISPLAY_ID, { code, displayId: `${code}-2` })).extensions?.code).toBe('not_found');
    expect(onlyError(await graphql(t.http, owner, BY_DISPLAY_ID, { code, displayId: 'nope' })).extensions?.code).toBe('validation_failed');
    expect(onlyError(await graphql(t.http, owner, BY_DISPLAY_ID, { code, displayId: 'OTHER-1' })).extensions?.code).toBe(
      'validation_failed',
    );
    expect(onlyError(await graphql(t.http, owner, READ, { ulid: newId() })).extensions?.code).toBe('not_found');
  });

  it('validates inputs with the REST rules and refuses viewers', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const empty = onlyError(await graphql(t.http, owner, CREATE, { code, input: { title: '' } }));
    expect(empty.extensions).toMatchObject({ code: 'validation_failed', details: { path: ['title'] } });
    const badRef = onlyError(
      await graphql(t.http, owner, CREATE, {
        code,
        input: { title: 'x', steps: [{ action: 'a', attachments: [{ ulid: newId(), key: 'k' }] }] },
      }),
    );
    expect(badRef.extensions?.code).toBe('validation_failed');
    expect(onlyError(await graphql(t.http, viewer, CREATE, { code, input: { title: 'By a viewer' } })).extensions?.code).toBe('forbidden');
    const list = await t.http.get(`/api/v1/projects/${code}/test-cases`).set(owner.headers);
    expect(list.body.items).toEqual([]);
  });

  it('updateTestCase applies everything with one event, or nothing on failure', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createSuite(t.http, owner, code, { name: 'Target' });
    const risk = await selectField(owner.orgId);
    const created = await create(owner, code, { title: 'Before', steps: [{ action: 'One' }] });

    const failed = onlyError(
      await graphql(t.http, owner, UPDATE, {
        ulid: created.ulid,
        input: {
          patch: { title: 'After' },
          steps: [{ action: 'New' }],
          customFieldValues: [{ fieldUlid: risk.id, value: 'not an option' }],
        },
      }),
    );
    expect(failed.extensions).toMatchObject({ code: 'validation_failed', details: { path: ['customFieldValues', 0, 'value'] } });
    expect(dataOf(await graphql(t.http, owner, READ, { ulid: created.ulid })).testCase).toEqual(created);
    expect((await auditEvents(t.http, owner, { entityUlid: created.ulid })).map((event) => event.action)).toEqual(['test_case.created']);

    const viewer = await joinAs(t.http, owner, 'viewer');
    const denied = onlyError(await graphql(t.http, viewer, UPDATE, { ulid: created.ulid, input: { patch: { title: 'Viewer' } } }));
    expect(denied.extensions?.code).toBe('forbidden');
    expect(onlyError(await graphql(t.http, owner, UPDATE, { ulid: created.ulid, input: {} })).extensions?.code).toBe('validation_failed');

    const updated = dataOf(
      await graphql(t.http, owner, UPDATE, {
        ulid: created.ulid,
        input: {
          patch: { title: 'After', suiteUlid: target.ulid, description: null },
          steps: [{ ulid: created.steps[0].ulid, action: 'One, edited' }],
          customFieldValues: [{ fieldUlid: risk.id, value: risk.low }],
        },
      }),
    ).updateTestCase;
    expect(updated).toMatchObject({
      title: 'After',
      suiteUlid: target.ulid,
      steps: [{ ulid: created.steps[0].ulid, action: 'One, edited' }],
    });
    expect(updated.customFieldValues).toContainEqual({ fieldUlid: risk.id, value: risk.low, systemKey: null, optionName: 'Low' });
    const events = await auditEvents(t.http, owner, { entityUlid: created.ulid });
    expect(events.map((event) => event.action)).toEqual(['test_case.moved', 'test_case.created']);
    expect(Object.keys(events[0]!.metadata).sort()).toEqual(['changes', 'customFieldChanges', 'stepsChange']);
  });

  it('sets steps, archives, restores and deletes', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const created = await create(owner, code, { title: 'Lifecycle', steps: [{ action: 'Old' }] });
    const steps = dataOf(
      await graphql(t.http, owner, SET_STEPS, {
        ulid: created.ulid,
        steps: [{ action: 'First' }, { ulid: created.steps[0].ulid, action: 'Old' }],
      }),
    ).setTestCaseSteps.steps;
    expect(steps.map((step: { action: string; position: number }) => [step.position, step.action])).toEqual([
      [0, 'First'],
      [1, 'Old'],
    ]);
    expect(steps[1].ulid).toBe(created.steps[0].ulid);
    const foreign = onlyError(await graphql(t.http, owner, SET_STEPS, { ulid: created.ulid, steps: [{ ulid: newId(), action: 'x' }] }));
    expect(foreign.extensions?.code).toBe('not_found');

    const archived = dataOf(await graphql(t.http, owner, ARCHIVE, { ulid: created.ulid })).archiveTestCase;
    expect(archived.archivedAt).toEqual(expect.any(Number));
    expect(dataOf(await graphql(t.http, owner, RESTORE, { ulid: created.ulid })).restoreTestCase.archivedAt).toBeNull();
    expect(dataOf(await graphql(t.http, owner, DELETE, { ulid: created.ulid })).deleteTestCase).toBe(true);
    expect(onlyError(await graphql(t.http, owner, READ, { ulid: created.ulid })).extensions?.code).toBe('not_found');
    expect((await auditEvents(t.http, owner, { entityUlid: created.ulid })).map((event) => event.action)).toEqual([
      'test_case.deleted',
      'test_case.restored',
      'test_case.archived',
      'test_case.created',
    ]);
  });

  it('pages Project.testCases with filters and totalCount', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code, { name: 'S' });
    const cases = [];
    for (let index = 0; index < 5; index++) {
      cases.push(
        await create(owner, code, { title: `Case ${index}`, tags: index % 2 ? ['odd'] : [], suiteUlid: index < 2 ? suite.ulid : null }),
      );
    }
    dataOf(await graphql(t.http, owner, ARCHIVE, { ulid: cases[4].ulid }));

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: { edges: Array<{ node: { ulid: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string }; totalCount: number } =
        dataOf(await graphql(t.http, owner, LIST, { code, first: 2, after })).project.testCases;
      expect(page.totalCount).toBe(4);
      seen.push(...page.edges.map((edge) => edge.node.ulid));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      pages += 1;
    } while (after);
    expect(pages).toBe(2);
    expect(seen).toEqual(cases.slice(0, 4).map((item) => item.ulid));

    // Backwards: the last two, then the two before them, each page in ULID order.
    const last = dataOf(await graphql(t.http, owner, LIST, { code, last: 2 })).project.testCases;
    expect(last.edges.map((edge: { node: { ulid: string } }) => edge.node.ulid)).toEqual([cases[2].ulid, cases[3].ulid]);
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    const before = dataOf(await graphql(t.http, owner, LIST, { code, last: 2, before: last.pageInfo.startCursor })).project.testCases;
    expect(before.edges.map((edge: { node: { ulid: string } }) => edge.node.ulid)).toEqual([cases[0].ulid, cases[1].ulid]);
    expect(before.pageInfo.hasPreviousPage).toBe(false);

    const ulids = async (variables: Record<string, unknown>) => {
      const connection = dataOf(await graphql(t.http, owner, LIST, { code, ...variables })).project.testCases;
      expect(connection.totalCount).toBe(connection.edges.length);
      return connection.edges.map((edge: { node: { ulid: string } }) => edge.node.ulid);
    };
    expect(await ulids({ suiteUlid: suite.ulid })).toEqual([cases[0].ulid, cases[1].ulid]);
    expect(await ulids({ tag: 'odd' })).toEqual([cases[1].ulid, cases[3].ulid]);
    expect(await ulids({ q: 'CASE 3' })).toEqual([cases[3].ulid]);
    expect(await ulids({ archived: true })).toEqual([cases[4].ulid]);
    expect(onlyError(await graphql(t.http, owner, LIST, { code, suiteUlid: newId() })).extensions?.code).toBe('not_found');
  });

  it("lists a suite's own active cases in Suite.cases by ULID", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const parent = await createSuite(t.http, owner, code, { name: 'Parent' });
    const child = await createSuite(t.http, owner, code, { name: 'Child', parentUlid: parent.ulid });
    const first = await create(owner, code, { title: 'P1', suiteUlid: parent.ulid });
    const gone = await create(owner, code, { title: 'P2', suiteUlid: parent.ulid });
    const third = await create(owner, code, { title: 'P3', suiteUlid: parent.ulid });
    await create(owner, code, { title: 'C1', suiteUlid: child.ulid });
    dataOf(await graphql(t.http, owner, ARCHIVE, { ulid: gone.ulid }));
    const data = dataOf(
      await graphql(t.http, owner, `query($ulid: String!) { suite(ulid: $ulid) { cases { ulid title } } }`, { ulid: parent.ulid }),
    );
    expect(data.suite.cases).toEqual([
      { ulid: first.ulid, title: 'P1' },
      { ulid: third.ulid, title: 'P3' },
    ]);
  });
});

describe('GraphQL: bounded SQL for a suite tree of cases', () => {
  const TREE = `query($code: String!) {
    project(code: $code) {
      suites { name cases { ulid displayId title tags steps { action } customFieldValues { fieldUlid value optionName } } }
    }
  }`;

  /** A project whose three nested suites hold `count` cases, each with a select value and a step. */
  async function treeOf(count: number) {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const root = await createSuite(t.http, owner, project.id, { name: 'Root' });
    const child = await createSuite(t.http, owner, project.id, { name: 'Child', parentUlid: root.ulid });
    const grandchild = await createSuite(t.http, owner, project.id, { name: 'Grandchild', parentUlid: child.ulid });
    const suites = [root.ulid, child.ulid, grandchild.ulid];
    const risk = await selectField(owner.orgId);
    // Bulk fixture data; the rules themselves are tested through the API above.
    const ids = Array.from({ length: count }, () => newId());
    await prisma().testCase.createMany({
      data: ids.map((id, index) => ({
        id,
        orgId: owner.orgId,
        projectId: project.ulid,
        caseNumber: index + 1,
        title: `Case ${index}`,
        suiteId: suites[index % 3]!,
        tags: ['bulk'],
      })),
    });
    await prisma().project.update({ where: { id: project.ulid }, data: { lastCaseNumber: count } });
    await prisma().testCaseStep.createMany({
      data: ids.map((caseId) => ({ id: newId(), orgId: owner.orgId, caseId, position: 0, action: 'Do it' })),
    });
    await prisma().testCaseFieldValue.createMany({
      data: ids.map((caseId, index) => ({ caseId, fieldId: risk.id, orgId: owner.orgId, value: index % 2 ? risk.high : risk.low })),
    });
    return { owner, code: project.id, risk };
  }

  async function countQueries(caller: Caller, code: string) {
    await graphql(t.http, caller, TREE, { code }); // warm-up: once-a-minute session writes happen here
    const statements: string[] = [];
    const stop = onQuery((event) => statements.push(event.query));
    let response: Response;
    try {
      response = await graphql(t.http, caller, TREE, { code });
    } finally {
      stop();
    }
    return {
      statements,
      suites: dataOf(response).project.suites as Array<{
        cases: Array<{ customFieldValues: Array<{ fieldUlid: string; optionName: string | null }> }>;
      }>,
    };
  }

  it('answers 50 and 500 cases with custom field values in the same small number of SQL statements', async () => {
    const small = await treeOf(50);
    const large = await treeOf(500);
    const few = await countQueries(small.owner, small.code);
    const many = await countQueries(large.owner, large.code);

    const casesOf = (suites: typeof few.suites) => suites.flatMap((suite) => suite.cases);
    expect(casesOf(few.suites)).toHaveLength(50);
    expect(casesOf(many.suites)).toHaveLength(500);
    for (const testCase of casesOf(many.suites)) {
      expect(testCase.customFieldValues).toContainEqual(
        expect.objectContaining({ fieldUlid: large.risk.id, optionName: expect.stringMatching(/^(Low|High)$/) }),
      );
    }
    expect(many.statements.length, many.statements.join('\n')).toBe(few.statements.length);
    expect(many.statements.length, many.statements.join('\n')).toBeLessThanOrEqual(10);
    // The values of all 500 cases come from one batch.
    const valueStatements = many.statements.filter((sql) => /from "public"\."test_case_field_values"/i.test(sql));
    expect(valueStatements, valueStatements.join('\n')).toHaveLength(1);
  }, 120_000);
});
