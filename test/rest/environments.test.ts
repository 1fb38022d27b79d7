import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

const ENVIRONMENT_FIELDS = ['ulid', 'projectUlid', 'name', 'slug', 'createdAt', 'updatedAt'];

const post = (caller: Caller, projectId: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/projects/${projectId}/environments`).set(caller.headers).send(body);

async function createEnvironment(caller: Caller, projectId: string, body: Record<string, unknown>) {
  const response = await post(caller, projectId, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function list(caller: Caller, projectId: string, query = '') {
  const response = await t.http.get(`/api/v1/projects/${projectId}/environments${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Array<Record<string, unknown>>; page: number; pageSize: number; total: number };
}

describe('POST /api/v1/projects/{projectId}/environments', () => {
  it('creates an environment with exactly the record fields and records environment.created', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await post(owner, project.id, { name: 'Staging', slug: 'stage-1' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...ENVIRONMENT_FIELDS].sort());
    expect(response.body).toMatchObject({ projectUlid: project.ulid, name: 'Staging', slug: 'stage-1' });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    const read = await t.http.get(`/api/v1/environments/${response.body.ulid}`).set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);

    const events = await auditEvents(t.http, owner, { action: 'environment.created' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityType: 'environment',
      entityUlid: response.body.ulid,
      entityLabel: 'Staging',
      metadata: { name: 'Staging', slug: 'stage-1' },
    });
  });

  it.each([
    ['Staging', 'staging'],
    ['Staging (EU) ', 'staging-eu'],
    ['  --Prod__West--  ', 'prod-west'],
    ['QA   2', 'qa-2'],
    ['Prüfung Ümlaut', 'prufung-umlaut'],
    ['a'.repeat(100), 'a'.repeat(100)],
  ])('derives the slug of %j as %j', async (name, slug) => {
    const { owner, project } = await ownerWithProject(t.http);
    expect((await createEnvironment(owner, project.id, { name })).slug).toBe(slug);
  });

  it('answers 422 on the slug when the name has nothing to derive a slug from', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await post(owner, project.id, { name: '¡¿!!' });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.path).toEqual(['slug']);
    expect((await createEnvironment(owner, project.id, { name: '¡¿!!', slug: 'bangs' })).slug).toBe('bangs');
  });

  it.each([
    ['an upper-case slug', { name: 'E', slug: 'Staging' }, 'slug'],
    ['a double dash', { name: 'E', slug: 'a--b' }, 'slug'],
    ['a leading dash', { name: 'E', slug: '-a' }, 'slug'],
    ['an underscore', { name: 'E', slug: 'a_b' }, 'slug'],
    ['an empty slug', { name: 'E', slug: '' }, 'slug'],
    ['a 101-character slug', { name: 'E', slug: 'a'.repeat(101) }, 'slug'],
    ['an empty name', { name: '' }, 'name'],
    ['a 101-character name', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown key', { name: 'E', url: 'https://x' }, 'url'],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body, path) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await post(owner, project.id, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.path).toEqual([path]);
    expect((await list(owner, project.id)).total).toBe(0);
  });

  it('answers 409 conflict for a slug taken by a live environment of the project, explicit or derived', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    await createEnvironment(owner, project.id, { name: 'Staging' });

    const derived = await post(owner, project.id, { name: 'STAGING!' });
    expect(derived.status).toBe(409);
    expect(derived.body.error.code).toBe('conflict');
    expect(derived.body.error.details).toEqual({ path: ['slug'] });
    const explicit = await post(owner, project.id, { name: 'Another', slug: 'staging' });
    expect(explicit.status).toBe(409);
    expect((await list(owner, project.id)).total).toBe(1);
    expect(await auditEvents(t.http, owner, { action: 'environment.created' })).toHaveLength(1);

    // Slugs are unique per project only.
    expect((await createEnvironment(owner, other.id, { name: 'Staging' })).slug).toBe('staging');
  });

  it('lets exactly one of two concurrent creates with the same slug succeed (the other: 409)', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const answers = await Promise.all([
      post(owner, project.id, { name: 'Prod A', slug: 'prod' }),
      post(owner, project.id, { name: 'Prod B', slug: 'prod' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('conflict');
    const page = await list(owner, project.id);
    expect(page.total).toBe(1);
    expect(await auditEvents(t.http, owner, { action: 'environment.created' })).toHaveLength(1);
  });
});

describe('GET /api/v1/projects/{projectId}/environments', () => {
  it('pages live environments oldest first; q matches name or slug', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    await createEnvironment(owner, project.id, { name: 'Staging' });
    await createEnvironment(owner, project.id, { name: 'Production', slug: 'live' });
    const doomed = await createEnvironment(owner, project.id, { name: 'Gone' });
    await createEnvironment(owner, project.id, { name: 'QA' });
    expect((await t.http.delete(`/api/v1/environments/${doomed.ulid}`).set(owner.headers)).status).toBe(204);

    const all = await list(owner, project.id);
    expect(all).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(all.items.map((item) => item.slug)).toEqual(['staging', 'live', 'qa']);
    const second = await list(owner, project.id, '?page=2&pageSize=2');
    expect(second.items.map((item) => item.slug)).toEqual(['qa']);
    expect(second.total).toBe(3);
    expect((await list(owner, project.id, '?q=LIVE')).items.map((item) => item.name)).toEqual(['Production']);
    expect((await list(owner, project.id, '?q=stag')).items.map((item) => item.name)).toEqual(['Staging']);
  });
});

