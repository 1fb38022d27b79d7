import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, createProject, joinAs, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

const PROJECT_FIELDS = ['ulid', 'name', 'id', 'description', 'avatarKey', 'avatarVersion', 'createdAt', 'updatedAt', 'lockedAt'];

async function listProjects(caller: Caller, query = '') {
  const response = await t.http.get(`/api/v1/projects${query}`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body as { items: Array<Record<string, unknown>>; page: number; pageSize: number; total: number };
}

/** Three projects created one after the other, oldest first. */
async function threeProjects(owner: Caller) {
  const first = await createProject(t.http, owner, { name: 'First', id: 'FIRST' });
  const second = await createProject(t.http, owner, { name: 'Second', id: 'SECOND' });
  const third = await createProject(t.http, owner, { name: 'Third', id: 'THIRD' });
  return [first, second, third] as const;
}

const pngImage = () =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 128, b: 255 } } })
    .png()
    .toBuffer();

describe('POST /api/v1/projects', () => {
  it('creates a project with exactly the contract fields', async () => {
    const owner = await signUp(t.http);
    const before = Date.now();
    const response = await t.http
      .post('/api/v1/projects')
      .set(owner.headers)
      .send({ name: 'Web shop', id: 'WEB', description: 'The storefront' });
    const after = Date.now();
    expect(response.status).toBe(201);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual([...PROJECT_FIELDS].sort());
    expect(body.ulid).toMatch(ULID_PATTERN);
    expect(body).toMatchObject({
      name: 'Web shop',
      id: 'WEB',
      description: 'The storefront',
      avatarKey: null,
      avatarVersion: 0,
      lockedAt: null,
    });
    for (const field of ['createdAt', 'updatedAt'] as const) {
      expect(Number.isInteger(body[field])).toBe(true);
      expect(body[field]).toBeGreaterThanOrEqual(before - 5_000);
      expect(body[field]).toBeLessThanOrEqual(after + 5_000);
    }
    expect(body.updatedAt).toBeGreaterThanOrEqual(body.createdAt);

    const read = await t.http.get('/api/v1/projects/WEB').set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body);
  });

  it('stores a missing description as null and accepts the maximum lengths', async () => {
    const owner = await signUp(t.http);
    const bare = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Bare', id: 'B' });
    expect(bare.status).toBe(201);
    expect(bare.body.description).toBeNull();

    const full = await t.http
      .post('/api/v1/projects')
      .set(owner.headers)
      .send({ name: 'n'.repeat(200), id: 'A1B2C3', description: 'd'.repeat(2000) });
    expect(full.status).toBe(201);
    expect(full.body.name).toHaveLength(200);
    expect(full.body.description).toHaveLength(2000);

    const nullDescription = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Null', id: 'NUL', description: null });
    expect(nullDescription.status).toBe(201);
    expect(nullDescription.body.description).toBeNull();
  });

  it('answers 409 conflict for a duplicate id in the same organization, but not in another one', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    await createProject(t.http, owner, { id: 'DUP', name: 'Original' });

    const duplicate = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Copy', id: 'DUP' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    expect(duplicate.body.error.message).toEqual(expect.any(String));
    expect((await listProjects(owner)).total).toBe(1);

    const elsewhere = await t.http.post('/api/v1/projects').set(other.headers).send({ name: 'Same id', id: 'DUP' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).toBe('DUP');
  });

  it.each([
    ['an empty name', { name: '', id: 'OK' }],
    ['a 201-character name', { name: 'x'.repeat(201), id: 'OK' }],
    ['a missing name', { id: 'OK' }],
    ['a lower-case id', { name: 'Web', id: 'web' }],
    ['an id starting with a digit', { name: 'Web', id: '1A' }],
    ['an empty id', { name: 'Web', id: '' }],
    ['a missing id', { name: 'Web' }],
    ['a 2001-character description', { name: 'Web', id: 'OK', description: 'd'.repeat(2001) }],
    ['an unknown key', { name: 'Web', id: 'OK', color: 'red' }],
    ['a numeric name', { name: 42, id: 'OK' }],
  ])('answers 422 validation_failed for %s and creates nothing', async (_label, body) => {
    const owner = await signUp(t.http);
    const response = await t.http.post('/api/v1/projects').set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.message).toEqual(expect.any(String));
    expect((await listProjects(owner)).total).toBe(0);
  });

  it('needs credentials and the owner or admin role', async () => {
    const owner = await signUp(t.http);
    const anonymous = await t.http.post('/api/v1/projects').send({ name: 'Web', id: 'WEB' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');

    for (const role of ['member', 'viewer'] as const) {
      const person = await joinAs(t.http, owner, role);
      const refused = await t.http.post('/api/v1/projects').set(person.headers).send({ name: 'Web', id: 'WEB' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
    expect((await listProjects(owner)).total).toBe(0);

    const admin = await joinAs(t.http, owner, 'admin');
    const created = await t.http.post('/api/v1/projects').set(admin.headers).send({ name: 'Web', id: 'WEB' });
    expect(created.status).toBe(201);
  });

  it('refuses the 4th project of a free organization with 409 project_limit_exceeded', async () => {
    const owner = await signUp(t.http);
    await threeProjects(owner);
    const fourth = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Fourth', id: 'FOURTH' });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe('project_limit_exceeded');
    const page = await listProjects(owner);
    expect(page.total).toBe(3);
    expect(page.items.map((item) => item.id)).not.toContain('FOURTH');
  });

  it('holds the project ceiling under concurrent creates', async () => {
    const owner = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 2 });
    await createProject(t.http, owner, { id: 'ONE' });
    await createProject(t.http, owner, { id: 'TWO' });
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 3 });

    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        t.http
          .post('/api/v1/projects')
          .set(owner.headers)
          .send({ name: `Racer ${index}`, id: `RACE${index}` }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error.code).toBe('project_limit_exceeded');
    }
    const page = await listProjects(owner);
    expect(page.total).toBe(3);
    expect(page.items.every((item) => item.lockedAt === null)).toBe(true);
  });

  it('records project.created in the organization audit log', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Audited', id: 'AUD' });
    const events = await auditEvents(t.http, owner);
    const created = events.find((event) => event.action === 'project.created' && event.entityUlid === project.ulid);
    expect(created).toBeDefined();
    expect(created).toMatchObject({
      entityType: 'project',
      entityLabel: 'Audited',
      actor: { kind: 'user', ulid: owner.userId },
    });
  });
});

