import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { fileStorage } from '../../src/foundation/storage/file-storage.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId, ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import {
  auditEvents,
  type Caller,
  createMilestone,
  createProject,
  createSuite,
  joinAs,
  ownerWithProject,
  signUp,
  useTestApp,
} from '../support/app.ts';

const t = useTestApp();

const CASE_FIELDS = [
  'ulid',
  'projectUlid',
  'caseNumber',
  'displayId',
  'title',
  'description',
  'suiteUlid',
  'milestoneUlid',
  'tags',
  'automationKey',
  'steps',
  'customFieldValues',
  'archivedAt',
  'createdAt',
  'updatedAt',
];

type Step = {
  ulid: string;
  position: number;
  action: string;
  expectedResult: string | null;
  attachments: Array<{ ulid: string; fileName: string }>;
};
type TestCase = {
  ulid: string;
  caseNumber: number;
  displayId: string;
  title: string;
  suiteUlid: string | null;
  milestoneUlid: string | null;
  tags: string[];
  steps: Step[];
  customFieldValues: Array<{ fieldUlid: string; value: unknown; systemKey: string | null; optionName: string | null }>;
  archivedAt: number | null;
  updatedAt: number;
};

const casesUrl = (code: string) => `/api/v1/projects/${code}/test-cases`;

