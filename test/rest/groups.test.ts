import { describe, expect, it } from 'vitest';
import { onQuery } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Group = {
  ulid: string;
  name: string;
  description: string | null;
  memberCount: number;
  projectCount: number;
  createdAt: number;
  updatedAt: number;
};

const post = (caller: Caller, path: string, body: unknown) =>
  t.http
    .post(`/api/v1${path}`)
    .set(caller.headers)
    .send(body as object);
const patch = (caller: Caller, path: string, body: unknown) =>
  t.http
    .patch(`/api/v1${path}`)
    .set(caller.headers)
    .send(body as object);
const get = (caller: Caller, path: string) => t.http.get(`/api/v1${path}`).set(caller.headers);
const del = (caller: Caller, path: string) => t.http.delete(`/api/v1${path}`).set(caller.headers);

async function createGroup(caller: Caller, body: Record<string, unknown> = {}): Promise<Group> {
  const response = await post(caller, '/groups', { name: `Group ${newId()}`, ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function setAccess(caller: Caller, code: string, body: Record<string, unknown>) {
  const response = await patch(caller, `/projects/${code}/access`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function groupTotal(caller: Caller) {
  const response = await get(caller, '/groups');
  expect(response.status).toBe(200);
  return response.body.total as number;
}

/** Events of user groups and of project access, newest first. */
const groupAndAccessEvents = async (caller: Caller) =>
  (await auditEvents(t.http, caller)).filter(
    (event) => event.action.startsWith('user_group.') || event.action.startsWith('project.group_'),
  );

const memberUlidsOf = async (caller: Caller, groupUlid: string) =>
  ((await get(caller, `/groups/${groupUlid}/members`)).body.items as Array<{ userUlid: string }>).map((item) => item.userUlid);

describe('POST /groups', () => {
  it('creates a group with zero counts; owners, admins and admin tokens may, members, viewers and member tokens get 403', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const adminToken = await tokenFor(t.http, owner, { role: 'admin' });
    const memberToken = await tokenFor(t.http, owner, { role: 'member' });

    const response = await post(owner, '/groups', { name: '  QA team ', description: 'Release testers' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ulid: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'QA team',
      description: 'Release testers',
      memberCount: 0,
      projectCount: 0,
      createdAt: expect.any(Number),
      updatedAt: response.body.createdAt,
    });
    expect((await get(owner, `/groups/${response.body.ulid}`)).body).toEqual(response.body);
    await createGroup(admin);
    await createGroup(adminToken);
    for (const caller of [member, viewer, memberToken]) expectError(await post(caller, '/groups', { name: 'Nope' }), 403, 'forbidden');
    expect(await groupTotal(owner)).toBe(3);

    const [created] = await auditEvents(t.http, owner, { action: 'user_group.created', entityUlid: response.body.ulid });
    expect(created).toMatchObject({
      entityType: 'user_group',
      entityLabel: 'QA team',
      actor: { kind: 'user', ulid: owner.userId },
      metadata: { name: 'QA team', description: 'Release testers', memberCount: 0, projectCount: 0 },
    });
  });

  it('seeds members and projects (public and private), deduplicated, with one event per new membership and assignment', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const open = await createProject(t.http, owner);
    const closed = await createProject(t.http, owner);
    await setAccess(owner, closed.id, { mode: 'private' });

    const group = await createGroup(owner, {
      name: 'Seeded',
      memberUserUlids: [member.userId, viewer.userId, member.userId],
      projectUlids: [open.ulid, closed.ulid, open.ulid],
    });
    expect(group).toMatchObject({ memberCount: 2, projectCount: 2 });
    expect((await memberUlidsOf(owner, group.ulid)).sort()).toEqual([member.userId, viewer.userId].sort());
    const projects = await get(owner, `/groups/${group.ulid}/projects`);
    expect(projects.body.items.map((project: { ulid: string }) => project.ulid)).toEqual([open.ulid, closed.ulid]);

    const events = await groupAndAccessEvents(owner);
    expect(events.filter((event) => event.action === 'user_group.created')).toHaveLength(1);
    expect(events.find((event) => event.action === 'user_group.created')!.metadata).toMatchObject({ memberCount: 2, projectCount: 2 });
    const added = events.filter((event) => event.action === 'user_group.member_added');
    expect(added.map((event) => event.metadata.userUlid).sort()).toEqual([member.userId, viewer.userId].sort());
    expect(added.every((event) => event.entityUlid === group.ulid && event.metadata.userName === 'Test User')).toBe(true);
    const assigned = events.filter((event) => event.action === 'project.group_assigned');
    expect(assigned.map((event) => [event.entityType, event.entityUlid, event.metadata]).sort()).toEqual(
      [
        ['project', open.ulid, { userGroupUlid: group.ulid, groupName: 'Seeded' }],
        ['project', closed.ulid, { userGroupUlid: group.ulid, groupName: 'Seeded' }],
      ].sort(),
    );
  });

  it('creates nothing when one seeded member or project is unknown (404), and records nothing', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const stranger = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const foreign = await createProject(t.http, stranger);
    for (const body of [
      { memberUserUlids: [member.userId, newId()], projectUlids: [project.ulid] },
      { memberUserUlids: [member.userId, stranger.userId] },
      { memberUserUlids: [member.userId], projectUlids: [project.ulid, newId()] },
      { projectUlids: [foreign.ulid] },
    ]) {
      expectError(await post(owner, '/groups', { name: 'Doomed', ...body }), 404, 'not_found');
    }
    expect(await groupTotal(owner)).toBe(0);
    expect(await groupAndAccessEvents(owner)).toEqual([]);
    // The name was never taken.
    await createGroup(owner, { name: 'Doomed' });
  });

  it('keeps names unique per organization case-insensitively (409 conflict), not across organizations', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    await createGroup(owner, { name: 'Testers' });
    const duplicate = await post(owner, '/groups', { name: 'TESTERS', memberUserUlids: [owner.userId] });
    expectError(duplicate, 409, 'conflict');
    expect(duplicate.body.error.details.path).toEqual(['name']);
    expect(await groupTotal(owner)).toBe(1);
    expect(await auditEvents(t.http, owner, { action: 'user_group.member_added' })).toEqual([]);
    await createGroup(other, { name: 'testers' });
  });

  it('validates the body: name 1..100 (blank refused), no unknown key, ULIDs, at most 200 projects', async () => {
    const owner = await signUp(t.http);
    for (const [body, path] of [
      [{}, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(101) }, ['name']],
      [{ name: 'G', color: 'red' }, ['color']],
      [{ name: 'G', memberUserUlids: ['not-a-ulid'] }, ['memberUserUlids', 0]],
      [{ name: 'G', projectUlids: Array.from({ length: 201 }, () => newId()) }, ['projectUlids']],
    ] as const) {
      const response = await post(owner, '/groups', body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    }
    expect((await post(owner, '/groups', { name: 'x'.repeat(100) })).status).toBe(201);
  });
});

describe('GET /groups and GET /groups/{userGroupUlid}', () => {
  it('lists groups oldest first with real counts to any member, with q, paging and the real total', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const member = await joinAs(t.http, owner, 'member');
    const project = await createProject(t.http, owner);
    const alpha = await createGroup(owner, {
      name: 'Alpha testers',
      memberUserUlids: [viewer.userId, member.userId],
      projectUlids: [project.ulid],
    });
    const beta = await createGroup(owner, { name: 'Beta', memberUserUlids: [member.userId] });
    const gamma = await createGroup(owner, { name: 'gamma TESTERS' });

    const all = await get(viewer, '/groups');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(all.body.items.map((group: Group) => [group.ulid, group.memberCount, group.projectCount])).toEqual([
      [alpha.ulid, 2, 1],
      [beta.ulid, 1, 0],
      [gamma.ulid, 0, 0],
    ]);
    const searched = await get(member, '/groups?q=testers&pageSize=1&page=2');
    expect(searched.body).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect(searched.body.items.map((group: Group) => group.ulid)).toEqual([gamma.ulid]);
    const past = await get(member, '/groups?page=9');
    expect(past.body).toMatchObject({ items: [], total: 3 });
    expectError(await get(member, '/groups?pageSize=201'), 422, 'validation_failed');
    expect((await get(viewer, `/groups/${beta.ulid}`)).body).toEqual(beta);
  });

  it('computes the counts of a page in a fixed number of SQL statements, whatever its size', async () => {
    const statementsOfList = async (caller: Caller) => {
      await get(caller, '/groups');
      const statements: string[] = [];
      const stop = onQuery((event) => statements.push(event.query));
      try {
        expect((await get(caller, '/groups')).status).toBe(200);
      } finally {
        stop();
      }
      return statements.length;
    };
    const few = await signUp(t.http);
    await createGroup(few, { memberUserUlids: [few.userId] });
    const many = await signUp(t.http);
    const member = await joinAs(t.http, many, 'member');
    const project = await createProject(t.http, many);
    for (let i = 0; i < 12; i++) await createGroup(many, { memberUserUlids: [many.userId, member.userId], projectUlids: [project.ulid] });
    expect(await statementsOfList(many)).toBe(await statementsOfList(few));
  });

  it('answers 404 for an unknown group and for one of another organization', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    const group = await createGroup(owner);
    expectError(await get(owner, `/groups/${newId()}`), 404, 'not_found');
    for (const path of [`/groups/${group.ulid}`, `/groups/${group.ulid}/members`, `/groups/${group.ulid}/projects`]) {
      expectError(await get(stranger, path), 404, 'not_found');
    }
    expectError(await patch(stranger, `/groups/${group.ulid}`, { name: 'Mine' }), 404, 'not_found');
    expectError(await del(stranger, `/groups/${group.ulid}`), 404, 'not_found');
    expect(await groupTotal(stranger)).toBe(0);
  });
});

