import { afterAll, describe, expect, it } from 'vitest';
import { INVITATION_MAILS_PER_ORGANIZATION } from '../../src/invitations/invitation-budgets.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { setMemberSuspension } from '../../src/members/members.service.ts';
import { auditEvents, type Caller, graphql, joinAs, signUp, tokenFor, uniqueEmail, useTestApp } from '../support/app.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';
import { invitationToken } from '../support/invitations.ts';
import { startSmtpServer } from '../support/smtp.ts';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_SMTP_URL: smtp.url });

const MEMBERS = `query($q: String, $role: Role, $first: Int, $after: String) {
  organization {
    members(q: $q, role: $role, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { userUlid email firstName lastName displayName avatarKey role joinedAt suspendedAt } }
    }
  }
}`;
const INVITATIONS = `query($status: [InvitationStatus!]) {
  organization {
    invitations(status: $status) {
      totalCount
      edges { node { ulid email role locale status grantAllPrivateProjects invitedBy { ulid displayName } expiresAt createdAt emailDeliveryStatus } }
    }
  }
}`;
const SEATS = `{ organization { seatUsage { used limit } } }`;
const INVITE = `mutation($input: InviteMemberInput!) {
  inviteMember(input: $input) { ulid email role locale status grantAllPrivateProjects invitedBy { ulid displayName } expiresAt emailDeliveryStatus }
}`;
const BULK = `mutation($input: BulkInviteMembersInput!) { bulkInviteMembers(input: $input) { email status } }`;
const RESEND = `mutation($ulid: String!) { resendInvitation(ulid: $ulid) { ulid status expiresAt } }`;
const REVOKE = `mutation($ulid: String!) { revokeInvitation(ulid: $ulid) }`;
const ACCEPT = `mutation($token: String!) { acceptInvitation(token: $token) { organization { ulid name } role } }`;
const CHANGE_ROLE = `mutation($userUlid: String!, $role: Role!) { changeMemberRole(userUlid: $userUlid, role: $role) { userUlid role email } }`;
const REMOVE = `mutation($userUlid: String!) { removeMember(userUlid: $userUlid) }`;

type MemberNode = { userUlid: string; email: string; role: string; displayName: string; suspendedAt: number | null };

const members = async (caller: Caller, variables: Record<string, unknown> = {}) =>
  dataOf(await graphql(t.http, caller, MEMBERS, variables)).organization.members as {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string };
    edges: Array<{ node: MemberNode }>;
  };

const inviteMember = async (caller: Caller, input: Record<string, unknown>) =>
  dataOf(await graphql(t.http, caller, INVITE, { input })).inviteMember as { ulid: string; status: string };

/** A person who signed up elsewhere and joins `owner`'s organization through GraphQL. */
async function joinThroughGraphQL(owner: Caller, role: 'admin' | 'member' | 'viewer') {
  const person = await signUp(t.http);
  const invitation = await inviteMember(owner, { email: person.email, role });
  const accepted = dataOf(await graphql(t.http, person, ACCEPT, { token: await invitationToken(smtp, invitation.ulid) })).acceptInvitation;
  expect(accepted.organization.ulid).toBe(owner.orgId);
  expect(accepted.role).toBe(role);
  return { ...person, orgId: owner.orgId, headers: { ...person.headers, 'X-Organization-Id': owner.orgId } };
}

