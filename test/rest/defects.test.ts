import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import {
  auditEvents,
  type Caller,
  createProject,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  tokenFor,
  useTestApp,
} from '../support/app.ts';
import { createCases, createRun, patchRunCase, resultsOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();

const DEFECT_FIELDS = [
  'ulid',
  'projectUlid',
  'defectNumber',
  'title',
  'description',
  'status',
  'assigneeUlid',
  'externalUrl',
  'author',
  'customFieldValues',
  'createdAt',
  'updatedAt',
];

type Defect = {
  ulid: string;
  defectNumber: number;
  title: string;
  status: string;
  assigneeUlid: string | null;
  customFieldValues: Array<{ fieldUlid: string; value: unknown }>;
};

async function createDefect(caller: Caller, projectId: string, body: Record<string, unknown> = {}): Promise<Defect> {
  const response = await t.http
    .post(`/api/v1/projects/${projectId}/defects`)
    .set(caller.headers)
    .send({ title: 'Checkout fails', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function list(caller: Caller, projectId: string, query = '') {
  const response = await t.http.get(`/api/v1/projects/${projectId}/defects${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Defect[]; page: number; pageSize: number; total: number };
}

const patch = (caller: Caller, defectUlid: string, body: Record<string, unknown>) =>
  t.http.patch(`/api/v1/defects/${defectUlid}`).set(caller.headers).send(body);

/** A run of `count` cases whose first `marked` cases are marked failed: the run and its results, oldest first. */
async function runWithResults(count: number, marked = count) {
  const setup = await runWithCases(t.http, count);
  for (const runCase of setup.runCases.slice(0, marked)) {
    const response = await patchRunCase(t.http, setup.owner, setup.run.ulid, runCase.ulid, { status: 'failed' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
  const results = (await resultsOf(t.http, setup.owner, setup.run.ulid)).sort(
    (a, b) => a.executedAt - b.executedAt || a.ulid.localeCompare(b.ulid),
  );
  return { ...setup, results };
}

describe('POST /api/v1/projects/{projectId}/defects', () => {
  it('creates a defect with the record fields, the next number and the author snapshot; records defect.created', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const project = await createProject(t.http, owner);
    const response = await t.http.post(`/api/v1/projects/${project.id}/defects`).set(owner.headers).send({
      title: 'Checkout fails',
      description: 'On Safari',
      externalUrl: 'https://tracker.example.com/BUG-1',
      assigneeUlid: owner.userId,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...DEFECT_FIELDS].sort());
    expect(response.body).toMatchObject({
      projectUlid: project.ulid,
      defectNumber: 1,
      title: 'Checkout fails',
      description: 'On Safari',
      status: 'open',
      assigneeUlid: owner.userId,
      externalUrl: 'https://tracker.example.com/BUG-1',
      author: { kind: 'user', ulid: owner.userId, displayName: 'Ada Lovelace', avatarKey: null },
      customFieldValues: [],
    });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    expect(response.body.updatedAt).toBe(response.body.createdAt);
    expect((await createDefect(owner, project.id, { status: 'in_progress' })).defectNumber).toBe(2);

    const read = await t.http.get(`/api/v1/defects/${response.body.ulid}`).set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);

    const [event] = await auditEvents(t.http, owner, { action: 'defect.created', entityUlid: response.body.ulid });
    expect(event).toMatchObject({
      entityType: 'defect',
      entityLabel: 'Checkout fails',
      runUlid: null,
      metadata: { defectNumber: 1, status: 'open', assigneeUlid: owner.userId, resultUlids: [] },
    });
  });

  it('snapshots an API token as the author', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner, { name: 'CI bot' });
    const defect = await createDefect(token, code);
    expect(defect).toMatchObject({ author: { kind: 'api_token', ulid: token.tokenUlid, name: 'CI bot' } });
  });

  it.each([
    ['a missing title', {}, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a 501-character title', { title: 'x'.repeat(501) }, 'title'],
    ['an unknown status', { title: 'T', status: 'wontfix' }, 'status'],
    ['a non-http externalUrl', { title: 'T', externalUrl: 'javascript:alert(1)' }, 'externalUrl'],
    ['a malformed assigneeUlid', { title: 'T', assigneeUlid: 'nobody' }, 'assigneeUlid'],
    ['repeated resultUlids', { title: 'T', resultUlids: ['01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D'] }, 'resultUlids'],
    ['an unknown key', { title: 'T', severity: 'high' }, 'severity'],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body, path) => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await t.http.post(`/api/v1/projects/${code}/defects`).set(owner.headers).send(body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual([path]);
    expect((await list(owner, code)).total).toBe(0);
  });

  it('answers 404 for an assignee who is not a member and for a result of another project; nothing is created, no number is used', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    expectError(
      await t.http.post(`/api/v1/projects/${code}/defects`).set(owner.headers).send({ title: 'T', assigneeUlid: stranger.userId }),
      404,
      'not_found',
    );
    const elsewhere = await runWithResults(1);
    const foreign = await t.http
      .post(`/api/v1/projects/${code}/defects`)
      .set(owner.headers)
      .send({ title: 'T', resultUlids: [elsewhere.results[0]!.ulid] });
    expectError(foreign, 404, 'not_found');
    expect((await list(owner, code)).total).toBe(0);
    expect((await createDefect(owner, code)).defectNumber).toBe(1);
  });

  it('lets a viewer read defects but not create, edit, link or delete them (403 before any write)', async () => {
    const { owner, code, run, results } = await runWithResults(1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const defect = await createDefect(owner, code);
    expectError(await t.http.post(`/api/v1/projects/${code}/defects`).set(viewer.headers).send({ title: 'T' }), 403, 'forbidden');
    expectError(await patch(viewer, defect.ulid, { status: 'closed' }), 403, 'forbidden');
    // The role is checked before the defect is even looked up.
    expectError(await patch(viewer, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', { title: 'x' }), 403, 'forbidden');
    expectError(
      await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(viewer.headers).send({ resultUlid: results[0]!.ulid }),
      403,
      'forbidden',
    );
    expectError(await t.http.delete(`/api/v1/defects/${defect.ulid}`).set(viewer.headers), 403, 'forbidden');
    expect((await t.http.get(`/api/v1/defects/${defect.ulid}`).set(viewer.headers)).body).toMatchObject({ status: 'open' });
    expect((await list(viewer, code)).total).toBe(1);
    expect(run.ulid).toMatch(ULID_PATTERN);
    expect(await auditEvents(t.http, owner, { actionPrefix: 'defect.updated' })).toEqual([]);
  });

  it('answers 404 for a defect of another organization', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const defect = await createDefect(owner, code);
    const other = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/defects/${defect.ulid}`).set(other.headers), 404, 'not_found');
    expectError(await patch(other, defect.ulid, { title: 'Mine' }), 404, 'not_found');
    expectError(await t.http.get('/api/v1/defects/not-a-ulid').set(owner.headers), 404, 'not_found');
  });
});

