import { randomInt } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import {
  SIGN_IN_FAILURES,
  SIGN_IN_FAILURES_PER_IP,
  SIGN_IN_IP_WINDOW_SECONDS,
  SIGN_IN_WINDOW_SECONDS,
} from '../../src/foundation/auth/sign-in-throttle.ts';
import { digestKey, digestPairKey } from '../../src/foundation/rate-limit/rate-limit.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { expectError, signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { windowWithRoom } from '../support/fixed-windows.ts';

/**
 * Guessing passwords is throttled: 10 failed sign-ins within 15 minutes for one account from one
 * client address, or 100 within an hour from one client address for all accounts, answer 429
 * with Retry-After — for an account that exists exactly as for one that does not. Failures from
 * one client address never block an account from another, nor another account from it.
 */

const t = useTestApp({ TCMS_TRUST_PROXY: 'true' });
// Each test counts within one 15-minute window (and so within one hour).
beforeEach(() => windowWithRoom(SIGN_IN_WINDOW_SECONDS * 1000, 30_000));
const PASSWORD = 'correct horse battery';

/** Requests from one client address (the app trusts X-Forwarded-For in this file). */
const from = (ip: string) => ({ 'X-Forwarded-For': ip });
// Counters outlive a run on the server database: each run takes client addresses of its own
// (four hex digits a group, as the throttle spells them).
const runPrefix = `2001:db8:${randomInt(0x1000, 0x10000).toString(16)}:${randomInt(0x1000, 0x10000).toString(16)}`;
let nextIp = 1;
const freshIp = () => `${runPrefix}::${(nextIp++).toString(16)}`;

const login = (email: string, password: string, ip: string) => t.http.post('/api/v1/auth/login').set(from(ip)).send({ email, password });
const signUpAgain = (email: string, password: string, ip: string) =>
  t.http.post('/api/v1/auth/signup').set(from(ip)).send({ email, password, firstName: 'A', lastName: 'B' });

async function failTimes(email: string, ip: string, times = SIGN_IN_FAILURES) {
  for (let attempt = 0; attempt < times; attempt += 1) {
    expectError(await login(email, 'wrong password!', ip), 401, 'unauthorized');
  }
}

/** Spends a client address's hourly budget: 5 failures for each of 20 unknown accounts. */
const spendAddressBudget = (ip: string) =>
  Promise.all(Array.from({ length: SIGN_IN_FAILURES_PER_IP / 5 }, () => failTimes(uniqueEmail('guess'), ip, 5)));

/** The counter rows (one per window) of an account from a client address, and of a client address. */
const pairCounter = (email: string, ip: string) => ({ orgId: digestPairKey('sign_in', email, ip), bucket: 'sign_in' });
const ipCounter = (ip: string) => ({ orgId: digestKey('sign_in_ip', ip), bucket: 'sign_in_ip' });
/** Moves a counter's windows `minutes` into the past. */
const age = (where: ReturnType<typeof pairCounter>, minutes: number) =>
  prisma().rateLimitWindow.updateMany({ where, data: { windowStart: new Date(Date.now() - minutes * 60_000) } });
/** Failures the IP's counter holds in the current window (none when it has no row). */
const ipFailures = async (ip: string) => (await prisma().rateLimitWindow.findFirst({ where: ipCounter(ip) }))?.count ?? 0;

function expectThrottled(response: Awaited<ReturnType<typeof login>>, windowSeconds = SIGN_IN_WINDOW_SECONDS) {
  expectError(response, 429, 'too_many_requests');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  return response.body.error as { code: string; message: string };
}

