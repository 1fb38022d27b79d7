import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITATION_MAILS_PER_ADDRESS, INVITATION_MAILS_PER_ORGANIZATION } from '../../src/invitations/invitation-budgets.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { sha256 } from '../../src/kernel/secrets.ts';
import {
  auditEvents,
  type Caller,
  createProject,
  expectError,
  joinAs,
  sessionCaller,
  signUp,
  tokenFor,
  uniqueEmail,
  useTestApp,
} from '../support/app.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import {
  accept,
  type InvitationBody,
  invitationMail,
  invitationMessage,
  invitationToken,
  invite,
  inviteAndJoin,
} from '../support/invitations.ts';
import { startSmtpServer } from '../support/smtp.ts';

const PUBLIC_URL = 'https://tcms.example.test';
const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_PUBLIC_URL: `${PUBLIC_URL}/`, TCMS_SMTP_URL: smtp.url, TCMS_RETRY_BASE_MS: '5' });

const DAY_MS = 24 * 60 * 60 * 1000;

const invitationsOf = async (caller: Caller, query = '') => {
  const response = await t.http.get(`/api/v1/orgs/${caller.orgId}/invitations${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: InvitationBody[]; page: number; pageSize: number; total: number };
};

const expireInvitation = (ulid: string) =>
  prisma().invitation.update({ where: { id: ulid }, data: { expiresAt: new Date(Date.now() - 1000) } });

const setSeats = (orgId: string, seats: number | null) =>
  prisma().organization.update({ where: { id: orgId }, data: { maxSeatsOverride: seats } });

const membershipOf = (orgId: string, userId: string) => prisma().membership.findFirst({ where: { orgId, userId } });

describe('POST /orgs/{orgUlid}/invitations', () => {
  it('answers 201 with the invitation and queues the mail with the accept address and the token in the same transaction', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace', organizationName: 'Engines' });
    const before = Date.now();
    const response = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations`)
      .set(owner.headers)
      .send({ email: 'Grace@Example.TEST', role: 'member' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const invitation = response.body as InvitationBody;
    expect(invitation).toEqual({
      ulid: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      email: 'grace@example.test',
      role: 'member',
      locale: 'en',
      status: 'pending',
      grantAllPrivateProjects: false,
      invitedBy: { ulid: owner.userId, displayName: 'Ada Lovelace' },
      expiresAt: expect.any(Number),
      createdAt: expect.any(Number),
      emailDeliveryStatus: null,
    });
    expect(invitation.expiresAt - invitation.createdAt).toBe(7 * DAY_MS);
    expect(invitation.createdAt).toBeGreaterThanOrEqual(before - 1000);

    expect(await invitationMail(invitation.ulid)).toMatchObject({ orgId: owner.orgId, recipient: 'grace@example.test' });
    const mail = await invitationMessage(smtp, invitation.ulid);
    expect(mail.to).toEqual(['grace@example.test']);
    expect(mail.subject).toBe('Ada Lovelace invited you to Engines on tcms');
    const token = await invitationToken(smtp, invitation.ulid);
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(mail.text).toContain(`${PUBLIC_URL}/invitations/accept?token=${token}\n`);
    // Only the token's SHA-256 is stored.
    const row = await prisma().invitation.findUniqueOrThrow({ where: { id: invitation.ulid } });
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const [event] = await auditEvents(t.http, owner, { action: 'invitation.created', entityUlid: invitation.ulid });
    expect(event).toMatchObject({
      entityType: 'invitation',
      entityLabel: 'grace@example.test',
      actor: { kind: 'user', ulid: owner.userId },
      metadata: { email: 'grace@example.test', role: 'member', locale: 'en', grantAllPrivateProjects: false },
    });
  });

  it('with an Idempotency-Key creates and resends once, and a replay answers the same invitation', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const keyed = (path: string, key: string) =>
      t.http.post(`/api/v1/orgs/${owner.orgId}${path}`).set(token.headers).set('Idempotency-Key', key);
    const body = { email: uniqueEmail(), role: 'member', grantAllPrivateProjects: true };

    const created = await keyed('/invitations', 'invite-1').send(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const replayed = await keyed('/invitations', 'invite-1').send(body);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(created.body);

    const resent = await keyed(`/invitations/${created.body.ulid}/resend`, 'resend-1');
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect((await keyed(`/invitations/${created.body.ulid}/resend`, 'resend-1')).body).toEqual(resent.body);
    expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(1);
    expect(await prisma().mailOutbox.count({ where: { subjectType: 'invitation', subjectId: created.body.ulid } })).toBe(2);
  });

  it('writes the mail in Spanish for locale es, with the same token line', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace', organizationName: 'Engines' });
    const invitation = await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer', locale: 'es' });
    expect(invitation.locale).toBe('es');
    const mail = await invitationMessage(smtp, invitation.ulid);
    expect(mail.subject).toBe('Ada Lovelace te invita a Engines en tcms');
    expect(mail.text).toContain('te invita a unirte a la organización "Engines" en tcms como lector');
    expect(mail.text).toMatch(/^Invitation token: \S+$/m);
    expect(mail.text).toContain(`${PUBLIC_URL}/invitations/accept?token=${await invitationToken(smtp, invitation.ulid)}`);
  });

  it('is for owners and admins (an admin token too); members and viewers get 403 and nothing is queued', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    await setSeats(owner.orgId, 10);
    await invite(t.http, admin, { email: uniqueEmail(), role: 'member' });
    await invite(t.http, await tokenFor(t.http, admin, { role: 'admin' }), { email: uniqueEmail(), role: 'viewer' });
    for (const caller of [member, viewer, await tokenFor(t.http, owner, { role: 'member' })]) {
      const email = uniqueEmail();
      const response = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations`).set(caller.headers).send({ email, role: 'viewer' });
      expectError(response, 403, 'forbidden');
      expect(await prisma().mailOutbox.count({ where: { recipient: email } })).toBe(0);
    }
  });

  it('answers 409 conflict for an address that is already a member, of any role, whatever its case', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    for (const email of [viewer.email.toUpperCase(), owner.email]) {
      const response = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations`).set(owner.headers).send({ email, role: 'member' });
      expectError(response, 409, 'conflict');
    }
    expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(0);
  });

  it('answers 409 conflict for an address with a pending invitation; an expired one is superseded (stored as expired)', async () => {
    const owner = await signUp(t.http);
    const email = uniqueEmail();
    const first = await invite(t.http, owner, { email, role: 'member' });
    const again = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations`)
      .set(owner.headers)
      .send({ email: email.toUpperCase(), role: 'viewer' });
    expectError(again, 409, 'conflict');

    await expireInvitation(first.ulid);
    const second = await invite(t.http, owner, { email, role: 'viewer' });
    expect(second.ulid).not.toBe(first.ulid);
    expect((await prisma().invitation.findUniqueOrThrow({ where: { id: first.ulid } })).status).toBe('expired');
    const listed = await invitationsOf(owner);
    expect(listed.items.map((item) => [item.ulid, item.status])).toEqual([
      [second.ulid, 'pending'],
      [first.ulid, 'expired'],
    ]);
  });

  it('answers 409 seat_limit_exceeded for a non-viewer beyond the seats, and still invites viewers', async () => {
    const owner = await signUp(t.http);
    await joinAs(t.http, owner, 'member');
    await invite(t.http, owner, { email: uniqueEmail(), role: 'admin' });
    // Free plan: 3 seats, all taken by the owner, the member and the pending admin invitation.
    const email = uniqueEmail();
    const refused = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations`).set(owner.headers).send({ email, role: 'member' });
    expectError(refused, 409, 'seat_limit_exceeded');
    expect(await prisma().mailOutbox.count({ where: { recipient: email } })).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'invitation.created' })).toHaveLength(1);
    await invite(t.http, owner, { email, role: 'viewer' });
  });

  it('answers 409 conflict at 100 pending invitations; expired ones do not count', async () => {
    const owner = await signUp(t.http);
    const emails = Array.from({ length: 100 }, (_, index) => `ceiling-${index}-${newId().toLowerCase()}@example.test`);
    for (const chunk of [emails.slice(0, 50), emails.slice(50)]) {
      const response = await t.http
        .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
        .set(owner.headers)
        .send({ emails: chunk, role: 'viewer' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
    const refused = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations`)
      .set(owner.headers)
      .send({ email: uniqueEmail(), role: 'viewer' });
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.details).toMatchObject({ code: 'pending_invitation_ceiling', ceiling: 100 });

    const oldest = await prisma().invitation.findFirstOrThrow({ where: { orgId: owner.orgId }, orderBy: { id: 'asc' } });
    await expireInvitation(oldest.id);
    await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
  });

  it('validates the body: role owner, an unknown locale, a bad address and unknown keys answer 422', async () => {
    const owner = await signUp(t.http);
    for (const body of [
      { email: uniqueEmail(), role: 'owner' },
      { email: uniqueEmail(), role: 'member', locale: 'fr' },
      { email: 'not an address', role: 'member' },
      { email: uniqueEmail(), role: 'member', grantAllPrivateProjects: 'yes' },
      { email: uniqueEmail(), role: 'member', extra: true },
    ]) {
      expectError(await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations`).set(owner.headers).send(body), 422, 'validation_failed');
    }
  });
});