describe('GET /api/v1/projects/{projectId}/defects', () => {
  it('lists newest first and filters by status CSV, q and assigneeUlid, with total reflecting the filters', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    await createDefect(owner, code, { title: 'Login 100% broken', status: 'open', assigneeUlid: member.userId });
    await createDefect(owner, code, { title: 'Slow search', status: 'in_progress' });
    await createDefect(owner, code, { title: 'Typo on login page', status: 'resolved', assigneeUlid: member.userId });
    await createDefect(owner, code, { title: 'Crash', status: 'closed' });

    expect((await list(owner, code)).items.map((item) => item.defectNumber)).toEqual([4, 3, 2, 1]);
    expect((await list(owner, code, '?status=open,in_progress')).items.map((item) => item.title)).toEqual([
      'Slow search',
      'Login 100% broken',
    ]);
    expect((await list(owner, code, '?status=closed&status=resolved')).total).toBe(2);
    expect((await list(owner, code, '?q=LOGIN')).items.map((item) => item.defectNumber)).toEqual([3, 1]);
    expect((await list(owner, code, '?q=100%25')).total).toBe(1);
    expect((await list(owner, code, '?q=_')).total).toBe(0);
    expect((await list(owner, code, `?assigneeUlid=${member.userId}&status=resolved`)).items.map((item) => item.title)).toEqual([
      'Typo on login page',
    ]);
    expect((await list(owner, code, '?assigneeUlid=')).total).toBe(2);
    const page = await list(owner, code, '?pageSize=3&page=2');
    expect(page).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(page.items.map((item) => item.defectNumber)).toEqual([1]);
  });

  it('answers 422 for an unknown status and out-of-range pagination', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    expectError(await t.http.get(`/api/v1/projects/${code}/defects?status=open,wontfix`).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/projects/${code}/defects?pageSize=201`).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/projects/${code}/defects?assigneeUlid=bob`).set(owner.headers), 422, 'validation_failed');
  });
});

