import { describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
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

const t = useTestApp();

const accessPath = (code: string, rest = '') => `/api/v1/projects/${code}/access${rest}`;
const get = (caller: Caller, path: string) => t.http.get(path).set(caller.headers);
const patch = (caller: Caller, path: string, body: object) => t.http.patch(path).set(caller.headers).send(body);
const post = (caller: Caller, path: string, body: object) => t.http.post(path).set(caller.headers).send(body);
const del = (caller: Caller, path: string) => t.http.delete(path).set(caller.headers);

async function createGroup(caller: Caller, body: Record<string, unknown> = {}) {
  const response = await post(caller, '/api/v1/groups', { name: `Group ${newId()}`, ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { ulid: string; name: string };
}

async function access(caller: Caller, code: string) {
  const response = await get(caller, accessPath(code));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { mode: string; ownerUlid: string | null };
}

async function allowlist(caller: Caller, code: string) {
  const response = await get(caller, accessPath(code, '/members'));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.items as Array<{ userUlid: string; state: string }>).map((item) => [item.userUlid, item.state]);
}

async function assignedGroups(caller: Caller, code: string) {
  const response = await get(caller, accessPath(code, '/groups'));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as Array<{ userGroupUlid: string; name: string; memberCount: number }>;
}

describe('GET and PATCH /projects/{projectId}/access', () => {
  it('starts public without an owner; any member reads it; the project GET never shows it', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(await access(viewer, code)).toEqual({ mode: 'public', ownerUlid: null });
    await patch(owner, accessPath(code), { mode: 'private', ownerUlid: viewer.userId });
    const project = await get(owner, `/api/v1/projects/${code}`);
    expect(Object.keys(project.body).sort()).toEqual([
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
    const list = await get(owner, '/api/v1/projects?include=stats');
    expect(list.body.items[0]).not.toHaveProperty('mode');
    expect(list.body.items[0]).not.toHaveProperty('ownerUlid');
    expectError(await get(owner, accessPath('NOPE')), 404, 'not_found');
  });

  it('changes mode and owner and records project.access_changed with the changes; unchanged records nothing', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const changed = await patch(owner, accessPath(code), { mode: 'private', ownerUlid: member.userId });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ mode: 'private', ownerUlid: member.userId });
    expect(await access(owner, code)).toEqual(changed.body);
    expect((await patch(owner, accessPath(code), { mode: 'private' })).body).toEqual(changed.body);
    expect((await patch(owner, accessPath(code), { ownerUlid: null })).body).toEqual({ mode: 'private', ownerUlid: null });
    const events = await auditEvents(t.http, owner, { action: 'project.access_changed' });
    expect(events.map((event) => [event.entityType, event.entityUlid, event.metadata])).toEqual([
      ['project', project.ulid, { changes: [{ field: 'ownerUlid', from: member.userId, to: null }] }],
      [
        'project',
        project.ulid,
        {
          changes: [
            { field: 'mode', from: 'public', to: 'private' },
            { field: 'ownerUlid', from: null, to: member.userId },
          ],
        },
      ],
    ]);
  });

  it('takes an owner who is a member of the organization (any role), else 404; validates the body (422)', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    expectError(await patch(owner, accessPath(code), { ownerUlid: stranger.userId }), 404, 'not_found');
    expectError(await patch(owner, accessPath(code), { ownerUlid: newId() }), 404, 'not_found');
    for (const body of [{}, { mode: 'secret' }, { mode: null }, { ownerUlid: 'someone' }, { mode: 'private', visibility: 'x' }]) {
      expectError(await patch(owner, accessPath(code), body), 422, 'validation_failed');
    }
    expect(await access(owner, code)).toEqual({ mode: 'public', ownerUlid: null });
    expect((await patch(owner, accessPath(code), { ownerUlid: viewer.userId })).body.ownerUlid).toBe(viewer.userId);
  });

  it("needs organization owner/admin or the project's current owner; granted members and member tokens get 403", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const projectOwner = await joinAs(t.http, owner, 'member');
    const adminToken = await tokenFor(t.http, owner, { role: 'admin' });
    await patch(owner, accessPath(code), { mode: 'private', ownerUlid: projectOwner.userId });
    expect((await post(owner, accessPath(code, '/members'), { userUlid: member.userId })).status).toBe(201);
    expect((await post(owner, accessPath(code, '/members'), { userUlid: viewer.userId })).status).toBe(201);
    // The project owner's own token is an actor of its own: it does not act as the project's owner.
    const projectOwnerToken = await tokenFor(t.http, projectOwner, { role: 'member' });
    for (const caller of [member, viewer, projectOwnerToken]) {
      expectError(await patch(caller, accessPath(code), { mode: 'public' }), 403, 'forbidden');
    }
    expect((await patch(projectOwner, accessPath(code), { mode: 'public' })).status).toBe(200);
    expect((await patch(admin, accessPath(code), { mode: 'private' })).status).toBe(200);
    expect((await patch(adminToken, accessPath(code), { mode: 'public' })).status).toBe(200);
    // Handing ownership on ends the former owner's right.
    expect((await patch(projectOwner, accessPath(code), { ownerUlid: member.userId })).status).toBe(200);
    expectError(await patch(projectOwner, accessPath(code), { mode: 'private' }), 403, 'forbidden');
    expect((await patch(member, accessPath(code), { mode: 'private' })).status).toBe(200);
  });

  it('never touches grants, revocations or group assignments when the mode changes', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const granted = await joinAs(t.http, owner, 'member');
    const revoked = await joinAs(t.http, owner, 'viewer');
    const group = await createGroup(owner);
    await post(owner, accessPath(code, '/members'), { userUlid: granted.userId });
    await del(owner, accessPath(code, `/members/${revoked.userId}`));
    await post(owner, accessPath(code, '/groups'), { userGroupUlid: group.ulid });
    const before = [await allowlist(owner, code), await assignedGroups(owner, code)];
    for (const mode of ['private', 'public', 'private']) {
      expect((await patch(owner, accessPath(code), { mode })).status).toBe(200);
      expect([await allowlist(owner, code), await assignedGroups(owner, code)]).toEqual(before);
    }
    expect(before[0]).toEqual([
      [granted.userId, 'granted'],
      [revoked.userId, 'revoked'],
    ]);
  });

  it('answers 403 project_locked for a locked project', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    expectError(await get(owner, accessPath(code)), 403, 'project_locked');
    expectError(await patch(owner, accessPath(code), { mode: 'private' }), 403, 'project_locked');
    expectError(await post(owner, accessPath(code, '/members'), { userUlid: owner.userId }), 403, 'project_locked');
  });
});