describe('PATCH /api/v1/environments/{environmentUlid}', () => {
  it('renames without touching the slug, changes the slug on request, and records the changes', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const created = await createEnvironment(owner, project.id, { name: 'Staging' });

    const renamed = await t.http.patch(`/api/v1/environments/${created.ulid}`).set(owner.headers).send({ name: 'Pre-production' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Pre-production', slug: 'staging' });

    const reslugged = await t.http.patch(`/api/v1/environments/${created.ulid}`).set(owner.headers).send({ slug: 'preprod' });
    expect(reslugged.status).toBe(200);
    expect(reslugged.body).toMatchObject({ name: 'Pre-production', slug: 'preprod' });
    expect((await t.http.get(`/api/v1/environments/${created.ulid}`).set(owner.headers)).body).toEqual(reslugged.body);

    const events = await auditEvents(t.http, owner, { action: 'environment.updated' });
    expect(events.map((event) => event.metadata.changes)).toEqual([
      [{ field: 'slug', from: 'staging', to: 'preprod' }],
      [{ field: 'name', from: 'Staging', to: 'Pre-production' }],
    ]);
    expect(events[0]).toMatchObject({ entityType: 'environment', entityUlid: created.ulid, entityLabel: 'Pre-production' });

    const same = await t.http.patch(`/api/v1/environments/${created.ulid}`).set(owner.headers).send({ slug: 'preprod' });
    expect(same.status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'environment.updated' })).toHaveLength(2);
  });

  it('answers 409 for a slug taken by another live environment and 422 for an invalid one', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    await createEnvironment(owner, project.id, { name: 'Staging' });
    const qa = await createEnvironment(owner, project.id, { name: 'QA' });
    const taken = await t.http.patch(`/api/v1/environments/${qa.ulid}`).set(owner.headers).send({ slug: 'staging' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');
    const invalid = await t.http.patch(`/api/v1/environments/${qa.ulid}`).set(owner.headers).send({ slug: 'Not Valid' });
    expect(invalid.status).toBe(422);
    const empty = await t.http.patch(`/api/v1/environments/${qa.ulid}`).set(owner.headers).send({});
    expect(empty.status).toBe(422);
    expect((await t.http.get(`/api/v1/environments/${qa.ulid}`).set(owner.headers)).body).toEqual(qa);
    expect(await auditEvents(t.http, owner, { action: 'environment.updated' })).toEqual([]);
  });
});

describe('DELETE /api/v1/environments/{environmentUlid}', () => {
  it('soft-deletes (404 afterwards, one environment.deleted) and frees the slug for reuse', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const created = await createEnvironment(owner, project.id, { name: 'Staging' });
    const response = await t.http.delete(`/api/v1/environments/${created.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);
    for (const again of [
      t.http.get(`/api/v1/environments/${created.ulid}`).set(owner.headers),
      t.http.patch(`/api/v1/environments/${created.ulid}`).set(owner.headers).send({ name: 'Back' }),
      t.http.delete(`/api/v1/environments/${created.ulid}`).set(owner.headers),
    ]) {
      expect((await again).status).toBe(404);
    }
    const events = await auditEvents(t.http, owner, { action: 'environment.deleted' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityUlid: created.ulid,
      entityLabel: 'Staging',
      metadata: { name: 'Staging', slug: 'staging' },
    });

    const reused = await createEnvironment(owner, project.id, { name: 'Staging again', slug: 'staging' });
    expect(reused.ulid).not.toBe(created.ulid);
    // …and once more: a second deleted row with the same slug does not collide either.
    expect((await t.http.delete(`/api/v1/environments/${reused.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await createEnvironment(owner, project.id, { name: 'Staging' })).slug).toBe('staging');
  });
});

describe('Environments: roles and tenancy', () => {
  it('lets members write and refuses viewers every write with 403 while they can read', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const created = await createEnvironment(member, project.id, { name: 'Staging' });
    for (const request of [
      post(viewer, project.id, { name: 'Viewer env' }),
      t.http.patch(`/api/v1/environments/${created.ulid}`).set(viewer.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/environments/${created.ulid}`).set(viewer.headers),
    ]) {
      const response = await request;
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    expect((await list(viewer, project.id)).items.map((item) => item.name)).toEqual(['Staging']);
    expect((await t.http.get(`/api/v1/environments/${created.ulid}`).set(viewer.headers)).status).toBe(200);
    expect((await t.http.patch(`/api/v1/environments/${created.ulid}`).set(member.headers).send({ name: 'S' })).status).toBe(200);
    expect((await t.http.delete(`/api/v1/environments/${created.ulid}`).set(member.headers)).status).toBe(204);
  });

  it('answers 404 to another organization and changes nothing', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    const created = await createEnvironment(owner, project.id, { name: 'Staging' });
    for (const request of [
      t.http.get(`/api/v1/environments/${created.ulid}`).set(stranger.headers),
      t.http.patch(`/api/v1/environments/${created.ulid}`).set(stranger.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/environments/${created.ulid}`).set(stranger.headers),
      post(stranger, project.id, { name: 'X' }),
    ]) {
      const response = await request;
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await t.http.get(`/api/v1/environments/${created.ulid}`).set(owner.headers)).body).toEqual(created);
  });
});
