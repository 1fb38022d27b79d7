import { randomInt } from 'node:crypto';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../app/tcms.ts';
import { SIGN_IN_FAILURES, SIGN_IN_FAILURES_PER_IP, SIGN_IN_WINDOW_SECONDS } from '../../src/foundation/auth/sign-in-throttle.ts';
import { expectError, signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { windowWithRoom } from '../support/fixed-windows.ts';
import { ROOT, spawnWatched } from '../support/processes.ts';

/**
 * `tcms auth unblock <email|ipAddress>` clears what the sign-in throttle holds against an account
 * (its pairs with every client address) or against a client address (its own budget and its
 * pairs with every account), and nothing else.
 */

const t = useTestApp({ TCMS_TRUST_PROXY: 'true' });
beforeEach(() => windowWithRoom(SIGN_IN_WINDOW_SECONDS * 1000, 30_000));
const PASSWORD = 'correct horse battery';

// Counters outlive a run on the server database: each run takes client addresses of its own.
const runPrefix = `2001:db8:${randomInt(0x1000, 0x10000).toString(16)}:${randomInt(0x1000, 0x10000).toString(16)}`;
let nextIp = 1;
const freshIp = () => `${runPrefix}::${(nextIp++).toString(16)}`;
const freshIpv4 = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

const login = (email: string, password: string, ip: string) =>
  t.http.post('/api/v1/auth/login').set({ 'X-Forwarded-For': ip }).send({ email, password });
const signsIn = async (email: string, ip: string) => (await login(email, PASSWORD, ip)).status === 200;

async function failTimes(email: string, ip: string, times = SIGN_IN_FAILURES) {
  for (let attempt = 0; attempt < times; attempt += 1) {
    expectError(await login(email, 'wrong password!', ip), 401, 'unauthorized');
  }
}

/** Runs `node bin/tcms.mjs` as a real process on the test app's database (through its socket, when embedded). */
async function tcmsProcess(...args: string[]) {
  const child = spawnWatched(process.execPath, [path.join(ROOT, 'bin', 'tcms.mjs'), ...args], {
    env: { TCMS_DATA_DIR: t.dataDir },
    limitMs: 120_000,
  });
  const { code } = await child.closed;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

async function unblocked(value: string) {
  const result = await tcmsProcess('auth', 'unblock', value);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { account?: string; clientAddress?: string; countersCleared: number };
}

describe('tcms auth unblock', () => {
  it("clears an account's blocks from every client address, and no other account's", { timeout: 120_000 }, async () => {
    const [user, other] = [await signUp(t.http), await signUp(t.http)];
    const [office, home] = [freshIp(), freshIp()];
    await failTimes(user.email, office);
    await failTimes(user.email, home);
    await failTimes(other.email, office);
    expect(await signsIn(user.email, office)).toBe(false);

    expect(await unblocked(user.email.toUpperCase())).toEqual({ account: user.email.toUpperCase(), countersCleared: 2 });
    expect(await signsIn(user.email, office)).toBe(true);
    expect(await signsIn(user.email, home)).toBe(true);
    expect(await signsIn(other.email, office)).toBe(false);
  });

  it('clears a client address: its hourly budget and its pairs with every account, not its accounts elsewhere', {
    timeout: 120_000,
  }, async () => {
    const user = await signUp(t.http);
    const [office, home] = [freshIpv4(), freshIp()];
    // A dual-stack socket reports an IPv4 client as IPv4-mapped IPv6; the operator types the IPv4 address.
    const officeAsSeen = `::ffff:${office}`;
    await failTimes(user.email, officeAsSeen);
    await failTimes(user.email, home);
    const guesses = (SIGN_IN_FAILURES_PER_IP - SIGN_IN_FAILURES) / 5;
    await Promise.all(Array.from({ length: guesses }, () => failTimes(uniqueEmail('guess'), officeAsSeen, 5)));
    const stranger = await signUp(t.http);
    expect(await signsIn(stranger.email, officeAsSeen)).toBe(false);

    expect(await unblocked(office)).toEqual({ clientAddress: office, countersCleared: 1 + guesses + 1 });
    expect(await signsIn(stranger.email, office)).toBe(true);
    expect(await signsIn(user.email, officeAsSeen)).toBe(true);
    expect(await signsIn(user.email, home)).toBe(false);
  });

  it('clears nothing, with exit 0, when nothing is held', { timeout: 120_000 }, async () => {
    expect(await unblocked(freshIp())).toMatchObject({ countersCleared: 0 });
  });
});

describe('tcms auth unblock usage', () => {
  /** Runs the command in this process, against the test app's open database. */
  async function tcms(...argv: string[]) {
    const err: string[] = [];
    const code = await runCli(argv, { out: () => {}, err: (line) => err.push(line) });
    return { code, err };
  }

  it.each([['not-an-address'], ['999.1.2.3'], ['a@'], ['@example.test'], ['']])('exits 2 in one line for %j', async (value) => {
    const result = await tcms('auth', 'unblock', value);
    expect(result.code).toBe(2);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('neither an email address nor an IP address');
  });

  it.each([[['auth']], [['auth', 'unblock']], [['auth', 'unblock', 'a@example.test', '10.0.0.1']], [['auth', 'block', 'a@example.test']]])(
    'exits 2 with a usage message for %j',
    async (argv) => {
      const result = await tcms(...argv);
      expect(result.code).toBe(2);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/tcms help/);
    },
  );
});