describe('/projects/{projectId}/access/members', () => {
  it('grants (201) and revokes (204): a revoked row flips back on a new grant; each change is recorded once', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member', { firstName: 'Grace', lastName: 'Hopper' });
    const granted = await post(owner, accessPath(code, '/members'), { userUlid: member.userId });
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({
      userUlid: member.userId,
      displayName: 'Grace Hopper',
      email: member.email,
      state: 'granted',
      updatedAt: expect.any(Number),
    });
    // Granting again changes nothing and records nothing.
    expect((await post(owner, accessPath(code, '/members'), { userUlid: member.userId })).body).toEqual(granted.body);
    expect((await del(owner, accessPath(code, `/members/${member.userId}`))).status).toBe(204);
    expect((await del(owner, accessPath(code, `/members/${member.userId}`))).status).toBe(204);
    expect(await allowlist(owner, code)).toEqual([[member.userId, 'revoked']]);
    const again = await post(owner, accessPath(code, '/members'), { userUlid: member.userId });
    expect(again.body.state).toBe('granted');
    expect(again.body.updatedAt).toBeGreaterThanOrEqual(granted.body.updatedAt);
    const items = (await get(owner, accessPath(code, '/members'))).body.items;
    expect(items).toEqual([again.body]);

    const events = await auditEvents(t.http, owner, { actionPrefix: 'project.member_' });
    expect(events.map((event) => [event.action, event.entityUlid, event.metadata])).toEqual([
      ['project.member_granted', project.ulid, { userUlid: member.userId, userName: 'Grace Hopper', previousState: 'revoked' }],
      ['project.member_revoked', project.ulid, { userUlid: member.userId, userName: 'Grace Hopper', previousState: 'granted' }],
      ['project.member_granted', project.ulid, { userUlid: member.userId, userName: 'Grace Hopper', previousState: null }],
    ]);
  });

  it('creates a revoked row for a member without one; revoking the last grant of a private project leaves it private', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    await patch(owner, accessPath(code), { mode: 'private' });
    expect((await del(owner, accessPath(code, `/members/${viewer.userId}`))).status).toBe(204);
    await post(owner, accessPath(code, '/members'), { userUlid: member.userId });
    expect((await del(owner, accessPath(code, `/members/${member.userId}`))).status).toBe(204);
    expect(await allowlist(owner, code)).toEqual([
      [viewer.userId, 'revoked'],
      [member.userId, 'revoked'],
    ]);
    expect(await access(owner, code)).toEqual({ mode: 'private', ownerUlid: null });
    const [revoked] = await auditEvents(t.http, owner, { action: 'project.member_revoked' });
    expect(revoked!.metadata.previousState).toBe('granted');
  });

  it('answers 404 for a user who is not a member of the organization, and 422 for a bad body', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    expectError(await post(owner, accessPath(code, '/members'), { userUlid: stranger.userId }), 404, 'not_found');
    expectError(await post(owner, accessPath(code, '/members'), { userUlid: newId() }), 404, 'not_found');
    expectError(await del(owner, accessPath(code, `/members/${stranger.userId}`)), 404, 'not_found');
    for (const body of [{}, { userUlid: 'x' }, { userUlid: owner.userId, state: 'granted' }]) {
      expectError(await post(owner, accessPath(code, '/members'), body), 422, 'validation_failed');
    }
    expect(await allowlist(owner, code)).toEqual([]);
    expect(await auditEvents(t.http, owner, { actionPrefix: 'project.member_' })).toEqual([]);
  });

  it("lists, grants and revokes for organization owners/admins and the project's owner only (403 otherwise)", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const projectOwner = await joinAs(t.http, owner, 'viewer');
    const memberToken = await tokenFor(t.http, owner, { role: 'member' });
    await patch(owner, accessPath(code), { ownerUlid: projectOwner.userId });
    await post(owner, accessPath(code, '/members'), { userUlid: member.userId });
    for (const caller of [member, viewer, memberToken]) {
      expectError(await get(caller, accessPath(code, '/members')), 403, 'forbidden');
      expectError(await post(caller, accessPath(code, '/members'), { userUlid: viewer.userId }), 403, 'forbidden');
      expectError(await del(caller, accessPath(code, `/members/${member.userId}`)), 403, 'forbidden');
    }
    expect(await allowlist(owner, code)).toEqual([[member.userId, 'granted']]);
    expect((await post(projectOwner, accessPath(code, '/members'), { userUlid: viewer.userId })).status).toBe(201);
    expect((await del(admin, accessPath(code, `/members/${member.userId}`))).status).toBe(204);
    expect(await allowlist(projectOwner, code)).toEqual([
      [member.userId, 'revoked'],
      [viewer.userId, 'granted'],
    ]);
  });
});