describe('POST /orgs/{orgUlid}/invitations/bulk', () => {
  it('answers one result per distinct address in first-appearance order and creates only the new ones', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'viewer');
    const pending = uniqueEmail('pending');
    await invite(t.http, owner, { email: pending, role: 'viewer' });
    const fresh = uniqueEmail('fresh');
    const other = uniqueEmail('other');
    const response = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
      .set(owner.headers)
      .send({
        emails: [` ${fresh.toUpperCase()} `, 'nonsense', member.email, fresh, pending.toUpperCase(), other, 'NONSENSE', ''],
        role: 'member',
        locale: 'es',
        grantAllPrivateProjects: true,
      });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      results: [
        { email: fresh, status: 'created' },
        { email: 'nonsense', status: 'invalid_email' },
        { email: member.email, status: 'already_member' },
        { email: pending, status: 'duplicate_pending' },
        { email: other, status: 'created' },
        { email: '', status: 'invalid_email' },
      ],
    });
    const created = await prisma().invitation.findMany({ where: { orgId: owner.orgId, email: { in: [fresh, other] } } });
    expect(created.map((row) => [row.email, row.role, row.locale, row.grantAllPrivateProjects]).sort()).toEqual(
      [
        [fresh, 'member', 'es', true],
        [other, 'member', 'es', true],
      ].sort(),
    );
    for (const row of created) expect((await invitationMail(row.id)).recipient).toBe(row.email);
    expect(await auditEvents(t.http, owner, { action: 'invitation.created' })).toHaveLength(3);
  });

  it('checks the seats once for the addresses it would create: one too many refuses the whole request', async () => {
    const owner = await signUp(t.http);
    const emails = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
    // The owner holds one of 3 seats: two more fit, three do not.
    const refused = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`).set(owner.headers).send({ emails, role: 'admin' });
    expectError(refused, 409, 'seat_limit_exceeded');
    expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(0);
    expect(await prisma().mailOutbox.count({ where: { orgId: owner.orgId } })).toBe(0);

    // Repeats and an existing invitation do not count against the seats.
    await invite(t.http, owner, { email: emails[0]!, role: 'admin' });
    const fits = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
      .set(owner.headers)
      .send({ emails: [emails[0], emails[1], emails[1]!.toUpperCase()], role: 'admin' });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(fits.body.results.map((result: { status: string }) => result.status)).toEqual(['duplicate_pending', 'created']);
  });

  it('checks the pending ceiling once: a request that would pass 100 pending invitations creates none', async () => {
    const owner = await signUp(t.http);
    const batch = (size: number) => Array.from({ length: size }, () => uniqueEmail('bulk'));
    for (const emails of [batch(50), batch(40)]) {
      expect(
        (await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`).set(owner.headers).send({ emails, role: 'viewer' })).status,
      ).toBe(200);
    }
    const refused = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
      .set(owner.headers)
      .send({ emails: batch(11), role: 'viewer' });
    expectError(refused, 409, 'conflict');
    expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(90);
    const fits = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
      .set(owner.headers)
      .send({ emails: batch(10), role: 'viewer' });
    expect(fits.status).toBe(200);
    expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(100);
  });

  it('takes at most 50 addresses and at least one; members get 403', async () => {
    const owner = await signUp(t.http);
    const tooMany = Array.from({ length: 51 }, () => uniqueEmail());
    expectError(
      await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`).set(owner.headers).send({ emails: tooMany, role: 'viewer' }),
      422,
      'validation_failed',
    );
    expectError(
      await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`).set(owner.headers).send({ emails: [], role: 'viewer' }),
      422,
      'validation_failed',
    );
    const member = await joinAs(t.http, owner, 'member');
    expectError(
      await t.http
        .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
        .set(member.headers)
        .send({ emails: [uniqueEmail()], role: 'viewer' }),
      403,
      'forbidden',
    );
  });
});