describe('GraphQL: members', () => {
  it('lists members by join time with q, role, paging and totalCount, as REST does', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const admin = await joinThroughGraphQL(owner, 'admin');
    const viewer = await joinThroughGraphQL(owner, 'viewer');
    const all = await members(viewer);
    expect(all.totalCount).toBe(3);
    expect(all.edges.map((edge) => [edge.node.userUlid, edge.node.role])).toEqual([
      [owner.userId, 'owner'],
      [admin.userId, 'admin'],
      [viewer.userId, 'viewer'],
    ]);
    const rest = await t.http.get(`/api/v1/orgs/${owner.orgId}/members`).set(owner.headers);
    expect(all.edges.map((edge) => edge.node)).toEqual(rest.body.items);
    const firstPage = await members(owner, { first: 2 });
    expect(firstPage.pageInfo.hasNextPage).toBe(true);
    const secondPage = await members(owner, { first: 2, after: firstPage.pageInfo.endCursor });
    expect(secondPage.edges.map((edge) => edge.node.userUlid)).toEqual([viewer.userId]);
    expect((await members(owner, { q: 'LOVELACE' })).edges.map((edge) => edge.node.userUlid)).toEqual([owner.userId]);
    const viewers = await members(owner, { role: 'viewer' });
    expect([viewers.totalCount, viewers.edges[0]?.node.userUlid]).toEqual([1, viewer.userId]);
  });

  it('changes roles and removes members with the REST rules: 403, last_owner, seat_limit_exceeded', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const viewer = await joinAs(t.http, owner, 'viewer');
    await joinAs(t.http, owner, 'member');

    expect(codeOf(await graphql(t.http, admin, CHANGE_ROLE, { userUlid: owner.userId, role: 'member' }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, owner, CHANGE_ROLE, { userUlid: owner.userId, role: 'admin' }))).toBe('last_owner');
    expect(codeOf(await graphql(t.http, owner, CHANGE_ROLE, { userUlid: viewer.userId, role: 'member' }))).toBe('seat_limit_exceeded');
    const changed = dataOf(await graphql(t.http, admin, CHANGE_ROLE, { userUlid: admin.userId, role: 'viewer' })).changeMemberRole;
    expect(changed).toEqual({ userUlid: admin.userId, role: 'viewer', email: admin.email });
    expect(await auditEvents(t.http, owner, { action: 'member.role_changed', entityUlid: admin.userId })).toHaveLength(1);

    expect(codeOf(await graphql(t.http, viewer, REMOVE, { userUlid: admin.userId }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, owner, REMOVE, { userUlid: owner.userId }))).toBe('last_owner');
    expect(dataOf(await graphql(t.http, owner, REMOVE, { userUlid: admin.userId })).removeMember).toBe(true);
    expect(dataOf(await graphql(t.http, viewer, REMOVE, { userUlid: viewer.userId })).removeMember).toBe(true);
    expect((await members(owner)).totalCount).toBe(2);
    // The removed viewer's session no longer reaches the organization.
    expect(codeOf(await graphql(t.http, viewer, SEATS))).toBe('not_found');
  });

  it('shows suspendedAt and refuses a suspended member with forbidden', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    await setMemberSuspension(owner.orgId, member.userId, true);
    const node = (await members(owner)).edges.find((edge) => edge.node.userUlid === member.userId)?.node;
    expect(node?.suspendedAt).toEqual(expect.any(Number));
    const refused = onlyError(await graphql(t.http, member, SEATS));
    expect(refused.extensions).toMatchObject({ code: 'forbidden', details: { code: 'membership_suspended' } });
  });

  it('reads seat usage as GET /seat-usage does', async () => {
    const owner = await signUp(t.http);
    await inviteMember(owner, { email: uniqueEmail(), role: 'admin' });
    await inviteMember(owner, { email: uniqueEmail(), role: 'viewer' });
    expect(dataOf(await graphql(t.http, owner, SEATS)).organization.seatUsage).toEqual({ used: 2, limit: 3 });
  });
});