describe('/projects/{projectId}/access/groups', () => {
  it('assigns a group also to a public project (201, dormant), lists it with its member count, and unassigns it (204, never 409)', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const group = await createGroup(owner, { name: 'Reviewers', memberUserUlids: [member.userId, owner.userId] });
    const assigned = await post(owner, accessPath(code, '/groups'), { userGroupUlid: group.ulid });
    expect(assigned.status).toBe(201);
    expect(assigned.body).toEqual({ userGroupUlid: group.ulid, name: 'Reviewers', memberCount: 2 });
    expect(await access(owner, code)).toEqual({ mode: 'public', ownerUlid: null });
    // Assigning again is no error and records nothing new.
    expect((await post(owner, accessPath(code, '/groups'), { userGroupUlid: group.ulid })).body).toEqual(assigned.body);
    expect(await assignedGroups(member, code)).toEqual([assigned.body]);
    expect((await get(owner, `/api/v1/groups/${group.ulid}`)).body.projectCount).toBe(1);

    expect((await del(owner, accessPath(code, `/groups/${group.ulid}`))).status).toBe(204);
    expect(await assignedGroups(owner, code)).toEqual([]);
    // Unassigning a group that is not assigned, also the last: still 204, nothing recorded.
    expect((await del(owner, accessPath(code, `/groups/${group.ulid}`))).status).toBe(204);
    expectError(await del(owner, accessPath(code, `/groups/${newId()}`)), 404, 'not_found');

    const events = await auditEvents(t.http, owner, { actionPrefix: 'project.group_' });
    expect(events.map((event) => [event.action, event.entityUlid, event.metadata])).toEqual([
      ['project.group_unassigned', project.ulid, { userGroupUlid: group.ulid, groupName: 'Reviewers', via: 'unassign' }],
      ['project.group_assigned', project.ulid, { userGroupUlid: group.ulid, groupName: 'Reviewers' }],
    ]);
  });

  it("needs organization owner/admin or the project's owner to assign and unassign; 404 for unknown or foreign groups", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const projectOwner = await joinAs(t.http, owner, 'member');
    const stranger = await signUp(t.http);
    const group = await createGroup(owner);
    const foreign = await createGroup(stranger);
    await patch(owner, accessPath(code), { ownerUlid: projectOwner.userId });
    expectError(await post(member, accessPath(code, '/groups'), { userGroupUlid: group.ulid }), 403, 'forbidden');
    expect((await post(projectOwner, accessPath(code, '/groups'), { userGroupUlid: group.ulid })).status).toBe(201);
    expectError(await del(member, accessPath(code, `/groups/${group.ulid}`)), 403, 'forbidden');
    for (const userGroupUlid of [newId(), foreign.ulid]) {
      expectError(await post(owner, accessPath(code, '/groups'), { userGroupUlid }), 404, 'not_found');
    }
    expectError(await post(owner, accessPath(code, '/groups'), {}), 422, 'validation_failed');
    expect((await del(projectOwner, accessPath(code, `/groups/${group.ulid}`))).status).toBe(204);
  });
});