describe('GET /orgs/{orgUlid}/invitations', () => {
  it('lists every status newest first, filters by a status CSV and pages with the real total', async () => {
    const owner = await signUp(t.http);
    const revoked = await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    const expired = await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    const joiner = await signUp(t.http);
    const accepted = await invite(t.http, owner, { email: joiner.email, role: 'viewer' });
    const pending = await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    expect((await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${revoked.ulid}`).set(owner.headers)).status).toBe(204);
    await expireInvitation(expired.ulid);
    expect((await accept(t.http, joiner, await invitationToken(smtp, accepted.ulid))).status).toBe(200);

    const all = await invitationsOf(owner);
    expect(all.total).toBe(4);
    expect(all.items.map((item) => [item.ulid, item.status])).toEqual([
      [pending.ulid, 'pending'],
      [accepted.ulid, 'accepted'],
      [expired.ulid, 'expired'],
      [revoked.ulid, 'revoked'],
    ]);
    const statuses = async (query: string) => (await invitationsOf(owner, query)).items.map((item) => item.ulid);
    expect(await statuses('?status=pending')).toEqual([pending.ulid]);
    expect(await statuses('?status=expired')).toEqual([expired.ulid]);
    expect(await statuses('?status=accepted,revoked')).toEqual([accepted.ulid, revoked.ulid]);
    expect(await statuses('?status=pending,expired')).toEqual([pending.ulid, expired.ulid]);

    const second = await invitationsOf(owner, '?page=2&pageSize=3');
    expect(second).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(second.items.map((item) => item.ulid)).toEqual([revoked.ulid]);
    expect((await invitationsOf(owner, '?page=9')).items).toEqual([]);
    expectError(
      await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations?status=pending,lost`).set(owner.headers),
      422,
      'validation_failed',
    );
  });

  it('carries emailDeliveryStatus of the latest mail: null once delivered, failed after the retries, suppressed', async () => {
    const owner = await signUp(t.http);
    const [deliveredTo, deferringTo, refusingTo] = [uniqueEmail('delivered'), uniqueEmail('deferring'), uniqueEmail('refusing')];
    smtp.behaviour(deferringTo, 'defer');
    smtp.behaviour(refusingTo, 'reject');
    const delivered = await invite(t.http, owner, { email: deliveredTo, role: 'viewer' });
    const failed = await invite(t.http, owner, { email: deferringTo, role: 'viewer' });
    const suppressed = await invite(t.http, owner, { email: refusingTo, role: 'viewer' });
    for (const invitation of [delivered, failed, suppressed]) expect(invitation.emailDeliveryStatus).toBeNull();

    const statuses = async () => {
      const byUlid = new Map((await invitationsOf(owner)).items.map((item) => [item.ulid, item.emailDeliveryStatus]));
      return [byUlid.get(delivered.ulid), byUlid.get(failed.ulid), byUlid.get(suppressed.ulid)];
    };
    await expect.poll(statuses, { timeout: 15_000, interval: 50 }).toEqual([null, 'failed', 'suppressed']);
    await invitationMessage(smtp, delivered.ulid);
    expect(smtp.attempts(deferringTo)).toBe(5);
    expect(smtp.attempts(refusingTo)).toBe(1);

    // A resend queues a new mail: a failure of the previous one is history, and a suppressed
    // address is not tried again.
    smtp.behaviour(deferringTo, 'accept');
    const resent = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${failed.ulid}/resend`).set(owner.headers);
    expect(resent.status).toBe(200);
    expect(resent.body.emailDeliveryStatus).toBeNull();
    await invitationMessage(smtp, failed.ulid);
    const refused = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${suppressed.ulid}/resend`).set(owner.headers);
    expect(refused.status).toBe(200);
    await expect.poll(statuses, { timeout: 15_000, interval: 50 }).toEqual([null, null, 'suppressed']);
    expect(smtp.attempts(refusingTo)).toBe(1);
  });

  it('is for owners and admins only, and never shows another organization’s invitations', async () => {
    const owner = await signUp(t.http);
    await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    const member = await joinAs(t.http, owner, 'member');
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(member.headers), 403, 'forbidden');
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(stranger.headers), 404, 'not_found');
    expect((await invitationsOf(stranger)).total).toBe(0);
  });
});