describe('PATCH /groups/{userGroupUlid}', () => {
  it('renames and describes (owner/admin) and records user_group.updated with the changes; unchanged records nothing', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const group = await createGroup(owner, { name: 'Old', description: 'Before' });
    const renamed = await patch(admin, `/groups/${group.ulid}`, { name: 'New', description: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ ulid: group.ulid, name: 'New', description: null, memberCount: 0, projectCount: 0 });
    expect(renamed.body.updatedAt).toBeGreaterThanOrEqual(group.updatedAt);
    expect((await patch(owner, `/groups/${group.ulid}`, { name: 'New' })).status).toBe(200);
    // Changing only the case of its own name is no conflict with itself.
    expect((await patch(owner, `/groups/${group.ulid}`, { name: 'NEW' })).body.name).toBe('NEW');
    const events = await auditEvents(t.http, owner, { action: 'user_group.updated' });
    expect(events.map((event) => event.metadata.changes)).toEqual([
      [{ field: 'name', from: 'New', to: 'NEW' }],
      [
        { field: 'name', from: 'Old', to: 'New' },
        { field: 'description', from: 'Before', to: null },
      ],
    ]);
  });

  it('refuses members and viewers (403), an empty body and any unknown key, members and projects included (422)', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(owner, { name: 'Fixed' });
    for (const caller of [member, viewer]) expectError(await patch(caller, `/groups/${group.ulid}`, { name: 'Mine' }), 403, 'forbidden');
    for (const body of [{}, { name: 'Other', memberUserUlids: [member.userId] }, { projectUlids: [] }, { name: 'Other', owner: 'x' }]) {
      expectError(await patch(owner, `/groups/${group.ulid}`, body), 422, 'validation_failed');
    }
    expect(await get(owner, `/groups/${group.ulid}`)).toMatchObject({ body: { name: 'Fixed', memberCount: 0 } });
    expect(await auditEvents(t.http, owner, { action: 'user_group.updated' })).toEqual([]);
  });

  it('answers 409 conflict for a name another group holds, in any case', async () => {
    const owner = await signUp(t.http);
    await createGroup(owner, { name: 'Taken' });
    const group = await createGroup(owner, { name: 'Free' });
    const response = await patch(owner, `/groups/${group.ulid}`, { name: 'taken' });
    expectError(response, 409, 'conflict');
    expect(response.body.error.details.path).toEqual(['name']);
    expect((await get(owner, `/groups/${group.ulid}`)).body.name).toBe('Free');
  });
});