describe('GET /api/v1/projects', () => {
  it('answers the page shape, oldest first, with page and pageSize applied', async () => {
    const owner = await signUp(t.http);
    const [first, second, third] = await threeProjects(owner);

    const all = await listProjects(owner);
    expect(Object.keys(all).sort()).toEqual(['items', 'page', 'pageSize', 'total']);
    expect(all).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(all.items.map((item) => item.ulid)).toEqual([first.ulid, second.ulid, third.ulid]);
    for (const item of all.items) {
      expect(Object.keys(item).sort()).toEqual([...PROJECT_FIELDS].sort());
      expect(item.lockedAt).toBeNull();
    }

    const secondPage = await listProjects(owner, '?page=2&pageSize=2');
    expect(secondPage).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(secondPage.items.map((item) => item.ulid)).toEqual([third.ulid]);

    const pastTheEnd = await listProjects(owner, '?page=5&pageSize=2');
    expect(pastTheEnd).toMatchObject({ items: [], page: 5, pageSize: 2, total: 3 });
  });

  it.each(['?pageSize=0', '?pageSize=201', '?page=0', '?page=abc', '?pageSize=1.5'])(
    'answers 422 for out-of-range pagination %s',
    async (query) => {
      const owner = await signUp(t.http);
      const response = await t.http.get(`/api/v1/projects${query}`).set(owner.headers);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
    },
  );

  it('filters by q, a case-insensitive substring of the name, reflected in total', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { name: 'Alpha Web', id: 'ALPHA' });
    await createProject(t.http, owner, { name: 'beta WEB portal', id: 'BETA' });
    await createProject(t.http, owner, { name: 'Gamma', id: 'GAMMA' });

    const web = await listProjects(owner, '?q=web');
    expect(web.total).toBe(2);
    expect(web.items.map((item) => item.name)).toEqual(['Alpha Web', 'beta WEB portal']);

    const paged = await listProjects(owner, '?q=WeB&pageSize=1');
    expect(paged.total).toBe(2);
    expect(paged.items.map((item) => item.name)).toEqual(['Alpha Web']);

    const none = await listProjects(owner, '?q=delta');
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('lists only the projects of the active organization', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    await createProject(t.http, owner, { id: 'MINE' });
    await createProject(t.http, other, { id: 'THEIRS' });
    const page = await listProjects(owner);
    expect(page.items.map((item) => item.id)).toEqual(['MINE']);
  });
});