describe('POST /orgs/{orgUlid}/invitations/{invitationUlid}/resend', () => {
  it('issues a new token (the old one stops working), renews the expiry, queues the mail again and audits', async () => {
    const owner = await signUp(t.http);
    const person = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email: person.email, role: 'member' });
    const oldToken = await invitationToken(smtp, invitation.ulid);
    await prisma().invitation.update({ where: { id: invitation.ulid }, data: { expiresAt: new Date(Date.now() + DAY_MS) } });

    const before = Date.now();
    const response = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${invitation.ulid}/resend`).set(owner.headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ ulid: invitation.ulid, status: 'pending', email: person.email });
    expect(response.body.expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(await prisma().mailOutbox.count({ where: { subjectType: 'invitation', subjectId: invitation.ulid } })).toBe(2);
    const newToken = await invitationToken(smtp, invitation.ulid);
    expect(newToken).not.toBe(oldToken);
    expect(await auditEvents(t.http, owner, { action: 'invitation.resent', entityUlid: invitation.ulid })).toHaveLength(1);

    expectError(await accept(t.http, person, oldToken), 404, 'not_found');
    expect((await accept(t.http, person, newToken)).status).toBe(200);
  });

  it('resends an expired pending invitation, checking the seats again; others answer 409, unknown ones 404', async () => {
    const owner = await signUp(t.http);
    const expired = await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    await expireInvitation(expired.ulid);
    await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    // The two pending members and the owner fill the 3 seats; the expired one reserved none.
    expectError(
      await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${expired.ulid}/resend`).set(owner.headers),
      409,
      'seat_limit_exceeded',
    );
    await setSeats(owner.orgId, 4);
    const resent = await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${expired.ulid}/resend`).set(owner.headers);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.status).toBe('pending');

    const revoked = await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    expect((await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${revoked.ulid}`).set(owner.headers)).status).toBe(204);
    expectError(await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${revoked.ulid}/resend`).set(owner.headers), 409, 'conflict');
    expectError(await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${newId()}/resend`).set(owner.headers), 404, 'not_found');
    const member = await joinAs(t.http, owner, 'member');
    expectError(await t.http.post(`/api/v1/orgs/${owner.orgId}/invitations/${expired.ulid}/resend`).set(member.headers), 403, 'forbidden');
  });
});