describe('GraphQL: invitations', () => {
  it('invites, lists with emailDeliveryStatus and status filters, resends and revokes', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const email = uniqueEmail();
    const invitation = dataOf(
      await graphql(t.http, owner, INVITE, { input: { email: email.toUpperCase(), role: 'member', locale: 'es' } }),
    ).inviteMember;
    expect(invitation).toMatchObject({
      email,
      role: 'member',
      locale: 'es',
      status: 'pending',
      grantAllPrivateProjects: false,
      invitedBy: { ulid: owner.userId, displayName: 'Ada Lovelace' },
      emailDeliveryStatus: null,
    });
    expect(codeOf(await graphql(t.http, owner, INVITE, { input: { email, role: 'viewer' } }))).toBe('conflict');
    const other = await inviteMember(owner, { email: uniqueEmail(), role: 'viewer', grantAllPrivateProjects: true });
    await prisma().mailOutbox.updateMany({ where: { subjectType: 'invitation', subjectId: other.ulid }, data: { status: 'suppressed' } });

    const listed = dataOf(await graphql(t.http, owner, INVITATIONS)).organization.invitations;
    expect(listed.totalCount).toBe(2);
    expect(
      listed.edges.map((edge: { node: { ulid: string; emailDeliveryStatus: string | null } }) => [
        edge.node.ulid,
        edge.node.emailDeliveryStatus,
      ]),
    ).toEqual([
      [other.ulid, 'suppressed'],
      [invitation.ulid, null],
    ]);

    const oldToken = await invitationToken(smtp, invitation.ulid);
    const resent = dataOf(await graphql(t.http, owner, RESEND, { ulid: invitation.ulid })).resendInvitation;
    expect(resent.expiresAt).toBeGreaterThanOrEqual(invitation.expiresAt);
    expect(await invitationToken(smtp, invitation.ulid)).not.toBe(oldToken);
    expect(dataOf(await graphql(t.http, owner, REVOKE, { ulid: other.ulid })).revokeInvitation).toBe(true);
    expect(codeOf(await graphql(t.http, owner, REVOKE, { ulid: other.ulid }))).toBe('conflict');
    const revoked = dataOf(await graphql(t.http, owner, INVITATIONS, { status: ['revoked'] })).organization.invitations;
    expect(revoked.edges.map((edge: { node: { ulid: string } }) => edge.node.ulid)).toEqual([other.ulid]);
  });

  it('refuses a resend past the mail budget with too_many_requests and its retryAfterSeconds, as REST does', async () => {
    await windowWithRoom(HOUR_MS, 20_000);
    const owner = await signUp(t.http);
    const email = uniqueEmail();
    const invitation = await inviteMember(owner, { email, role: 'viewer' });
    for (let resent = 1; resent < INVITATION_MAILS_PER_ORGANIZATION; resent += 1)
      dataOf(await graphql(t.http, owner, RESEND, { ulid: invitation.ulid }));
    const refused = onlyError(await graphql(t.http, owner, RESEND, { ulid: invitation.ulid }));
    expect(refused.extensions).toMatchObject({
      code: 'too_many_requests',
      details: { retryAfterSeconds: expect.any(Number), emails: [email] },
    });
    expect(await prisma().mailOutbox.count({ where: { recipient: email } })).toBe(INVITATION_MAILS_PER_ORGANIZATION);
  });

  it('bulk-invites with one result per distinct address', async () => {
    const owner = await signUp(t.http);
    const fresh = uniqueEmail();
    const results = dataOf(
      await graphql(t.http, owner, BULK, { input: { emails: [fresh, owner.email, fresh.toUpperCase(), 'nope'], role: 'viewer' } }),
    ).bulkInviteMembers;
    expect(results).toEqual([
      { email: fresh, status: 'created' },
      { email: owner.email, status: 'already_member' },
      { email: 'nope', status: 'invalid_email' },
    ]);
    const tooMany = Array.from({ length: 51 }, () => uniqueEmail());
    expect(codeOf(await graphql(t.http, owner, BULK, { input: { emails: tooMany, role: 'viewer' } }))).toBe('validation_failed');
  });

  it('keeps invitations to owners and admins: a member gets forbidden for every operation', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const invitation = await inviteMember(owner, { email: uniqueEmail(), role: 'viewer' });
    expect(codeOf(await graphql(t.http, member, INVITE, { input: { email: uniqueEmail(), role: 'viewer' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, member, BULK, { input: { emails: [uniqueEmail()], role: 'viewer' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, member, INVITATIONS))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, member, RESEND, { ulid: invitation.ulid }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, member, REVOKE, { ulid: invitation.ulid }))).toBe('forbidden');
  });

  it('accepts with a session only: another address is forbidden, a used token not_found, an API token unauthorized', async () => {
    const owner = await signUp(t.http);
    const person = await signUp(t.http);
    const invitation = await inviteMember(owner, { email: person.email, role: 'member' });
    const token = await invitationToken(smtp, invitation.ulid);
    expect(codeOf(await graphql(t.http, await signUp(t.http), ACCEPT, { token }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, await tokenFor(t.http, person), ACCEPT, { token }))).toBe('unauthorized');
    expect(dataOf(await graphql(t.http, person, ACCEPT, { token })).acceptInvitation.role).toBe('member');
    expect(codeOf(await graphql(t.http, person, ACCEPT, { token }))).toBe('not_found');
    expect(await auditEvents(t.http, owner, { action: 'invitation.accepted', entityUlid: invitation.ulid })).toHaveLength(1);
  });
});
