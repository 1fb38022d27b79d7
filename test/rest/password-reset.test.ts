import { randomInt } from 'node:crypto';
import type { Response } from 'supertest';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import {
  PASSWORD_RESET_LIFETIME_MS,
  PASSWORD_RESETS_PER_ADDRESS,
  PASSWORD_RESETS_PER_CLIENT,
} from '../../src/accounts/password-reset.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { sha256 } from '../../src/kernel/secrets.ts';
import { auditEvents, type Caller, expectError, signUp, tokenFor, uniqueEmail, useTestApp } from '../support/app.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { recordStatements } from '../support/statements.ts';

/**
 * Password reset (contract §19): a mail with a token that sets a new password once within an
 * hour, ends the user's sessions and verifies the address; the request answers alike whether an
 * account has the address or not, within budgets per address and per client address.
 */

const PUBLIC_URL = 'https://tcms.example.test';
const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_SMTP_URL: smtp.url, TCMS_TRUST_PROXY: 'true' });
// Each test counts within one hour's window of the budgets.
beforeEach(() => windowWithRoom(HOUR_MS, 20_000));

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

// Counters outlive a run on the server database: each run, and each request unless a test says
// otherwise, takes a client address of its own (the app trusts X-Forwarded-For in this file).
const runPrefix = `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
let nextIp = 1;
const freshIp = () => `${runPrefix}::${(nextIp++).toString(16)}`;

const requestReset = (email: string, options: { ip?: string; language?: string } = {}) => {
  const request = t.http.post('/api/v1/auth/password-reset').set('X-Forwarded-For', options.ip ?? freshIp());
  return (options.language ? request.set('Accept-Language', options.language) : request).send({ email });
};
const confirm = (token: string, password = NEW_PASSWORD) => t.http.post('/api/v1/auth/password-reset/confirm').send({ token, password });
const login = (email: string, password: string) =>
  t.http.post('/api/v1/auth/login').set('X-Forwarded-For', freshIp()).send({ email, password });

const TOKEN_LINE = /^Password reset token: (\S+)$/m;

/** The `nth` (1-based) password reset mail delivered to `email`, and its token. */
async function resetMail(email: string, nth = 1, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = smtp.messagesTo(email).filter((message) => TOKEN_LINE.test(message.parsed.text ?? ''))[nth - 1];
    if (mail) return { subject: mail.parsed.subject, text: mail.parsed.text!, token: TOKEN_LINE.exec(mail.parsed.text!)![1]! };
    if (Date.now() > deadline) throw new Error(`password reset mail ${nth} to ${email} was not delivered`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function requestedToken(email: string, nth = 1): Promise<string> {
  expect((await requestReset(email)).status).toBe(202);
  return (await resetMail(email, nth)).token;
}

/**
 * What a client can read off an answer, but for what differs between any two requests: the date,
 * the request's ID, and how many seconds a 429 asks to wait (with the ETag of a body that names
 * them), which `expectAlikeRefusals` checks apart.
 */
function observable(response: Response) {
  const { date: _date, 'x-request-id': _id, 'retry-after': _retryAfter, etag: _etag, ...headers } = response.headers;
  const { retryAfterSeconds: _seconds, ...details } = response.body.error?.details ?? {};
  return { status: response.status, body: response.body.error ? { error: { ...response.body.error, details } } : response.body, headers };
}

const resetMailsTo = (email: string) => prisma().mailOutbox.count({ where: { subjectType: 'password_reset', recipient: email } });

describe('requesting a password reset', () => {
  it('answers 202 with no body, alike for an address with an account and one without', async () => {
    const user = await signUp(t.http);
    const unknown = uniqueEmail('nobody');
    const known = await requestReset(user.email);
    const missing = await requestReset(unknown);

    expect(known.status).toBe(202);
    expect(known.text).toBe('');
    expect(missing.text).toBe('');
    expect(observable(missing)).toEqual(observable(known));
    expect(await resetMailsTo(user.email)).toBe(1);
    expect(await resetMailsTo(unknown)).toBe(0);
    expect(await prisma().passwordResetToken.count({ where: { userId: user.userId } })).toBe(1);
  });

  it('sends the database the same statements for both, but for the mail queued to the account', async () => {
    const user = await signUp(t.http);
    const known = await recordStatements(() => requestReset(user.email));
    const missing = await recordStatements(() => requestReset(uniqueEmail('nobody')));

    const isMail = (statement: string) => /\bmail_(outbox|suppressions)\b/.test(statement);
    // Prisma logs the commit in its own words once its client (the mail's statements) ran in the transaction.
    const sameCommit = (statement: string) => (/\bCOMMIT\b/.test(statement) ? 'COMMIT' : statement);
    expect(known.statements.filter(isMail)).toHaveLength(2);
    expect(known.statements.filter((statement) => !isMail(statement)).map(sameCommit)).toEqual(missing.statements.map(sameCommit));
  });

  it('mails a link and the token line; only the hash is stored, valid for an hour', async () => {
    const user = await signUp(t.http, { firstName: 'Ada' });
    const before = Date.now();
    expect((await requestReset(user.email.toUpperCase())).status).toBe(202);
    const mail = await resetMail(user.email);

    expect(mail.subject).toBe('Reset your tcms password');
    expect(mail.text).toMatch(/^Hello Ada,$/m);
    expect(mail.text).toContain(`${PUBLIC_URL}/password-reset/confirm?token=${encodeURIComponent(mail.token)}\n`);
    const row = await prisma().passwordResetToken.findUniqueOrThrow({ where: { userId: user.userId } });
    expect(row.tokenHash).toBe(sha256(mail.token));
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + PASSWORD_RESET_LIFETIME_MS);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + PASSWORD_RESET_LIFETIME_MS);
  });

  it('writes the mail in Spanish for Accept-Language: es, with the same token line', async () => {
    const user = await signUp(t.http, { firstName: 'Ada' });
    expect((await requestReset(user.email, { language: 'es-MX,es;q=0.9,en;q=0.5' })).status).toBe(202);
    const mail = await resetMail(user.email);

    expect(mail.subject).toBe('Restablece tu contraseña de tcms');
    expect(mail.text).toMatch(/^Hola, Ada:$/m);
    expect(mail.text).toContain(`${PUBLIC_URL}/password-reset/confirm?token=${encodeURIComponent(mail.token)}\n`);
    expect((await confirm(mail.token)).status).toBe(200);
  });
});

describe('confirming a password reset', () => {
  it('sets the password, ends every session, keeps API tokens, verifies the address and audits in each organization', async () => {
    const user = await signUp(t.http, { password: PASSWORD });
    const bot = await tokenFor(t.http, user);
    const second = await t.http.post('/api/v1/orgs').set(user.headers).send({ name: 'Second organization' });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect((await t.http.get('/api/v1/auth/session').set(user.headers)).body.user.emailVerified).toBe(false);

    const confirmed = await confirm(await requestedToken(user.email));
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const signedIn = await login(user.email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(confirmed.body).toEqual({ user: signedIn.body.user });
    expect(confirmed.body.user).toMatchObject({ ulid: user.userId, email: user.email, emailVerified: true });

    expectError(await t.http.get('/api/v1/auth/session').set(user.headers), 401, 'unauthorized');
    expect(await prisma().session.count({ where: { userId: user.userId } })).toBe(1);
    expect((await t.http.get('/api/v1/projects').set(bot.headers)).status).toBe(200);
    expectError(await login(user.email, PASSWORD), 401, 'unauthorized');

    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0])
      .join('; ');
    for (const orgId of [user.orgId, second.body.ulid as string]) {
      const owner: Caller = { ...user, orgId, headers: { Cookie: cookie, 'X-Organization-Id': orgId } };
      const [event, ...others] = await auditEvents(t.http, owner, { action: 'user.password_reset' });
      expect(others).toEqual([]);
      expect(event).toMatchObject({
        actor: { kind: 'user', ulid: user.userId, email: user.email },
        entityType: 'user',
        entityUlid: user.userId,
        entityLabel: user.email,
      });
    }
  });

  it('spends the token: a second confirmation answers 404', async () => {
    const user = await signUp(t.http);
    const token = await requestedToken(user.email);
    expect((await confirm(token)).status).toBe(200);
    expectError(await confirm(token, 'yet another passphrase'), 404, 'not_found');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers 404 to a token a new request replaced, and to an unknown one', async () => {
    const user = await signUp(t.http);
    const first = await requestedToken(user.email);
    const second = await requestedToken(user.email, 2);
    expect(second).not.toBe(first);
    expectError(await confirm(first), 404, 'not_found');
    expectError(await confirm('not-a-token'), 404, 'not_found');
    expect((await confirm(second)).status).toBe(200);
  });

  it('answers 404 to an expired token, which the maintenance sweep deletes', async () => {
    const user = await signUp(t.http, { password: PASSWORD });
    const token = await requestedToken(user.email);
    await prisma().passwordResetToken.update({ where: { userId: user.userId }, data: { expiresAt: new Date(Date.now() - 1) } });

    expectError(await confirm(token), 404, 'not_found');
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    await sweepExpired(prisma());
    expect(await prisma().passwordResetToken.count({ where: { userId: user.userId } })).toBe(0);
  });

  it('lifts the sign-in blocks of the address: its owner signs in from where the failures came', async () => {
    const user = await signUp(t.http, { password: PASSWORD });
    const ip = freshIp();
    const attempt = (password: string) =>
      t.http.post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password });
    for (let failure = 0; failure < 10; failure++) expect((await attempt('a wrong guess')).status).toBe(401);
    expectError(await attempt(PASSWORD), 429, 'too_many_requests');
    expect((await confirm(await requestedToken(user.email))).status).toBe(200);
    expect((await attempt(NEW_PASSWORD)).status).toBe(200);
  });

  it("refuses a password that breaks signup's rules with 422, and the token still works", async () => {
    const user = await signUp(t.http);
    const token = await requestedToken(user.email);
    expectError(await confirm(token, 'short'), 422, 'validation_failed');
    expect((await confirm(token)).status).toBe(200);
  });
});

describe('password reset budgets', () => {
  /** Both answers are 429s that differ in nothing but their moment: Retry-After within a second of each other. */
  function expectAlikeRefusals(known: Response, missing: Response) {
    const seconds = [known, missing].map((response) => {
      expectError(response, 429, 'too_many_requests');
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(HOUR_MS / 1000);
      expect(response.body.error.details.retryAfterSeconds).toBe(retryAfter);
      return retryAfter;
    });
    expect(Math.abs(seconds[0]! - seconds[1]!)).toBeLessThanOrEqual(1);
    expect(observable(missing)).toEqual(observable(known));
  }

  it('refuses the 6th request within the hour for one address with 429, alike for an address without an account', async () => {
    const user = await signUp(t.http);
    const unknown = uniqueEmail('nobody');
    for (let sent = 1; sent <= PASSWORD_RESETS_PER_ADDRESS; sent += 1) {
      expect((await requestReset(user.email)).status).toBe(202);
      expect((await requestReset(unknown)).status).toBe(202);
    }
    expectAlikeRefusals(await requestReset(user.email), await requestReset(unknown));
    expect(await resetMailsTo(user.email)).toBe(PASSWORD_RESETS_PER_ADDRESS);
  });

  it('refuses the 21st request within the hour from one client address with 429, whichever address it names', async () => {
    const user = await signUp(t.http);
    const ip = freshIp();
    for (let sent = 1; sent <= PASSWORD_RESETS_PER_CLIENT; sent += 1) {
      expect((await requestReset(uniqueEmail('someone'), { ip })).status).toBe(202);
    }
    expectAlikeRefusals(await requestReset(user.email, { ip }), await requestReset(uniqueEmail('nobody'), { ip }));
    expect(await resetMailsTo(user.email)).toBe(0);
    // Another client address is not refused.
    expect((await requestReset(user.email)).status).toBe(202);
  });
});
