import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Value = { ulid: string; name: string; position: number; groupUlid: string };
type Group = { ulid: string; name: string; position: number; values: Value[] };

const postGroup = (caller: Caller, projectId: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/projects/${projectId}/configuration-groups`).set(caller.headers).send(body);
const postValue = (caller: Caller, groupUlid: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/configuration-groups/${groupUlid}/values`).set(caller.headers).send(body);

async function createGroup(caller: Caller, projectId: string, name: string, values: string[] = [], position?: number): Promise<Group> {
  const response = await postGroup(caller, projectId, { name, ...(position === undefined ? {} : { position }) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const created: Value[] = [];
  for (const value of values) {
    const answer = await postValue(caller, response.body.ulid, { name: value });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    created.push(answer.body);
  }
  return { ...response.body, values: created };
}

async function groups(caller: Caller, projectId: string, query = '') {
  const response = await t.http.get(`/api/v1/projects/${projectId}/configuration-groups${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Group[]; page: number; pageSize: number; total: number };
}

const shape = (page: { items: Group[] }) => page.items.map((group) => [group.name, group.values.map((value) => value.name)]);

describe('Configuration groups', () => {
  it('creates a group with exactly the item fields and records configuration_group.created', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await postGroup(owner, project.id, { name: 'Browser' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'name', 'position', 'projectUlid', 'ulid', 'updatedAt', 'values']);
    expect(response.body).toMatchObject({ name: 'Browser', position: 0, values: [], projectUlid: project.ulid });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    const read = await t.http.get(`/api/v1/configuration-groups/${response.body.ulid}`).set(owner.headers);
    expect(read.body).toEqual(response.body);

    const [event] = await auditEvents(t.http, owner, { action: 'configuration_group.created' });
    expect(event).toMatchObject({
      entityType: 'configuration_group',
      entityUlid: response.body.ulid,
      entityLabel: 'Browser',
      metadata: { name: 'Browser', position: 0 },
    });
  });

  it('appends groups without a position and lists live groups by position then ULID with live values by position', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const browser = await createGroup(owner, project.id, 'Browser', ['Chrome', 'Firefox', 'Safari']);
    const os = await createGroup(owner, project.id, 'OS', ['Linux']);
    expect([browser.position, os.position]).toEqual([0, 1]);
    const first = await createGroup(owner, project.id, 'Device', [], 0);
    const last = await createGroup(owner, project.id, 'Locale', []);
    expect(last.position).toBe(2);
    expect(browser.values.map((value) => value.position)).toEqual([0, 1, 2]);

    // Browser and Device share position 0: the older ULID first.
    const page = await groups(owner, project.id);
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 4 });
    expect(shape(page)).toEqual([
      ['Browser', ['Chrome', 'Firefox', 'Safari']],
      ['Device', []],
      ['OS', ['Linux']],
      ['Locale', []],
    ]);
    expect(page.items[1]!.ulid).toBe(first.ulid);

    // Moving Safari first reorders the values; a deleted value disappears.
    const safari = browser.values[2]!;
    expect((await t.http.patch(`/api/v1/configurations/${safari.ulid}`).set(owner.headers).send({ position: 0 })).status).toBe(200);
    expect((await t.http.delete(`/api/v1/configurations/${browser.values[1]!.ulid}`).set(owner.headers)).status).toBe(204);
    const after = await groups(owner, project.id, '?page=1&pageSize=1');
    expect(after).toMatchObject({ total: 4, pageSize: 1 });
    expect(shape(after)).toEqual([['Browser', ['Chrome', 'Safari']]]);
    // Chrome and Safari share position 0 (Chrome is older); a new value goes after the highest position.
    const edge = await postValue(owner, browser.ulid, { name: 'Edge' });
    expect(edge.body.position).toBe(1);
  });

  it('takes explicit positions up to 1,000,000 and keeps appending after the largest', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    expectError(await postGroup(owner, project.id, { name: 'Too far', position: 1_000_001 }), 422, 'validation_failed');
    await createGroup(owner, project.id, 'Last', [], 1_000_000);
    const appended = await createGroup(owner, project.id, 'After');
    expect(appended.position).toBe(1_000_001);
  });

  it('keeps group names unique (case-insensitively) among live groups of the project: 409', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const browser = await createGroup(owner, project.id, 'Browser');
    const os = await createGroup(owner, project.id, 'OS');
    const duplicate = await postGroup(owner, project.id, { name: 'BROWSER' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    const rename = await t.http.patch(`/api/v1/configuration-groups/${os.ulid}`).set(owner.headers).send({ name: 'browser' });
    expect(rename.status).toBe(409);
    expect(shape(await groups(owner, project.id))).toEqual([
      ['Browser', []],
      ['OS', []],
    ]);
    await createGroup(owner, other.id, 'Browser');
    // Renaming a group to a different case of its own name is fine, and a deleted group's name is free.
    expect((await t.http.patch(`/api/v1/configuration-groups/${browser.ulid}`).set(owner.headers).send({ name: 'BROWSER' })).status).toBe(
      200,
    );
    expect((await t.http.delete(`/api/v1/configuration-groups/${browser.ulid}`).set(owner.headers)).status).toBe(204);
    await createGroup(owner, project.id, 'Browser');
  });

  it('updates name and position with one configuration_group.updated; unchanged values record nothing', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome']);
    const response = await t.http
      .patch(`/api/v1/configuration-groups/${group.ulid}`)
      .set(owner.headers)
      .send({ name: 'Browsers', position: 5 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ulid: group.ulid, name: 'Browsers', position: 5 });
    expect(response.body.values.map((value: Value) => value.name)).toEqual(['Chrome']);

    const same = await t.http.patch(`/api/v1/configuration-groups/${group.ulid}`).set(owner.headers).send({ name: 'Browsers' });
    expect(same.status).toBe(200);
    const events = await auditEvents(t.http, owner, { action: 'configuration_group.updated' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityUlid: group.ulid, entityLabel: 'Browsers' });
    expect(events[0]!.metadata.changes).toEqual([
      { field: 'name', from: 'Browser', to: 'Browsers' },
      { field: 'position', from: 0, to: 5 },
    ]);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a 201-character name', { name: 'x'.repeat(201) }],
    ['a negative position', { name: 'G', position: -1 }],
    ['a fractional position', { name: 'G', position: 1.5 }],
    ['an unknown key', { name: 'G', values: [] }],
  ])('answers 422 for a group with %s and creates nothing', async (_label, body) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await postGroup(owner, project.id, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect((await groups(owner, project.id)).total).toBe(0);
  });

  it('soft-deletes a group with its values in one configuration_group.deleted', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome', 'Firefox']);
    const kept = await createGroup(owner, project.id, 'OS', ['Linux']);
    const response = await t.http.delete(`/api/v1/configuration-groups/${group.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);

    for (const again of [
      t.http.get(`/api/v1/configuration-groups/${group.ulid}`).set(owner.headers),
      t.http.patch(`/api/v1/configuration-groups/${group.ulid}`).set(owner.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configuration-groups/${group.ulid}`).set(owner.headers),
      postValue(owner, group.ulid, { name: 'Edge' }),
      t.http.patch(`/api/v1/configurations/${group.values[0]!.ulid}`).set(owner.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configurations/${group.values[0]!.ulid}`).set(owner.headers),
    ]) {
      const answer = await again;
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect(shape(await groups(owner, project.id))).toEqual([['OS', ['Linux']]]);
    const rows = await prisma().configuration.findMany({ where: { groupId: group.ulid } });
    expect(rows.map((row) => row.deletedAt !== null)).toEqual([true, true]);
    expect(kept.values[0]!.name).toBe('Linux');

    const events = await auditEvents(t.http, owner, { action: 'configuration_group.deleted' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityUlid: group.ulid, entityLabel: 'Browser', metadata: { name: 'Browser', valueCount: 2 } });
    expect(await auditEvents(t.http, owner, { action: 'configuration.deleted' })).toEqual([]);
  });
});

describe('Configuration values', () => {
  it('adds a value (201, exactly the value fields) with configuration.created', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser');
    const response = await postValue(owner, group.ulid, { name: 'Chrome' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'groupUlid', 'name', 'position', 'projectUlid', 'ulid', 'updatedAt']);
    expect(response.body).toMatchObject({ name: 'Chrome', position: 0, groupUlid: group.ulid, projectUlid: project.ulid });
    const [event] = await auditEvents(t.http, owner, { action: 'configuration.created' });
    expect(event).toMatchObject({
      entityType: 'configuration',
      entityUlid: response.body.ulid,
      entityLabel: 'Browser / Chrome',
      metadata: { groupUlid: group.ulid, groupName: 'Browser', name: 'Chrome', position: 0 },
    });
  });

  it('keeps value names unique within a group (409), not across groups, and free again after delete', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const browser = await createGroup(owner, project.id, 'Browser', ['Chrome', 'Firefox']);
    const other = await createGroup(owner, project.id, 'Other');
    const duplicate = await postValue(owner, browser.ulid, { name: 'chrome' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    const rename = await t.http.patch(`/api/v1/configurations/${browser.values[1]!.ulid}`).set(owner.headers).send({ name: 'CHROME' });
    expect(rename.status).toBe(409);
    expect((await postValue(owner, other.ulid, { name: 'Chrome' })).status).toBe(201);
    expect((await t.http.delete(`/api/v1/configurations/${browser.values[0]!.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await postValue(owner, browser.ulid, { name: 'Chrome' })).status).toBe(201);
    expect(await auditEvents(t.http, owner, { action: 'configuration.updated' })).toEqual([]);
  });

  it('serializes concurrent adds: one of two equal names wins, different names get distinct positions', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser');
    const same = await Promise.all([postValue(owner, group.ulid, { name: 'Chrome' }), postValue(owner, group.ulid, { name: 'Chrome' })]);
    expect(same.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const different = await Promise.all([postValue(owner, group.ulid, { name: 'Edge' }), postValue(owner, group.ulid, { name: 'Opera' })]);
    expect(different.map((answer) => answer.status)).toEqual([201, 201]);
    expect(different.map((answer) => answer.body.position).sort()).toEqual([1, 2]);
    const twoGroups = await Promise.all([postGroup(owner, project.id, { name: 'OS' }), postGroup(owner, project.id, { name: 'os' })]);
    expect(twoGroups.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });

  it('renames and moves a value with one configuration.updated; validates the body', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome']);
    const value = group.values[0]!;
    const response = await t.http.patch(`/api/v1/configurations/${value.ulid}`).set(owner.headers).send({ name: 'Chromium', position: 3 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ulid: value.ulid, name: 'Chromium', position: 3, groupUlid: group.ulid });
    const [event] = await auditEvents(t.http, owner, { action: 'configuration.updated' });
    expect(event).toMatchObject({ entityUlid: value.ulid, entityLabel: 'Browser / Chromium', metadata: { groupUlid: group.ulid } });
    expect(event!.metadata.changes).toEqual([
      { field: 'name', from: 'Chrome', to: 'Chromium' },
      { field: 'position', from: 0, to: 3 },
    ]);
    for (const body of [{}, { name: '' }, { groupUlid: group.ulid }]) {
      const invalid = await t.http.patch(`/api/v1/configurations/${value.ulid}`).set(owner.headers).send(body);
      expect(invalid.status).toBe(422);
      expect(invalid.body.error.code).toBe('validation_failed');
    }
    expect((await postValue(owner, group.ulid, {})).status).toBe(422);
  });

  it('soft-deletes a value: 204, then 404, one configuration.deleted, the row stays', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome', 'Firefox']);
    const value = group.values[0]!;
    expect((await t.http.delete(`/api/v1/configurations/${value.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await t.http.delete(`/api/v1/configurations/${value.ulid}`).set(owner.headers)).status).toBe(404);
    expect((await t.http.patch(`/api/v1/configurations/${value.ulid}`).set(owner.headers).send({ name: 'X' })).status).toBe(404);
    expect(shape(await groups(owner, project.id))).toEqual([['Browser', ['Firefox']]]);
    expect((await prisma().configuration.findUnique({ where: { id: value.ulid } }))?.deletedAt).toBeInstanceOf(Date);
    const events = await auditEvents(t.http, owner, { action: 'configuration.deleted' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityUlid: value.ulid,
      entityLabel: 'Browser / Chrome',
      metadata: { groupUlid: group.ulid, groupName: 'Browser', name: 'Chrome' },
    });
  });

  it('purges (?purge=true) only for owners and admins, also an already soft-deleted value', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome', 'Firefox']);
    const [chrome, firefox] = group.values as [Value, Value];

    for (const caller of [member, viewer]) {
      const refused = await t.http.delete(`/api/v1/configurations/${chrome.ulid}?purge=true`).set(caller.headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
    expect(await prisma().configuration.findUnique({ where: { id: chrome.ulid } })).toMatchObject({ deletedAt: null });

    const purged = await t.http.delete(`/api/v1/configurations/${chrome.ulid}?purge=true`).set(admin.headers);
    expect(purged.status).toBe(204);
    expect(await prisma().configuration.findUnique({ where: { id: chrome.ulid } })).toBeNull();

    // A member soft-deletes; the owner then purges the soft-deleted row.
    expect((await t.http.delete(`/api/v1/configurations/${firefox.ulid}?purge=false`).set(member.headers)).status).toBe(204);
    expect((await t.http.delete(`/api/v1/configurations/${firefox.ulid}?purge=true`).set(owner.headers)).status).toBe(204);
    expect(await prisma().configuration.findUnique({ where: { id: firefox.ulid } })).toBeNull();
    expect((await t.http.delete(`/api/v1/configurations/${firefox.ulid}?purge=true`).set(owner.headers)).status).toBe(404);

    const events = await auditEvents(t.http, owner, { action: 'configuration.purged' });
    expect(events.map((event) => [event.entityUlid, event.entityLabel, event.metadata.wasDeleted])).toEqual([
      [firefox.ulid, 'Browser / Firefox', true],
      [chrome.ulid, 'Browser / Chrome', false],
    ]);
    expect(events[1]!.metadata).toMatchObject({ groupUlid: group.ulid, groupName: 'Browser', name: 'Chrome' });
    expect(await auditEvents(t.http, owner, { action: 'configuration.deleted' })).toHaveLength(1);

    const bad = await t.http.delete(`/api/v1/configurations/${firefox.ulid}?purge=yes`).set(owner.headers);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toMatchObject({ path: ['purge'], location: 'query' });
  });
});

describe('Configurations: roles and tenancy', () => {
  it('refuses every write of a viewer with 403 and lets them read', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(member, project.id, 'Browser', ['Chrome']);
    const value = group.values[0]!;
    for (const request of [
      postGroup(viewer, project.id, { name: 'OS' }),
      t.http.patch(`/api/v1/configuration-groups/${group.ulid}`).set(viewer.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configuration-groups/${group.ulid}`).set(viewer.headers),
      postValue(viewer, group.ulid, { name: 'Edge' }),
      t.http.patch(`/api/v1/configurations/${value.ulid}`).set(viewer.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configurations/${value.ulid}`).set(viewer.headers),
    ]) {
      const response = await request;
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    expect(shape(await groups(viewer, project.id))).toEqual([['Browser', ['Chrome']]]);
    expect((await t.http.get(`/api/v1/configuration-groups/${group.ulid}`).set(viewer.headers)).status).toBe(200);
  });

  it('answers 404 to another organization and changes nothing', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    const group = await createGroup(owner, project.id, 'Browser', ['Chrome']);
    const value = group.values[0]!;
    for (const request of [
      t.http.get(`/api/v1/projects/${project.id}/configuration-groups`).set(stranger.headers),
      postGroup(stranger, project.id, { name: 'OS' }),
      t.http.get(`/api/v1/configuration-groups/${group.ulid}`).set(stranger.headers),
      t.http.patch(`/api/v1/configuration-groups/${group.ulid}`).set(stranger.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configuration-groups/${group.ulid}`).set(stranger.headers),
      postValue(stranger, group.ulid, { name: 'Edge' }),
      t.http.patch(`/api/v1/configurations/${value.ulid}`).set(stranger.headers).send({ name: 'X' }),
      t.http.delete(`/api/v1/configurations/${value.ulid}`).set(stranger.headers),
      t.http.delete(`/api/v1/configurations/${value.ulid}?purge=true`).set(stranger.headers),
    ]) {
      const response = await request;
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect(shape(await groups(owner, project.id))).toEqual([['Browser', ['Chrome']]]);
  });
});
