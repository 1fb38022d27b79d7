import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/kernel/database/migrator.ts';
import { openPgConnection } from '../../src/kernel/database/sql-connection.ts';
import { killNow, ROOT, spawnServer, spawnTsx, untilListening, type WatchedProcess } from '../support/processes.ts';

/**
 * Several processes of the service start together on one fresh database: the advisory lock of
 * the migrator makes them take turns, so each migration runs (and is recorded) exactly once
 * and every process starts.
 */

const SERVER_URL = process.env.DATABASE_URL!;
const CHILD_LIMIT_MS = 90_000;

/** A fresh, empty database on the server; the returned function drops it. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tcms_race_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openPgConnection(SERVER_URL);
  await admin.execScript(`CREATE DATABASE "${name}"`).finally(() => admin.close());
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = await openPgConnection(SERVER_URL);
      await cleanup.execScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => cleanup.close());
    },
  };
}

async function recordedMigrations(url: string) {
  const connection = await openPgConnection(url);
  try {
    return await connection.query<{ migration_name: string; times: number; finished: number }>(
      `SELECT migration_name, count(*)::int AS times, count(finished_at)::int AS finished
         FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name`,
    );
  } finally {
    await connection.close();
  }
}

const moduleUrl = (relative: string) => pathToFileURL(path.join(ROOT, relative)).href;

// Opens its session, says "ready", and calls migrate() when told "go" on stdin.
const MIGRATE_SCRIPT = `
import { migrate } from ${JSON.stringify(moduleUrl('src/kernel/database/migrator.ts'))};
import { openPgConnection } from ${JSON.stringify(moduleUrl('src/kernel/database/sql-connection.ts'))};

const connection = await openPgConnection(process.env.RACE_DATABASE_URL);
console.log('ready');
await new Promise((resolve) => process.stdin.once('data', resolve));
try {
  const applied = await migrate(connection);
  console.log('applied ' + JSON.stringify(applied));
} catch (error) {
  console.log('failed ' + String(error?.stack ?? error));
  process.exitCode = 1;
} finally {
  await connection.close();
  process.stdin.destroy();
}
`;

describe('migrating one fresh database from several processes at once', { timeout: 240_000 }, () => {
  let scriptDir: string;
  let script: string;
  let migrationNames: string[];
  const children: WatchedProcess[] = [];
  const databases: Array<{ drop(): Promise<void> }> = [];

  beforeAll(async () => {
    scriptDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-migrator-race-'));
    script = path.join(scriptDir, 'migrate-child.mts');
    await writeFile(script, MIGRATE_SCRIPT);
    migrationNames = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  });

  afterAll(async () => {
    await Promise.all(children.map(killNow));
    await Promise.allSettled(databases.map((database) => database.drop()));
    await rm(scriptDir, { recursive: true, force: true });
  });

  it('records each migration exactly once and every process succeeds (three rounds)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const database = await freshDatabase();
      databases.push(database);
      const racers = [0, 1].map(() =>
        spawnTsx([script], { env: { RACE_DATABASE_URL: database.url }, limitMs: CHILD_LIMIT_MS, stdin: 'pipe' }),
      );
      children.push(...racers);
      await Promise.all(racers.map((racer) => racer.waitFor(/^ready$/m)));
      // Both sessions are open: release them at the same moment.
      for (const racer of racers) racer.process.stdin!.write('go\n');

      const results = await Promise.all(racers.map((racer) => racer.exited));
      const outputs = racers.map((racer) => racer.output());
      expect(results, outputs.join('\n---\n')).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      const applied = outputs.map((output) => JSON.parse(/^applied (.*)$/m.exec(output)![1]!) as string[]);
      // Between them they applied every migration once: whoever came second found nothing to do.
      expect(applied.flat().sort()).toEqual(migrationNames);
      expect(
        (await recordedMigrations(database.url)).map(({ migration_name, times, finished }) => [migration_name, times, finished]),
      ).toEqual(migrationNames.map((name) => [name, 1, 1]));
    }
  });

  it('starts two servers on one fresh database: both listen, each migration is recorded once', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const dataDirs = await Promise.all([0, 1].map(() => mkdtemp(path.join(os.tmpdir(), 'tcms-race-data-'))));
    try {
      const servers = dataDirs.map((dataDir) => spawnServer({ dataDir, env: { DATABASE_URL: database.url }, limitMs: CHILD_LIMIT_MS }));
      children.push(...servers);
      const listening = await Promise.all(servers.map((server) => untilListening(server, 120_000)));
      for (const { baseUrl } of listening) {
        const response = await fetch(`${baseUrl}/openapi/v1.json`);
        expect(response.status).toBe(200);
      }
      expect((await recordedMigrations(database.url)).map(({ migration_name, times }) => [migration_name, times])).toEqual(
        migrationNames.map((name) => [name, 1]),
      );

      for (const server of servers) server.process.kill('SIGTERM');
      const results = await Promise.all(servers.map((server) => server.exited));
      expect(results).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
    } finally {
      await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
    }
  });
});