describe('DELETE /groups/{userGroupUlid}', () => {
  it('deletes the group with its memberships and assignments (owner/admin); each project records project.group_unassigned', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const project = await createProject(t.http, owner);
    const group = await createGroup(owner, { name: 'Doomed', memberUserUlids: [member.userId], projectUlids: [project.ulid] });
    expectError(await del(member, `/groups/${group.ulid}`), 403, 'forbidden');
    expect((await del(admin, `/groups/${group.ulid}`)).status).toBe(204);
    expectError(await get(owner, `/groups/${group.ulid}`), 404, 'not_found');
    expectError(await del(admin, `/groups/${group.ulid}`), 404, 'not_found');
    expect((await get(owner, `/projects/${project.id}/access/groups`)).body).toEqual({ items: [] });
    const [deleted] = await auditEvents(t.http, owner, { action: 'user_group.deleted' });
    expect(deleted).toMatchObject({
      entityUlid: group.ulid,
      entityLabel: 'Doomed',
      metadata: { name: 'Doomed', memberCount: 1, projectCount: 1 },
    });
    const [unassigned] = await auditEvents(t.http, owner, { action: 'project.group_unassigned' });
    expect(unassigned).toMatchObject({
      entityUlid: project.ulid,
      metadata: { userGroupUlid: group.ulid, groupName: 'Doomed', via: 'group_deleted' },
    });
    // The name is free again.
    await createGroup(owner, { name: 'Doomed' });
  });
});