describe('PATCH /projects/{projectId}/run-settings by the project owner', () => {
  it("admits the project's current owner (also a viewer), not the former one; the organization PATCH stays owner/admin", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const settings = `/api/v1/projects/${code}/run-settings`;
    expectError(await patch(member, settings, { assigneeResultLock: true }), 403, 'forbidden');
    await patch(owner, accessPath(code), { ownerUlid: member.userId });
    const changed = await patch(member, settings, { assigneeResultLock: true });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.settings.assigneeResultLock).toEqual({ value: true, source: 'project' });
    const [event] = await auditEvents(t.http, owner, { action: 'run_settings.updated' });
    expect(event).toMatchObject({ actor: { ulid: member.userId }, metadata: { scope: 'project' } });
    expectError(await patch(member, `/api/v1/orgs/${owner.orgId}/run-settings`, { assigneeResultLock: true }), 403, 'forbidden');
    // A member token of the owner does not act as the owner.
    const token = await tokenFor(t.http, member, { role: 'member' });
    expectError(await patch(token, settings, { timeTracking: 'off' }), 403, 'forbidden');

    await patch(owner, accessPath(code), { ownerUlid: viewer.userId });
    expectError(await patch(member, settings, { assigneeResultLock: false }), 403, 'forbidden');
    expect((await patch(viewer, settings, { assigneeResultLock: false })).status).toBe(200);
  });
});
