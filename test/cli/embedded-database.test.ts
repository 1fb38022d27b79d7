import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { protocol } from '@electric-sql/pglite';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_LOCK_FILE } from '../../src/kernel/database/owner-lock.ts';
import { projectCode, signUp } from '../support/app.ts';
import { killNow, type ServerProcess, spawnServer, spawnWatched, startServer } from '../support/processes.ts';
import { runTcms, type TcmsRun } from './run-tcms.ts';

/**
 * The embedded database has one owner process at a time: the server, or else the `tcms` command
 * for as long as it runs. The server serves it to the command and psql on a Unix socket.
 */

const SOCKET_FILE = '.s.PGSQL.5432';
/** Servers and commands here always use the embedded database, whatever the test run's DATABASE_URL. */
const EMBEDDED = { DATABASE_URL: undefined };

const newDataDir = () => mkdtemp(path.join(os.tmpdir(), 'tcms-owner-'));

function expectSuccess(run: TcmsRun) {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

type Listed = { ulid: string; plan: string };

/** The message of one line the process printed that matches `pattern` (a stack may follow it for now). */
const lineMatching = (output: string, pattern: RegExp) => output.split('\n').find((line) => pattern.test(line));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A client on the owner's socket that speaks the protocol message by message, so that it can
 * leave in the middle of an exchange. `exchange` sends messages and waits for a reply of a type.
 */
async function protocolClient(dataDir: string) {
  const socket = connect(path.join(dataDir, SOCKET_FILE));
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let onData = () => {};
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    onData();
  });
  const exchange = (messages: Uint8Array[], replyType: string) =>
    new Promise<void>((resolve) => {
      onData = () => {
        for (let offset = 0; offset + 5 <= received.length; offset += 1 + received.readInt32BE(offset + 1)) {
          if (received[offset] !== replyType.charCodeAt(0)) continue;
          received = Buffer.alloc(0);
          resolve();
          return;
        }
      };
      for (const message of messages) socket.write(message);
    });
  await exchange([protocol.serialize.startup({ user: 'postgres', database: 'postgres' })], 'Z');
  return { exchange, leave: () => socket.destroy() };
}

// One data directory and its first server for the first two groups: creating a database is slow.
let dataDir: string;
let server: ServerProcess;
let http: ReturnType<typeof request>;
beforeAll(async () => {
  dataDir = await newDataDir();
  server = await startServer({ dataDir, env: EMBEDDED });
  http = request(server.baseUrl);
}, 120_000);
afterAll(async () => {
  if (server) await killNow(server);
  await rm(dataDir, { recursive: true, force: true });
});