describe('GET and POST /groups/{userGroupUlid}/members', () => {
  it('lists members in the order they were added, with name and email, to any member', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const ada = await joinAs(t.http, owner, 'member', { firstName: 'Ada', lastName: 'Lovelace' });
    const group = await createGroup(owner, { memberUserUlids: [ada.userId] });
    await post(owner, `/groups/${group.ulid}/members`, { userUlid: viewer.userId });
    const page = await get(viewer, `/groups/${group.ulid}/members`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      items: [
        { userUlid: ada.userId, displayName: 'Ada Lovelace', email: ada.email, addedAt: expect.any(Number) },
        { userUlid: viewer.userId, displayName: 'Test User', email: viewer.email, addedAt: expect.any(Number) },
      ],
      page: 1,
      pageSize: 50,
      total: 2,
    });
    const second = await get(viewer, `/groups/${group.ulid}/members?pageSize=1&page=2`);
    expect(second.body).toMatchObject({ total: 2, items: [{ userUlid: viewer.userId }] });
  });

  it('adds one user (userUlid) or several (userUlids, deduplicated), one user_group.member_added per new member', async () => {
    const owner = await signUp(t.http);
    const [a, b, c] = [await joinAs(t.http, owner, 'member'), await joinAs(t.http, owner, 'viewer'), await joinAs(t.http, owner, 'admin')];
    const group = await createGroup(owner, { name: 'Growing' });
    const one = await post(owner, `/groups/${group.ulid}/members`, { userUlid: a.userId });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ ulid: group.ulid, memberCount: 1 });
    // a is already in: only b and c are new.
    const many = await post(owner, `/groups/${group.ulid}/members`, { userUlids: [b.userId, a.userId, c.userId, b.userId] });
    expect(many.status).toBe(200);
    expect(many.body.memberCount).toBe(3);
    const added = await auditEvents(t.http, owner, { action: 'user_group.member_added', entityUlid: group.ulid });
    expect(added.map((event) => event.metadata.userUlid).sort()).toEqual([a.userId, b.userId, c.userId].sort());
    expect(added[0]).toMatchObject({ entityType: 'user_group', entityLabel: 'Growing', metadata: { userName: 'Test User' } });
  });

  it('is all or nothing: a non-member anywhere answers 404 and adds nobody; nobody new answers 409', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const other = await joinAs(t.http, owner, 'member');
    const stranger = await signUp(t.http);
    const group = await createGroup(owner, { memberUserUlids: [member.userId] });
    for (const userUlids of [
      [other.userId, stranger.userId],
      [newId(), other.userId],
    ]) {
      expectError(await post(owner, `/groups/${group.ulid}/members`, { userUlids }), 404, 'not_found');
    }
    expectError(await post(owner, `/groups/${group.ulid}/members`, { userUlid: stranger.userId }), 404, 'not_found');
    expect(await memberUlidsOf(owner, group.ulid)).toEqual([member.userId]);
    const none = await post(owner, `/groups/${group.ulid}/members`, { userUlids: [member.userId, member.userId] });
    expectError(none, 409, 'conflict');
    expectError(await post(owner, `/groups/${group.ulid}/members`, { userUlid: member.userId }), 409, 'conflict');
    expect(await auditEvents(t.http, owner, { action: 'user_group.member_added' })).toHaveLength(1);
    expectError(await post(owner, `/groups/${newId()}/members`, { userUlid: other.userId }), 404, 'not_found');
  });

  it('refuses both keys or neither, an empty list, and members and viewers (403)', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(owner);
    for (const body of [
      {},
      { userUlid: member.userId, userUlids: [viewer.userId] },
      { userUlids: [] },
      { userUlid: member.userId, role: 'x' },
    ]) {
      expectError(await post(owner, `/groups/${group.ulid}/members`, body), 422, 'validation_failed');
    }
    for (const caller of [member, viewer]) {
      expectError(await post(caller, `/groups/${group.ulid}/members`, { userUlid: caller.userId }), 403, 'forbidden');
    }
    expect(await memberUlidsOf(owner, group.ulid)).toEqual([]);
  });
});