async function createCase(caller: Caller, code: string, body: Record<string, unknown> = {}): Promise<TestCase> {
  const response = await t.http
    .post(casesUrl(code))
    .set(caller.headers)
    .send({ title: 'A case', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as TestCase;
}

async function readCase(caller: Caller, ulid: string): Promise<TestCase> {
  const response = await t.http.get(`/api/v1/test-cases/${ulid}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as TestCase;
}

/** A custom test-case field of the caller's organization (definitions are another module's API; a fixture here). */
async function paragraphField(caller: Caller) {
  return prisma().customField.create({
    data: {
      id: newId(),
      orgId: caller.orgId,
      entity: 'test_case',
      group: 'custom',
      valueType: 'paragraph',
      titleEn: 'Notes',
      position: 100,
    },
  });
}

async function stage(caller: Caller, caseUlid: string, names: string[]) {
  let request = t.http.post(`/api/v1/test-cases/${caseUlid}/step-attachments:stage`).set(caller.headers);
  for (const name of names) request = request.attach('file', Buffer.from(`content of ${name}`), name);
  const response = await request;
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body.items as Array<{ key: string }>).map((item) => item.key);
}

const putSteps = (caller: Caller, ulid: string, steps: unknown) =>
  t.http.put(`/api/v1/test-cases/${ulid}/steps`).set(caller.headers).send({ steps });

describe('POST /api/v1/projects/{projectId}/test-cases', () => {
  it('creates a case with exactly the contract fields and records test_case.created', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code);
    const milestone = await createMilestone(t.http, owner, code);
    const notes = await paragraphField(owner);
    const response = await t.http
      .post(casesUrl(code))
      .set(owner.headers)
      .send({
        title: 'Log in with a password',
        description: 'The happy path',
        suiteUlid: suite.ulid,
        milestoneUlid: milestone.ulid,
        tags: [' smoke ', 'login', 'smoke'],
        steps: [{ action: 'Open the login page', expectedResult: 'The form shows' }, { action: 'Submit' }],
        customFieldValues: [{ fieldUlid: notes.id, value: 'Needs a seeded user' }],
      });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual([...CASE_FIELDS].sort());
    expect(body.ulid).toMatch(ULID_PATTERN);
    expect(body).toMatchObject({
      projectUlid: project.ulid,
      caseNumber: 1,
      displayId: `${code}-1`,
      title: 'Log in with a password',
      description: 'The happy path',
      suiteUlid: suite.ulid,
      milestoneUlid: milestone.ulid,
      tags: ['smoke', 'login'],
      archivedAt: null,
    });
    expect(body.steps).toEqual([
      {
        ulid: expect.stringMatching(ULID_PATTERN),
        position: 0,
        action: 'Open the login page',
        expectedResult: 'The form shows',
        attachments: [],
      },
      { ulid: expect.stringMatching(ULID_PATTERN), position: 1, action: 'Submit', expectedResult: null, attachments: [] },
    ]);
    expect(body.customFieldValues).toContainEqual({ fieldUlid: notes.id, value: 'Needs a seeded user', systemKey: null, optionName: null });
    expect(Number.isInteger(body.createdAt)).toBe(true);
    expect(body.updatedAt).toBe(body.createdAt);

    expect(await readCase(owner, body.ulid)).toEqual(body);
    const events = await auditEvents(t.http, owner, { entityUlid: body.ulid });
    expect(events.map((event) => event.action)).toEqual(['test_case.created']);
    expect(events[0]).toMatchObject({ entityType: 'test_case', entityLabel: `${code}-1 · Log in with a password` });
  });

  it('numbers cases 1, 2, 3 … per project and defaults the optional fields', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const first = await createCase(owner, code);
    const second = await createCase(owner, code);
    const elsewhere = await createCase(owner, other.id);
    expect([first.caseNumber, second.caseNumber, elsewhere.caseNumber]).toEqual([1, 2, 1]);
    expect(second.displayId).toBe(`${code}-2`);
    expect(first).toMatchObject({ description: null, suiteUlid: null, milestoneUlid: null, tags: [], steps: [] });
  });

  it('gives 50 concurrent creates exactly the numbers 1..50', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        t.http
          .post(casesUrl(code))
          .set(owner.headers)
          .send({ title: `Case ${index}` }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 50 }, () => 201));
    const numbers = responses.map((response) => response.body.caseNumber as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  }, 60_000);

  it('validates the body with 422 and the offending path', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases: Array<[Record<string, unknown>, Array<string | number>]> = [
      [{}, ['title']],
      [{ title: '' }, ['title']],
      [{ title: 'x'.repeat(501) }, ['title']],
      [{ title: 'ok', extra: 1 }, ['extra']],
      [{ title: 'ok', tags: ['x'.repeat(101)] }, ['tags', 0]],
      [{ title: 'ok', tags: ['   '] }, ['tags', 0]],
      [{ title: 'ok', tags: Array.from({ length: 51 }, (_, index) => `t${index}`) }, ['tags']],
      [{ title: 'ok', steps: [{ action: '' }] }, ['steps', 0, 'action']],
      [{ title: 'ok', steps: [{ action: 'x'.repeat(10_001) }] }, ['steps', 0, 'action']],
      [{ title: 'ok', suiteUlid: 'not-a-ulid' }, ['suiteUlid']],
    ];
    for (const [body, path] of cases) {
      const response = await t.http.post(casesUrl(code)).set(owner.headers).send(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    }
    expect(
      (
        await t.http
          .post(casesUrl(code))
          .set(owner.headers)
          .send({ title: 'x'.repeat(500) })
      ).status,
    ).toBe(201);
    // The 50 distinct tags of the maximum are accepted.
    const many = await createCase(owner, code, { tags: Array.from({ length: 50 }, (_, index) => `t${index}`) });
    expect(many.tags).toHaveLength(50);
  });

  it('answers 404 for a suite or milestone that is not a live one of the project, and creates nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const foreignSuite = await createSuite(t.http, owner, other.id);
    const foreignMilestone = await createMilestone(t.http, owner, other.id);
    const deletedMilestone = await createMilestone(t.http, owner, code);
    expect((await t.http.delete(`/api/v1/milestones/${deletedMilestone.ulid}`).set(owner.headers)).status).toBe(204);
    for (const body of [
      { suiteUlid: foreignSuite.ulid },
      { suiteUlid: newId() },
      { milestoneUlid: foreignMilestone.ulid },
      { milestoneUlid: deletedMilestone.ulid },
    ]) {
      const response = await t.http
        .post(casesUrl(code))
        .set(owner.headers)
        .send({ title: 'Nope', ...body });
      expect(response.status, JSON.stringify(body)).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    // No number was used up and no case exists.
    expect((await createCase(owner, code)).caseNumber).toBe(1);
    expect(await auditEvents(t.http, owner, { action: 'test_case.created' })).toHaveLength(1);
  });

  it('rejects an invalid custom field value with 422 and writes nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const notes = await paragraphField(owner);
    const response = await t.http
      .post(casesUrl(code))
      .set(owner.headers)
      .send({ title: 'Bad value', steps: [{ action: 'One' }], customFieldValues: [{ fieldUlid: notes.id, value: 42 }] });
    expect(response.status).toBe(422);
    expect(response.body.error.details.path).toEqual(['customFieldValues', 0, 'value']);
    const list = await t.http.get(casesUrl(code)).set(owner.headers);
    expect(list.body.items).toEqual([]);
    expect((await createCase(owner, code)).caseNumber).toBe(1);
  });

  it('lets members write, refuses viewers with 403 and other organizations with 404', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    expect((await t.http.post(casesUrl(code)).set(member.headers).send({ title: 'By a member' })).status).toBe(201);
    const denied = await t.http.post(casesUrl(code)).set(viewer.headers).send({ title: 'By a viewer' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
    expect((await t.http.post(casesUrl(code)).set(stranger.headers).send({ title: 'Foreign' })).status).toBe(404);
    expect((await t.http.get(casesUrl(code)).set(viewer.headers)).body.items).toHaveLength(1);
  });
});

describe('GET /api/v1/test-cases/{caseUlid} and by display ID', () => {
  it('answers 404 for an unknown, malformed or foreign ULID', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    const stranger = await signUp(t.http);
    for (const [caller, ulid] of [
      [owner, newId()],
      [owner, 'nope'],
      [stranger, testCase.ulid],
    ] as const) {
      const response = await t.http.get(`/api/v1/test-cases/${ulid}`).set(caller.headers);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await readCase(viewer, testCase.ulid)).ulid).toBe(testCase.ulid);
  });

  it('finds a case by display ID: 422 malformed, 400 wrong prefix, 404 unknown', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    await createCase(owner, code);
    const second = await createCase(owner, code, { title: 'Second' });
    const url = (displayId: string) => `${casesUrl(code)}/by-display-id/${displayId}`;
    const found = await t.http.get(url(`${code}-2`)).set(owner.headers);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(second);
    for (const [displayId, status] of [
      [`${code}-0`, 422],
      [`${code}-x`, 422],
      [`${code}-S2`, 422],
      ['2', 422],
      ['OTHER-2', 400],
      [`${code}-3`, 404],
    ] as const) {
      const response = await t.http.get(url(displayId)).set(owner.headers);
      expect(response.status, displayId).toBe(status);
      expect(response.body.error.code).toBe(status === 404 ? 'not_found' : 'validation_failed');
    }
    expect((await t.http.get(`/api/v1/projects/NOPE/test-cases/by-display-id/NOPE-1`).set(owner.headers)).status).toBe(404);
  });
});

describe('Locked projects', () => {
  it('answers 403 project_locked for every case route of a locked project', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'One' }] });
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    const attempts = [
      t.http.get(`/api/v1/test-cases/${testCase.ulid}`),
      t.http.patch(`/api/v1/test-cases/${testCase.ulid}`).send({ patch: { title: 'Locked' } }),
      t.http.put(`/api/v1/test-cases/${testCase.ulid}/steps`).send({ steps: [] }),
      t.http.post(`/api/v1/test-cases/${testCase.ulid}/archive`),
      t.http.delete(`/api/v1/test-cases/${testCase.ulid}`),
      t.http.get(casesUrl(code)),
      t.http.post(casesUrl(code)).send({ title: 'Locked' }),
    ];
    for (const attempt of attempts) {
      const response = await attempt.set(owner.headers);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('project_locked');
    }
    expect(await prisma().testCase.findFirstOrThrow({ where: { id: testCase.ulid } })).toMatchObject({ title: 'A case', archivedAt: null });
    expect(await prisma().testCaseStep.count({ where: { caseId: testCase.ulid } })).toBe(1);
  });
});

describe('GET /api/v1/projects/{projectId}/test-cases', () => {
  it('pages by ULID ascending with a cursor over several pages, each item with customFieldValues', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const notes = await paragraphField(owner);
    const created: TestCase[] = [];
    for (let index = 0; index < 5; index++) {
      created.push(
        await createCase(owner, code, { title: `Case ${index}`, customFieldValues: [{ fieldUlid: notes.id, value: `n${index}` }] }),
      );
    }
    const seen: TestCase[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: Response = await t.http.get(`${casesUrl(code)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(owner.headers);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['items', 'nextCursor']);
      seen.push(...response.body.items);
      cursor = response.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((item) => item.ulid)).toEqual(created.map((item) => item.ulid).sort());
    expect(seen).toEqual(created);
    for (const [index, item] of seen.entries()) {
      expect(item.customFieldValues).toContainEqual({ fieldUlid: notes.id, value: `n${index}`, systemKey: null, optionName: null });
    }
    expect((await t.http.get(`${casesUrl(code)}?limit=0`).set(owner.headers)).status).toBe(422);
    expect((await t.http.get(`${casesUrl(code)}?limit=201`).set(owner.headers)).status).toBe(422);
    expect((await t.http.get(`${casesUrl(code)}?cursor=nope`).set(owner.headers)).status).toBe(422);
  });

  it('filters by suite (its own cases), title substring, tag and archived', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const parent = await createSuite(t.http, owner, code, { name: 'Parent' });
    const child = await createSuite(t.http, owner, code, { name: 'Child', parentUlid: parent.ulid });
    const inParent = await createCase(owner, code, { title: 'Checkout with 100% discount', suiteUlid: parent.ulid, tags: ['pay'] });
    const inChild = await createCase(owner, code, { title: 'CHECKOUT as guest', suiteUlid: child.ulid, tags: ['pay', 'guest'] });
    const loose = await createCase(owner, code, { title: 'Sign up', tags: ['account'] });
    const archived = await createCase(owner, code, { title: 'Old checkout', suiteUlid: parent.ulid, tags: ['pay'] });
    expect((await t.http.post(`/api/v1/test-cases/${archived.ulid}/archive`).set(owner.headers)).status).toBe(200);

    const ulidsOf = async (query: string) => {
      const response = await t.http.get(`${casesUrl(code)}?${query}`).set(owner.headers);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body.items as TestCase[]).map((item) => item.ulid);
    };
    expect(await ulidsOf('')).toEqual([inParent.ulid, inChild.ulid, loose.ulid]);
    expect(await ulidsOf(`suiteUlid=${parent.ulid}`)).toEqual([inParent.ulid]);
    expect(await ulidsOf(`suiteUlid=${child.ulid}`)).toEqual([inChild.ulid]);
    expect(await ulidsOf('q=checkout')).toEqual([inParent.ulid, inChild.ulid]);
    expect(await ulidsOf('q=100%25')).toEqual([inParent.ulid]);
    expect(await ulidsOf('q=_')).toEqual([]);
    expect(await ulidsOf('tag=pay')).toEqual([inParent.ulid, inChild.ulid]);
    expect(await ulidsOf('tag=guest&q=guest')).toEqual([inChild.ulid]);
    expect(await ulidsOf('tag=pa')).toEqual([]);
    expect(await ulidsOf('archived=true')).toEqual([archived.ulid]);
    expect(await ulidsOf(`archived=true&suiteUlid=${parent.ulid}&tag=pay&q=old`)).toEqual([archived.ulid]);
    expect(await ulidsOf('archived=false')).toEqual([inParent.ulid, inChild.ulid, loose.ulid]);

    expect((await t.http.get(`${casesUrl(code)}?archived=yes`).set(owner.headers)).status).toBe(422);
    const other = await createProject(t.http, owner);
    const foreignSuite = await createSuite(t.http, owner, other.id);
    expect((await t.http.get(`${casesUrl(code)}?suiteUlid=${foreignSuite.ulid}`).set(owner.headers)).status).toBe(404);
    expect((await t.http.get(`${casesUrl(code)}?suiteUlid=${newId()}`).set(owner.headers)).status).toBe(404);
  });
});