describe('invitation mail budgets', () => {
  beforeEach(() => windowWithRoom(HOUR_MS, 20_000));
  const inviteOnce = (caller: Caller, email: string) =>
    t.http.post(`/api/v1/orgs/${caller.orgId}/invitations`).set(caller.headers).send({ email, role: 'viewer' });
  const resend = (caller: Caller, invitationUlid: string) =>
    t.http.post(`/api/v1/orgs/${caller.orgId}/invitations/${invitationUlid}/resend`).set(caller.headers);
  const revoke = (caller: Caller, invitationUlid: string) =>
    t.http.delete(`/api/v1/orgs/${caller.orgId}/invitations/${invitationUlid}`).set(caller.headers);
  const mailsTo = (email: string) => prisma().mailOutbox.count({ where: { recipient: email } });

  /** What an organization wrote about invitations to `email`: its invitation rows, the mails to the address, its invitation events. */
  const writtenFor = async (orgId: string, email: string) => ({
    invitations: await prisma().invitation.findMany({ where: { orgId, email }, orderBy: { id: 'asc' } }),
    mails: await mailsTo(email),
    events: await prisma().auditEvent.count({ where: { orgId, entityType: 'invitation' } }),
  });

  /** `email`'s invitation and resends until the organization's hourly budget for it is spent. */
  async function spendOrganizationBudget(caller: Caller, email: string) {
    const invitation = await invite(t.http, caller, { email, role: 'viewer' });
    for (let resent = 1; resent < INVITATION_MAILS_PER_ORGANIZATION; resent += 1) {
      expect((await resend(caller, invitation.ulid)).status).toBe(200);
    }
    return invitation;
  }

  function expectBudgetSpent(response: Awaited<ReturnType<typeof resend>>, emails: string[]) {
    expectError(response, 429, 'too_many_requests');
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(response.body.error.details).toEqual({ retryAfterSeconds: retryAfter, emails });
  }

  it('lets one organization send an address 5 invitation mails an hour: one more resend answers 429 and writes nothing', async () => {
    const owner = await signUp(t.http);
    const email = uniqueEmail('resent');
    const invitation = await spendOrganizationBudget(owner, email);
    const before = await writtenFor(owner.orgId, email);
    expect(before.mails).toBe(INVITATION_MAILS_PER_ORGANIZATION);

    expectBudgetSpent(await resend(owner, invitation.ulid), [email]);
    expect(await writtenFor(owner.orgId, email)).toEqual(before);
    // The budget is the address's: the organization invites others as before.
    await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
  });

  it('counts inviting again after a revoke against the same budget, in bulk too, which then invites nobody', async () => {
    const owner = await signUp(t.http);
    const email = uniqueEmail('reinvited');
    for (let sent = 0; sent < INVITATION_MAILS_PER_ORGANIZATION; sent += 1) {
      expect((await revoke(owner, (await invite(t.http, owner, { email, role: 'viewer' })).ulid)).status).toBe(204);
    }
    const before = await writtenFor(owner.orgId, email);
    expectBudgetSpent(await inviteOnce(owner, email), [email]);
    expect(await writtenFor(owner.orgId, email)).toEqual(before);

    const other = uniqueEmail('other');
    const bulk = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/invitations/bulk`)
      .set(owner.headers)
      .send({ emails: [other, email.toUpperCase()], role: 'viewer' });
    expectBudgetSpent(bulk, [email]);
    expect(await writtenFor(owner.orgId, email)).toEqual(before);
    expect(await writtenFor(owner.orgId, other)).toEqual({ invitations: [], mails: 0, events: before.events });
  });

  it('lets an address receive 10 invitation mails an hour from all organizations together', async () => {
    const email = uniqueEmail('popular');
    const [first, second, third] = [await signUp(t.http), await signUp(t.http), await signUp(t.http)];
    // Two organizations spend their budgets for the address, which together are the address's.
    for (const organization of [first, second]) await spendOrganizationBudget(organization, email);
    expect(await mailsTo(email)).toBe(INVITATION_MAILS_PER_ADDRESS);

    const before = await writtenFor(third.orgId, email);
    expectBudgetSpent(await inviteOnce(third, email), [email]);
    expect(await writtenFor(third.orgId, email)).toEqual(before);
    expect(await mailsTo(email)).toBe(INVITATION_MAILS_PER_ADDRESS);
    await invite(t.http, third, { email: uniqueEmail(), role: 'viewer' });
  });
});

describe('DELETE /orgs/{orgUlid}/invitations/{invitationUlid}', () => {
  it('revokes a pending invitation: 204, its token answers 404, its seat is free, audited', async () => {
    const owner = await signUp(t.http);
    const person = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email: person.email, role: 'member' });
    const token = await invitationToken(smtp, invitation.ulid);
    const seatsBefore = (await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(owner.headers)).body.used;
    const response = await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${invitation.ulid}`).set(owner.headers);
    expect(response.status).toBe(204);
    expectError(await accept(t.http, person, token), 404, 'not_found');
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(owner.headers)).body.used).toBe(seatsBefore - 1);
    const [event] = await auditEvents(t.http, owner, { action: 'invitation.revoked', entityUlid: invitation.ulid });
    expect(event?.metadata).toMatchObject({ email: person.email });

    expectError(await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${invitation.ulid}`).set(owner.headers), 409, 'conflict');
    expectError(await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${newId()}`).set(owner.headers), 404, 'not_found');
    const stranger = await signUp(t.http);
    const foreign = await invite(t.http, stranger, { email: uniqueEmail(), role: 'viewer' });
    expectError(await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${foreign.ulid}`).set(owner.headers), 404, 'not_found');
  });
});

describe('POST /invitations/accept', () => {
  it('joins the session’s user with the invited role: 200 { organization, role }, audited twice', async () => {
    const owner = await signUp(t.http, { organizationName: 'Inviting org' });
    const person = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email: person.email, role: 'admin' });
    const response = await accept(t.http, person, await invitationToken(smtp, invitation.ulid));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      organization: { ulid: owner.orgId, name: 'Inviting org', plan: 'free', createdAt: expect.any(Number) },
      role: 'admin',
    });
    expect((await membershipOf(owner.orgId, person.userId))?.role).toBe('admin');
    const inOrg = { ...person, headers: { ...person.headers, 'X-Organization-Id': owner.orgId } };
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/invitations`).set(inOrg.headers)).status).toBe(200);
    const [accepted] = await auditEvents(t.http, owner, { action: 'invitation.accepted', entityUlid: invitation.ulid });
    expect(accepted).toMatchObject({ actor: { kind: 'user', ulid: person.userId }, metadata: { email: person.email, role: 'admin' } });
    const [joined] = await auditEvents(t.http, owner, { action: 'member.joined', entityUlid: person.userId });
    expect(joined?.metadata).toMatchObject({ role: 'admin', invitationUlid: invitation.ulid });
    expect((await invitationsOf(owner)).items[0]?.status).toBe('accepted');
    // Used: the token answers 404 from now on.
    expectError(await accept(t.http, person, await invitationToken(smtp, invitation.ulid)), 404, 'not_found');
  });

  it('answers 403 to another address, 404 to unknown and expired tokens, 401 to an API token', async () => {
    const owner = await signUp(t.http);
    const person = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email: person.email, role: 'member' });
    const token = await invitationToken(smtp, invitation.ulid);
    const someoneElse = await signUp(t.http);
    expectError(await accept(t.http, someoneElse, token), 403, 'forbidden');
    expect(await membershipOf(owner.orgId, someoneElse.userId)).toBeNull();
    expectError(await accept(t.http, person, 'not-a-token'), 404, 'not_found');
    expectError(
      await t.http
        .post('/api/v1/invitations/accept')
        .set((await tokenFor(t.http, person)).headers)
        .send({ token }),
      401,
      'unauthorized',
    );
    expectError(await t.http.post('/api/v1/invitations/accept').send({ token }), 401, 'unauthorized');
    await expireInvitation(invitation.ulid);
    expectError(await accept(t.http, person, token), 404, 'not_found');
    expect(await membershipOf(owner.orgId, person.userId)).toBeNull();
  });

  it('checks the seat limit again: a limit lowered after the invitation refuses a non-viewer, never a viewer', async () => {
    const owner = await signUp(t.http);
    const member = await signUp(t.http);
    const viewer = await signUp(t.http);
    const memberInvitation = await invite(t.http, owner, { email: member.email, role: 'member' });
    const viewerInvitation = await invite(t.http, owner, { email: viewer.email, role: 'viewer' });
    await setSeats(owner.orgId, 1);
    expectError(await accept(t.http, member, await invitationToken(smtp, memberInvitation.ulid)), 409, 'seat_limit_exceeded');
    expect(await membershipOf(owner.orgId, member.userId)).toBeNull();
    expect((await prisma().invitation.findUniqueOrThrow({ where: { id: memberInvitation.ulid } })).status).toBe('pending');
    expect((await accept(t.http, viewer, await invitationToken(smtp, viewerInvitation.ulid))).status).toBe(200);
    await setSeats(owner.orgId, 2);
    expect((await accept(t.http, member, await invitationToken(smtp, memberInvitation.ulid))).status).toBe(200);
  });

  it('with grantAllPrivateProjects grants every private project of the organization, and only those', async () => {
    const owner = await signUp(t.http);
    const [secretA, secretB, open] = [
      await createProject(t.http, owner),
      await createProject(t.http, owner),
      await createProject(t.http, owner),
    ];
    await prisma().project.updateMany({ where: { id: { in: [secretA.ulid, secretB.ulid] } }, data: { accessMode: 'private' } });
    const stranger = await signUp(t.http);
    await createProject(t.http, stranger).then((project) =>
      prisma().project.update({ where: { id: project.ulid }, data: { accessMode: 'private' } }),
    );
    const granted = await signUp(t.http);
    const plain = await signUp(t.http);
    const grantedInvitation = await invite(t.http, owner, { email: granted.email, role: 'member', grantAllPrivateProjects: true });
    expect(grantedInvitation.grantAllPrivateProjects).toBe(true);
    const plainInvitation = await invite(t.http, owner, { email: plain.email, role: 'viewer' });
    expect((await accept(t.http, granted, await invitationToken(smtp, grantedInvitation.ulid))).status).toBe(200);
    expect((await accept(t.http, plain, await invitationToken(smtp, plainInvitation.ulid))).status).toBe(200);

    const rows = await prisma().projectAccessMember.findMany({ where: { userId: granted.userId } });
    expect(rows.map((row) => [row.projectId, row.orgId, row.state]).sort()).toEqual(
      [
        [secretA.ulid, owner.orgId, 'granted'],
        [secretB.ulid, owner.orgId, 'granted'],
      ].sort(),
    );
    expect(await prisma().projectAccessMember.count({ where: { userId: plain.userId } })).toBe(0);
    const [event] = await auditEvents(t.http, owner, { action: 'invitation.accepted', entityUlid: grantedInvitation.ulid });
    expect(event?.metadata.grantedProjectUlids).toEqual([secretA.ulid, secretB.ulid].sort());
    // The granted member sees the private projects; the other one does not.
    const codes = async (caller: Caller) =>
      (
        (await t.http.get('/api/v1/projects').set({ ...caller.headers, 'X-Organization-Id': owner.orgId })).body.items as Array<{
          id: string;
        }>
      )
        .map((project) => project.id)
        .sort();
    expect(await codes(granted)).toEqual([secretA.id, secretB.id, open.id].sort());
    expect(await codes(plain)).toEqual([open.id]);
  });
});