describe('DELETE /groups/{userGroupUlid}/members/{userUlid}', () => {
  it('removes a member (204, user_group.member_removed); not in the group: 404; members and viewers: 403', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(owner, { name: 'Shrinking', memberUserUlids: [member.userId, viewer.userId] });
    for (const caller of [member, viewer])
      expectError(await del(caller, `/groups/${group.ulid}/members/${member.userId}`), 403, 'forbidden');
    expect((await del(admin, `/groups/${group.ulid}/members/${member.userId}`)).status).toBe(204);
    expect(await memberUlidsOf(owner, group.ulid)).toEqual([viewer.userId]);
    expect((await get(owner, `/groups/${group.ulid}`)).body.memberCount).toBe(1);
    expectError(await del(admin, `/groups/${group.ulid}/members/${member.userId}`), 404, 'not_found');
    const events = await auditEvents(t.http, owner, { action: 'user_group.member_removed' });
    expect(events.map((event) => [event.entityUlid, event.entityLabel, event.metadata])).toEqual([
      [group.ulid, 'Shrinking', { userUlid: member.userId, userName: 'Test User' }],
    ]);
  });
});

describe('GET /groups/{userGroupUlid}/projects', () => {
  it('leaves out private projects the caller cannot see, in items and total; owners, admins and tokens see all', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const memberToken = await tokenFor(t.http, member, { role: 'member' });
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 10 });
    const open = await createProject(t.http, owner, { name: 'Open' });
    const secret = await createProject(t.http, owner, { name: 'Secret' });
    const granted = await createProject(t.http, owner, { name: 'Granted' });
    const owned = await createProject(t.http, owner, { name: 'Owned' });
    for (const project of [secret, granted, owned]) await setAccess(owner, project.id, { mode: 'private' });
    await setAccess(owner, owned.id, { ownerUlid: member.userId });
    expect((await post(owner, `/projects/${granted.id}/access/members`, { userUlid: member.userId })).status).toBe(201);
    const group = await createGroup(owner, { projectUlids: [open.ulid, secret.ulid, granted.ulid, owned.ulid] });

    const namesSeenBy = async (caller: Caller) => {
      const page = await get(caller, `/groups/${group.ulid}/projects`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(page.body.items.length);
      return page.body.items.map((project: { name: string }) => project.name);
    };
    expect(await namesSeenBy(member)).toEqual(['Open', 'Granted', 'Owned']);
    expect(await namesSeenBy(viewer)).toEqual(['Open']);
    for (const caller of [owner, admin, memberToken]) expect(await namesSeenBy(caller)).toEqual(['Open', 'Secret', 'Granted', 'Owned']);
    // The count of the group itself is the real assignment count.
    expect((await get(viewer, `/groups/${group.ulid}`)).body.projectCount).toBe(4);

    // Membership of an assigned group lets the viewer see the private projects, unless a revoked row outranks it.
    expect((await post(owner, `/groups/${group.ulid}/members`, { userUlid: viewer.userId })).status).toBe(200);
    expect(await namesSeenBy(viewer)).toEqual(['Open', 'Secret', 'Granted', 'Owned']);
    expect((await del(owner, `/projects/${secret.id}/access/members/${viewer.userId}`)).status).toBe(204);
    expect(await namesSeenBy(viewer)).toEqual(['Open', 'Granted', 'Owned']);
    const paged = await get(viewer, `/groups/${group.ulid}/projects?pageSize=2&page=2`);
    expect(paged.body).toMatchObject({ page: 2, pageSize: 2, total: 3, items: [{ name: 'Owned', ulid: owned.ulid, id: owned.id }] });
    expect(Object.keys(paged.body.items[0]).sort()).toEqual([
      'avatarKey',
      'avatarVersion',
      'createdAt',
      'description',
      'id',
      'lockedAt',
      'name',
      'ulid',
      'updatedAt',
    ]);
  });
});

