import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgdataOf } from '../../src/kernel/database/embedded.ts';
import { readMigrations } from '../../src/kernel/database/migrator.ts';
import { SERVICE_VERSION } from '../../src/kernel/version.ts';
import { freshServerDatabase } from '../support/databases.ts';
import {
  exitWithin,
  killNow,
  logMessages,
  ROOT,
  spawnServer,
  spawnWatched,
  stopServer,
  untilListening,
  type WatchedProcess,
} from '../support/processes.ts';
import { freePort } from '../support/tcp-proxy.ts';

/**
 * The server as an operator starts it: `npm start` is one process that stops on SIGTERM, and a
 * start-up that cannot succeed ends with one clear log line and exit code 1, never a stack. It
 * holds its port before any database work, answers 503 until ready, and logs each step.
 * On the embedded database, or on the PostgreSQL server of DATABASE_URL when set.
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
    ['a PORT that is not a port', { PORT: 'eighty' }, /PORT\b.*must be a port number from 0 to 65535/],
    ['a PORT out of range', { PORT: '70000' }, /PORT\b.*must be a port number/],
    [
      'a DATABASE_URL that is not a postgres:// address',
      { DATABASE_URL: 'mysql://root@localhost/tcms' },
      /DATABASE_URL\b.*must be a postgres:\/\//,
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

  it('a port already in use: one line naming the port within 2 s, before any database work', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const startedAt = performance.now();
      const { exit, output } = await failedStart({ PORT: String(port) });
      expect(performance.now() - startedAt, output).toBeLessThan(2_000);
      expect(exit).toEqual({ code: 1, signal: null });
      expectOneLineFailure(output, new RegExp(`port ${port} is already in use`));
      expect(output).not.toMatch(/listening on|starting on port|embedded database|PostgreSQL server|migration/);
      expect(existsSync(pgdataOf(dataDir))).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

/** A new data directory, and a new database on the PostgreSQL server when the suite runs on one. */
async function newDatabase() {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-first-start-'));
  const server = process.env.DATABASE_URL ? await freshServerDatabase(process.env.DATABASE_URL) : undefined;
  return {
    env: { TCMS_DATA_DIR: directory, ...(server ? { DATABASE_URL: server.url } : {}) },
    remove: async () => {
      await server?.drop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// The second test starts on the database the first one created.
describe('a first start on a new database, then npm start on the same one', { timeout: 150_000 }, () => {
  let database: Awaited<ReturnType<typeof newDatabase>>;
  beforeAll(async () => {
    database = await newDatabase();
  });
  afterAll(async () => {
    await Promise.all(started.map((child) => killNow(child)));
    await database?.remove();
  });

  it('answers 503 until ready, logs each step with the migrations it applies, then health names the version', async () => {
    const server = spawnServer({ dataDir: database.env.TCMS_DATA_DIR, env: database.env, limitMs: 140_000 });
    started.push(server);
    const [, port] = await server.waitFor(/tcms \S+ starting on port (\d+)/, 30_000);
    const starting = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('1');
    expect(await starting.json()).toEqual({
      error: { code: 'service_unavailable', message: expect.any(String), details: { retryAfterSeconds: 1 } },
    });

    const { baseUrl } = await untilListening(server, 120_000);
    const health = await fetch(`${baseUrl}/api/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok', version: SERVICE_VERSION });
    await server.waitFor(/"msg":"ready in \d+ ms"/, 10_000);
    await stopServer(server);

    const names = (await readMigrations()).map((migration) => migration.name);
    const messages = logMessages(server.output());
    const expected = [
      `tcms ${SERVICE_VERSION} starting on port ${port} (it answers 503 until ready)`,
      ...(process.env.DATABASE_URL
        ? [expect.stringMatching(/^connecting to the PostgreSQL server at postgres:\/\//), expect.stringMatching(/^connected in \d+ ms$/)]
        : [
            `creating the embedded database in ${pgdataOf(database.env.TCMS_DATA_DIR)}`,
            expect.stringMatching(/^embedded database created in \d+ ms$/),
          ]),
      `applying ${names.length} migrations: ${names.join(', ')}`,
      ...names.map((name) => expect.stringMatching(new RegExp(`^migration ${name} applied in \\d+ ms$`))),
      `tcms listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql, docs /docs)`,
      expect.stringMatching(/^ready in \d+ ms$/),
    ];
    expect(messages.slice(0, expected.length)).toEqual(expected);
  });

  it('npm start runs the built server in one process, with nothing to migrate, that stops when npm receives SIGTERM', async () => {
    const npm = spawnWatched('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PORT: '0', NODE_ENV: 'test', TCMS_LOG_LEVEL: 'info', TCMS_LOG_REQUESTS: 'true', ...database.env },
      limitMs: 140_000,
    });
    started.push(npm);
    const { baseUrl } = await untilListening(npm, 120_000);
    const names = await readMigrations();
    expect(logMessages(npm.output())).toContain(`no pending migrations (${names.length} applied)`);
    if (!process.env.DATABASE_URL) {
      expect(logMessages(npm.output())).toContain(`opening the embedded database in ${pgdataOf(database.env.TCMS_DATA_DIR)}`);
    }
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
