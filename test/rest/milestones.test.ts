import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, createMilestone, createProject, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

const MILESTONE_FIELDS = ['ulid', 'projectUlid', 'name', 'description', 'dueAt', 'completedAt', 'createdAt', 'updatedAt'];

const list = async (caller: Caller, projectId: string, query = '') => {
  const response = await t.http.get(`/api/v1/projects/${projectId}/milestones${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Array<Record<string, unknown>>; page: number; pageSize: number; total: number };
};

describe('POST /api/v1/projects/{projectId}/milestones', () => {
  it('creates a milestone with exactly the record fields and records milestone.created', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const dueAt = Date.UTC(2030, 0, 31);
    const response = await t.http
      .post(`/api/v1/projects/${project.id}/milestones`)
      .set(owner.headers)
      .send({ name: 'Release 2.0', description: 'Big one', dueAt });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...MILESTONE_FIELDS].sort());
    expect(response.body).toMatchObject({
      projectUlid: project.ulid,
      name: 'Release 2.0',
      description: 'Big one',
      dueAt,
      completedAt: null,
    });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    expect(Number.isInteger(response.body.createdAt)).toBe(true);
    expect(response.body.updatedAt).toBe(response.body.createdAt);

    const read = await t.http.get(`/api/v1/milestones/${response.body.ulid}`).set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);

    const [event] = await auditEvents(t.http, owner, { action: 'milestone.created' });
    expect(event).toMatchObject({
      entityType: 'milestone',
      entityUlid: response.body.ulid,
      entityLabel: 'Release 2.0',
      metadata: { name: 'Release 2.0', dueAt },
    });
  });

  it('defaults description and dueAt to null and accepts explicit nulls and the maximum lengths', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const bare = await createMilestone(t.http, owner, project.id, { name: 'Bare' });
    expect(bare).toMatchObject({ description: null, dueAt: null, completedAt: null });
    const nulls = await createMilestone(t.http, owner, project.id, { name: 'n'.repeat(200), description: null, dueAt: null });
    expect(nulls).toMatchObject({ description: null, dueAt: null });
    const long = await createMilestone(t.http, owner, project.id, { description: 'd'.repeat(2000) });
    expect(long.description).toHaveLength(2000);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'name'],
    ['a missing name', { description: 'x' }, 'name'],
    ['a 2001-character description', { name: 'M', description: 'x'.repeat(2001) }, 'description'],
    ['a fractional dueAt', { name: 'M', dueAt: 1.5 }, 'dueAt'],
    ['a negative dueAt', { name: 'M', dueAt: -1 }, 'dueAt'],
    ['a string dueAt', { name: 'M', dueAt: '2030-01-01' }, 'dueAt'],
    ['completedAt on create', { name: 'M', completedAt: 1 }, 'completedAt'],
    ['an unknown key', { name: 'M', color: 'red' }, 'color'],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body, path) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await t.http.post(`/api/v1/projects/${project.id}/milestones`).set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.path).toEqual([path]);
    expect((await list(owner, project.id)).total).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'milestone.created' })).toEqual([]);
  });

  it('answers 404 for an unknown project and for a project of another organization', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    expect((await t.http.post('/api/v1/projects/NOPE/milestones').set(owner.headers).send({ name: 'M' })).status).toBe(404);
    const foreign = await t.http.post(`/api/v1/projects/${project.id}/milestones`).set(stranger.headers).send({ name: 'M' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await list(owner, project.id)).total).toBe(0);
  });
});

describe('Milestones: roles', () => {
  it('lets members write, refuses every write of a viewer with 403 and lets the viewer read', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const admin = await joinAs(t.http, owner, 'admin');
    const viewer = await joinAs(t.http, owner, 'viewer');

    const byMember = await createMilestone(t.http, member, project.id, { name: 'By member' });
    await createMilestone(t.http, admin, project.id, { name: 'By admin' });

    const create = await t.http.post(`/api/v1/projects/${project.id}/milestones`).set(viewer.headers).send({ name: 'By viewer' });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('forbidden');
    const patch = await t.http.patch(`/api/v1/milestones/${byMember.ulid}`).set(viewer.headers).send({ name: 'Renamed' });
    expect(patch.status).toBe(403);
    const remove = await t.http.delete(`/api/v1/milestones/${byMember.ulid}`).set(viewer.headers);
    expect(remove.status).toBe(403);

    const page = await list(viewer, project.id);
    expect(page.items.map((item) => item.name)).toEqual(['By member', 'By admin']);
    const one = await t.http.get(`/api/v1/milestones/${byMember.ulid}`).set(viewer.headers);
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('By member');
    expect((await auditEvents(t.http, owner)).filter((event) => event.entityType === 'milestone')).toHaveLength(2);

    const memberPatch = await t.http.patch(`/api/v1/milestones/${byMember.ulid}`).set(member.headers).send({ name: 'Renamed' });
    expect(memberPatch.status).toBe(200);
    expect((await t.http.delete(`/api/v1/milestones/${byMember.ulid}`).set(member.headers)).status).toBe(204);
  });
});

describe('GET /api/v1/projects/{projectId}/milestones', () => {
  it('pages live milestones oldest first with the page shape, q and the filtered total', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const names = ['Alpha 1', 'Beta', 'alpha 2', '100% done', 'Gamma'];
    for (const name of names) await createMilestone(t.http, owner, project.id, { name });
    const other = await createProject(t.http, owner);
    await createMilestone(t.http, owner, other.id, { name: 'Alpha elsewhere' });

    const all = await list(owner, project.id);
    expect(all).toMatchObject({ page: 1, pageSize: 50, total: 5 });
    expect(all.items.map((item) => item.name)).toEqual(names);

    const second = await list(owner, project.id, '?page=2&pageSize=2');
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(second.items.map((item) => item.name)).toEqual(['alpha 2', '100% done']);

    const past = await list(owner, project.id, '?page=9&pageSize=2');
    expect(past.items).toEqual([]);
    expect(past.total).toBe(5);

    const alpha = await list(owner, project.id, '?q=ALPHA');
    expect(alpha.items.map((item) => item.name)).toEqual(['Alpha 1', 'alpha 2']);
    expect(alpha.total).toBe(2);
    // `%` is a literal, not a wildcard.
    const percent = await list(owner, project.id, `?q=${encodeURIComponent('0%')}`);
    expect(percent.items.map((item) => item.name)).toEqual(['100% done']);
  });

  it.each([['?page=0'], ['?pageSize=201'], ['?pageSize=abc']])('answers 422 for %s', async (query) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await t.http.get(`/api/v1/projects/${project.id}/milestones${query}`).set(owner.headers);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
  });
});

describe('PATCH /api/v1/milestones/{milestoneUlid}', () => {
  it('updates name, description, dueAt and completedAt and records one milestone.updated with the changes', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const dueAt = Date.UTC(2030, 5, 1);
    const created = await createMilestone(t.http, owner, project.id, { name: 'Sprint', dueAt });
    const completedAt = Date.UTC(2030, 4, 30, 12);

    const response = await t.http
      .patch(`/api/v1/milestones/${created.ulid}`)
      .set(owner.headers)
      .send({ name: 'Sprint 1', description: 'First', dueAt: null, completedAt });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ulid: created.ulid, name: 'Sprint 1', description: 'First', dueAt: null, completedAt });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);
    expect((await t.http.get(`/api/v1/milestones/${created.ulid}`).set(owner.headers)).body).toEqual(response.body);

    const events = await auditEvents(t.http, owner, { action: 'milestone.updated' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityType: 'milestone', entityUlid: created.ulid, entityLabel: 'Sprint 1' });
    expect(events[0]!.metadata.changes).toEqual([
      { field: 'name', from: 'Sprint', to: 'Sprint 1' },
      { field: 'description', from: null, to: 'First' },
      { field: 'dueAt', from: dueAt, to: null },
      { field: 'completedAt', from: null, to: completedAt },
    ]);

    const reopened = await t.http.patch(`/api/v1/milestones/${created.ulid}`).set(owner.headers).send({ completedAt: null });
    expect(reopened.status).toBe(200);
    expect(reopened.body.completedAt).toBeNull();
    expect((await auditEvents(t.http, owner, { action: 'milestone.updated' }))[0]!.metadata.changes).toEqual([
      { field: 'completedAt', from: completedAt, to: null },
    ]);
  });

  it('answers 200 without an event when nothing changes', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const created = await createMilestone(t.http, owner, project.id, { name: 'Same', description: null });
    const response = await t.http.patch(`/api/v1/milestones/${created.ulid}`).set(owner.headers).send({ name: 'Same', description: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
    expect(await auditEvents(t.http, owner, { action: 'milestone.updated' })).toEqual([]);
  });

  it.each([
    ['an empty body', {}],
    ['a null name', { name: null }],
    ['an unknown key', { projectUlid: 'x' }],
    ['a fractional completedAt', { completedAt: 0.5 }],
  ])('answers 422 for %s and changes nothing', async (_label, body) => {
    const { owner, project } = await ownerWithProject(t.http);
    const created = await createMilestone(t.http, owner, project.id);
    const response = await t.http.patch(`/api/v1/milestones/${created.ulid}`).set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect((await t.http.get(`/api/v1/milestones/${created.ulid}`).set(owner.headers)).body).toEqual(created);
  });
});

describe('DELETE /api/v1/milestones/{milestoneUlid}', () => {
  it('soft-deletes: 204, then 404 everywhere, gone from the list, one milestone.deleted', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const kept = await createMilestone(t.http, owner, project.id, { name: 'Kept' });
    const doomed = await createMilestone(t.http, owner, project.id, { name: 'Doomed' });

    const response = await t.http.delete(`/api/v1/milestones/${doomed.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    for (const again of [
      t.http.get(`/api/v1/milestones/${doomed.ulid}`).set(owner.headers),
      t.http.patch(`/api/v1/milestones/${doomed.ulid}`).set(owner.headers).send({ name: 'Back' }),
      t.http.delete(`/api/v1/milestones/${doomed.ulid}`).set(owner.headers),
    ]) {
      const answer = await again;
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    const page = await list(owner, project.id);
    expect(page.items.map((item) => item.ulid)).toEqual([kept.ulid]);
    expect(page.total).toBe(1);

    const events = await auditEvents(t.http, owner, { action: 'milestone.deleted' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityType: 'milestone',
      entityUlid: doomed.ulid,
      entityLabel: 'Doomed',
      metadata: { name: 'Doomed' },
    });
  });
});