describe('POST /groups/{userGroupUlid}/projects', () => {
  it('assigns projects (deduplicated, already assigned ones no error) with one project.group_assigned per new assignment', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const [one, two, three] = [await createProject(t.http, owner), await createProject(t.http, owner), await createProject(t.http, owner)];
    await setAccess(owner, two.id, { mode: 'private' });
    const group = await createGroup(owner, { name: 'Assigned', projectUlids: [one.ulid] });
    const response = await post(admin, `/groups/${group.ulid}/projects`, { projectUlids: [one.ulid, two.ulid, three.ulid, two.ulid] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ulid: group.ulid, projectCount: 3 });
    const again = await post(admin, `/groups/${group.ulid}/projects`, { projectUlids: [three.ulid] });
    expect(again.body.projectCount).toBe(3);
    const events = await auditEvents(t.http, owner, { action: 'project.group_assigned' });
    expect(events.map((event) => event.entityUlid).sort()).toEqual([one.ulid, two.ulid, three.ulid].sort());
    expect(events.filter((event) => event.actor.ulid === admin.userId)).toHaveLength(2);
    const groups = await get(owner, `/projects/${two.id}/access/groups`);
    expect(groups.body).toEqual({ items: [{ userGroupUlid: group.ulid, name: 'Assigned', memberCount: 0 }] });
  });

  it("needs, per project, the right to change its access: a project's owner may assign their own project, nothing else", async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const mine = await createProject(t.http, owner);
    const theirs = await createProject(t.http, owner);
    await setAccess(owner, mine.id, { ownerUlid: member.userId });
    const group = await createGroup(owner, { name: 'Scoped' });

    // One project the caller may not change rejects the whole request; nothing is assigned or recorded.
    expectError(await post(member, `/groups/${group.ulid}/projects`, { projectUlids: [mine.ulid, theirs.ulid] }), 403, 'forbidden');
    expectError(await post(viewer, `/groups/${group.ulid}/projects`, { projectUlids: [mine.ulid] }), 403, 'forbidden');
    expect((await get(owner, `/groups/${group.ulid}`)).body.projectCount).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'project.group_assigned' })).toEqual([]);

    const response = await post(member, `/groups/${group.ulid}/projects`, { projectUlids: [mine.ulid] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.projectCount).toBe(1);
    const [event] = await auditEvents(t.http, owner, { action: 'project.group_assigned' });
    expect(event).toMatchObject({ entityUlid: mine.ulid, actor: { ulid: member.userId } });
  });

  it('rejects everything for an unknown, foreign or unseen project (404) and refuses a bad list (422)', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const stranger = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const hidden = await createProject(t.http, owner);
    const foreign = await createProject(t.http, stranger);
    await setAccess(owner, project.id, { ownerUlid: member.userId });
    await setAccess(owner, hidden.id, { mode: 'private' });
    const group = await createGroup(owner);
    for (const [caller, projectUlids] of [
      [owner, [project.ulid, newId()]],
      [owner, [project.ulid, foreign.ulid]],
      // A private project the member cannot see does not exist for them.
      [member, [project.ulid, hidden.ulid]],
    ] as const) {
      expectError(await post(caller, `/groups/${group.ulid}/projects`, { projectUlids }), 404, 'not_found');
    }
    expectError(await post(owner, `/groups/${newId()}/projects`, { projectUlids: [project.ulid] }), 404, 'not_found');
    for (const body of [{}, { projectUlids: [] }, { projectUlids: Array.from({ length: 201 }, () => newId()) }, { projectUlids: ['x'] }]) {
      expectError(await post(owner, `/groups/${group.ulid}/projects`, body), 422, 'validation_failed');
    }
    expect((await get(owner, `/groups/${group.ulid}`)).body.projectCount).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'project.group_assigned' })).toEqual([]);
    // 200 distinct projects is the most one request takes.
    const many = Array.from({ length: 200 }, () => newId());
    expectError(await post(owner, `/groups/${group.ulid}/projects`, { projectUlids: many }), 404, 'not_found');
  });

  it('refuses a locked project with 403 project_locked', async () => {
    const owner = await signUp(t.http);
    const locked = await createProject(t.http, owner);
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    const group = await createGroup(owner);
    expectError(await post(owner, `/groups/${group.ulid}/projects`, { projectUlids: [locked.ulid] }), 403, 'project_locked');
    expectError(await post(owner, '/groups', { name: 'Seeded', projectUlids: [locked.ulid] }), 403, 'project_locked');
  });
});
