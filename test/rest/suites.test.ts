import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId, ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { allocateNumber } from '../../src/projects/numbering.service.ts';
import { auditEvents, type Caller, createProject, joinAs, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

const SUITE_FIELDS = [
  'ulid',
  'projectUlid',
  'suiteNumber',
  'displayId',
  'name',
  'description',
  'parentUlid',
  'position',
  'createdAt',
  'updatedAt',
];

type Suite = {
  ulid: string;
  projectUlid: string;
  suiteNumber: number;
  displayId: string;
  name: string;
  description: string | null;
  parentUlid: string | null;
  position: number;
  createdAt: number;
  updatedAt: number;
};

type Project = { ulid: string; id: string };

async function createSuite(caller: Caller, project: Project, body: Record<string, unknown>): Promise<Suite> {
  const response = await t.http.post(`/api/v1/projects/${project.id}/suites`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Suite;
}

/** Suites created in order; `parent` names an earlier one. */
async function buildTree(caller: Caller, project: Project, spec: Array<[name: string, parent?: string]>) {
  const byName: Record<string, Suite> = {};
  for (const [name, parent] of spec) {
    byName[name] = await createSuite(caller, project, { name, parentUlid: parent ? byName[parent]!.ulid : null });
  }
  return byName;
}

async function getSuite(caller: Caller, ulid: string) {
  return t.http.get(`/api/v1/suites/${ulid}`).set(caller.headers);
}

async function listPage(caller: Caller, project: Project, query = '') {
  const response = await t.http.get(`/api/v1/projects/${project.id}/suites${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Suite[]; nextCursor: string | null };
}

/** The whole tree as an indented outline (two spaces per level), checking that it fits one page. */
async function outline(caller: Caller, project: Project): Promise<string[]> {
  const page = await listPage(caller, project, '?limit=200');
  expect(page.nextCursor).toBeNull();
  return outlineOf(page.items);
}

function outlineOf(items: Suite[]): string[] {
  const depth = new Map<string | null, number>([[null, -1]]);
  return items.map((suite) => {
    const level = depth.get(suite.parentUlid);
    expect(level, `${suite.name} listed before its parent`).toBeDefined();
    depth.set(suite.ulid, level! + 1);
    return `${'  '.repeat(level! + 1)}${suite.name}`;
  });
}

/** Every group of siblings holds the positions 0..n-1 in list order. */
async function expectGaplessPositions(caller: Caller, project: Project) {
  const { items } = await listPage(caller, project, '?limit=200');
  const groups = new Map<string | null, number[]>();
  for (const suite of items) groups.set(suite.parentUlid, [...(groups.get(suite.parentUlid) ?? []), suite.position]);
  for (const positions of groups.values()) expect(positions).toEqual(positions.map((_, index) => index));
}

/** A test case in `suiteUlid`: through the test-case API when it exists, else as a database fixture. */
async function createCase(caller: Caller, project: Project, suiteUlid: string | null): Promise<string> {
  const response = await t.http
    .post(`/api/v1/projects/${project.id}/test-cases`)
    .set(caller.headers)
    .send({ title: 'A case', ...(suiteUlid ? { suiteUlid } : {}) });
  if (response.status === 201) return response.body.ulid as string;
  expect(response.status, 'the test-case route either creates the case or does not exist yet').toBe(404);
  return prisma().$transaction(async (tx) => {
    const caseNumber = await allocateNumber(tx, project.ulid, 'case');
    const row = await tx.testCase.create({
      data: { id: newId(), orgId: caller.orgId, projectId: project.ulid, caseNumber, title: 'A case', suiteId: suiteUlid },
    });
    return row.id;
  });
}

async function suiteOfCase(caller: Caller, caseUlid: string): Promise<string | null> {
  const response = await t.http.get(`/api/v1/test-cases/${caseUlid}`).set(caller.headers);
  if (response.status === 200) return response.body.suiteUlid as string | null;
  const row = await prisma().testCase.findUniqueOrThrow({ where: { id: caseUlid } });
  return row.suiteId;
}

describe('POST /api/v1/projects/{projectId}/suites', () => {
  it('creates root and child suites with the contract fields, numbers and positions', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'WEB' });
    const before = Date.now();
    const first = await createSuite(owner, project, { name: 'Checkout', description: 'Paying' });
    expect(Object.keys(first).sort()).toEqual([...SUITE_FIELDS].sort());
    expect(first.ulid).toMatch(ULID_PATTERN);
    expect(first).toMatchObject({
      projectUlid: project.ulid,
      suiteNumber: 1,
      displayId: 'WEB-S1',
      name: 'Checkout',
      description: 'Paying',
      parentUlid: null,
      position: 0,
    });
    expect(first.createdAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(first.updatedAt).toBe(first.createdAt);

    const second = await createSuite(owner, project, { name: 'Search' });
    expect(second).toMatchObject({ suiteNumber: 2, displayId: 'WEB-S2', description: null, parentUlid: null, position: 1 });
    const child = await createSuite(owner, project, { name: 'Cards', parentUlid: first.ulid, description: null });
    expect(child).toMatchObject({ suiteNumber: 3, parentUlid: first.ulid, position: 0 });
    const sibling = await createSuite(owner, project, { name: 'Vouchers', parentUlid: first.ulid });
    expect(sibling).toMatchObject({ suiteNumber: 4, parentUlid: first.ulid, position: 1 });

    const read = await getSuite(owner, first.ulid);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(first);

    const created = await auditEvents(t.http, owner, { action: 'suite.created' });
    expect(created.map((event) => event.entityUlid).sort()).toEqual([first.ulid, second.ulid, child.ulid, sibling.ulid].sort());
    expect(created.find((event) => event.entityUlid === child.ulid)).toMatchObject({
      entityType: 'suite',
      entityLabel: 'Cards',
      metadata: { displayId: 'WEB-S3', parentUlid: first.ulid },
    });
  });

  it('accepts the maximum lengths', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'n'.repeat(200), description: 'd'.repeat(2000) });
    expect(suite.name).toHaveLength(200);
    expect(suite.description).toHaveLength(2000);
  });

  it.each([
    ['an empty name', { name: '' }, ['name']],
    ['a 201-character name', { name: 'x'.repeat(201) }, ['name']],
    ['a missing name', { description: 'x' }, ['name']],
    ['a 2001-character description', { name: 'Ok', description: 'd'.repeat(2001) }, ['description']],
    ['a malformed parentUlid', { name: 'Ok', parentUlid: 'not-a-ulid' }, ['parentUlid']],
    ['an unknown key', { name: 'Ok', position: 3 }, ['position']],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body, path) => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const response = await t.http.post(`/api/v1/projects/${project.id}/suites`).set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    expect((await listPage(owner, project)).items).toEqual([]);
  });

  it('answers 404 for a parent of another project, another organization or none, and for an unknown project', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const otherProject = await createProject(t.http, owner);
    const foreignSuite = await createSuite(owner, otherProject, { name: 'Elsewhere' });
    const stranger = await signUp(t.http);
    const strangerProject = await createProject(t.http, stranger);
    const strangerSuite = await createSuite(stranger, strangerProject, { name: 'Foreign' });

    for (const parentUlid of [foreignSuite.ulid, strangerSuite.ulid, newId()]) {
      const response = await t.http.post(`/api/v1/projects/${project.id}/suites`).set(owner.headers).send({ name: 'Child', parentUlid });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const unknownProject = await t.http.post('/api/v1/projects/NOPE/suites').set(owner.headers).send({ name: 'X' });
    expect(unknownProject.status).toBe(404);
    expect((await listPage(owner, project)).items).toEqual([]);
    // The failed creates did not use up suite numbers.
    expect((await createSuite(owner, project, { name: 'First' })).suiteNumber).toBe(1);
  });

  it('numbers 50 concurrent creates 1..50 with distinct positions', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'RACE' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        t.http
          .post(`/api/v1/projects/${project.id}/suites`)
          .set(owner.headers)
          .send({ name: `Suite ${index}` }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    const numbers = responses.map((response) => response.body.suiteNumber as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    const positions = responses.map((response) => response.body.position as number).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(new Set(responses.map((response) => response.body.displayId)).size).toBe(50);
    await expectGaplessPositions(owner, project);
  });
});

describe('roles and tenancy', () => {
  it('refuses every write to a viewer before anything changes, and lets a viewer read', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'Kept' });
    const viewer = await joinAs(t.http, owner, 'viewer');
    const eventsBefore = await auditEvents(t.http, owner, { actionPrefix: 'suite.' });

    const refusals = [
      await t.http.post(`/api/v1/projects/${project.id}/suites`).set(viewer.headers).send({ name: 'New' }),
      await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(viewer.headers).send({ name: 'Renamed' }),
      await t.http.delete(`/api/v1/suites/${suite.ulid}`).set(viewer.headers),
      // Refused before the suite is even looked up.
      await t.http.patch(`/api/v1/suites/${newId()}`).set(viewer.headers).send({ name: 'Renamed' }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    expect((await getSuite(owner, suite.ulid)).body).toEqual(suite);
    expect(outlineOf((await listPage(owner, project)).items)).toEqual(['Kept']);
    expect(await auditEvents(t.http, owner, { actionPrefix: 'suite.' })).toEqual(eventsBefore);

    expect((await getSuite(viewer, suite.ulid)).body).toEqual(suite);
    expect((await listPage(viewer, project)).items).toEqual([suite]);
    const byDisplayId = await t.http.get(`/api/v1/projects/${project.id}/suites/by-display-id/${suite.displayId}`).set(viewer.headers);
    expect(byDisplayId.status).toBe(200);
    expect(byDisplayId.body).toEqual(suite);
  });

  it('lets a member create, rename, move and delete', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const member = await joinAs(t.http, owner, 'member');
    const parent = await createSuite(member, project, { name: 'Parent' });
    const child = await createSuite(member, project, { name: 'Child' });
    const moved = await t.http.patch(`/api/v1/suites/${child.ulid}`).set(member.headers).send({ name: 'Moved', parentUlid: parent.ulid });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ name: 'Moved', parentUlid: parent.ulid, position: 0 });
    expect((await t.http.delete(`/api/v1/suites/${parent.ulid}`).set(member.headers)).status).toBe(204);
    expect(outlineOf((await listPage(owner, project)).items)).toEqual(['Moved']);
  });

  it('answers 404 for suites of another organization', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'SAME' });
    const suite = await createSuite(owner, project, { name: 'Private' });
    const stranger = await signUp(t.http);
    const strangerProject = await createProject(t.http, stranger, { id: 'SAME' });
    const strangerSuite = await createSuite(stranger, strangerProject, { name: 'Theirs' });

    const attempts = [
      await getSuite(stranger, suite.ulid),
      await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(stranger.headers).send({ name: 'Stolen' }),
      await t.http.delete(`/api/v1/suites/${suite.ulid}`).set(stranger.headers),
      // A move under another organization's suite.
      await t.http.patch(`/api/v1/suites/${strangerSuite.ulid}`).set(stranger.headers).send({ parentUlid: suite.ulid }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await getSuite(owner, suite.ulid)).body).toEqual(suite);
    expect((await getSuite(stranger, strangerSuite.ulid)).body).toEqual(strangerSuite);
    // The same code in each organization lists its own suites.
    expect((await listPage(stranger, strangerProject)).items).toEqual([strangerSuite]);
    expect((await listPage(owner, project)).items).toEqual([suite]);
  });

  it('answers 403 project_locked for suites of a locked project', async () => {
    const owner = await signUp(t.http);
    const old = await createProject(t.http, owner);
    const suite = await createSuite(owner, old, { name: 'Frozen' });
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });

    const attempts = [
      await getSuite(owner, suite.ulid),
      await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send({ name: 'Thawed' }),
      await t.http.delete(`/api/v1/suites/${suite.ulid}`).set(owner.headers),
      await t.http.get(`/api/v1/projects/${old.id}/suites`).set(owner.headers),
      await t.http.post(`/api/v1/projects/${old.id}/suites`).set(owner.headers).send({ name: 'More' }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('project_locked');
    }
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 3 });
    expect((await getSuite(owner, suite.ulid)).body).toEqual(suite);
  });
});

describe('reading one suite', () => {
  it('answers 404 for an unknown or malformed suite ULID', async () => {
    const owner = await signUp(t.http);
    for (const ulid of [newId(), 'not-a-ulid', `${newId()}X`]) {
      const response = await getSuite(owner, ulid);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('finds a suite by display ID and refuses malformed, foreign and unknown ones', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'SHOP' });
    await createSuite(owner, project, { name: 'One' });
    const two = await createSuite(owner, project, { name: 'Two' });
    const byDisplayId = (displayId: string, code = 'SHOP') =>
      t.http.get(`/api/v1/projects/${code}/suites/by-display-id/${encodeURIComponent(displayId)}`).set(owner.headers);

    const found = await byDisplayId('SHOP-S2');
    expect(found.status).toBe(200);
    expect(found.body).toEqual(two);

    for (const malformed of ['SHOP-2', 'SHOP-S0', 'SHOP-S', 'shop-S1', 'SHOP-S1x', 'S1']) {
      const response = await byDisplayId(malformed);
      expect(response.status, malformed).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(['displayId']);
    }
    const foreign = await byDisplayId('WEB-S1');
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('validation_failed');
    const unknown = await byDisplayId('SHOP-S3');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await byDisplayId('NOPE-S1', 'NOPE')).status).toBe(404);
  });
});

describe('GET /api/v1/projects/{projectId}/suites', () => {
  it('lists the tree depth-first in position order across cursor pages', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['B'], ['A'], ['B1', 'B'], ['A2', 'A'], ['C'], ['A1', 'A'], ['A1a', 'A1']]);
    // Order by position, not by creation: A first among the roots, A1 first under A.
    await t.http.patch(`/api/v1/suites/${s.A!.ulid}`).set(owner.headers).send({ position: 0 }).expect(200);
    await t.http.patch(`/api/v1/suites/${s.A1!.ulid}`).set(owner.headers).send({ position: 0 }).expect(200);
    const expected = ['A', '  A1', '    A1a', '  A2', 'B', '  B1', 'C'];

    const first = await listPage(owner, project, '?limit=4');
    expect(first.items.map((suite) => suite.name)).toEqual(['A', 'A1', 'A1a', 'A2']);
    expect(first.nextCursor).toBe(s.A2!.ulid);
    const second = await listPage(owner, project, `?limit=4&cursor=${first.nextCursor}`);
    expect(second.items.map((suite) => suite.name)).toEqual(['B', 'B1', 'C']);
    expect(second.nextCursor).toBeNull();
    expect(outlineOf([...first.items, ...second.items])).toEqual(expected);
    expect(second.items[0]).toEqual((await getSuite(owner, s.B!.ulid)).body);

    const exact = await listPage(owner, project, '?limit=7');
    expect(exact.items).toHaveLength(7);
    expect(exact.nextCursor).toBeNull();
    expect(await outline(owner, project)).toEqual(expected);
    const fromLast = await listPage(owner, project, `?cursor=${s.C!.ulid}`);
    expect(fromLast).toEqual({ items: [], nextCursor: null });
    await expectGaplessPositions(owner, project);
  });

  it('answers an empty page for a project without suites', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    expect(await listPage(owner, project)).toEqual({ items: [], nextCursor: null });
  });

  it('answers 422 for a cursor that is not a suite of this project and for bad limits', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const other = await createProject(t.http, owner);
    await createSuite(owner, project, { name: 'Here' });
    const elsewhere = await createSuite(owner, other, { name: 'There' });

    for (const [query, path] of [
      [`?cursor=${elsewhere.ulid}`, ['cursor']],
      [`?cursor=${newId()}`, ['cursor']],
      ['?cursor=nope', ['cursor']],
      ['?limit=0', ['limit']],
      ['?limit=201', ['limit']],
      ['?limit=1.5', ['limit']],
    ] as const) {
      const response = await t.http.get(`/api/v1/projects/${project.id}/suites${query}`).set(owner.headers);
      expect(response.status, query).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    }
  });
});

describe('PATCH /api/v1/suites/{suiteUlid}', () => {
  it('renames and describes a suite and records suite.updated with the changes', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'Old', description: 'Before' });
    const response = await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send({ name: 'New', description: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...suite, name: 'New', description: null, updatedAt: response.body.updatedAt });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(suite.updatedAt);
    expect((await getSuite(owner, suite.ulid)).body).toEqual(response.body);

    const updated = await auditEvents(t.http, owner, { action: 'suite.updated' });
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      entityType: 'suite',
      entityUlid: suite.ulid,
      entityLabel: 'New',
      metadata: {
        changes: [
          { field: 'name', from: 'Old', to: 'New' },
          { field: 'description', from: 'Before', to: null },
        ],
      },
    });
  });

  it('answers 200 without an event for a PATCH that changes nothing', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'Same', description: 'Same' });
    await createSuite(owner, project, { name: 'Next' });
    const eventsBefore = await auditEvents(t.http, owner, { actionPrefix: 'suite.' });
    for (const body of [{ name: 'Same' }, { description: 'Same', parentUlid: null }, { position: 0 }]) {
      const response = await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send(body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(suite);
    }
    expect(await auditEvents(t.http, owner, { actionPrefix: 'suite.' })).toEqual(eventsBefore);
  });

  it.each([
    ['an empty body', {}, []],
    ['an empty name', { name: '' }, ['name']],
    ['a negative position', { position: -1 }, ['position']],
    ['a fractional position', { position: 1.5 }, ['position']],
    ['a malformed parentUlid', { parentUlid: 'x' }, ['parentUlid']],
    ['an unknown key', { suiteNumber: 9 }, ['suiteNumber']],
  ])('answers 422 validation_failed for %s', async (_label, body, path) => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'Stay' });
    const response = await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    if (path.length > 0) expect(response.body.error.details.path).toEqual(path);
    expect((await getSuite(owner, suite.ulid)).body).toEqual(suite);
  });

  it('reorders siblings without gaps, and a position past the end means last', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['P'], ['a', 'P'], ['b', 'P'], ['c', 'P'], ['d', 'P']]);
    const reorder = (name: string, position: number) =>
      t.http.patch(`/api/v1/suites/${s[name]!.ulid}`).set(owner.headers).send({ position });

    const toFront = await reorder('c', 0);
    expect(toFront.status).toBe(200);
    expect(toFront.body.position).toBe(0);
    expect(await outline(owner, project)).toEqual(['P', '  c', '  a', '  b', '  d']);
    await expectGaplessPositions(owner, project);

    const toEnd = await reorder('a', 99);
    expect(toEnd.body.position).toBe(3);
    expect(await outline(owner, project)).toEqual(['P', '  c', '  b', '  d', '  a']);
    await reorder('d', 1);
    expect(await outline(owner, project)).toEqual(['P', '  c', '  d', '  b', '  a']);
    await expectGaplessPositions(owner, project);

    const reordered = await auditEvents(t.http, owner, { action: 'suite.updated' });
    expect(reordered.find((event) => event.entityUlid === s.a!.ulid)?.metadata.changes).toEqual([{ field: 'position', from: 1, to: 3 }]);
  });

  it('moves a suite with its subtree and records suite.moved', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['A'], ['A1', 'A'], ['A2', 'A'], ['B'], ['B1', 'B'], ['B2', 'B'], ['B1a', 'B1']]);

    const inside = await t.http.patch(`/api/v1/suites/${s.B1!.ulid}`).set(owner.headers).send({ parentUlid: s.A!.ulid, position: 1 });
    expect(inside.status).toBe(200);
    expect(inside.body).toMatchObject({ parentUlid: s.A!.ulid, position: 1, name: 'B1' });
    expect(await outline(owner, project)).toEqual(['A', '  A1', '  B1', '    B1a', '  A2', 'B', '  B2']);
    await expectGaplessPositions(owner, project);

    // A2 was pushed to position 2 under A, and lands at position 2 among the roots.
    const toRoot = await t.http.patch(`/api/v1/suites/${s.A2!.ulid}`).set(owner.headers).send({ parentUlid: null, name: 'Top' });
    expect(toRoot.status).toBe(200);
    expect(toRoot.body).toMatchObject({ parentUlid: null, position: 2, name: 'Top' });
    expect(await outline(owner, project)).toEqual(['A', '  A1', '  B1', '    B1a', 'B', '  B2', 'Top']);
    await expectGaplessPositions(owner, project);

    const moved = await auditEvents(t.http, owner, { action: 'suite.moved' });
    expect(moved).toHaveLength(2);
    expect(moved.find((event) => event.entityUlid === s.B1!.ulid)).toMatchObject({
      entityType: 'suite',
      entityLabel: 'B1',
      metadata: {
        changes: [
          { field: 'parentUlid', from: s.B!.ulid, to: s.A!.ulid },
          { field: 'position', from: 0, to: 1 },
        ],
      },
    });
    expect(moved.find((event) => event.entityUlid === s.A2!.ulid)?.metadata.changes).toEqual([
      { field: 'name', from: 'A2', to: 'Top' },
      { field: 'parentUlid', from: s.A!.ulid, to: null },
    ]);
    expect(await auditEvents(t.http, owner, { action: 'suite.updated' })).toEqual([]);
  });

  it('answers 422 for a move under itself or its own descendant and changes nothing', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['A'], ['A1', 'A'], ['A1a', 'A1'], ['B']]);
    const before = await listPage(owner, project);
    const eventsBefore = await auditEvents(t.http, owner, { actionPrefix: 'suite.' });

    for (const target of ['A', 'A1', 'A1a']) {
      const response = await t.http
        .patch(`/api/v1/suites/${s.A!.ulid}`)
        .set(owner.headers)
        .send({ parentUlid: s[target]!.ulid, name: 'Renamed' });
      expect(response.status, target).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(['parentUlid']);
    }
    expect(await listPage(owner, project)).toEqual(before);
    expect(await auditEvents(t.http, owner, { actionPrefix: 'suite.' })).toEqual(eventsBefore);

    // Moving a descendant up, or a suite under an unrelated one, is fine.
    const up = await t.http.patch(`/api/v1/suites/${s.A1a!.ulid}`).set(owner.headers).send({ parentUlid: s.A!.ulid });
    expect(up.status).toBe(200);
    const under = await t.http.patch(`/api/v1/suites/${s.A!.ulid}`).set(owner.headers).send({ parentUlid: s.B!.ulid });
    expect(under.status).toBe(200);
    expect(await outline(owner, project)).toEqual(['B', '  A', '    A1', '    A1a']);
  });

  it('lets only one of two crossing concurrent moves win, so no cycle can form', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['A'], ['B'], ['C'], ['D']]);
    for (const [x, y] of [
      ['A', 'B'],
      ['C', 'D'],
    ] as const) {
      const responses = await Promise.all([
        t.http.patch(`/api/v1/suites/${s[x]!.ulid}`).set(owner.headers).send({ parentUlid: s[y]!.ulid }),
        t.http.patch(`/api/v1/suites/${s[y]!.ulid}`).set(owner.headers).send({ parentUlid: s[x]!.ulid }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 422]);
    }
    // Every suite is still reachable from a root.
    expect((await outline(owner, project)).map((line) => line.trim()).sort()).toEqual(['A', 'B', 'C', 'D']);
    await expectGaplessPositions(owner, project);
  });

  it('keeps positions gapless under concurrent reorders', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['P'], ['a', 'P'], ['b', 'P'], ['c', 'P'], ['d', 'P'], ['e', 'P'], ['f', 'P']]);
    const responses = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((name, index) =>
        t.http
          .patch(`/api/v1/suites/${s[name]!.ulid}`)
          .set(owner.headers)
          .send({ position: 5 - index }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(200));
    expect(
      (await outline(owner, project))
        .slice(1)
        .map((line) => line.trim())
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    await expectGaplessPositions(owner, project);
  });

  it('answers 404 for a parent in another project or an unknown parent', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const other = await createProject(t.http, owner);
    const suite = await createSuite(owner, project, { name: 'Stay' });
    const foreign = await createSuite(owner, other, { name: 'Elsewhere' });
    for (const parentUlid of [foreign.ulid, newId()]) {
      const response = await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send({ parentUlid });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await getSuite(owner, suite.ulid)).body).toEqual(suite);
  });
});

describe('DELETE /api/v1/suites/{suiteUlid}', () => {
  it('moves child suites after the parent’s children, and cases to the parent', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['R'], ['C0', 'R'], ['D', 'R'], ['D0', 'D'], ['D1', 'D'], ['D0a', 'D0'], ['C1', 'R']]);
    const inD = await createCase(owner, project, s.D!.ulid);
    const inD0 = await createCase(owner, project, s.D0!.ulid);
    const inR = await createCase(owner, project, s.R!.ulid);

    const response = await t.http.delete(`/api/v1/suites/${s.D!.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await getSuite(owner, s.D!.ulid)).status).toBe(404);
    expect(await outline(owner, project)).toEqual(['R', '  C0', '  C1', '  D0', '    D0a', '  D1']);
    await expectGaplessPositions(owner, project);
    expect(await suiteOfCase(owner, inD)).toBe(s.R!.ulid);
    expect(await suiteOfCase(owner, inD0)).toBe(s.D0!.ulid);
    expect(await suiteOfCase(owner, inR)).toBe(s.R!.ulid);

    const deleted = await auditEvents(t.http, owner, { action: 'suite.deleted' });
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      entityType: 'suite',
      entityUlid: s.D!.ulid,
      entityLabel: 'D',
      metadata: { movedSuites: 2, movedCases: 1, parentUlid: s.R!.ulid },
    });
  });

  it('turns the children of a root suite into roots and leaves its cases unassigned', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const s = await buildTree(owner, project, [['First'], ['Gone'], ['G0', 'Gone'], ['G1', 'Gone'], ['Last']]);
    const cases = [await createCase(owner, project, s.Gone!.ulid), await createCase(owner, project, s.Gone!.ulid)];

    expect((await t.http.delete(`/api/v1/suites/${s.Gone!.ulid}`).set(owner.headers)).status).toBe(204);
    expect(await outline(owner, project)).toEqual(['First', 'Last', 'G0', 'G1']);
    await expectGaplessPositions(owner, project);
    for (const caseUlid of cases) expect(await suiteOfCase(owner, caseUlid)).toBeNull();
    const deleted = (await auditEvents(t.http, owner, { action: 'suite.deleted' }))[0];
    expect(deleted?.metadata).toMatchObject({ movedSuites: 2, movedCases: 2, parentUlid: null });

    // Deleting again is 404, and numbers of deleted suites are not reused.
    expect((await t.http.delete(`/api/v1/suites/${s.Gone!.ulid}`).set(owner.headers)).status).toBe(404);
    expect((await createSuite(owner, project, { name: 'New' })).suiteNumber).toBe(6);
  });
});