describe('GET /api/v1/projects/{projectId}', () => {
  it('answers 404 not_found for an unknown project and for one of another organization', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    await createProject(t.http, other, { id: 'SECRET' });
    for (const code of ['NOPE', 'SECRET']) {
      const response = await t.http.get(`/api/v1/projects/${code}`).set(owner.headers);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('is readable by a viewer', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { id: 'READ' });
    const viewer = await joinAs(t.http, owner, 'viewer');
    const response = await t.http.get('/api/v1/projects/READ').set(viewer.headers);
    expect(response.status).toBe(200);
    expect(response.body.ulid).toBe(project.ulid);
  });
});

describe('PATCH /api/v1/projects/{projectId}', () => {
  it('updates name and description and records project.updated with changes', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Old name', id: 'PAT', description: 'Old text' });
    const response = await t.http.patch('/api/v1/projects/PAT').set(owner.headers).send({ name: 'New name', description: 'New text' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([...PROJECT_FIELDS].sort());
    expect(response.body).toMatchObject({ ulid: project.ulid, id: 'PAT', name: 'New name', description: 'New text' });
    expect(Number.isInteger(response.body.updatedAt)).toBe(true);

    const read = await t.http.get('/api/v1/projects/PAT').set(owner.headers);
    expect(read.body).toMatchObject({ name: 'New name', description: 'New text' });

    const updated = (await auditEvents(t.http, owner)).filter(
      (event) => event.action === 'project.updated' && event.entityUlid === project.ulid,
    );
    expect(updated).toHaveLength(1);
    expect(updated[0]?.entityType).toBe('project');
    expect(updated[0]?.metadata.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'name', from: 'Old name', to: 'New name' }),
        expect.objectContaining({ field: 'description', from: 'Old text', to: 'New text' }),
      ]),
    );
    expect(updated[0]?.metadata.changes).toHaveLength(2);
  });

  it('clears the description with null and leaves the name alone', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { name: 'Keep', id: 'CLR', description: 'Something' });
    const response = await t.http.patch('/api/v1/projects/CLR').set(owner.headers).send({ description: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Keep', description: null });
  });

  it('answers 422 immutable_field for id in the body and changes nothing', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { name: 'Fixed', id: 'FIX' });
    for (const body of [{ id: 'OTHER' }, { id: 'FIX', name: 'Renamed' }]) {
      const response = await t.http.patch('/api/v1/projects/FIX').set(owner.headers).send(body);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('immutable_field');
    }
    const read = await t.http.get('/api/v1/projects/FIX').set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: 'FIX', name: 'Fixed' });
    const missing = await t.http.get('/api/v1/projects/OTHER').set(owner.headers);
    expect(missing.status).toBe(404);
  });

  it.each([
    ['an empty body', {}],
    ['an empty name', { name: '' }],
    ['a 201-character name', { name: 'x'.repeat(201) }],
    ['a 2001-character description', { description: 'd'.repeat(2001) }],
    ['an unknown key', { color: 'red' }],
  ])('answers 422 validation_failed for %s', async (_label, body) => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { name: 'Stable', id: 'VAL' });
    const response = await t.http.patch('/api/v1/projects/VAL').set(owner.headers).send(body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    const read = await t.http.get('/api/v1/projects/VAL').set(owner.headers);
    expect(read.body.name).toBe('Stable');
  });

  it('answers 404 for an unknown project and 403 for member and viewer', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { name: 'Guarded', id: 'GRD' });
    const unknown = await t.http.patch('/api/v1/projects/NOPE').set(owner.headers).send({ name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    for (const role of ['member', 'viewer'] as const) {
      const person = await joinAs(t.http, owner, role);
      const refused = await t.http.patch('/api/v1/projects/GRD').set(person.headers).send({ name: 'Hijacked' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
    const read = await t.http.get('/api/v1/projects/GRD').set(owner.headers);
    expect(read.body.name).toBe('Guarded');
  });
});

describe('DELETE /api/v1/projects/{projectId}', () => {
  it('deletes: 204, then 404, gone from the list, and project.deleted in the audit log', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Doomed', id: 'DEL' });
    const keep = await createProject(t.http, owner, { name: 'Kept', id: 'KEEP' });

    const response = await t.http.delete('/api/v1/projects/DEL').set(owner.headers);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    const read = await t.http.get('/api/v1/projects/DEL').set(owner.headers);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('not_found');
    const page = await listProjects(owner);
    expect(page.items.map((item) => item.ulid)).toEqual([keep.ulid]);

    const deleted = (await auditEvents(t.http, owner)).find(
      (event) => event.action === 'project.deleted' && event.entityUlid === project.ulid,
    );
    expect(deleted).toMatchObject({ entityType: 'project', entityLabel: 'Doomed' });

    const again = await t.http.delete('/api/v1/projects/DEL').set(owner.headers);
    expect(again.status).toBe(404);
  });

  it('frees the id and the slot for a new project', async () => {
    const owner = await signUp(t.http);
    await threeProjects(owner);
    expect((await t.http.delete('/api/v1/projects/SECOND').set(owner.headers)).status).toBe(204);
    const recreated = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Again', id: 'SECOND' });
    expect(recreated.status).toBe(201);
  });

  it('is refused to member and viewer', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner, { id: 'STAY' });
    for (const role of ['member', 'viewer'] as const) {
      const person = await joinAs(t.http, owner, role);
      const refused = await t.http.delete('/api/v1/projects/STAY').set(person.headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
    expect((await t.http.get('/api/v1/projects/STAY').set(owner.headers)).status).toBe(200);
  });
});