describe('PATCH /api/v1/defects/{defectUlid}', () => {
  it('allows any status transition and records defect.updated with the changes', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const defect = await createDefect(owner, code);
    for (const [from, to] of [
      ['open', 'closed'],
      ['closed', 'open'],
      ['open', 'resolved'],
      ['resolved', 'in_progress'],
    ] as const) {
      const response = await patch(member, defect.ulid, { status: to });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.status).toBe(to);
      const [event] = await auditEvents(t.http, owner, { action: 'defect.updated', entityUlid: defect.ulid });
      expect(event!.metadata.changes).toEqual([{ field: 'status', from, to }]);
    }
    const many = await patch(owner, defect.ulid, {
      title: 'Renamed',
      description: 'More',
      assigneeUlid: member.userId,
      externalUrl: 'http://bugs.example.com/1',
    });
    expect(many.status).toBe(200);
    expect(many.body.updatedAt).toBeGreaterThanOrEqual(many.body.createdAt);
    const [event] = await auditEvents(t.http, owner, { action: 'defect.updated', entityUlid: defect.ulid });
    expect(event).toMatchObject({ entityLabel: 'Renamed' });
    expect(event!.metadata.changes).toEqual([
      { field: 'title', from: 'Checkout fails', to: 'Renamed' },
      { field: 'description', from: null, to: 'More' },
      { field: 'assigneeUlid', from: null, to: member.userId },
      { field: 'externalUrl', from: null, to: 'http://bugs.example.com/1' },
    ]);
    const cleared = await patch(owner, defect.ulid, { assigneeUlid: null, externalUrl: null, description: null });
    expect(cleared.body).toMatchObject({ assigneeUlid: null, externalUrl: null, description: null });
  });

  it('answers an unchanged PATCH as it is and records nothing; an empty body is 422', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const defect = await createDefect(owner, code);
    const same = await patch(owner, defect.ulid, { title: 'Checkout fails', status: 'open' });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(same.body.createdAt);
    expect(await auditEvents(t.http, owner, { action: 'defect.updated' })).toEqual([]);
    expectError(await patch(owner, defect.ulid, {}), 422, 'validation_failed');
  });

  it('answers 404 for an assignee who is not a member, changing nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const defect = await createDefect(owner, code);
    const stranger = await signUp(t.http);
    expectError(await patch(owner, defect.ulid, { assigneeUlid: stranger.userId, title: 'New' }), 404, 'not_found');
    expect((await t.http.get(`/api/v1/defects/${defect.ulid}`).set(owner.headers)).body).toMatchObject({
      title: 'Checkout fails',
      assigneeUlid: null,
    });
  });
});

