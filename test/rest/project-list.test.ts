import { describe, expect, it } from 'vitest';
import { type Caller, createProject, joinAs, signUp, useTestApp } from '../support/app.ts';

const app = useTestApp();

/** Three projects: one with a live case, one with a live milestone, one with only archived/deleted rows. */
async function fixture() {
  const owner = await signUp(app.http, { firstName: 'Olga', lastName: 'Owner' });
  const withCase = await createProject(app.http, owner, { name: 'With case' });
  const withMilestone = await createProject(app.http, owner, { name: 'With milestone' });
  const withGhosts = await createProject(app.http, owner, { name: 'Only archived and deleted' });
  const post = (caller: Caller, path: string, body: object) => app.http.post(`/api/v1${path}`).set(caller.headers).send(body);
  expect((await post(owner, `/projects/${withCase.id}/test-cases`, { title: 'Live case' })).status).toBe(201);
  expect((await post(owner, `/projects/${withMilestone.id}/milestones`, { name: 'M1' })).status).toBe(201);
  expect((await post(owner, `/projects/${withMilestone.id}/milestones`, { name: 'M2' })).status).toBe(201);
  const archived = await post(owner, `/projects/${withGhosts.id}/test-cases`, { title: 'Archived case' });
  expect((await post(owner, `/test-cases/${archived.body.ulid}/archive`, {})).status).toBe(200);
  const deleted = await post(owner, `/projects/${withGhosts.id}/milestones`, { name: 'Gone' });
  expect((await app.http.delete(`/api/v1/milestones/${deleted.body.ulid}`).set(owner.headers)).status).toBe(204);
  return { owner, withCase, withMilestone, withGhosts };
}

const names = (body: { items: Array<{ name: string }> }) => body.items.map((item) => item.name);

/**
 * Three projects: Active (an open and a closed run, a case), Finished (a closed and an aborted
 * run, no case), Runless (its only run was deleted).
 */
