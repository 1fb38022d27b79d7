import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exitWithin,
  killNow,
  logMessages,
  ROOT,
  spawnServer,
  spawnWatched,
  untilListening,
  type WatchedProcess,
} from '../support/processes.ts';
import { freePort } from '../support/tcp-proxy.ts';

/**
 * The server as an operator starts it: `npm start` is one process that stops on SIGTERM, and a
 * start-up that cannot succeed ends with one clear log line and exit code 1, never a stack.
 */

const started: WatchedProcess[] = [];
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-start-up-'));
});

afterAll(async () => {
  await Promise.all(started.map((child) => killNow(child)));
  await rm(dataDir, { recursive: true, force: true });
});

/** Spawns the server with `env` and waits for it to exit. */
async function failedStart(env: NodeJS.ProcessEnv) {
  const server = spawnServer({ dataDir, env, limitMs: 90_000 });
  started.push(server);
  const exit = await server.exited;
  await server.closed;
  return { exit, output: server.output() };
}

/** One JSON log line at level fatal whose message says `pattern`, and nothing that looks like a stack. */
function expectOneLineFailure(output: string, pattern: RegExp) {
  const fatal = output
    .split('\n')
    .filter((line) => line.includes('"level":"fatal"'))
    .map((line) => JSON.parse(line) as { msg: string });
  expect(fatal, output).toHaveLength(1);
  expect(fatal[0]!.msg).toMatch(/^tcms cannot start: /);
  expect(fatal[0]!.msg).toMatch(pattern);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('start-up failures', { timeout: 120_000 }, () => {
  it.each([
    ['a PORT that is not a port', { PORT: 'eighty' }, /PORT must be a port number from 0 to 65535/],
    ['a PORT out of range', { PORT: '70000' }, /PORT must be a port number/],
    [
      'a DATABASE_URL that is not a postgres:// address',
      { DATABASE_URL: 'mysql://root@localhost/tcms' },
      /DATABASE_URL must be a postgres:\/\//,
    ],
    ['a CORS origin with a path', { TCMS_CORS_ORIGINS: 'https://app.example.com/dashboard' }, /TCMS_CORS_ORIGINS/],
  ])('%s: one line and exit 1', async (_label, env, pattern) => {
    const { exit, output } = await failedStart(env);
    expect(exit).toEqual({ code: 1, signal: null });
    expectOneLineFailure(output, pattern);
  });

  it('a database that refuses connections: retries with back-off for the bounded time, then one line', async () => {
    const closed = await freePort();
    const { exit, output } = await failedStart({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/tcms`,
      TCMS_DB_CONNECT_TIMEOUT_MS: '1200',
    });
    expect(exit).toEqual({ code: 1, signal: null });
    expectOneLineFailure(
      output,
      new RegExp(`database at postgres://postgres@127\\.0\\.0\\.1:${closed}/tcms: connection refused \\(tried for 1 s\\)`),
    );
    expect(
      logMessages(output).filter((message) => /is not reachable yet \(connection refused\); retrying in \d+ ms/.test(message)).length,
    ).toBeGreaterThan(1);
  });

  it('a database host that does not resolve: one line naming it', async () => {
    const { exit, output } = await failedStart({
      DATABASE_URL: 'postgres://postgres@no-such-host.invalid:5432/tcms',
      TCMS_DB_CONNECT_TIMEOUT_MS: '300',
    });
    expect(exit).toEqual({ code: 1, signal: null });
    expectOneLineFailure(output, /no-such-host\.invalid:5432\/tcms: unknown host/);
  });

  it('a port already in use: one line naming the port, and the database is closed again', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const { exit, output } = await failedStart({ PORT: String(port) });
      expect(exit).toEqual({ code: 1, signal: null });
      expectOneLineFailure(output, new RegExp(`port ${port} is already in use`));
      expect(output).not.toMatch(/listening on/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('npm start', { timeout: 150_000 }, () => {
  it('runs the built server in one process that stops when npm receives SIGTERM', async () => {
    const npm = spawnWatched('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PORT: '0', TCMS_DATA_DIR: dataDir, NODE_ENV: 'test', TCMS_LOG_LEVEL: 'info', TCMS_LOG_REQUESTS: 'true' },
      limitMs: 140_000,
    });
    started.push(npm);
    const { baseUrl } = await untilListening(npm, 120_000);
    const health = await fetch(`${baseUrl}/api/v1/health`);
    expect(health.status).toBe(200);
    // Request lines are JSON with the request id the client got back.
    await npm.waitFor(/"msg":"GET \/api\/v1\/health 200"/, 10_000);
    const line = npm
      .output()
      .split('\n')
      .find((each) => each.includes('"msg":"GET /api/v1/health 200"'));
    expect(JSON.parse(line!)).toMatchObject({ requestId: health.headers.get('x-request-id'), res: { status: 200 } });

    npm.process.kill('SIGTERM');
    expect(await exitWithin(npm, 20_000), npm.output()).not.toBe('timeout');
    expect(logMessages(npm.output())).toContain('stopped');
    // The server process went with it: nothing answers on its port any more.
    await expect(fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  });
});
