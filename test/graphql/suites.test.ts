import { describe, expect, it } from 'vitest';
import { onQuery } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';

const t = useTestApp();

const SUITE_FIELDS = 'ulid projectUlid suiteNumber displayId name description parentUlid position createdAt updatedAt';
const CREATE = `mutation($projectCode: String!, $input: CreateSuiteInput!) { createSuite(projectCode: $projectCode, input: $input) { ${SUITE_FIELDS} } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateSuiteInput!) { updateSuite(ulid: $ulid, input: $input) { ${SUITE_FIELDS} } }`;
const DELETE = 'mutation($ulid: String!) { deleteSuite(ulid: $ulid) }';
const SUITE = `query($ulid: String!) { suite(ulid: $ulid) { ${SUITE_FIELDS} parent { name } children { name position } } }`;
const BY_DISPLAY_ID =
  'query($code: String!, $displayId: String!) { suiteByDisplayId(projectCode: $code, displayId: $displayId) { ulid displayId } }';
const TREE = `query($code: String!) {
  project(code: $code) { suites { name displayId parentUlid position parent { name } children { name displayId } } }
}`;

type Suite = { ulid: string; name: string; displayId: string; parentUlid: string | null; position: number };

async function create(caller: Caller, projectCode: string, input: Record<string, unknown>): Promise<Suite> {
  return dataOf(await graphql(t.http, caller, CREATE, { projectCode, input })).createSuite;
}

async function treeNames(caller: Caller, code: string): Promise<string[]> {
  return dataOf(await graphql(t.http, caller, TREE, { code })).project.suites.map((suite: Suite) => suite.name);
}

