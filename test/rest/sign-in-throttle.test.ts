import { randomInt } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { SIGN_IN_FAILURES, SIGN_IN_WINDOW_SECONDS } from '../../src/foundation/auth/sign-in-throttle.ts';
import { digestKey } from '../../src/foundation/rate-limit/rate-limit.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { expectError, signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { windowWithRoom } from '../support/fixed-windows.ts';

/**
 * Guessing passwords is throttled: 10 failed sign-ins within 15 minutes for one address, or from
 * one client address, answer 429 with Retry-After — for an account that exists exactly as for one
 * that does not.
 */

const t = useTestApp({ TCMS_TRUST_PROXY: 'true' });
// Each test counts within one 15-minute window.
beforeEach(() => windowWithRoom(SIGN_IN_WINDOW_SECONDS * 1000, 20_000));
const PASSWORD = 'correct horse battery';

/** Requests from one client address (the app trusts X-Forwarded-For in this file). */
const from = (ip: string) => ({ 'X-Forwarded-For': ip });
// Counters outlive a run on the server database: each run takes client addresses of its own.
const runPrefix = `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
let nextIp = 1;
const freshIp = () => `${runPrefix}::${(nextIp++).toString(16)}`;

const login = (email: string, password: string, ip: string) => t.http.post('/api/v1/auth/login').set(from(ip)).send({ email, password });

async function failTimes(email: string, ip: (attempt: number) => string, times = SIGN_IN_FAILURES) {
  for (let attempt = 0; attempt < times; attempt += 1) {
    expectError(await login(email, 'wrong password!', ip(attempt)), 401, 'unauthorized');
  }
}

/** The address's and an IP's counter rows (one per 15-minute window) in the rate limiter's table. */
const addressCounter = (email: string) => ({ orgId: digestKey('sign_in', 'email', email), bucket: 'sign_in' });
const ipCounter = (ip: string) => ({ orgId: digestKey('sign_in', 'ip', ip), bucket: 'sign_in' });
/** Moves a counter's windows `minutes` into the past. */
const age = (where: ReturnType<typeof addressCounter>, minutes: number) =>
  prisma().rateLimitWindow.updateMany({ where, data: { windowStart: new Date(Date.now() - minutes * 60_000) } });

function expectThrottled(response: Awaited<ReturnType<typeof login>>) {
  expectError(response, 429, 'too_many_requests');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_WINDOW_SECONDS);
  return response.body.error as { code: string; message: string };
}

describe('sign-in throttling per address', () => {
  it('answers 429 after 10 failures, even with the right password, and the same for an unknown address', async () => {
    const user = await signUp(t.http);
    const unknown = uniqueEmail('nobody');
    // Each failure from another client address: only the address counter fills up.
    await failTimes(user.email, () => freshIp());
    await failTimes(unknown, () => freshIp());

    const known = expectThrottled(await login(user.email, PASSWORD, freshIp()));
    const missing = expectThrottled(await login(unknown, PASSWORD, freshIp()));
    // Nothing tells an existing account from a missing one.
    expect({ code: missing.code, message: missing.message }).toEqual({ code: known.code, message: known.message });
    // Signing up again with the address is a sign-in attempt too.
    expectThrottled(
      await t.http
        .post('/api/v1/auth/signup')
        .set(from(freshIp()))
        .send({ email: user.email, password: PASSWORD, firstName: 'A', lastName: 'B' }),
    );
  });

  it('lets nine failures pass, and a success clears the address', async () => {
    const user = await signUp(t.http);
    await failTimes(user.email, () => freshIp(), SIGN_IN_FAILURES - 1);
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
    await failTimes(user.email, () => freshIp(), SIGN_IN_FAILURES - 1);
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('counts a signup with an existing address and another password as a failure', async () => {
    const user = await signUp(t.http);
    for (let attempt = 0; attempt < SIGN_IN_FAILURES; attempt += 1) {
      const response = await t.http
        .post('/api/v1/auth/signup')
        .set(from(freshIp()))
        .send({ email: user.email, password: 'another passphrase', firstName: 'A', lastName: 'B' });
      expectError(response, 409, 'conflict');
    }
    expectThrottled(await login(user.email, PASSWORD, freshIp()));
  });

  it('opens again once the 15-minute window has passed', async () => {
    const user = await signUp(t.http);
    await failTimes(user.email, () => freshIp());
    expectThrottled(await login(user.email, PASSWORD, freshIp()));
    await age(addressCounter(user.email), SIGN_IN_WINDOW_SECONDS / 60);
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('has its expired counters removed by the maintenance sweep', async () => {
    const email = uniqueEmail('swept');
    await failTimes(email, () => freshIp(), 1);
    const where = addressCounter(email);
    expect(await prisma().rateLimitWindow.count({ where })).toBe(1);
    await age(where, (2 * SIGN_IN_WINDOW_SECONDS) / 60 + 1);
    await sweepExpired(prisma());
    expect(await prisma().rateLimitWindow.count({ where })).toBe(0);
  });
});

describe('sign-in throttling per client address', () => {
  /** Failures the IP's counter holds in the current window (none when it has no row). */
  const ipFailures = async (ip: string) => (await prisma().rateLimitWindow.findFirst({ where: ipCounter(ip) }))?.count ?? 0;

  it('does not count a success from an IP, nor an attempt refused for its address', async () => {
    const ip = freshIp();
    await failTimes(uniqueEmail('guess'), () => ip, SIGN_IN_FAILURES - 1);
    const user = await signUp(t.http);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    expect(await ipFailures(ip)).toBe(SIGN_IN_FAILURES - 1);

    const blocked = uniqueEmail('blocked');
    await failTimes(blocked, () => freshIp());
    const elsewhere = freshIp();
    for (let attempt = 0; attempt < 3; attempt += 1) expectThrottled(await login(blocked, PASSWORD, elsewhere));
    expect(await ipFailures(elsewhere)).toBe(0);
  });

  it('answers 429 to every address from an IP with 10 failures, while other IPs sign in', async () => {
    const ip = freshIp();
    await failTimes(uniqueEmail('guess'), () => ip, 3);
    await failTimes(uniqueEmail('guess'), () => ip, 3);
    await failTimes(uniqueEmail('guess'), () => ip, SIGN_IN_FAILURES - 6);
    const user = await signUp(t.http);
    expectThrottled(await login(user.email, PASSWORD, ip));
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });
});

describe('sign-in throttling under concurrency', () => {
  /** How many of `attempts` sent at once had their password checked (401) and how many were refused before (429). */
  async function checkedAtOnce(attempts: Array<() => ReturnType<typeof login>>) {
    const answers = await Promise.all(attempts.map((attempt) => attempt()));
    const statuses = answers.map((answer) => answer.status);
    return { checked: statuses.filter((status) => status === 401).length, refused: statuses.filter((status) => status === 429).length };
  }

  it('checks at most 10 of 100 wrong passwords for one address sent at once', async () => {
    const user = await signUp(t.http);
    const attempts = Array.from({ length: 100 }, () => () => login(user.email, 'wrong password!', freshIp()));
    expect(await checkedAtOnce(attempts)).toEqual({ checked: SIGN_IN_FAILURES, refused: 100 - SIGN_IN_FAILURES });
  });

  it('checks at most 10 of 30 wrong passwords from one IP sent at once', async () => {
    const ip = freshIp();
    const attempts = Array.from({ length: 30 }, () => () => login(uniqueEmail('guess'), 'wrong password!', ip));
    expect(await checkedAtOnce(attempts)).toEqual({ checked: SIGN_IN_FAILURES, refused: 30 - SIGN_IN_FAILURES });
  });
});