describe('project lock', () => {
  const expectLocked = (response: { status: number; body: { error?: { code: string } } }) => {
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('project_locked');
  };

  it('locks all but the newest projects when the allowance falls below the count', async () => {
    const owner = await signUp(t.http);
    const [first, second, third] = await threeProjects(owner);
    const before = Date.now();
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });

    for (const code of [first.id, second.id]) {
      expectLocked(await t.http.get(`/api/v1/projects/${code}`).set(owner.headers));
      expectLocked(await t.http.patch(`/api/v1/projects/${code}`).set(owner.headers).send({ name: 'Renamed' }));
      expectLocked(
        await t.http
          .post(`/api/v1/projects/${code}/avatar`)
          .set(owner.headers)
          .attach('file', await pngImage(), { filename: 'a.png', contentType: 'image/png' }),
      );
      expectLocked(await t.http.delete(`/api/v1/projects/${code}/avatar`).set(owner.headers));
    }

    const page = await listProjects(owner);
    expect(page.total).toBe(3);
    const byId = new Map(page.items.map((item) => [item.ulid, item]));
    for (const locked of [first, second]) {
      const lockedAt = byId.get(locked.ulid)?.lockedAt;
      expect(Number.isInteger(lockedAt)).toBe(true);
      expect(lockedAt as number).toBeGreaterThanOrEqual(before - 5_000);
    }
    expect(byId.get(third.ulid)?.lockedAt).toBeNull();
    expect(byId.get(first.ulid)?.name).toBe('First');

    const open = await t.http.get(`/api/v1/projects/${third.id}`).set(owner.headers);
    expect(open.status).toBe(200);
    expect(open.body.lockedAt).toBeNull();
    const renamed = await t.http.patch(`/api/v1/projects/${third.id}`).set(owner.headers).send({ name: 'Still open' });
    expect(renamed.status).toBe(200);

    // Creating a project while over the allowance is still refused.
    const fourth = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'More', id: 'MORE' });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe('project_limit_exceeded');
  });

  it('serves DELETE on a locked project, and the next-oldest reopens once the total fits', async () => {
    const owner = await signUp(t.http);
    const [first, second, third] = await threeProjects(owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });

    const deleted = await t.http.delete(`/api/v1/projects/${first.id}`).set(owner.headers);
    expect(deleted.status).toBe(204);
    expect((await auditEvents(t.http, owner)).some((e) => e.action === 'project.deleted' && e.entityUlid === first.ulid)).toBe(true);

    // Two projects, allowance one: the older one stays locked.
    expectLocked(await t.http.get(`/api/v1/projects/${second.id}`).set(owner.headers));
    let page = await listProjects(owner);
    expect(page.items.map((item) => [item.ulid, item.lockedAt === null])).toEqual([
      [second.ulid, false],
      [third.ulid, true],
    ]);

    // Deleting the newest makes the total fit: the next-oldest reopens.
    expect((await t.http.delete(`/api/v1/projects/${third.id}`).set(owner.headers)).status).toBe(204);
    const reopened = await t.http.get(`/api/v1/projects/${second.id}`).set(owner.headers);
    expect(reopened.status).toBe(200);
    expect(reopened.body.lockedAt).toBeNull();
    page = await listProjects(owner);
    expect(page.items.map((item) => item.lockedAt)).toEqual([null]);
  });

  it('reopens the oldest locked project when deleting brings the count within the allowance', async () => {
    const owner = await signUp(t.http);
    const [first, second, third] = await threeProjects(owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 2 });
    expectLocked(await t.http.get(`/api/v1/projects/${first.id}`).set(owner.headers));
    expect((await t.http.get(`/api/v1/projects/${second.id}`).set(owner.headers)).status).toBe(200);

    expect((await t.http.delete(`/api/v1/projects/${third.id}`).set(owner.headers)).status).toBe(204);
    const reopened = await t.http.get(`/api/v1/projects/${first.id}`).set(owner.headers);
    expect(reopened.status).toBe(200);
    expect(reopened.body.lockedAt).toBeNull();
  });

  it('clears every lock when the allowance is raised', async () => {
    const owner = await signUp(t.http);
    const projects = await threeProjects(owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    expect((await listProjects(owner)).items.filter((item) => item.lockedAt !== null)).toHaveLength(2);

    // Removing the override restores the free plan's 3.
    await overrideOrganizationLimits(owner.orgId, { maxProjects: null });
    const page = await listProjects(owner);
    expect(page.items.map((item) => item.lockedAt)).toEqual([null, null, null]);
    for (const project of projects) {
      const read = await t.http.get(`/api/v1/projects/${project.id}`).set(owner.headers);
      expect(read.status).toBe(200);
      expect(read.body.lockedAt).toBeNull();
    }
  });

  it('does not lock projects of other organizations', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    await threeProjects(owner);
    const theirs = await threeProjects(other);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    for (const project of theirs) {
      expect((await t.http.get(`/api/v1/projects/${project.id}`).set(other.headers)).status).toBe(200);
    }
  });
});