describe('Archive, restore, archived page', () => {
  it('archives and restores with one event each; repeating either changes nothing and records nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    const archive = await t.http.post(`/api/v1/test-cases/${testCase.ulid}/archive`).set(owner.headers);
    expect(archive.status).toBe(200);
    expect(archive.body.archivedAt).toEqual(expect.any(Number));
    expect(archive.body.updatedAt).toBeGreaterThanOrEqual(testCase.updatedAt);
    const again = await t.http.post(`/api/v1/test-cases/${testCase.ulid}/archive`).set(owner.headers);
    expect(again.status).toBe(200);
    expect(again.body.archivedAt).toBe(archive.body.archivedAt);
    expect((await t.http.get(casesUrl(code)).set(owner.headers)).body.items).toEqual([]);

    const restore = await t.http.post(`/api/v1/test-cases/${testCase.ulid}/restore`).set(owner.headers);
    expect(restore.status).toBe(200);
    expect(restore.body.archivedAt).toBeNull();
    expect((await t.http.post(`/api/v1/test-cases/${testCase.ulid}/restore`).set(owner.headers)).status).toBe(200);
    expect((await t.http.get(casesUrl(code)).set(owner.headers)).body.items.map((item: TestCase) => item.ulid)).toEqual([testCase.ulid]);

    const actions = (await auditEvents(t.http, owner, { entityUlid: testCase.ulid })).map((event) => event.action);
    expect(actions).toEqual(['test_case.restored', 'test_case.archived', 'test_case.created']);
  });

  it('refuses viewers (403, nothing changes) and unknown cases (404)', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const testCase = await createCase(owner, code);
    for (const path of ['archive', 'restore']) {
      expect((await t.http.post(`/api/v1/test-cases/${testCase.ulid}/${path}`).set(viewer.headers)).status).toBe(403);
      expect((await t.http.post(`/api/v1/test-cases/${newId()}/${path}`).set(owner.headers)).status).toBe(404);
    }
    expect((await readCase(owner, testCase.ulid)).archivedAt).toBeNull();
  });

  it('lists every archived case of the project by archivedAt descending, then ULID descending', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code);
    const cases: TestCase[] = [];
    for (let index = 0; index < 4; index++)
      cases.push(await createCase(owner, code, { title: `C${index}`, suiteUlid: index % 2 ? suite.ulid : null }));
    await createCase(owner, code, { title: 'Active' });
    for (const index of [2, 0, 3, 1]) {
      expect((await t.http.post(`/api/v1/test-cases/${cases[index]!.ulid}/archive`).set(owner.headers)).status).toBe(200);
    }
    // Two cases archived at the same instant order by ULID descending.
    const sameInstant = new Date('2030-01-01T00:00:00Z');
    await prisma().testCase.updateMany({ where: { id: { in: [cases[0]!.ulid, cases[3]!.ulid] } }, data: { archivedAt: sameInstant } });

    const first = await t.http.get(`${casesUrl(code)}/archived?pageSize=3`).set(owner.headers);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 3, total: 4 });
    const second = await t.http.get(`${casesUrl(code)}/archived?pageSize=3&page=2`).set(owner.headers);
    expect(second.body).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    const order = [...first.body.items, ...second.body.items].map((item: TestCase) => item.ulid);
    expect(order).toEqual([cases[3]!.ulid, cases[0]!.ulid, cases[1]!.ulid, cases[2]!.ulid]);
    expect(first.body.items[0].customFieldValues).toEqual(expect.any(Array));

    const past = await t.http.get(`${casesUrl(code)}/archived?page=9`).set(owner.headers);
    expect(past.body).toMatchObject({ items: [], total: 4 });
    expect((await t.http.get(`${casesUrl(code)}/archived?pageSize=201`).set(owner.headers)).status).toBe(422);
  });
});