describe('while a server owns the embedded database', () => {
  it('tcms org set-plan goes through the server: the write is there over HTTP and in tcms org list', async () => {
    const owner = await signUp(http);
    const shown = expectSuccess(await runTcms(dataDir, ['org', 'set-plan', owner.orgId, 'team']));
    expect(shown.plan).toBe('team');

    const org = await http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('team');
    const listed: Listed[] = expectSuccess(await runTcms(dataDir, ['org', 'list']));
    expect(listed.find((item) => item.ulid === owner.orgId)?.plan).toBe('team');
  });

  it('an unknown organization through the server: exit 1 and one line', async () => {
    const run = await runTcms(dataDir, ['org', 'show', '01ARZ3NDEKTSV4RRFFQ69G5FAV']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^tcms: .*01ARZ3NDEKTSV4RRFFQ69G5FAV.*not found.*\n$/i);
  });

  it("the README's psql line, run where the server's ./data is, reaches the database", async () => {
    await signUp(http);
    const readme = await readFile(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    const line = /`(psql -h [^`]+)`/.exec(readme)?.[1];
    expect(line).toBeDefined();
    // The directory a server started without TCMS_DATA_DIR would run in: its data is ./data.
    const serverDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-psql-'));
    await symlink(dataDir, path.join(serverDir, 'data'));
    const psql = spawnWatched('/bin/sh', ['-c', `${line} -At -c 'select count(*) from organizations'`], {
      cwd: serverDir,
      limitMs: 30_000,
    });
    const { code } = await psql.closed;
    expect(psql.stderr()).toBe('');
    expect(code).toBe(0);
    expect(Number(psql.stdout().trim())).toBeGreaterThanOrEqual(1);
    await rm(serverDir, { recursive: true, force: true });
    // There is no password: only the owner's user may connect.
    expect((await stat(path.join(dataDir, SOCKET_FILE))).mode & 0o777).toBe(0o600);
  });

  it("a socket client's transaction and the app's writes never interleave: a rollback loses none of the app's", async () => {
    const owner = await signUp(http);
    const client = new pg.Client({ host: dataDir, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query("UPDATE organizations SET plan = 'enterprise' WHERE id = $1", [owner.orgId]);
      const code = projectCode();
      const appWrite = http
        .post('/api/v1/projects')
        .set(owner.headers)
        .send({ name: 'Kept', id: code })
        .then((response) => response);
      // The app's statements must not run inside the client's transaction: the write waits for it.
      expect(await Promise.race([appWrite.then(() => 'answered'), delay(1_000, 'waiting')])).toBe('waiting');
      await client.query('ROLLBACK');

      expect((await appWrite).status).toBe(201);
      expect((await http.get(`/api/v1/projects/${code}`).set(owner.headers)).status).toBe(200);
      expect((await http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers)).body.plan).toBe('free');
    } finally {
      await client.end();
    }
  });

  it('a client that disconnects inside a transaction has it rolled back, and the app goes on', async () => {
    const owner = await signUp(http);
    const client = new pg.Client({ host: dataDir, user: 'postgres', database: 'postgres' });
    await client.connect();
    await client.query('BEGIN');
    await client.query("UPDATE organizations SET plan = 'enterprise' WHERE id = $1", [owner.orgId]);
    await client.end();

    const org = await http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('free');
  });

  it('a client that leaves in the middle of an extended-protocol exchange (no Sync) has its statement undone', async () => {
    const owner = await signUp(http);
    const client = await protocolClient(dataDir);
    const { serialize } = protocol;
    const update = `UPDATE organizations SET plan = 'enterprise' WHERE id = '${owner.orgId}'`;
    await client.exchange([serialize.parse({ text: update }), serialize.bind(), serialize.execute(), serialize.flush()], 'C');
    client.leave();

    const org = await http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('free');
  });

  it('a client that leaves after an error in an extended-protocol exchange inside a transaction has it rolled back', async () => {
    const owner = await signUp(http);
    const client = await protocolClient(dataDir);
    const { serialize } = protocol;
    await client.exchange([serialize.query('BEGIN')], 'Z');
    const update = `UPDATE organizations SET plan = 'enterprise' WHERE id = '${owner.orgId}'`;
    await client.exchange(
      [
        serialize.parse({ text: update }),
        serialize.bind(),
        serialize.execute(),
        serialize.parse({ text: 'SELECT no_such_column' }),
        serialize.flush(),
      ],
      'E',
    );
    client.leave();

    const org = await http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('free');
    expect((await signUp(http)).orgId).toBeTruthy();
  });

  it('a second server on the directory exits non-zero with one line naming the owner', async () => {
    const second = spawnServer({ dataDir, env: EMBEDDED, limitMs: 60_000 });
    const { code } = await second.closed;
    expect(code).not.toBe(0);
    const message = `the embedded database in ${dataDir} is in use by process ${server.process.pid} (stop it, or set TCMS_DATA_DIR or DATABASE_URL)`;
    expect(lineMatching(second.output(), new RegExp(`${escapeRegExp(message)}`))).toBeDefined();
    expect(second.output()).not.toMatch(/listening on/);
    expect(second.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // The owner is undisturbed.
    await signUp(http);
    expect((await readFile(path.join(dataDir, OWNER_LOCK_FILE), 'utf8')).split('\n')[0]).toBe(String(server.process.pid));
  });

  it('on SIGTERM the server lets go of the lock and the socket; the command then owns the directory', async () => {
    const owner = await signUp(http);
    expectSuccess(await runTcms(dataDir, ['org', 'set-plan', owner.orgId, 'enterprise']));
    server.process.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const left = await readdir(dataDir);
    expect(left).not.toContain(OWNER_LOCK_FILE);
    expect(left).not.toContain(SOCKET_FILE);

    const shown = expectSuccess(await runTcms(dataDir, ['org', 'show', owner.orgId]));
    expect(shown.plan).toBe('enterprise');
    expect(await readdir(dataDir)).not.toContain(OWNER_LOCK_FILE);
  });
});

describe('after the owner is killed (SIGKILL)', () => {
  beforeAll(async () => {
    await killNow(server);
  });

  it('the command takes the stale lock over and sees every committed write, and a new server starts, round after round', async () => {
    const plans = new Map<string, string>();
    for (const plan of ['team', 'enterprise', 'team', 'enterprise', 'team']) {
      const server = await startServer({ dataDir, env: EMBEDDED });
      try {
        const owner = await signUp(request(server.baseUrl));
        expectSuccess(await runTcms(dataDir, ['org', 'set-plan', owner.orgId, plan]));
        plans.set(owner.orgId, plan);
      } finally {
        await killNow(server);
      }

      const listed: Listed[] = expectSuccess(await runTcms(dataDir, ['org', 'list']));
      const listedPlans = new Map(listed.map((org) => [org.ulid, org.plan]));
      for (const [orgId, expected] of plans) expect(listedPlans.get(orgId)).toBe(expected);
      expect(await readdir(dataDir)).not.toContain(OWNER_LOCK_FILE);
    }
  }, 300_000);

  it('where the socket path would be too long, the server runs without one and the command refuses', async () => {
    const parent = await newDataDir();
    // The same data directory under a path too long for a Unix socket in it.
    const longDataDir = path.join(parent, 'd'.repeat(110));
    await symlink(dataDir, longDataDir);
    const owner = await startServer({ dataDir: longDataDir, env: EMBEDDED });
    try {
      expect(owner.stdout()).toMatch(/"level":"warn".*not served on a socket/);
      expect(await readdir(dataDir)).not.toContain(SOCKET_FILE);
      for (const path of [longDataDir, dataDir]) {
        const run = await runTcms(path, ['org', 'list']);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`is in use by process ${owner.process.pid}, which does not serve it on a socket`);
      }
    } finally {
      await killNow(owner);
      await rm(parent, { recursive: true, force: true });
    }
  }, 120_000);

  async function expectTakenOver(lockContent: string) {
    await writeFile(path.join(dataDir, OWNER_LOCK_FILE), lockContent);
    expectSuccess(await runTcms(dataDir, ['org', 'list']));
    expect(await readdir(dataDir)).not.toContain(OWNER_LOCK_FILE);
  }

  it.each([
    ['a live process that started after the lock was written (PIDs are reused)', `${process.pid}\n1\n`],
    ['no process (PID 0, which signals take for the process group)', '0\n'],
  ])('a lock naming %s is stale: the command takes it over', async (_label, lockContent) => {
    await expectTakenOver(lockContent);
  });

  it('a lock naming a zombie (exited, not yet reaped) is stale: the command takes it over', async () => {
    // The shell starts a child, then becomes sleep, which never reaps it; the child exits once it has.
    const child = 'until [ "$(cat /proc/$PPID/comm)" = sleep ]; do :; done';
    const parent = spawnWatched('/bin/sh', ['-c', 'sh -c "$1" & echo $!; exec sleep 600', 'sh', child], { limitMs: 120_000 });
    try {
      const [, pid] = await parent.waitFor(/^(\d+)$/m);
      while (!(await readFile(`/proc/${pid}/stat`, 'utf8')).includes(') Z ')) await delay(10);
      await expectTakenOver(`${pid}\n`);
    } finally {
      await killNow(parent);
    }
  });
});

describe('refusals', () => {
  it('the command refuses, naming the PID, while a live process holds the directory without serving it', async () => {
    const dataDir = await newDataDir();
    try {
      // A database in the eyes of the command; it never gets as far as opening it.
      await mkdir(path.join(dataDir, 'pgdata'));
      await writeFile(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
      const lockFile = path.join(dataDir, OWNER_LOCK_FILE);
      await writeFile(lockFile, `${process.pid}\n`);

      const run = await runTcms(dataDir, ['org', 'list']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `tcms: the embedded database in ${dataDir} is in use by process ${process.pid}, which does not serve it on a socket (stop it and try again, or set DATABASE_URL)\n`,
      );
      expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'a file',
      async (parent: string) => {
        const file = path.join(parent, 'data');
        await writeFile(file, '');
        return { dataDir: file, message: `TCMS_DATA_DIR ${file} is not a directory` };
      },
    ],
    [
      'a directory that cannot be created',
      async (parent: string) => {
        const dataDir = path.join(parent, 'file', 'data');
        await writeFile(path.join(parent, 'file'), '');
        return { dataDir, message: `cannot create the data directory ${dataDir}` };
      },
    ],
    // Nobody, root included, can create a file in /proc.
    ['a directory that cannot be written', async () => ({ dataDir: '/proc', message: 'the data directory /proc is not writable' })],
  ])('a server on %s as TCMS_DATA_DIR exits non-zero with one line', async (_label, prepare) => {
    const parent = await newDataDir();
    try {
      const { dataDir, message } = await prepare(parent);
      const server = spawnServer({ dataDir, env: EMBEDDED, limitMs: 60_000 });
      const { code } = await server.closed;
      expect(code).not.toBe(0);
      expect(lineMatching(server.output(), new RegExp(escapeRegExp(message)))).toBeDefined();
      expect(server.output()).not.toMatch(/listening on/);
      expect(server.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