describe('Milestones: tenancy and project lock', () => {
  it('answers 404 to another organization for every route by ULID and changes nothing', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    const created = await createMilestone(t.http, owner, project.id);
    for (const request of [
      t.http.get(`/api/v1/milestones/${created.ulid}`).set(stranger.headers),
      t.http.patch(`/api/v1/milestones/${created.ulid}`).set(stranger.headers).send({ name: 'Hijacked' }),
      t.http.delete(`/api/v1/milestones/${created.ulid}`).set(stranger.headers),
      t.http.get(`/api/v1/projects/${project.id}/milestones`).set(stranger.headers),
      t.http.get('/api/v1/milestones/not-a-ulid').set(owner.headers),
    ]) {
      const response = await request;
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await t.http.get(`/api/v1/milestones/${created.ulid}`).set(owner.headers)).body).toEqual(created);
  });

  it('answers 403 project_locked for a milestone of a locked project', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const created = await createMilestone(t.http, owner, project.id);
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    for (const request of [
      t.http.get(`/api/v1/milestones/${created.ulid}`).set(owner.headers),
      t.http.patch(`/api/v1/milestones/${created.ulid}`).set(owner.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/milestones/${created.ulid}`).set(owner.headers),
      t.http.post(`/api/v1/projects/${project.id}/milestones`).set(owner.headers).send({ name: 'X' }),
    ]) {
      const response = await request;
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('project_locked');
    }
  });
});