describe('sign-in throttling per account and client address', () => {
  it('answers 429 after 10 failures, even with the right password, and the same for an unknown account', async () => {
    const user = await signUp(t.http);
    const unknown = uniqueEmail('nobody');
    const ip = freshIp();
    await failTimes(user.email, ip);
    await failTimes(unknown, ip);

    const known = expectThrottled(await login(user.email, PASSWORD, ip));
    const missing = expectThrottled(await login(unknown, PASSWORD, ip));
    // Nothing tells an existing account from a missing one.
    expect({ code: missing.code, message: missing.message }).toEqual({ code: known.code, message: known.message });
    // Signing up again with the address is a sign-in attempt too.
    expectThrottled(await signUpAgain(user.email, PASSWORD, ip));
  });

  it('blocks neither another account from the same address nor the account from another address', async () => {
    const [blocked, neighbour] = [await signUp(t.http), await signUp(t.http)];
    const office = freshIp();
    await failTimes(blocked.email, office);

    expect((await login(neighbour.email, PASSWORD, office)).status).toBe(200);
    expect((await login(blocked.email, PASSWORD, freshIp())).status).toBe(200);
    expectThrottled(await login(blocked.email, PASSWORD, office));
  });

  it('lets nine failures pass, and a success clears the pair but not the address', async () => {
    const user = await signUp(t.http);
    const ip = freshIp();
    await failTimes(user.email, ip, SIGN_IN_FAILURES - 1);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    await failTimes(user.email, ip, SIGN_IN_FAILURES - 1);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    expect(await ipFailures(ip)).toBe(2 * (SIGN_IN_FAILURES - 1));
  });

  it('counts a signup with an existing address and another password as a failure', async () => {
    const user = await signUp(t.http);
    const ip = freshIp();
    for (let attempt = 0; attempt < SIGN_IN_FAILURES; attempt += 1) {
      expectError(await signUpAgain(user.email, 'another passphrase', ip), 409, 'conflict');
    }
    expectThrottled(await login(user.email, PASSWORD, ip));
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('opens again once the 15-minute window has passed', async () => {
    const user = await signUp(t.http);
    const ip = freshIp();
    await failTimes(user.email, ip);
    expectThrottled(await login(user.email, PASSWORD, ip));
    await age(pairCounter(user.email, ip), SIGN_IN_WINDOW_SECONDS / 60);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
  });

  it('has its expired counters removed by the maintenance sweep', async () => {
    const email = uniqueEmail('swept');
    const ip = freshIp();
    await failTimes(email, ip, 1);
    for (const [where, windowSeconds] of [
      [pairCounter(email, ip), SIGN_IN_WINDOW_SECONDS],
      [ipCounter(ip), SIGN_IN_IP_WINDOW_SECONDS],
    ] as const) {
      expect(await prisma().rateLimitWindow.count({ where })).toBe(1);
      await age(where, (2 * windowSeconds) / 60 + 1);
    }
    await sweepExpired(prisma());
    expect(await prisma().rateLimitWindow.count({ where: pairCounter(email, ip) })).toBe(0);
    expect(await prisma().rateLimitWindow.count({ where: ipCounter(ip) })).toBe(0);
  });
});

describe('sign-in throttling per client address', () => {
  it('does not count a success from an address, nor an attempt refused for its pair', async () => {
    const ip = freshIp();
    await failTimes(uniqueEmail('guess'), ip, SIGN_IN_FAILURES - 1);
    const user = await signUp(t.http);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(200);
    expect(await ipFailures(ip)).toBe(SIGN_IN_FAILURES - 1);

    const blocked = uniqueEmail('blocked');
    const elsewhere = freshIp();
    await failTimes(blocked, elsewhere);
    for (let attempt = 0; attempt < 3; attempt += 1) expectThrottled(await login(blocked, PASSWORD, elsewhere));
    expect(await ipFailures(elsewhere)).toBe(SIGN_IN_FAILURES);
  });

  it('answers 429 to every account from an address with 100 failures in the hour, while other addresses sign in', async () => {
    const ip = freshIp();
    await spendAddressBudget(ip);
    const user = await signUp(t.http);
    const known = expectThrottled(await login(user.email, PASSWORD, ip), SIGN_IN_IP_WINDOW_SECONDS);
    const missing = expectThrottled(await login(uniqueEmail('nobody'), PASSWORD, ip), SIGN_IN_IP_WINDOW_SECONDS);
    expect(missing).toEqual(known);
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

  it('checks at most 10 of 50 wrong passwords for one account from one address sent at once', async () => {
    const user = await signUp(t.http);
    const ip = freshIp();
    const attempts = Array.from({ length: 50 }, () => () => login(user.email, 'wrong password!', ip));
    expect(await checkedAtOnce(attempts)).toEqual({ checked: SIGN_IN_FAILURES, refused: 50 - SIGN_IN_FAILURES });
  });

  it('checks at most 100 of 130 wrong passwords from one address sent at once', async () => {
    const ip = freshIp();
    const attempts = Array.from({ length: 130 }, () => () => login(uniqueEmail('guess'), 'wrong password!', ip));
    expect(await checkedAtOnce(attempts)).toEqual({ checked: SIGN_IN_FAILURES_PER_IP, refused: 130 - SIGN_IN_FAILURES_PER_IP });
  });
});