describe('DELETE /api/v1/test-cases/{caseUlid}', () => {
  it('deletes the case, records test_case.deleted and releases its attachment files', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Look' }] });
    const [key] = await stage(owner, testCase.ulid, ['shot.png']);
    const saved = await putSteps(owner, testCase.ulid, [{ ulid: testCase.steps[0]!.ulid, action: 'Look', attachments: [{ key }] }]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const attachment = await prisma().stepAttachment.findFirstOrThrow({ where: { caseId: testCase.ulid } });
    expect(await fileStorage().get(attachment.storageKey)).not.toBeNull();

    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await t.http.delete(`/api/v1/test-cases/${testCase.ulid}`).set(viewer.headers)).status).toBe(403);
    const deleted = await t.http.delete(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers);
    expect(deleted.status).toBe(204);
    expect((await t.http.get(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers)).status).toBe(404);
    expect(await fileStorage().get(attachment.storageKey)).toBeNull();
    const events = await auditEvents(t.http, owner, { entityUlid: testCase.ulid });
    expect(events[0]).toMatchObject({ action: 'test_case.deleted', entityLabel: `${code}-1 · A case` });
    expect((await t.http.delete(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers)).status).toBe(404);
  });
});

describe('PUT /api/v1/test-cases/{caseUlid}/steps', () => {
  it('keeps steps named by ulid, adds new ones, deletes the rest, in array order, with no audit event', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, {
      steps: [{ action: 'One', expectedResult: 'r1' }, { action: 'Two', expectedResult: 'r2' }, { action: 'Three' }],
    });
    const [one, two] = testCase.steps;
    const response = await putSteps(owner, testCase.ulid, [
      { action: 'New first' },
      { ulid: two!.ulid, action: 'Two, edited' },
      { ulid: one!.ulid, action: 'One', expectedResult: null },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.steps).toEqual([
      { ulid: expect.stringMatching(ULID_PATTERN), position: 0, action: 'New first', expectedResult: null, attachments: [] },
      // An omitted expectedResult on a kept step is left as it was; null clears it.
      { ulid: two!.ulid, position: 1, action: 'Two, edited', expectedResult: 'r2', attachments: [] },
      { ulid: one!.ulid, position: 2, action: 'One', expectedResult: null, attachments: [] },
    ]);
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(testCase.updatedAt);
    expect(await readCase(owner, testCase.ulid)).toEqual(response.body);
    expect((await auditEvents(t.http, owner, { entityUlid: testCase.ulid })).map((event) => event.action)).toEqual(['test_case.created']);

    const cleared = await putSteps(owner, testCase.ulid, []);
    expect(cleared.body.steps).toEqual([]);
  });

  it('orders by position when the entries carry it (the contract step shape)', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    const response = await putSteps(owner, testCase.ulid, [
      { position: 5, action: 'Last' },
      { position: 1, action: 'First' },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.steps.map((step: Step) => [step.position, step.action])).toEqual([
      [0, 'First'],
      [1, 'Last'],
    ]);
    const mixed = await putSteps(owner, testCase.ulid, [{ position: 0, action: 'A' }, { action: 'B' }]);
    expect(mixed.status).toBe(422);
    expect(mixed.body.error.details.path).toEqual(['steps', 1, 'position']);
    const twice = await putSteps(owner, testCase.ulid, [
      { position: 0, action: 'A' },
      { position: 0, action: 'B' },
    ]);
    expect(twice.status).toBe(422);
  });

  it('answers 404 for a ulid that is not a step of this case, 422 for one listed twice, and changes nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Mine' }] });
    const other = await createCase(owner, code, { steps: [{ action: 'Theirs' }] });
    const mine = testCase.steps[0]!.ulid;
    const foreign = await putSteps(owner, testCase.ulid, [{ action: 'Added' }, { ulid: other.steps[0]!.ulid, action: 'Stolen' }]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const twice = await putSteps(owner, testCase.ulid, [
      { ulid: mine, action: 'a' },
      { ulid: mine, action: 'b' },
    ]);
    expect(twice.status).toBe(422);
    expect(twice.body.error.details.path).toEqual(['steps', 1, 'ulid']);
    expect((await putSteps(owner, testCase.ulid, [{ action: '' }])).status).toBe(422);
    // A bare array is not the body shape.
    const bare = await t.http
      .put(`/api/v1/test-cases/${testCase.ulid}/steps`)
      .set(owner.headers)
      .send([{ action: 'x' }]);
    expect(bare.status).toBe(422);
    expect((await readCase(owner, testCase.ulid)).steps).toEqual(testCase.steps);
    expect((await readCase(owner, other.ulid)).steps).toEqual(other.steps);
  });

  it('takes at most 500 steps and reorders all of them in one save', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    const tooMany = await putSteps(
      owner,
      testCase.ulid,
      Array.from({ length: 501 }, (_, index) => ({ action: `S${index}` })),
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details.path).toEqual(['steps']);
    const full = await putSteps(
      owner,
      testCase.ulid,
      Array.from({ length: 500 }, (_, index) => ({ action: `S${index}` })),
    );
    expect(full.status).toBe(200);
    const reversed = [...(full.body.steps as Step[])].reverse();
    const saved = await putSteps(
      owner,
      testCase.ulid,
      reversed.map((step) => ({ ulid: step.ulid, action: step.action })),
    );
    expect(saved.status, JSON.stringify(saved.body).slice(0, 500)).toBe(200);
    expect(saved.body.steps.map((step: Step) => step.ulid)).toEqual(reversed.map((step) => step.ulid));
    expect(saved.body.steps.map((step: Step) => step.position)).toEqual(Array.from({ length: 500 }, (_, index) => index));
  }, 60_000);

  it('moves an attachment from a deleted step to a kept one without releasing its file', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Goes' }, { action: 'Stays' }] });
    const [goes, stays] = testCase.steps;
    const [key] = await stage(owner, testCase.ulid, ['kept.png']);
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: goes!.ulid, action: 'Goes', attachments: [{ key }] },
      { ulid: stays!.ulid, action: 'Stays' },
    ]);
    const attachment = saved.body.steps[0].attachments[0];
    const moved = await putSteps(owner, testCase.ulid, [{ ulid: stays!.ulid, action: 'Stays', attachments: [{ ulid: attachment.ulid }] }]);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.steps).toEqual([
      { ulid: stays!.ulid, position: 0, action: 'Stays', expectedResult: null, attachments: [attachment] },
    ]);
    const row = await prisma().stepAttachment.findFirstOrThrow({ where: { id: attachment.ulid } });
    expect(await fileStorage().get(row.storageKey)).not.toBeNull();
  });

  it('refuses viewers with 403', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const testCase = await createCase(owner, code, { steps: [{ action: 'Keep' }] });
    const response = await putSteps(viewer, testCase.ulid, []);
    expect(response.status).toBe(403);
    expect((await readCase(owner, testCase.ulid)).steps).toHaveLength(1);
  });

  it('commits staged attachments, keeps them when omitted, removes them when left out, and releases files', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Look' }, { action: 'Then' }] });
    const [look, then] = testCase.steps;
    const [first, second] = await stage(owner, testCase.ulid, ['a.png', 'b.txt']);
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: look!.ulid, action: 'Look', attachments: [{ key: first }, { key: second }] },
      { ulid: then!.ulid, action: 'Then' },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const attachments = saved.body.steps[0].attachments;
    expect(attachments.map((item: { fileName: string }) => item.fileName)).toEqual(['a.png', 'b.txt']);
    expect(Object.keys(attachments[0]).sort()).toEqual(['contentType', 'createdAt', 'fileName', 'sizeBytes', 'ulid']);

    // Omitted `attachments` on a kept step: unchanged.
    const renamed = await putSteps(owner, testCase.ulid, [
      { ulid: look!.ulid, action: 'Look closely' },
      { ulid: then!.ulid, action: 'Then' },
    ]);
    expect(renamed.body.steps[0].attachments).toEqual(attachments);

    // A committed key cannot be committed twice.
    const reused = await putSteps(owner, testCase.ulid, [{ ulid: then!.ulid, action: 'Then', attachments: [{ key: first }] }]);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('staging_already_committed');
    expect((await readCase(owner, testCase.ulid)).steps).toEqual(renamed.body.steps);

    const unknown = await putSteps(owner, testCase.ulid, [{ ulid: look!.ulid, action: 'Look', attachments: [{ ulid: newId() }] }]);
    expect(unknown.status).toBe(404);
    const tooMany = await putSteps(owner, testCase.ulid, [
      { ulid: look!.ulid, action: 'Look', attachments: Array.from({ length: 11 }, () => ({ ulid: attachments[0].ulid })) },
    ]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('too_many_attachments');

    // Keep one, drop the other: the dropped file is released after commit.
    const rows = await prisma().stepAttachment.findMany({ where: { caseId: testCase.ulid }, orderBy: { position: 'asc' } });
    const kept = await putSteps(owner, testCase.ulid, [
      { ulid: look!.ulid, action: 'Look', attachments: [{ ulid: attachments[1].ulid }] },
      { ulid: then!.ulid, action: 'Then' },
    ]);
    expect(kept.body.steps[0].attachments.map((item: { ulid: string }) => item.ulid)).toEqual([attachments[1].ulid]);
    expect(await fileStorage().get(rows[0]!.storageKey)).toBeNull();
    expect(await fileStorage().get(rows[1]!.storageKey)).not.toBeNull();

    // Deleting the step releases its attachments' files.
    const dropped = await putSteps(owner, testCase.ulid, [{ ulid: then!.ulid, action: 'Then' }]);
    expect(dropped.status).toBe(200);
    expect(await fileStorage().get(rows[1]!.storageKey)).toBeNull();
    expect(await prisma().stepAttachment.count({ where: { caseId: testCase.ulid } })).toBe(0);
  });
});
