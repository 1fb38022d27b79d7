import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/tcms.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../src/kernel/database/migrator.ts';
import { openOperatorSession } from '../../src/kernel/database/operator-session.ts';
import { openPgConnection, type SqlConnection } from '../../src/kernel/database/sql-connection.ts';
import { SERVICE_VERSION } from '../../src/kernel/version.ts';
import { type Caller, createProject, createSuite, signUp } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';
import { freshServerDatabase } from '../support/databases.ts';
import { ROOT, type ServerProcess, spawnWatched, startServer, stopServer } from '../support/processes.ts';
import { createCase, createRun, patchRunCase, runCasesOf } from '../support/runs.ts';

/**
 * `tcms backup`, `tcms restore` and `tcms migrate` as an operator runs them: real processes, from
 * a directory outside the checkout, on the run's database (the embedded one through the socket of
 * a running server, or a PostgreSQL server's), restoring into new embedded data directories and
 * new databases of the PostgreSQL server (as `psql -f` and as `tcms restore`).
 */

/** The PostgreSQL server that new databases are made on: the run's, or the local one beside the embedded run. */
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BIN = path.join(ROOT, 'bin', 'tcms.mjs');
const STEPS = [1, 2, 3].map((step) => ({ action: `Step ${step}`, expectedResult: `Result ${step}` }));

type Target = { env: NodeJS.ProcessEnv };

let workDir: string;
let sourceDataDir: string;
let source: Target;
let server: ServerProcess;
let http: TestAgent;
let owner: Caller;
let code: string;
const cleanups: (() => Promise<unknown>)[] = [];

type TcmsRun = { code: number | null; stdout: string; stderr: string };

/** `tcms` as a process of its own, on `target`. */
async function tcms(target: Target, ...args: string[]): Promise<TcmsRun> {
  const child = spawnWatched(process.execPath, [BIN, ...args], { cwd: workDir, env: target.env, limitMs: 120_000 });
  const { code: exitCode } = await child.closed;
  return { code: exitCode, stdout: child.stdout(), stderr: child.stderr() };
}

/** `tcms` in this process (cheaper than a process of its own), on `target`. */
async function tcmsHere(target: Target, ...argv: string[]): Promise<TcmsRun> {
  let stdout = '';
  let stderr = '';
  const output = { out: (line: string) => (stdout += `${line}\n`), err: (line: string) => (stderr += `${line}\n`) };
  const exitCode = await runCli(argv, output, { ...process.env, ...target.env });
  return { code: exitCode, stdout, stderr };
}

/** What a successful run printed, parsed. */
async function printed(run: Promise<TcmsRun>) {
  const { code: exitCode, stdout, stderr } = await run;
  expect(stderr).toBe('');
  expect(exitCode).toBe(0);
  return JSON.parse(stdout);
}

/** A new database of the PostgreSQL server, dropped after the file's tests. */
async function newServerDatabase(): Promise<Target & { url: string }> {
  const database = await freshServerDatabase(SERVER_URL);
  cleanups.push(database.drop);
  return { env: { DATABASE_URL: database.url }, url: database.url };
}

/** A data directory that does not exist yet: `tcms restore` creates it. */
async function newEmbeddedTarget(): Promise<Target> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'tcms-restored-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  return { env: { TCMS_DATA_DIR: path.join(parent, 'data'), DATABASE_URL: undefined } };
}

async function withSession<T>(target: Target, work: (connection: SqlConnection) => Promise<T>): Promise<T> {
  const session = await openOperatorSession(loadConfig({ ...process.env, ...target.env }), { create: false });
  try {
    return await work(session.connection);
  } finally {
    await session.close();
  }
}

/** Every table's row count and a digest of its rows, timestamps rendered in UTC whatever the server's zone. */
function contentsOf(target: Target): Promise<Record<string, string>> {
  return withSession(target, async (connection) => {
    await connection.execScript("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL TIME ZONE 'UTC'");
    try {
      const tables = await connection.query<{ name: string }>(
        `SELECT relname::text AS name FROM pg_class WHERE relnamespace = to_regnamespace(current_schema()) AND relkind = 'r' ORDER BY 1`,
      );
      const contents: Record<string, string> = {};
      for (const { name } of tables) {
        const [table] = await connection.query<{ rows: number; digest: string }>(
          `SELECT count(*)::int AS rows, md5(coalesce(string_agg(row_to_json(t)::text, E'\\n' ORDER BY row_to_json(t)::text), '')) AS digest FROM "${name}" t`,
        );
        contents[name] = `${table!.rows} rows, ${table!.digest}`;
      }
      return contents;
    } finally {
      await connection.execScript('ROLLBACK');
    }
  });
}