async function runsFixture() {
  const owner = await signUp(app.http);
  const active = await createProject(app.http, owner, { name: 'Active' });
  const finished = await createProject(app.http, owner, { name: 'Finished' });
  const runless = await createProject(app.http, owner, { name: 'Runless' });
  const post = (path: string, body: object = {}) => app.http.post(`/api/v1${path}`).set(owner.headers).send(body);
  const run = async (code: string, then?: 'close' | 'abort') => {
    const created = await post(`/projects/${code}/runs`, { name: 'Run', caseUlids: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (then) expect((await post(`/runs/${created.body.ulid}/${then}`)).status).toBe(200);
    return created.body.ulid as string;
  };
  expect((await post(`/projects/${active.id}/test-cases`, { title: 'Live case' })).status).toBe(201);
  await run(active.id);
  await run(active.id, 'close');
  await run(finished.id, 'close');
  await run(finished.id, 'abort');
  const deleted = await run(runless.id);
  expect((await app.http.delete(`/api/v1/runs/${deleted}`).set(owner.headers)).status).toBe(204);
  return { owner };
}

describe('GET /api/v1/projects filters', () => {
  it('cases=has / without keep projects with or without a non-archived case; total follows', async () => {
    const { owner } = await fixture();
    const has = await app.http.get('/api/v1/projects?cases=has').set(owner.headers);
    expect(has.status).toBe(200);
    expect(names(has.body)).toEqual(['With case']);
    expect(has.body.total).toBe(1);
    const without = await app.http.get('/api/v1/projects?cases=without').set(owner.headers);
    expect(names(without.body)).toEqual(['With milestone', 'Only archived and deleted']);
    expect(without.body.total).toBe(2);
  });

  it('milestones=has counts live milestones only; filters AND across and OR within, CSV or repeated', async () => {
    const { owner } = await fixture();
    expect(names((await app.http.get('/api/v1/projects?milestones=has').set(owner.headers)).body)).toEqual(['With milestone']);
    const across = await app.http.get('/api/v1/projects?milestones=without&cases=without').set(owner.headers);
    expect(names(across.body)).toEqual(['Only archived and deleted']);
    const csv = await app.http.get('/api/v1/projects?cases=has,without').set(owner.headers);
    const repeated = await app.http.get('/api/v1/projects?cases=has&cases=without').set(owner.headers);
    expect(csv.body.total).toBe(3);
    expect(repeated.body.total).toBe(3);
    const withQ = await app.http.get('/api/v1/projects?cases=without&q=MILESTONE').set(owner.headers);
    expect(names(withQ.body)).toEqual(['With milestone']);
  });

  it('drops unknown tokens silently and treats a filter of unknown tokens as absent', async () => {
    const { owner } = await fixture();
    const unknownOnly = await app.http.get('/api/v1/projects?cases=lots&milestones=maybe').set(owner.headers);
    expect(unknownOnly.status).toBe(200);
    expect(unknownOnly.body.total).toBe(3);
    const mixed = await app.http.get('/api/v1/projects?cases=lots,has').set(owner.headers);
    expect(names(mixed.body)).toEqual(['With case']);
  });

  it('defects: no project has any yet, so without keeps all and has none', async () => {
    const { owner } = await fixture();
    expect((await app.http.get('/api/v1/projects?defects=has').set(owner.headers)).body.total).toBe(0);
    expect((await app.http.get('/api/v1/projects?defects=without').set(owner.headers)).body.total).toBe(3);
  });

  it('runs: without (no run), active (an open run), any (a run); OR within, AND with other filters', async () => {
    const { owner } = await runsFixture();
    const filtered = async (query: string) => names((await app.http.get(`/api/v1/projects?${query}`).set(owner.headers)).body);
    expect(await filtered('runs=without')).toEqual(['Runless']);
    expect(await filtered('runs=active')).toEqual(['Active']);
    expect(await filtered('runs=any')).toEqual(['Active', 'Finished']);
    expect(await filtered('runs=active,without')).toEqual(['Active', 'Runless']);
    expect(await filtered('runs=active&runs=without')).toEqual(['Active', 'Runless']);
    expect(await filtered('runs=any&cases=without')).toEqual(['Finished']);
    expect(await filtered('runs=sometimes')).toEqual(['Active', 'Finished', 'Runless']);
    const total = await app.http.get('/api/v1/projects?runs=any&pageSize=1').set(owner.headers);
    expect(total.body).toMatchObject({ total: 2, pageSize: 1 });
  });

  it('accepts memberUlid, dropping malformed and unknown ULIDs', async () => {
    const { owner } = await fixture();
    const response = await app.http.get(`/api/v1/projects?memberUlid=${owner.userId},nonsense`).set(owner.headers);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(3);
  });
});

describe('GET /api/v1/projects?include=stats', () => {
  it('adds stats, team (4 oldest members) and teamCount; without include the flat shape stays', async () => {
    const { owner, withCase } = await fixture();
    for (const role of ['admin', 'member', 'viewer', 'member'] as const) await joinAs(app.http, owner, role);

    const flat = await app.http.get('/api/v1/projects').set(owner.headers);
    expect(flat.body.items[0]).not.toHaveProperty('stats');
    expect(flat.body.items[0]).not.toHaveProperty('team');
    expect(flat.body.items[0]).not.toHaveProperty('teamCount');

    const response = await app.http.get('/api/v1/projects?include=stats').set(owner.headers);
    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.body.items.map((item: { name: string }) => [item.name, item]));
    expect(byName['With case'].stats).toEqual({ cases: 1, runs: 0, runsInProgress: 0, defectsUnresolved: 0, milestones: 0 });
    expect(byName['With milestone'].stats).toMatchObject({ cases: 0, milestones: 2 });
    expect(byName['Only archived and deleted'].stats).toMatchObject({ cases: 0, milestones: 0 });
    expect(byName['With case'].ulid).toBe(withCase.ulid);
    expect(byName['With case'].teamCount).toBe(5);
    expect(byName['With case'].team).toHaveLength(4);
    expect(byName['With case'].team[0]).toEqual({
      userUlid: owner.userId,
      firstName: 'Olga',
      lastName: 'Owner',
      avatarKey: null,
      avatarVersion: 0,
    });
  });

  it('counts every run in stats.runs and only open ones in runsInProgress (aborted and deleted runs are not in progress)', async () => {
    const { owner } = await runsFixture();
    const response = await app.http.get('/api/v1/projects?include=stats').set(owner.headers);
    const stats = Object.fromEntries(response.body.items.map((item: { name: string; stats: object }) => [item.name, item.stats]));
    expect(stats).toEqual({
      Active: { cases: 1, runs: 2, runsInProgress: 1, defectsUnresolved: 0, milestones: 0 },
      Finished: { cases: 0, runs: 2, runsInProgress: 0, defectsUnresolved: 0, milestones: 0 },
      Runless: { cases: 0, runs: 0, runsInProgress: 0, defectsUnresolved: 0, milestones: 0 },
    });
  });

  it('answers 422 for an include value other than stats', async () => {
    const owner = await signUp(app.http);
    const response = await app.http.get('/api/v1/projects?include=everything').set(owner.headers);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
  });
});
