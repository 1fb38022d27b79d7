import { afterAll, describe, expect, it } from 'vitest';
import { RESENDS_PER_HOUR } from '../../src/foundation/auth/email-verification.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, expectError, graphql, signUp, tokenFor, uniqueEmail, useTestApp } from '../support/app.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import { dataOf } from '../support/graphql.ts';
import { accept, invitationToken, invite } from '../support/invitations.ts';
import { startSmtpServer } from '../support/smtp.ts';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_SMTP_URL: smtp.url, TCMS_REQUIRE_EMAIL_VERIFICATION: 'true' });

/** The token on the `Verification token:` line of the `nth` (1-based) verification mail delivered to `email`. */
async function verificationToken(email: string, nth = 1, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = smtp.messagesTo(email).filter((message) => /^Verification token: /m.test(message.parsed.text ?? ''));
    const mail = mails[nth - 1];
    if (mail) {
      expect(mail.parsed.subject).toBe('Verify your email address for tcms');
      return /^Verification token: (\S+)$/m.exec(mail.parsed.text ?? '')![1]!;
    }
    if (Date.now() > deadline) throw new Error(`verification mail ${nth} to ${email} was not delivered`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const verify = (token: string) => t.http.post('/api/v1/auth/verify-email').send({ token });
const resend = (caller: Caller) => t.http.post('/api/v1/auth/verify-email/resend').set(caller.headers).send();
const sessionUser = async (caller: Caller) => (await t.http.get('/api/v1/auth/session').set(caller.headers)).body.user;

async function verifiedSignUp(): Promise<Caller> {
  const caller = await signUp(t.http);
  expect((await verify(await verificationToken(caller.email))).status).toBe(200);
  return caller;
}

describe('email verification', () => {
  it('signup mails a token that verifies the user once, without a session', async () => {
    const email = uniqueEmail('verify');
    const response = await t.http
      .post('/api/v1/auth/signup')
      .send({ email, password: 'correct horse battery', firstName: 'Vera', lastName: 'Fied' });
    expect(response.status).toBe(201);
    expect(response.body.user).toMatchObject({ email, emailVerified: false });
    const row = await prisma().user.findUniqueOrThrow({ where: { email } });
    const token = await verificationToken(email);
    expect(row.emailVerificationTokenHash).not.toBe(token);

    const verified = await verify(token);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toEqual({ user: expect.objectContaining({ ulid: row.id, email, emailVerified: true }) });
    expectError(await verify(token), 404, 'not_found');
    expectError(await verify('not-a-token'), 404, 'not_found');

    const login = await t.http.post('/api/v1/auth/login').send({ email, password: 'correct horse battery' });
    expect(login.body.user.emailVerified).toBe(true);
  });

  it('resends with a new token (the earlier one stops working), at most 5 an hour, and not once verified', async () => {
    await windowWithRoom(HOUR_MS, 20_000);
    const caller = await signUp(t.http);
    const first = await verificationToken(caller.email);
    expect((await resend(caller)).status).toBe(202);
    const second = await verificationToken(caller.email, 2);
    expect(second).not.toBe(first);
    expectError(await verify(first), 404, 'not_found');

    for (let sent = 2; sent <= 5; sent += 1) expect((await resend(caller)).status).toBe(202);
    const refused = await resend(caller);
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const last = await verificationToken(caller.email, 6);
    expectError(await verify(second), 404, 'not_found');
    expect((await verify(last)).body.user.emailVerified).toBe(true);
    expect(await sessionUser(caller)).toMatchObject({ emailVerified: true });
    expectError(await resend(caller), 409, 'conflict');
  });

  it('resends once for a request with an Idempotency-Key, and replays its answer', async () => {
    const caller = await signUp(t.http);
    const keyed = () =>
      t.http.post('/api/v1/auth/verify-email/resend').set(caller.headers).set('Idempotency-Key', `resend-${caller.email}`).send();
    expect((await keyed()).status).toBe(202);
    const second = await verificationToken(caller.email, 2);
    const replay = await keyed();
    expect(replay.status).toBe(202);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect((await verify(second)).status).toBe(200);
  });

  it('sends no more than 5 an hour however many resends arrive at once, with Idempotency-Keys or without', async () => {
    await windowWithRoom(HOUR_MS, 20_000);
    const caller = await signUp(t.http);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => {
        const request = t.http.post('/api/v1/auth/verify-email/resend').set(caller.headers);
        return (index % 2 === 0 ? request : request.set('Idempotency-Key', `resend-${index}-${caller.email}`)).send();
      }),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(RESENDS_PER_HOUR).fill(202), ...Array(12 - RESENDS_PER_HOUR).fill(429)]);
    // The signup's mail and the resends.
    expect(await prisma().mailOutbox.count({ where: { subjectType: 'email_verification', subjectId: caller.userId } })).toBe(
      1 + RESENDS_PER_HOUR,
    );
  });

  it('resending needs a session: an API token gets 401', async () => {
    const caller = await verifiedSignUp();
    const bot = await tokenFor(t.http, caller);
    expectError(await resend(bot), 401, 'unauthorized');
  });

  it('with TCMS_REQUIRE_EMAIL_VERIFICATION an unverified user cannot invite, create API tokens or accept an invitation until verified', async () => {
    const inviter = await verifiedSignUp();
    const person = await signUp(t.http);
    expect(await sessionUser(person)).toMatchObject({ emailVerified: false });
    expect(dataOf(await graphql(t.http, person, '{ viewer { emailVerified } }')).viewer.emailVerified).toBe(false);

    // They work in their own organization.
    expect((await t.http.post('/api/v1/projects').set(person.headers).send({ name: 'Mine', id: 'MINE' })).status).toBe(201);
    expectError(
      await t.http.post(`/api/v1/orgs/${person.orgId}/invitations`).set(person.headers).send({ email: uniqueEmail(), role: 'member' }),
      403,
      'email_not_verified',
    );
    expectError(
      await t.http
        .post(`/api/v1/orgs/${person.orgId}/invitations/bulk`)
        .set(person.headers)
        .send({ emails: [uniqueEmail()], role: 'member' }),
      403,
      'email_not_verified',
    );
    expectError(await t.http.post('/api/v1/me/api-tokens').set(person.headers).send({ name: 'ci' }), 403, 'email_not_verified');
    const invitation = await invite(t.http, inviter, { email: person.email, role: 'member' });
    const invitationSecret = await invitationToken(smtp, invitation.ulid);
    expectError(await accept(t.http, person, invitationSecret), 403, 'email_not_verified');

    expect((await verify(await verificationToken(person.email))).status).toBe(200);
    expect(dataOf(await graphql(t.http, person, '{ viewer { emailVerified } }')).viewer.emailVerified).toBe(true);
    expect((await accept(t.http, person, invitationSecret)).status).toBe(200);
    expect((await t.http.post('/api/v1/me/api-tokens').set(person.headers).send({ name: 'ci' })).status).toBe(201);
    expect(
      (await t.http.post(`/api/v1/orgs/${person.orgId}/invitations`).set(person.headers).send({ email: uniqueEmail(), role: 'member' }))
        .status,
    ).toBe(201);
  });

  it('signing up with an invitation token verifies the user and sends no verification mail', async () => {
    const inviter = await verifiedSignUp();
    const email = uniqueEmail('invited');
    const invitation = await invite(t.http, inviter, { email, role: 'member' });
    const response = await t.http.post('/api/v1/auth/signup').send({
      email,
      password: 'correct horse battery',
      firstName: 'In',
      lastName: 'Vited',
      invitationToken: await invitationToken(smtp, invitation.ulid),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.user.emailVerified).toBe(true);
    const user = await prisma().user.findUniqueOrThrow({ where: { email } });
    expect(await prisma().mailOutbox.count({ where: { subjectType: 'email_verification', subjectId: user.id } })).toBe(0);
  });
});