describe('defect custom fields', () => {
  async function defectField(owner: Caller, body: Record<string, unknown>) {
    const response = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/custom-fields`)
      .set(owner.headers)
      .send({ entity: 'defect', allProjects: true, ...body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.field as { ulid: string; options: Array<{ ulid: string; name: string }> };
  }

  it('stores values on create and PATCH, reads them with defaults, audits customFieldChanges and validates like other entities', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const severity = await defectField(owner, {
      title: 'Severity',
      valueType: 'select_single',
      options: [{ name: 'Minor' }, { name: 'Major' }],
    });
    const notes = await defectField(owner, { title: 'Notes', valueType: 'paragraph' });
    const [minor, major] = severity.options;
    const defect = await createDefect(owner, code, { customFieldValues: [{ fieldUlid: severity.ulid, value: minor!.ulid }] });
    expect(defect.customFieldValues).toEqual([
      { fieldUlid: severity.ulid, value: minor!.ulid, systemKey: null, optionName: 'Minor' },
      { fieldUlid: notes.ulid, value: null, systemKey: null, optionName: null },
    ]);

    const updated = await patch(owner, defect.ulid, {
      customFieldValues: [
        { fieldUlid: severity.ulid, value: major!.ulid },
        { fieldUlid: notes.ulid, value: 'Seen twice' },
      ],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.customFieldValues.map((entry: { value: unknown }) => entry.value)).toEqual([major!.ulid, 'Seen twice']);
    const [event] = await auditEvents(t.http, owner, { action: 'defect.updated', entityUlid: defect.ulid });
    expect(event!.metadata.customFieldChanges).toEqual([
      { fieldUlid: severity.ulid, fieldLabel: 'Severity', from: minor!.ulid, to: major!.ulid },
      { fieldUlid: notes.ulid, fieldLabel: 'Notes', from: null, to: 'Seen twice' },
    ]);

    const invalid = await patch(owner, defect.ulid, { customFieldValues: [{ fieldUlid: severity.ulid, value: 'Major' }] });
    expectError(invalid, 422, 'validation_failed');
    expect(invalid.body.error.details.path).toEqual(['customFieldValues', 0, 'value']);

    const caseField = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/custom-fields`)
      .set(owner.headers)
      .send({ entity: 'test_case', allProjects: true, title: 'Case only', valueType: 'paragraph' });
    expectError(
      await patch(owner, defect.ulid, { customFieldValues: [{ fieldUlid: caseField.body.field.ulid, value: 'x' }] }),
      404,
      'not_found',
    );
    const created = await t.http
      .post(`/api/v1/projects/${code}/defects`)
      .set(owner.headers)
      .send({ title: 'T', customFieldValues: [{ fieldUlid: caseField.body.field.ulid, value: 'x' }] });
    expectError(created, 404, 'not_found');
    expect((await list(owner, code)).total).toBe(1);
  });
});

describe('links between defects and results', () => {
  it('links results on create and through /links; the defect lists them, the run case detail lists the defects', async () => {
    const { owner, code, run, runCases, results } = await runWithResults(3, 2);
    const defect = await createDefect(owner, code, { resultUlids: [results[0]!.ulid] });
    const [created] = await auditEvents(t.http, owner, { action: 'defect.created', entityUlid: defect.ulid });
    expect(created!.metadata.resultUlids).toEqual([results[0]!.ulid]);

    const link = await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers).send({ resultUlid: results[1]!.ulid });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body).toMatchObject({
      resultUlid: results[1]!.ulid,
      runUlid: run.ulid,
      runTitle: run.name,
      runCaseUlid: runCases[1]!.ulid,
      caseDisplayId: runCases[1]!.displayId,
      status: 'failed',
      executedAt: results[1]!.executedAt,
    });
    const [linked] = await auditEvents(t.http, owner, { action: 'defect.linked' });
    expect(linked).toMatchObject({
      entityType: 'defect',
      entityUlid: defect.ulid,
      runUlid: run.ulid,
      metadata: { resultUlid: results[1]!.ulid, runUlid: run.ulid, runCaseUlid: runCases[1]!.ulid, caseDisplayId: runCases[1]!.displayId },
    });

    // Linking again changes nothing and records nothing.
    const again = await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers).send({ resultUlid: results[1]!.ulid });
    expect(again.status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'defect.linked' })).toHaveLength(1);

    const links = await t.http.get(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers);
    expect(links.status).toBe(200);
    expect(links.body).toMatchObject({ page: 1, total: 2 });
    expect(new Set(links.body.items.map((item: { resultUlid: string }) => item.resultUlid))).toEqual(
      new Set([results[0]!.ulid, results[1]!.ulid]),
    );

    const detail = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[1]!.ulid}`).set(owner.headers);
    expect(detail.body.linkedDefects).toEqual([
      { ulid: defect.ulid, defectNumber: 1, title: 'Checkout fails', status: 'open', assigneeUlid: null },
    ]);
    const untouched = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[2]!.ulid}`).set(owner.headers);
    expect(untouched.body.linkedDefects).toEqual([]);

    const unlink = await t.http.delete(`/api/v1/defects/${defect.ulid}/links/${results[1]!.ulid}`).set(owner.headers);
    expect(unlink.status).toBe(204);
    const [unlinked] = await auditEvents(t.http, owner, { action: 'defect.unlinked' });
    expect(unlinked).toMatchObject({ runUlid: run.ulid, metadata: { resultUlid: results[1]!.ulid } });
    expectError(await t.http.delete(`/api/v1/defects/${defect.ulid}/links/${results[1]!.ulid}`).set(owner.headers), 404, 'not_found');
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[1]!.ulid}`).set(owner.headers)).body.linkedDefects).toEqual([]);
  });

  it('lists a defect once on a case linked through two attempts', async () => {
    const { owner, code, run, runCases } = await runWithResults(1);
    await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' });
    const results = await resultsOf(t.http, owner, run.ulid);
    expect(results).toHaveLength(2);
    const defect = await createDefect(owner, code, { resultUlids: results.map((result) => result.ulid) });
    const second = await createDefect(owner, code, { title: 'Second', resultUlids: [results[0]!.ulid] });
    const detail = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`).set(owner.headers);
    expect(detail.body.linkedDefects.map((entry: { ulid: string }) => entry.ulid)).toEqual([defect.ulid, second.ulid]);
  });

  it('answers 404 for a result of another project or organization and 422 for a malformed one', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const defect = await createDefect(owner, code);
    const other = await runWithResults(1);
    expectError(
      await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers).send({ resultUlid: other.results[0]!.ulid }),
      404,
      'not_found',
    );
    const sameOrgProject = await createProject(t.http, owner);
    const cases = await createCases(t.http, owner, sameOrgProject.id, 1);
    const run = await createRun(t.http, owner, sameOrgProject.id, { caseUlids: [cases[0]!.ulid] });
    const [runCase] = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items;
    await patchRunCase(t.http, owner, run.ulid, runCase.ulid, { status: 'failed' });
    const [result] = await resultsOf(t.http, owner, run.ulid);
    expectError(
      await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers).send({ resultUlid: result!.ulid }),
      404,
      'not_found',
    );
    expectError(
      await t.http.post(`/api/v1/defects/${defect.ulid}/links`).set(owner.headers).send({ resultUlid: 'x' }),
      422,
      'validation_failed',
    );
    expect(await auditEvents(t.http, owner, { action: 'defect.linked' })).toEqual([]);
  });
});