describe('GraphQL: suites', () => {
  it('creates suites and answers the same object as REST', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'GQL' });
    const root = await create(owner, 'GQL', { name: 'Root', description: 'Top' });
    expect(root).toMatchObject({
      suiteNumber: 1,
      displayId: 'GQL-S1',
      name: 'Root',
      description: 'Top',
      parentUlid: null,
      position: 0,
      projectUlid: project.ulid,
    });
    const child = await create(owner, 'GQL', { name: 'Child', parentUlid: root.ulid });
    expect(child).toMatchObject({ displayId: 'GQL-S2', parentUlid: root.ulid, position: 0 });

    const rest = await t.http.get(`/api/v1/suites/${child.ulid}`).set(owner.headers);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(child);

    const read = dataOf(await graphql(t.http, owner, SUITE, { ulid: root.ulid })).suite;
    expect(read).toEqual({ ...root, parent: null, children: [{ name: 'Child', position: 0 }] });
    const byDisplayId = dataOf(await graphql(t.http, owner, BY_DISPLAY_ID, { code: 'GQL', displayId: 'GQL-S2' }));
    expect(byDisplayId.suiteByDisplayId).toEqual({ ulid: child.ulid, displayId: 'GQL-S2' });
    expect((await auditEvents(t.http, owner, { actionPrefix: 'suite.' })).map((event) => event.action)).toEqual([
      'suite.created',
      'suite.created',
    ]);
  });

  it('lists the project tree depth-first with ordered children', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { id: 'TREE' });
    const b = await create(owner, 'TREE', { name: 'B' });
    const a = await create(owner, 'TREE', { name: 'A' });
    await create(owner, 'TREE', { name: 'B1', parentUlid: b.ulid });
    const a2 = await create(owner, 'TREE', { name: 'A2', parentUlid: a.ulid });
    const a1 = await create(owner, 'TREE', { name: 'A1', parentUlid: a.ulid });
    dataOf(await graphql(t.http, owner, UPDATE, { ulid: a.ulid, input: { position: 0 } }));
    dataOf(await graphql(t.http, owner, UPDATE, { ulid: a1.ulid, input: { position: 0 } }));

    const suites = dataOf(await graphql(t.http, owner, TREE, { code: 'TREE' })).project.suites;
    expect(suites.map((suite: Suite) => suite.name)).toEqual(['A', 'A1', 'A2', 'B', 'B1']);
    const byName = Object.fromEntries(suites.map((suite: Suite & { children: unknown[]; parent: unknown }) => [suite.name, suite]));
    expect(byName.A).toMatchObject({
      parent: null,
      position: 0,
      children: [
        { name: 'A1', displayId: a1.displayId },
        { name: 'A2', displayId: a2.displayId },
      ],
    });
    expect(byName.A2).toMatchObject({ parent: { name: 'A' }, parentUlid: a.ulid, position: 1, children: [] });

    const rest = await t.http.get('/api/v1/projects/TREE/suites').set(owner.headers);
    expect(rest.body.items.map((suite: Suite) => suite.name)).toEqual(['A', 'A1', 'A2', 'B', 'B1']);
  });

  it('reads a tree of 3 and of 12 suites with the same number of SQL statements', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { id: 'SMALL' });
    await createProject(t.http, owner, { id: 'LARGE' });
    for (const [code, count] of [
      ['SMALL', 3],
      ['LARGE', 12],
    ] as const) {
      let parentUlid: string | null = null;
      for (let index = 0; index < count; index++) {
        const suite: Suite = await create(owner, code, { name: `S${index}`, parentUlid: index % 3 === 0 ? null : parentUlid });
        if (index % 3 === 0) parentUlid = suite.ulid;
      }
    }
    const count = async (code: string) => {
      await graphql(t.http, owner, TREE, { code }); // warm-up: once-a-minute session bookkeeping happens here
      const statements: string[] = [];
      const stop = onQuery((event) => statements.push(event.query));
      try {
        expect(dataOf(await graphql(t.http, owner, TREE, { code })).project.suites.length).toBeGreaterThan(0);
      } finally {
        stop();
      }
      return statements;
    };
    const few = await count('SMALL');
    const many = await count('LARGE');
    expect(many.length, many.join('\n')).toBe(few.length);
  });

  it('moves, renames and deletes through mutations, with the REST rules', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { id: 'MUT' });
    const a = await create(owner, 'MUT', { name: 'A' });
    const b = await create(owner, 'MUT', { name: 'B' });
    const b1 = await create(owner, 'MUT', { name: 'B1', parentUlid: b.ulid });

    const moved = dataOf(
      await graphql(t.http, owner, UPDATE, { ulid: b.ulid, input: { parentUlid: a.ulid, name: 'B moved' } }),
    ).updateSuite;
    expect(moved).toMatchObject({ name: 'B moved', parentUlid: a.ulid, position: 0 });
    expect(await treeNames(owner, 'MUT')).toEqual(['A', 'B moved', 'B1']);

    const cycle = onlyError(await graphql(t.http, owner, UPDATE, { ulid: a.ulid, input: { parentUlid: b1.ulid } }));
    expect(cycle.extensions?.code).toBe('validation_failed');
    expect(cycle.extensions?.details?.path).toEqual(['parentUlid']);
    const empty = onlyError(await graphql(t.http, owner, UPDATE, { ulid: a.ulid, input: {} }));
    expect(empty.extensions?.code).toBe('validation_failed');
    const tooLong = onlyError(await graphql(t.http, owner, UPDATE, { ulid: a.ulid, input: { name: 'x'.repeat(201) } }));
    expect(tooLong.extensions?.details?.path).toEqual(['name']);

    const toRoot = dataOf(await graphql(t.http, owner, UPDATE, { ulid: b1.ulid, input: { parentUlid: null } })).updateSuite;
    expect(toRoot).toMatchObject({ parentUlid: null, position: 1 });

    expect(dataOf(await graphql(t.http, owner, DELETE, { ulid: b.ulid })).deleteSuite).toBe(true);
    expect(onlyError(await graphql(t.http, owner, SUITE, { ulid: b.ulid })).extensions?.code).toBe('not_found');
    expect(await treeNames(owner, 'MUT')).toEqual(['A', 'B1']);
    expect((await auditEvents(t.http, owner, { actionPrefix: 'suite.' })).map((event) => event.action).sort()).toEqual(
      ['suite.created', 'suite.created', 'suite.created', 'suite.deleted', 'suite.moved', 'suite.moved'].sort(),
    );
  });

  it('carries the contract error codes in extensions.code', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { id: 'ERR' });
    const suite = await create(owner, 'ERR', { name: 'Kept' });
    const viewer = await joinAs(t.http, owner, 'viewer');

    expect(codeOf(await graphql(t.http, viewer, CREATE, { projectCode: 'ERR', input: { name: 'No' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, UPDATE, { ulid: suite.ulid, input: { name: 'No' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, DELETE, { ulid: suite.ulid }))).toBe('forbidden');
    expect(await treeNames(viewer, 'ERR')).toEqual(['Kept']);

    expect(codeOf(await graphql(t.http, owner, SUITE, { ulid: newId() }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, owner, CREATE, { projectCode: 'ERR', input: { name: 'X', parentUlid: newId() } }))).toBe(
      'not_found',
    );
    expect(codeOf(await graphql(t.http, owner, CREATE, { projectCode: 'ERR', input: { name: '' } }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, BY_DISPLAY_ID, { code: 'ERR', displayId: 'ERR-1' }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, BY_DISPLAY_ID, { code: 'ERR', displayId: 'OTHER-S1' }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, BY_DISPLAY_ID, { code: 'ERR', displayId: 'ERR-S9' }))).toBe('not_found');

    const stranger = await signUp(t.http);
    expect(codeOf(await graphql(t.http, stranger, SUITE, { ulid: suite.ulid }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, stranger, DELETE, { ulid: suite.ulid }))).toBe('not_found');
    expect(await treeNames(owner, 'ERR')).toEqual(['Kept']);
  });
});