async function restoreWithPsql(file: string, url: string) {
  const psql = spawnWatched('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-1', '-d', url, '-f', file], { cwd: workDir, limitMs: 60_000 });
  const { code: exitCode } = await psql.closed;
  expect(psql.stderr()).toBe('');
  expect(exitCode).toBe(0);
}

async function queryServerDatabase<Row extends Record<string, unknown>>(url: string, sql: string): Promise<Row[]> {
  const connection = await openPgConnection(url);
  try {
    return await connection.query<Row>(sql);
  } finally {
    await connection.close();
  }
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-operator-'));
  sourceDataDir = await newDataDir('tcms-backup-');
  const sourceUrl = process.env.DATABASE_URL && (await newServerDatabase()).url;
  source = {
    env: sourceUrl ? { DATABASE_URL: sourceUrl, TCMS_DATA_DIR: sourceDataDir } : { TCMS_DATA_DIR: sourceDataDir, DATABASE_URL: undefined },
  };
  server = await startServer({ dataDir: sourceDataDir, env: source.env });
  http = request(server.baseUrl);

  // A suite inside a suite and a reply to a comment: tables that reference themselves.
  owner = await signUp(http);
  code = (await createProject(http, owner)).id;
  const parent = await createSuite(http, owner, code, { name: 'Parent' });
  const child = await createSuite(http, owner, code, { name: 'Child', parentUlid: parent.ulid });
  const cases = [];
  for (const suite of [parent, child, child]) cases.push(await createCase(http, owner, code, { suiteUlid: suite.ulid, steps: STEPS }));
  const comment = await http
    .post(`/api/v1/test-cases/${cases[0]!.ulid}/comments`)
    .set(owner.headers)
    .send({ body: 'Flaky?\nTwice this week' });
  expect(comment.status).toBe(201);
  const reply = await http
    .post(`/api/v1/test-cases/${cases[0]!.ulid}/comments`)
    .set(owner.headers)
    .send({ body: "It's the network", parentUlid: comment.body.ulid });
  expect(reply.status).toBe(201);
  const run = await createRun(http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const [first, second] = await runCasesOf(http, owner, run.ulid);
  expect((await patchRunCase(http, owner, run.ulid, first!.ulid, { status: 'passed' })).status).toBe(200);
  expect((await patchRunCase(http, owner, run.ulid, second!.ulid, { status: 'failed', elapsedMs: 30_000 })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  if (server) await stopServer(server);
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(sourceDataDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

describe('tcms backup while the server takes writes', () => {
  it('holds every write acknowledged before it began, and none half-written', async () => {
    const acknowledged: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) acknowledged.push((await createCase(http, owner, code, { title: 'Written during the backup', steps: STEPS })).ulid);
    });
    while (acknowledged.length < 10) await new Promise((resolve) => setTimeout(resolve, 20));
    const beforeBackup = [...acknowledged];
    const file = path.join(workDir, 'during-writes.sql');
    const backup = await tcms(source, 'backup', file).finally(() => {
      writing = false;
    });
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(beforeBackup.length);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(workDir)).not.toContainEqual(expect.stringMatching(/partial/));

    const target = await newServerDatabase();
    await restoreWithPsql(file, target.url);
    const restored = await queryServerDatabase<{ id: string; steps: number; created: number }>(
      target.url,
      `SELECT c.id,
         (SELECT count(*)::int FROM test_case_steps s WHERE s.case_id = c.id) AS steps,
         (SELECT count(*)::int FROM audit_events e WHERE e.entity_ulid = c.id AND e.action = 'test_case.created') AS created
       FROM test_cases c WHERE c.title = 'Written during the backup'`,
    );
    expect(restored.map((row) => row.id)).toEqual(expect.arrayContaining(beforeBackup));
    expect(restored.length).toBeLessThanOrEqual(acknowledged.length);
    for (const row of restored) expect(row).toEqual({ id: row.id, steps: STEPS.length, created: 1 });
  });
});

describe('tcms restore', () => {
  let file: string;
  let sourceContents: Record<string, string>;
  let embedded: Target;
  let restoredByTcms: Target & { url: string };

  beforeAll(async () => {
    file = path.join(workDir, 'quiet.sql');
    const summary = await printed(tcms(source, 'backup', file));
    sourceContents = await contentsOf(source);
    expect(summary).toMatchObject({ file, migrations: (await readMigrations()).length, tables: Object.keys(sourceContents).length });
  });

  it('restores into a new data directory exactly what the source holds', async () => {
    embedded = await newEmbeddedTarget();
    const summary = await printed(tcms(embedded, 'restore', file));
    expect(summary).toMatchObject({ file, migrations: (await readMigrations()).length, appliedAfterData: [] });
    expect(await contentsOf(embedded)).toEqual(sourceContents);
  }, 120_000);

  it('moves the database to a PostgreSQL server, with psql and with tcms restore', async () => {
    const restoredByPsql = await newServerDatabase();
    await restoreWithPsql(file, restoredByPsql.url);
    expect(await contentsOf(restoredByPsql)).toEqual(sourceContents);

    restoredByTcms = await newServerDatabase();
    await printed(tcms(restoredByTcms, 'restore', file));
    expect(await contentsOf(restoredByTcms)).toEqual(sourceContents);
    // The bookkeeping came along: a server started on either would find nothing to migrate.
    for (const target of [restoredByPsql, restoredByTcms])
      expect(await printed(tcmsHere(target, 'migrate', '--dry-run'))).toEqual({ pending: [] });
  }, 60_000);

  it('refuses a database that is not empty', async () => {
    for (const target of [embedded, restoredByTcms]) {
      const refused = await tcmsHere(target, 'restore', file);
      expect(refused.stderr).toMatch(
        /^tcms: the database at \S+ is not empty \(\d+ tables\): restore only into a new TCMS_DATA_DIR or an empty PostgreSQL database\n$/,
      );
      expect(refused).toMatchObject({ code: 1, stdout: '' });
    }
  });

  it('leaves the database empty when the backup is incomplete', async () => {
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const truncated = path.join(workDir, 'truncated.sql');
    await writeFile(truncated, `${lines.slice(0, -2).join('\n')}\n`);
    const target = await newServerDatabase();
    expect(await tcmsHere(target, 'restore', truncated)).toEqual({
      code: 1,
      stdout: '',
      stderr: `tcms: ${truncated} stops before its end mark (--tcms:end): the backup is incomplete\n`,
    });
    expect(await queryServerDatabase(target.url, `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace`)).toEqual([]);
    await printed(tcmsHere(target, 'restore', file));
  });
});

describe('an older database', () => {
  it('tcms migrate --dry-run lists the migrations it lacks; restoring its backup, or tcms migrate, applies them', async () => {
    const migrations = await readMigrations();
    const latest = migrations.at(-1)!.name;
    const older = path.join(workDir, 'older-migrations');
    for (const { name } of migrations.slice(0, -1)) await cp(path.join(MIGRATIONS_DIR, name), path.join(older, name), { recursive: true });
    const database = await newServerDatabase();
    const connection = await openPgConnection(database.url);
    await migrate(connection, older).finally(() => connection.close());

    expect(await printed(tcmsHere(database, 'migrate', '--dry-run'))).toEqual({ pending: [latest] });
    const file = path.join(workDir, 'older.sql');
    expect(await printed(tcmsHere(database, 'backup', file))).toMatchObject({ migrations: migrations.length - 1 });

    const upgraded = await newServerDatabase();
    expect(await printed(tcmsHere(upgraded, 'restore', file))).toMatchObject({
      migrations: migrations.length - 1,
      appliedAfterData: [latest],
    });
    expect(await printed(tcmsHere(upgraded, 'migrate', '--dry-run'))).toEqual({ pending: [] });

    expect(await printed(tcmsHere(database, 'migrate'))).toEqual({ applied: [latest] });
    expect(await printed(tcmsHere(database, 'migrate', '--dry-run'))).toEqual({ pending: [] });
  });

  it('the running server has nothing pending', async () => {
    expect(await printed(tcmsHere(source, 'migrate', '--dry-run'))).toEqual({ pending: [] });
  });
});

describe('tcms --version', () => {
  it('prints the version', async () => {
    expect(await tcms(source, '--version')).toEqual({ code: 0, stdout: `${SERVICE_VERSION}\n`, stderr: '' });
    expect(await tcmsHere(source, 'version')).toEqual({ code: 0, stdout: `${SERVICE_VERSION}\n`, stderr: '' });
  });
});