describe('DELETE /api/v1/defects/{defectUlid}', () => {
  it('deletes the defect with its links and comments, records defect.deleted, and keeps numbers unused', async () => {
    const { owner, code, run, runCases, results } = await runWithResults(1);
    const defect = await createDefect(owner, code, { resultUlids: [results[0]!.ulid] });
    await t.http.post(`/api/v1/defects/${defect.ulid}/comments`).set(owner.headers).send({ body: 'Seen' }).expect(201);
    const response = await t.http.delete(`/api/v1/defects/${defect.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);
    expectError(await t.http.get(`/api/v1/defects/${defect.ulid}`).set(owner.headers), 404, 'not_found');
    expectError(await t.http.get(`/api/v1/defects/${defect.ulid}/comments`).set(owner.headers), 404, 'not_found');
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`).set(owner.headers)).body.linkedDefects).toEqual([]);
    const [event] = await auditEvents(t.http, owner, { action: 'defect.deleted' });
    expect(event).toMatchObject({ entityUlid: defect.ulid, entityLabel: 'Checkout fails', metadata: { defectNumber: 1 } });
    expect((await createDefect(owner, code)).defectNumber).toBe(2);
    expectError(await t.http.delete(`/api/v1/defects/${defect.ulid}`).set(owner.headers), 404, 'not_found');
  });
});

