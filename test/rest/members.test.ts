import { afterAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { setMemberSuspension } from '../../src/members/members.service.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, tokenFor, uniqueEmail, useTestApp } from '../support/app.ts';
import { accept, invitationToken, invite, inviteAndJoin } from '../support/invitations.ts';
import { startSmtpServer } from '../support/smtp.ts';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_SMTP_URL: smtp.url });

type MemberBody = {
  userUlid: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
  avatarKey: string | null;
  role: string;
  joinedAt: number;
  suspendedAt: number | null;
};

const membersOf = async (caller: Caller, query = '') => {
  const response = await t.http.get(`/api/v1/orgs/${caller.orgId}/members${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: MemberBody[]; page: number; pageSize: number; total: number };
};

const patchRole = (caller: Caller, userUlid: string, role: string) =>
  t.http.patch(`/api/v1/orgs/${caller.orgId}/members/${userUlid}`).set(caller.headers).send({ role });

const removeMember = (caller: Caller, userUlid: string) =>
  t.http.delete(`/api/v1/orgs/${caller.orgId}/members/${userUlid}`).set(caller.headers);

const roleOf = async (orgId: string, userId: string) => (await prisma().membership.findFirst({ where: { orgId, userId } }))?.role ?? null;

const setSeats = (orgId: string, seats: number | null) =>
  prisma().organization.update({ where: { id: orgId }, data: { maxSeatsOverride: seats } });

describe('GET /orgs/{orgUlid}/members', () => {
  it('pages the members by join time with their fields, for any member', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const admin = await inviteAndJoin(t.http, smtp, owner, 'admin', { firstName: 'Grace', lastName: 'Hopper' });
    const viewer = await inviteAndJoin(t.http, smtp, owner, 'viewer', { firstName: 'Alan', lastName: 'Turing' });

    const page = await membersOf(viewer);
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(page.items.map((item) => [item.userUlid, item.role])).toEqual([
      [owner.userId, 'owner'],
      [admin.userId, 'admin'],
      [viewer.userId, 'viewer'],
    ]);
    expect(page.items[1]).toEqual({
      userUlid: admin.userId,
      email: admin.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Grace Hopper',
      avatarKey: null,
      role: 'admin',
      joinedAt: expect.any(Number),
      suspendedAt: null,
    });
    expect(page.items[0]!.joinedAt).toBeLessThanOrEqual(page.items[1]!.joinedAt);

    const second = await membersOf(owner, '?page=2&pageSize=2');
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(second.items.map((item) => item.userUlid)).toEqual([viewer.userId]);
    expect((await membersOf(owner, '?page=5')).items).toEqual([]);
  });

  it('filters by q (name or email, case-insensitive, every word) and by role before paging', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const grace = await joinAs(t.http, owner, 'member');
    await prisma().user.update({ where: { id: grace.userId }, data: { firstName: 'Grace', lastName: 'Hopper' } });
    const alan = await joinAs(t.http, owner, 'viewer');
    await prisma().user.update({ where: { id: alan.userId }, data: { firstName: 'Alan', lastName: 'Turing' } });

    const found = async (query: string) => (await membersOf(owner, query)).items.map((item) => item.userUlid);
    expect(await found('?q=HOPPER')).toEqual([grace.userId]);
    expect(await found('?q=grace%20hop')).toEqual([grace.userId]);
    expect(await found(`?q=${alan.email.slice(5, 26).toUpperCase()}`)).toEqual([alan.userId]);
    expect(await found('?q=a')).toEqual([owner.userId, grace.userId, alan.userId]);
    expect(await found('?q=%25')).toEqual([]);
    expect(await found('?role=viewer')).toEqual([alan.userId]);
    expect(await found('?role=owner&q=ada')).toEqual([owner.userId]);
    const filtered = await membersOf(owner, '?q=a&role=member');
    expect(filtered.total).toBe(1);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/members?role=boss`).set(owner.headers), 422, 'validation_failed');
  });

  it('never shows another organization: its path answers 404', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/members`).set(stranger.headers), 404, 'not_found');
    expect((await membersOf(stranger)).items.map((item) => item.userUlid)).toEqual([stranger.userId]);
  });
});

describe('PATCH /orgs/{orgUlid}/members/{userUlid}', () => {
  it('changes the role (owner or admin) and audits member.role_changed; the same role records nothing', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const response = await patchRole(admin, member.userId, 'viewer');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ userUlid: member.userId, role: 'viewer', email: member.email });
    const [event] = await auditEvents(t.http, owner, { action: 'member.role_changed', entityUlid: member.userId });
    expect(event).toMatchObject({
      entityType: 'member',
      entityLabel: member.email,
      actor: { kind: 'user', ulid: admin.userId },
      metadata: { email: member.email, changes: [{ field: 'role', from: 'member', to: 'viewer' }] },
    });
    expect((await patchRole(owner, member.userId, 'viewer')).status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'member.role_changed' })).toHaveLength(1);
  });

  it('refuses members and viewers (403), and an admin changing or appointing an owner (403)', async () => {
    const owner = await signUp(t.http);
    const coOwner = await joinAs(t.http, owner, 'admin');
    await patchRole(owner, coOwner.userId, 'owner');
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await patchRole(member, viewer.userId, 'member'), 403, 'forbidden');
    expectError(await patchRole(viewer, viewer.userId, 'admin'), 403, 'forbidden');
    expectError(await patchRole(admin, owner.userId, 'member'), 403, 'forbidden');
    expectError(await patchRole(admin, member.userId, 'owner'), 403, 'forbidden');
    expectError(await patchRole(admin, admin.userId, 'owner'), 403, 'forbidden');
    const adminToken = await tokenFor(t.http, owner, { role: 'admin' });
    expectError(await patchRole(adminToken, coOwner.userId, 'admin'), 403, 'forbidden');
    expect([await roleOf(owner.orgId, owner.userId), await roleOf(owner.orgId, member.userId)]).toEqual(['owner', 'member']);
    // An owner may do all of it.
    expect((await patchRole(owner, coOwner.userId, 'admin')).status).toBe(200);
    expect((await patchRole(owner, member.userId, 'owner')).status).toBe(200);
  });

  it('answers 409 last_owner when the change would leave no owner', async () => {
    const owner = await signUp(t.http);
    expectError(await patchRole(owner, owner.userId, 'admin'), 409, 'last_owner');
    const second = await joinAs(t.http, owner, 'admin');
    expect((await patchRole(owner, second.userId, 'owner')).status).toBe(200);
    expect((await patchRole(owner, owner.userId, 'admin')).status).toBe(200);
    expectError(await patchRole(second, second.userId, 'member'), 409, 'last_owner');
    expect(await roleOf(owner.orgId, second.userId)).toBe('owner');
  });

  it('answers 409 seat_limit_exceeded when a viewer would take a seat that is not free', async () => {
    const owner = await signUp(t.http);
    await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    // Owner, member and the pending member invitation hold the 3 seats.
    expectError(await patchRole(owner, viewer.userId, 'admin'), 409, 'seat_limit_exceeded');
    expect(await roleOf(owner.orgId, viewer.userId)).toBe('viewer');
    await setSeats(owner.orgId, 4);
    expect((await patchRole(owner, viewer.userId, 'member')).status).toBe(200);
    // Changes among seat-holding roles, and demotions, need no free seat.
    await setSeats(owner.orgId, 1);
    expect((await patchRole(owner, viewer.userId, 'admin')).status).toBe(200);
    expect((await patchRole(owner, viewer.userId, 'viewer')).status).toBe(200);
  });

  it('answers 404 for a user who is no member here and 422 for an unknown role', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    expectError(await patchRole(owner, stranger.userId, 'member'), 404, 'not_found');
    expectError(await patchRole(owner, newId(), 'member'), 404, 'not_found');
    expectError(await patchRole(owner, owner.userId, 'boss'), 422, 'validation_failed');
    expectError(
      await t.http.patch(`/api/v1/orgs/${owner.orgId}/members/${owner.userId}`).set(owner.headers).send({}),
      422,
      'validation_failed',
    );
  });

  it('takes effect at once for the member’s API token: a demoted admin’s admin token acts as a member', async () => {
    const owner = await signUp(t.http);
    const admin = await inviteAndJoin(t.http, smtp, owner, 'admin');
    const token = await tokenFor(t.http, admin, { role: 'admin' });
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(token.headers)).status).toBe(200);
    expect((await patchRole(owner, admin.userId, 'member')).status).toBe(200);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(token.headers), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'Nope', id: 'NOPE' }), 403, 'forbidden');
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    expect((await patchRole(owner, admin.userId, 'admin')).status).toBe(200);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(token.headers)).status).toBe(200);
  });

  it('two owners demoting themselves at once: exactly one succeeds, the other gets last_owner', async () => {
    const first = await signUp(t.http);
    const second = await joinAs(t.http, first, 'admin');
    await patchRole(first, second.userId, 'owner');
    const answers = await Promise.all([patchRole(first, first.userId, 'admin'), patchRole(second, second.userId, 'admin')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.error.code).toBe('last_owner');
    expect(await prisma().membership.count({ where: { orgId: first.orgId, role: 'owner' } })).toBe(1);
  });

  it('two owners demoting each other at once: the second finds itself no longer an owner (403)', async () => {
    const first = await signUp(t.http);
    const second = await joinAs(t.http, first, 'admin');
    await patchRole(first, second.userId, 'owner');
    const answers = await Promise.all([patchRole(first, second.userId, 'admin'), patchRole(second, first.userId, 'admin')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    expect(await prisma().membership.count({ where: { orgId: first.orgId, role: 'owner' } })).toBe(1);
  });
});

describe('DELETE /orgs/{orgUlid}/members/{userUlid}', () => {
  it('removes a member: 204, audited; their session loses the organization and their tokens answer 401 at once', async () => {
    const owner = await signUp(t.http);
    const member = await inviteAndJoin(t.http, smtp, owner, 'member');
    const token = await tokenFor(t.http, member);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);

    expect((await removeMember(owner, member.userId)).status).toBe(204);
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(member.headers), 404, 'not_found');
    // Without X-Organization-Id the session falls back to the person's own organization.
    const session = await t.http.get('/api/v1/auth/session').set({ Cookie: member.headers.Cookie! });
    const organizations = session.body.organizations.map((org: { ulid: string }) => org.ulid);
    expect(organizations).toHaveLength(1);
    expect(organizations).not.toContain(owner.orgId);
    const [event] = await auditEvents(t.http, owner, { action: 'member.removed', entityUlid: member.userId });
    expect(event).toMatchObject({ actor: { ulid: owner.userId }, metadata: { email: member.email, role: 'member', left: false } });
    expect((await membersOf(owner)).items.map((item) => item.userUlid)).toEqual([owner.userId]);
  });

  it('drops the member’s group memberships, project grants and project ownerships there, and nowhere else', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const project = await createProject(t.http, owner);
    await prisma().project.update({ where: { id: project.ulid }, data: { ownerUserId: member.userId, accessMode: 'private' } });
    const group = await prisma().userGroup.create({ data: { id: newId(), orgId: owner.orgId, name: 'Testers' } });
    await prisma().userGroupMember.create({ data: { groupId: group.id, userId: member.userId, orgId: owner.orgId } });
    await prisma().projectAccessMember.create({
      data: { projectId: project.ulid, userId: member.userId, orgId: owner.orgId, state: 'granted' },
    });
    // What the same person holds in another organization stays.
    const elsewhere = await signUp(t.http);
    await prisma().membership.create({ data: { id: newId(), orgId: elsewhere.orgId, userId: member.userId, role: 'member' } });
    const otherProject = await createProject(t.http, elsewhere);
    await prisma().project.update({ where: { id: otherProject.ulid }, data: { ownerUserId: member.userId } });
    await prisma().projectAccessMember.create({
      data: { projectId: otherProject.ulid, userId: member.userId, orgId: elsewhere.orgId, state: 'revoked' },
    });

    expect((await removeMember(owner, member.userId)).status).toBe(204);
    expect(await prisma().userGroupMember.count({ where: { userId: member.userId } })).toBe(0);
    expect(await prisma().projectAccessMember.findMany({ where: { userId: member.userId }, select: { projectId: true } })).toEqual([
      { projectId: otherProject.ulid },
    ]);
    expect((await prisma().project.findUniqueOrThrow({ where: { id: project.ulid } })).ownerUserId).toBeNull();
    expect((await prisma().project.findUniqueOrThrow({ where: { id: otherProject.ulid } })).ownerUserId).toBe(member.userId);
  });

  it('lets a person leave with their session (any role), also when private projects are hidden from them', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const hidden = await createProject(t.http, owner);
    await prisma().project.update({ where: { id: hidden.ulid }, data: { accessMode: 'private' } });
    await prisma().projectAccessMember.create({
      data: { projectId: hidden.ulid, userId: viewer.userId, orgId: owner.orgId, state: 'revoked' },
    });
    expect((await removeMember(viewer, viewer.userId)).status).toBe(204);
    expect(await roleOf(owner.orgId, viewer.userId)).toBeNull();
    expect(await prisma().projectAccessMember.count({ where: { userId: viewer.userId } })).toBe(0);
    const [event] = await auditEvents(t.http, owner, { action: 'member.removed', entityUlid: viewer.userId });
    expect(event).toMatchObject({ actor: { ulid: viewer.userId }, metadata: { left: true } });
  });

  it('answers 409 last_owner for the last owner (leaving or removed), 403 to an admin removing an owner or a member removing anyone', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    expectError(await removeMember(owner, owner.userId), 409, 'last_owner');
    expectError(await removeMember(admin, owner.userId), 403, 'forbidden');
    expectError(await removeMember(member, admin.userId), 403, 'forbidden');
    // A token does not "leave" for its creator: it removes by its own role.
    const memberToken = await tokenFor(t.http, member);
    expectError(await removeMember(memberToken, member.userId), 403, 'forbidden');
    expect(await prisma().membership.count({ where: { orgId: owner.orgId } })).toBe(3);

    const coOwner = await joinAs(t.http, owner, 'admin');
    await patchRole(owner, coOwner.userId, 'owner');
    expect((await removeMember(owner, owner.userId)).status).toBe(204);
    expectError(await removeMember(coOwner, coOwner.userId), 409, 'last_owner');
    expectError(await removeMember(owner, newId()), 404, 'not_found');
  });

  it('two owners leaving at once: exactly one leaves, the other gets last_owner', async () => {
    const first = await signUp(t.http);
    const second = await joinAs(t.http, first, 'admin');
    await patchRole(first, second.userId, 'owner');
    const answers = await Promise.all([removeMember(first, first.userId), removeMember(second, second.userId)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
    expect(await prisma().membership.count({ where: { orgId: first.orgId, role: 'owner' } })).toBe(1);
  });

  it('revokes the member’s tokens there: rejoining later revives none of them', async () => {
    const owner = await signUp(t.http);
    const member = await inviteAndJoin(t.http, smtp, owner, 'member');
    const token = await tokenFor(t.http, member);
    expect((await removeMember(owner, member.userId)).status).toBe(204);
    const invitation = await invite(t.http, owner, { email: member.email, role: 'member' });
    expect((await accept(t.http, member, await invitationToken(smtp, invitation.ulid))).status).toBe(200);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(member.headers)).status).toBe(200);
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
  });
});

describe('staff suspension', () => {
  it('keeps the member and their seat but refuses their session and tokens with 403 until lifted', async () => {
    const owner = await signUp(t.http);
    const member = await inviteAndJoin(t.http, smtp, owner, 'member');
    const token = await tokenFor(t.http, member);
    const used = async () => (await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(owner.headers)).body.used as number;
    const seatsBefore = await used();

    const suspended = await setMemberSuspension(owner.orgId, member.email.toUpperCase(), true);
    expect(suspended).toMatchObject({ userUlid: member.userId, role: 'member', suspendedAt: expect.any(Number) });
    for (const caller of [member, token]) {
      const refused = await t.http.get('/api/v1/projects').set(caller.headers);
      expectError(refused, 403, 'forbidden');
      expect(refused.body.error.details).toEqual({ code: 'membership_suspended' });
      expect(refused.body.error.message).toMatch(/suspended/);
    }
    expect(await used()).toBe(seatsBefore);
    const listed = (await membersOf(owner)).items.find((item) => item.userUlid === member.userId);
    expect(listed?.suspendedAt).toBe(suspended.suspendedAt);
    // Without X-Organization-Id the session acts in the person's own, active organization.
    const ownOrg = await t.http.get('/api/v1/projects').set({ Cookie: member.headers.Cookie! });
    expect(ownOrg.status).toBe(200);
    const [event] = await auditEvents(t.http, owner, { action: 'member.suspended', entityUlid: member.userId });
    expect(event?.actor).toEqual({ kind: 'system' });

    const lifted = await setMemberSuspension(owner.orgId, member.userId, false);
    expect(lifted.suspendedAt).toBeNull();
    expect((await t.http.get('/api/v1/projects').set(member.headers)).status).toBe(200);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'member.unsuspended', entityUlid: member.userId })).toHaveLength(1);
  });

  it('can still be removed by an owner', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    await setMemberSuspension(owner.orgId, member.userId, true);
    expect((await removeMember(owner, member.userId)).status).toBe(204);
  });
});
