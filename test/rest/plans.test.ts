import { describe, expect, it } from 'vitest';
import { newId, ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import {
  auditEvents,
  type Caller,
  createMilestone,
  createProject,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  tokenFor,
  useTestApp,
} from '../support/app.ts';
import { createCase, createPlan, createRun } from '../support/runs.ts';

const t = useTestApp();

const PLAN_FIELDS = [
  'ulid',
  'projectUlid',
  'planNumber',
  'name',
  'description',
  'author',
  'caseCount',
  'status',
  'milestoneUlid',
  'milestone',
  'createdAt',
  'updatedAt',
];
const NO_PROGRESS = {
  totalRuns: 0,
  closedRuns: 0,
  counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 0 },
  byConfiguration: [],
};

const list = async (caller: Caller, code: string, query = '') => {
  const response = await t.http.get(`/api/v1/projects/${code}/plans${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Array<Record<string, unknown>>; page: number; pageSize: number; total: number };
};

const read = (caller: Caller, planUlid: string) => t.http.get(`/api/v1/plans/${planUlid}`).set(caller.headers);
const patch = (caller: Caller, planUlid: string, body: unknown) =>
  t.http
    .patch(`/api/v1/plans/${planUlid}`)
    .set(caller.headers)
    .send(body as object);

describe('POST /api/v1/projects/{projectId}/plans', () => {
  it('creates a plan with the contract fields, numbers plans per project and records plan.created', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const response = await t.http
      .post(`/api/v1/projects/${code}/plans`)
      .set(owner.headers)
      .send({ name: 'Release 1.0', description: 'Everything' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...PLAN_FIELDS].sort());
    expect(response.body).toMatchObject({
      projectUlid: project.ulid,
      planNumber: 1,
      name: 'Release 1.0',
      description: 'Everything',
      author: { kind: 'user', ulid: owner.userId, displayName: 'Test User', avatarKey: null },
      caseCount: 0,
      status: 'draft',
      milestoneUlid: null,
      milestone: null,
    });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    expect(response.body.updatedAt).toBe(response.body.createdAt);

    const second = await createPlan(t.http, owner, code, { name: 'Release 2.0', status: 'completed' });
    expect(second).toMatchObject({ planNumber: 2, status: 'completed', description: null });
    // Numbers are per project.
    const other = await createProject(t.http, owner);
    expect((await createPlan(t.http, owner, other.id)).planNumber).toBe(1);

    const [event] = await auditEvents(t.http, owner, { action: 'plan.created', entityUlid: response.body.ulid });
    expect(event).toMatchObject({
      entityType: 'test_plan',
      entityLabel: 'Release 1.0',
      metadata: { planNumber: 1, name: 'Release 1.0', status: 'draft' },
    });
  });

  it('snapshots an API token as the author', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner, { name: 'CI bot' });
    const plan = await createPlan(t.http, token, code);
    expect(plan.author).toEqual({ kind: 'api_token', ulid: token.tokenUlid, name: 'CI bot' });
  });

  it.each([
    ['a client ulid', { name: 'P', ulid: newId() }, 'ulid'],
    ['a client planNumber', { name: 'P', planNumber: 7 }, 'planNumber'],
    ['a missing name', { description: 'x' }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'name'],
    ['a 2001-character description', { name: 'P', description: 'x'.repeat(2001) }, 'description'],
    ['an unknown status', { name: 'P', status: 'archived' }, 'status'],
    ['an unknown key', { name: 'P', color: 'red' }, 'color'],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body, path) => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await t.http.post(`/api/v1/projects/${code}/plans`).set(owner.headers).send(body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual([path]);
    expect((await list(owner, code)).total).toBe(0);
    // The refused create did not use up a number.
    expect((await createPlan(t.http, owner, code)).planNumber).toBe(1);
  });

  it('accepts the maximum lengths', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code, { name: 'n'.repeat(200), description: 'd'.repeat(2000), status: 'active' });
    expect(plan).toMatchObject({ name: 'n'.repeat(200), status: 'active' });
  });

  it('answers 409 for a duplicate live name, keeps numbers gapless and frees the name on delete', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const first = await createPlan(t.http, owner, code, { name: 'Smoke' });
    const duplicate = await t.http.post(`/api/v1/projects/${code}/plans`).set(owner.headers).send({ name: 'Smoke' });
    expectError(duplicate, 409, 'conflict');
    expect(duplicate.body.error.details).toEqual({ path: ['name'] });
    // Names are exact: another case is another name.
    expect((await createPlan(t.http, owner, code, { name: 'smoke' })).planNumber).toBe(2);

    expect((await t.http.delete(`/api/v1/plans/${first.ulid}`).set(owner.headers)).status).toBe(204);
    const again = await createPlan(t.http, owner, code, { name: 'Smoke' });
    expect(again.planNumber).toBe(3);
  });

  it('answers 403 to a viewer, 404 for an unknown or foreign project', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const member = await joinAs(t.http, owner, 'member');
    expectError(await t.http.post(`/api/v1/projects/${code}/plans`).set(viewer.headers).send({ name: 'P' }), 403, 'forbidden');
    expect((await createPlan(t.http, member, code)).planNumber).toBe(1);
    const stranger = await signUp(t.http);
    expectError(await t.http.post(`/api/v1/projects/${code}/plans`).set(stranger.headers).send({ name: 'P' }), 404, 'not_found');
    expectError(await t.http.post('/api/v1/projects/NOPE/plans').set(owner.headers).send({ name: 'P' }), 404, 'not_found');
  });
});

describe('GET /api/v1/projects/{projectId}/plans', () => {
  it('pages live plans by planNumber (default 20), without progress, and searches names with q', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plans = [];
    for (let index = 1; index <= 23; index++)
      plans.push(await createPlan(t.http, owner, code, { name: `Plan ${index}${index % 5 === 0 ? ' nightly' : ''}` }));
    await t.http.delete(`/api/v1/plans/${plans[1]!.ulid}`).set(owner.headers);

    const first = await list(owner, code);
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: 22 });
    expect(first.items.map((item) => item.planNumber)).toEqual([1, ...Array.from({ length: 19 }, (_, index) => index + 3)]);
    expect(Object.keys(first.items[0]!).sort()).toEqual([...PLAN_FIELDS].sort());
    const last = await list(owner, code, '?page=2');
    expect(last.items.map((item) => item.planNumber)).toEqual([22, 23]);
    expect((await list(owner, code, '?page=9')).items).toEqual([]);
    expect((await list(owner, code, '?pageSize=200')).items).toHaveLength(22);

    const nightly = await list(owner, code, '?q=NIGHT');
    expect(nightly.total).toBe(4);
    expect(nightly.items.map((item) => item.name)).toEqual(['Plan 5 nightly', 'Plan 10 nightly', 'Plan 15 nightly', 'Plan 20 nightly']);
    expect((await list(owner, code, '?q=%25')).total).toBe(0);
  });

  it.each(['?pageSize=201', '?pageSize=0', '?page=0', '?page=1.5'])('answers 422 for %s', async (query) => {
    const { owner, code } = await ownerWithProject(t.http);
    expectError(await t.http.get(`/api/v1/projects/${code}/plans${query}`).set(owner.headers), 422, 'validation_failed');
  });
});

describe('GET /api/v1/plans/{planUlid}', () => {
  it('answers the plan with an empty progress, for any member', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const plan = await createPlan(t.http, owner, code);
    const response = await read(viewer, plan.ulid);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...plan, progress: NO_PROGRESS });
  });

  it('answers 404 for an unknown, malformed, foreign or deleted plan', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code);
    const stranger = await signUp(t.http);
    expectError(await read(stranger, plan.ulid), 404, 'not_found');
    expectError(await read(owner, newId()), 404, 'not_found');
    expectError(await read(owner, 'not-a-ulid'), 404, 'not_found');
    await t.http.delete(`/api/v1/plans/${plan.ulid}`).set(owner.headers);
    expectError(await read(owner, plan.ulid), 404, 'not_found');
  });

  it('counts only live (not archived) cases of the selection in caseCount', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const [a, b, c] = [await createCase(t.http, owner, code), await createCase(t.http, owner, code), await createCase(t.http, owner, code)];
    const plan = await createPlan(t.http, owner, code);
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .send({ caseUlids: [a.ulid, b.ulid, c.ulid] });
    expect((await read(owner, plan.ulid)).body.caseCount).toBe(3);
    await t.http.post(`/api/v1/test-cases/${b.ulid}/archive`).set(owner.headers);
    expect((await read(owner, plan.ulid)).body.caseCount).toBe(2);
    expect((await list(owner, code)).items[0]!.caseCount).toBe(2);
    await t.http.delete(`/api/v1/test-cases/${c.ulid}`).set(owner.headers);
    expect((await read(owner, plan.ulid)).body.caseCount).toBe(1);
  });
});

describe('PATCH /api/v1/plans/{planUlid}', () => {
  it('changes name, description, status and milestone with one plan.updated event and answers the plan with progress', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const milestone = await createMilestone(t.http, owner, code, { name: 'GA' });
    const plan = await createPlan(t.http, owner, code, { name: 'Beta', description: 'Old' });
    const response = await patch(owner, plan.ulid, { name: 'Beta 2', description: null, status: 'active', milestoneId: milestone.ulid });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      ulid: plan.ulid,
      planNumber: 1,
      name: 'Beta 2',
      description: null,
      status: 'active',
      milestoneUlid: milestone.ulid,
      milestone: { ulid: milestone.ulid, name: 'GA' },
      progress: NO_PROGRESS,
    });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(plan.createdAt as number);
    expect((await read(owner, plan.ulid)).body).toEqual(response.body);

    const [event] = await auditEvents(t.http, owner, { action: 'plan.updated', entityUlid: plan.ulid });
    expect(event!.entityLabel).toBe('Beta 2');
    expect(event!.metadata.changes).toEqual([
      { field: 'name', from: 'Beta', to: 'Beta 2' },
      { field: 'description', from: 'Old', to: null },
      { field: 'status', from: 'draft', to: 'active' },
      { field: 'milestoneUlid', from: null, to: milestone.ulid, fromLabel: null, toLabel: 'GA' },
    ]);

    const cleared = await patch(owner, plan.ulid, { milestoneId: null });
    expect(cleared.body).toMatchObject({ milestoneUlid: null, milestone: null });
  });

  it('moves through every status, completed back to draft; the same status is a 200 no-op with no event', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code);
    for (const status of ['active', 'completed', 'draft', 'completed', 'active']) {
      expect((await patch(owner, plan.ulid, { status })).body.status).toBe(status);
    }
    const before = await read(owner, plan.ulid);
    const same = await patch(owner, plan.ulid, { status: 'active' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(before.body);
    const unchanged = await patch(owner, plan.ulid, { name: 'Release plan', description: null });
    expect(unchanged.body.updatedAt).toBe(before.body.updatedAt);
    expect(await auditEvents(t.http, owner, { action: 'plan.updated', entityUlid: plan.ulid })).toHaveLength(5);
  });

  it.each([
    ['an empty body', {}, []],
    ['an unknown status', { status: 'done' }, ['status']],
    ['an empty name', { name: '' }, ['name']],
    ['a null name', { name: null }, ['name']],
    ['a 2001-character description', { description: 'x'.repeat(2001) }, ['description']],
    ['a malformed milestoneId', { milestoneId: 'm1' }, ['milestoneId']],
    ['an unknown key', { planNumber: 4 }, ['planNumber']],
  ])('answers 422 for %s and changes nothing', async (_label, body, path) => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code);
    const response = await patch(owner, plan.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    expect((await read(owner, plan.ulid)).body).toEqual({ ...plan, progress: NO_PROGRESS });
  });

  it('answers 404 for a milestone that is unknown, deleted or of another project, and leaves the plan unchanged', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const foreign = await createMilestone(t.http, owner, other.id);
    const deleted = await createMilestone(t.http, owner, code, { name: 'Gone' });
    await t.http.delete(`/api/v1/milestones/${deleted.ulid}`).set(owner.headers);
    const plan = await createPlan(t.http, owner, code);
    for (const milestoneId of [foreign.ulid, deleted.ulid, newId()]) {
      expectError(await patch(owner, plan.ulid, { name: 'Renamed', milestoneId }), 404, 'not_found');
    }
    expect((await read(owner, plan.ulid)).body).toMatchObject({ name: 'Release plan', milestoneUlid: null });
    expect(await auditEvents(t.http, owner, { action: 'plan.updated' })).toEqual([]);
  });

  it('answers 409 when renaming to the name of another live plan', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    await createPlan(t.http, owner, code, { name: 'Taken' });
    const plan = await createPlan(t.http, owner, code, { name: 'Mine' });
    const response = await patch(owner, plan.ulid, { name: 'Taken', status: 'active' });
    expectError(response, 409, 'conflict');
    expect((await read(owner, plan.ulid)).body).toMatchObject({ name: 'Mine', status: 'draft' });
  });

  it('answers 403 to a viewer and 404 to another organization', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const plan = await createPlan(t.http, owner, code);
    expectError(await patch(viewer, plan.ulid, { name: 'X' }), 403, 'forbidden');
    expectError(await patch(stranger, plan.ulid, { name: 'X' }), 404, 'not_found');
  });
});

describe('DELETE /api/v1/plans/{planUlid}', () => {
  it('soft-deletes: 204, then 404 everywhere; runs of the plan stay; plan.deleted recorded once', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const testCase = await createCase(t.http, owner, code);
    const plan = await createPlan(t.http, owner, code, { name: 'Doomed' });
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid, caseUlids: [testCase.ulid] });

    expectError(await t.http.delete(`/api/v1/plans/${plan.ulid}`).set(viewer.headers), 403, 'forbidden');
    expect((await t.http.delete(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).status).toBe(204);
    expectError(await t.http.delete(`/api/v1/plans/${plan.ulid}`).set(owner.headers), 404, 'not_found');
    for (const path of ['', '/cases', '/configurations', '/combinations', '/runs']) {
      expectError(await t.http.get(`/api/v1/plans/${plan.ulid}${path}`).set(owner.headers), 404, 'not_found');
    }
    expectError(await patch(owner, plan.ulid, { name: 'Back' }), 404, 'not_found');
    expect((await list(owner, code)).total).toBe(0);

    const kept = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ planUlid: plan.ulid, total: 1 });
    // A deleted plan cannot seed new runs.
    expectError(
      await t.http.post(`/api/v1/projects/${code}/runs`).set(owner.headers).send({ name: 'Late', planUlid: plan.ulid }),
      404,
      'not_found',
    );

    const events = await auditEvents(t.http, owner, { action: 'plan.deleted' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityUlid: plan.ulid, entityLabel: 'Doomed', metadata: { planNumber: 1, name: 'Doomed' } });
  });
});

describe('GET /api/v1/plans/{planUlid}/runs', () => {
  it('pages the runs of the plan as RunResponse items, most recent first (default pageSize 50)', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(t.http, owner, code);
    const plan = await createPlan(t.http, owner, code);
    const other = await createPlan(t.http, owner, code, { name: 'Other' });
    const runs = [];
    for (const name of ['First', 'Second', 'Third']) runs.push(await createRun(t.http, owner, code, { name, planUlid: plan.ulid }));
    await createRun(t.http, owner, code, { name: 'Elsewhere', planUlid: other.ulid });
    await createRun(t.http, owner, code, { name: 'Planless', caseUlids: [testCase.ulid] });

    const response = await t.http.get(`/api/v1/plans/${plan.ulid}/runs`).set(owner.headers);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(response.body.items.map((run: { name: string }) => run.name)).toEqual(['Third', 'Second', 'First']);
    expect(response.body.items[0]).toEqual(runs[2]);
    const paged = await t.http.get(`/api/v1/plans/${plan.ulid}/runs?pageSize=2&page=2`).set(owner.headers);
    expect(paged.body.items.map((run: { name: string }) => run.name)).toEqual(['First']);
    expectError(await t.http.get(`/api/v1/plans/${plan.ulid}/runs?pageSize=500`).set(owner.headers), 422, 'validation_failed');
  });
});

describe('plans of a locked project', () => {
  it('answer 403 project_locked on every plan route', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code);
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    for (const request of [
      t.http.post(`/api/v1/projects/${code}/plans`).set(owner.headers).send({ name: 'X' }),
      t.http.get(`/api/v1/projects/${code}/plans`).set(owner.headers),
      t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers),
      t.http.patch(`/api/v1/plans/${plan.ulid}`).set(owner.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/plans/${plan.ulid}`).set(owner.headers),
      t.http.get(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers),
      t.http.put(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers).send({ caseUlids: [] }),
      t.http.put(`/api/v1/plans/${plan.ulid}/configurations`).set(owner.headers).send({ configurationUlids: [] }),
      t.http.put(`/api/v1/plans/${plan.ulid}/excluded-combinations`).set(owner.headers).send({ comboKeys: [] }),
      t.http.get(`/api/v1/plans/${plan.ulid}/combinations`).set(owner.headers),
      t.http.get(`/api/v1/plans/${plan.ulid}/runs`).set(owner.headers),
    ]) {
      expectError(await request, 403, 'project_locked');
    }
  });
});