describe('defect comments', () => {
  const url = (defectUlid: string, rest = '') => `/api/v1/defects/${defectUlid}/comments${rest}`;

  it('follow the rules of test case comments and record the five defect.comment* actions', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const defect = await createDefect(owner, code);

    const top = await t.http
      .post(url(defect.ulid))
      .set(member.headers)
      .send({ body: 'x'.repeat(300) });
    expect(top.status).toBe(201);
    const reply = await t.http.post(url(defect.ulid)).set(owner.headers).send({ body: 'Reply', parentUlid: top.body.ulid });
    expect(reply.body.parentUlid).toBe(top.body.ulid);
    expectError(await t.http.post(url(defect.ulid)).set(viewer.headers).send({ body: 'No' }), 403, 'forbidden');

    const [commented] = await auditEvents(t.http, owner, { action: 'defect.commented', entityUlid: defect.ulid });
    expect(commented).toMatchObject({ entityType: 'defect', metadata: { commentUlid: reply.body.ulid, excerpt: 'Reply' } });

    expectError(
      await t.http
        .patch(url(defect.ulid, `/${top.body.ulid}`))
        .set(owner.headers)
        .send({ body: 'Not mine' }),
      403,
      'forbidden',
    );
    expect(
      (
        await t.http
          .patch(url(defect.ulid, `/${top.body.ulid}`))
          .set(member.headers)
          .send({ body: 'Edited' })
      ).status,
    ).toBe(200);
    expect((await t.http.post(url(defect.ulid, `/${top.body.ulid}/pin`)).set(member.headers)).body.pinnedAt).toEqual(expect.any(Number));
    expectError(await t.http.post(url(defect.ulid, `/${reply.body.ulid}/pin`)).set(member.headers), 422, 'validation_failed');
    expect((await t.http.post(url(defect.ulid, `/${top.body.ulid}/unpin`)).set(member.headers)).body.pinnedAt).toBeNull();

    const page = await t.http.get(url(defect.ulid)).set(viewer.headers);
    expect(page.body.items.map((item: { body: string }) => item.body)).toEqual(['Edited', 'Reply']);

    expect((await t.http.delete(url(defect.ulid, `/${top.body.ulid}`)).set(owner.headers)).status).toBe(204);
    const actions = (await auditEvents(t.http, owner, { actionPrefix: 'defect.comment' })).map((event) => event.action);
    expect(actions.sort()).toEqual(
      [
        'defect.commented',
        'defect.commented',
        'defect.comment_updated',
        'defect.comment_pinned',
        'defect.comment_unpinned',
        'defect.comment_deleted',
        'defect.comment_deleted',
      ].sort(),
    );
    expect((await t.http.get(url(defect.ulid)).set(owner.headers)).body.total).toBe(0);
  });

  it('keeps comments per owner: a defect comment is not found through another defect', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const first = await createDefect(owner, code);
    const second = await createDefect(owner, code);
    const comment = await t.http.post(url(first.ulid)).set(owner.headers).send({ body: 'Mine' });
    expectError(
      await t.http
        .patch(url(second.ulid, `/${comment.body.ulid}`))
        .set(owner.headers)
        .send({ body: 'x' }),
      404,
      'not_found',
    );
    expectError(
      await t.http.post(url(second.ulid)).set(owner.headers).send({ body: 'x', parentUlid: comment.body.ulid }),
      404,
      'not_found',
    );
  });
});

describe('project statistics and filters count unresolved defects', () => {
  it('counts open and in_progress defects in stats.defectsUnresolved and in defects=has|without', async () => {
    const owner = await signUp(t.http);
    const withOpen = await createProject(t.http, owner, { name: 'With open' });
    const onlyClosed = await createProject(t.http, owner, { name: 'Only closed' });
    await createProject(t.http, owner, { name: 'None' });
    await createDefect(owner, withOpen.id, { status: 'open' });
    await createDefect(owner, withOpen.id, { status: 'in_progress' });
    await createDefect(owner, withOpen.id, { status: 'resolved' });
    const closing = await createDefect(owner, onlyClosed.id, { status: 'closed' });

    const stats = await t.http.get('/api/v1/projects?include=stats').set(owner.headers);
    const unresolved = Object.fromEntries(
      stats.body.items.map((item: { name: string; stats: { defectsUnresolved: number } }) => [item.name, item.stats.defectsUnresolved]),
    );
    expect(unresolved).toEqual({ 'With open': 2, 'Only closed': 0, None: 0 });

    const names = async (query: string) =>
      ((await t.http.get(`/api/v1/projects?${query}`).set(owner.headers)).body.items as Array<{ name: string }>)
        .map((item) => item.name)
        .sort();
    expect(await names('defects=has')).toEqual(['With open']);
    expect(await names('defects=without')).toEqual(['None', 'Only closed']);
    expect(await names('defects=has,without')).toEqual(['None', 'Only closed', 'With open']);

    await patch(owner, closing.ulid, { status: 'open' });
    expect(await names('defects=has')).toEqual(['Only closed', 'With open']);
  });
});