describe('POST /auth/signup with invitationToken', () => {
  const signupBody = (email: string, invitationToken: string) => ({
    email,
    password: 'correct horse battery',
    firstName: 'Grace',
    lastName: 'Hopper',
    invitationToken,
  });

  it('makes the new user a member of the inviting organization instead of giving them one of their own', async () => {
    const owner = await signUp(t.http, { organizationName: 'Inviting org' });
    const email = uniqueEmail('newcomer');
    const invitation = await invite(t.http, owner, { email, role: 'member' });
    const response = await t.http
      .post('/api/v1/auth/signup')
      .send(signupBody(email.toUpperCase(), await invitationToken(smtp, invitation.ulid)));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.organization).toMatchObject({ ulid: owner.orgId, name: 'Inviting org' });
    expect(response.body.organizations).toEqual([{ ulid: owner.orgId, name: 'Inviting org', role: 'member' }]);
    const newcomer = sessionCaller(response, email);
    expect((await t.http.get('/api/v1/projects').set(newcomer.headers)).status).toBe(200);
    expect(await prisma().invitation.findUniqueOrThrow({ where: { id: invitation.ulid } })).toMatchObject({
      status: 'accepted',
      acceptedByUserId: newcomer.userId,
    });
    expect(await auditEvents(t.http, owner, { action: 'member.joined', entityUlid: newcomer.userId })).toHaveLength(1);
  });

  it('creates nothing for a token sent to another address (403) or an unusable token (404)', async () => {
    const owner = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    const token = await invitationToken(smtp, invitation.ulid);
    const otherEmail = uniqueEmail('other');
    expectError(await t.http.post('/api/v1/auth/signup').send(signupBody(otherEmail, token)), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/auth/signup').send(signupBody(otherEmail, 'unknown-token')), 404, 'not_found');
    expect(await prisma().user.count({ where: { email: otherEmail } })).toBe(0);
    expect((await prisma().invitation.findUniqueOrThrow({ where: { id: invitation.ulid } })).status).toBe('pending');
  });

  it('lets an existing account (right password) join with the token, without a new organization', async () => {
    const owner = await signUp(t.http);
    const person = await signUp(t.http, { organizationName: 'Own org' });
    const invitation = await invite(t.http, owner, { email: person.email, role: 'viewer' });
    const response = await t.http.post('/api/v1/auth/signup').send({
      email: person.email,
      password: 'correct horse battery',
      firstName: 'Test',
      lastName: 'User',
      invitationToken: await invitationToken(smtp, invitation.ulid),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.organization.ulid).toBe(owner.orgId);
    expect(response.body.organizations.map((org: { ulid: string }) => org.ulid)).toEqual([person.orgId, owner.orgId]);
  });
});

describe('a member who joined by invitation', () => {
  it('acts in the inviting organization with their role', async () => {
    const owner = await signUp(t.http);
    const member = await inviteAndJoin(t.http, smtp, owner, 'member');
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(member.headers)).status).toBe(200);
    expectError(await t.http.post('/api/v1/projects').set(member.headers).send({ name: 'Nope', id: 'NOPE' }), 403, 'forbidden');
  });
});
