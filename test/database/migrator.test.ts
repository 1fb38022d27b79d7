import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../../src/kernel/database/migrator.ts';
import { openPgConnection, pgliteConnection, type SqlConnection } from '../../src/kernel/database/sql-connection.ts';

/**
 * The migrator on both engines: an in-memory PGlite, and (when DATABASE_URL names a server) a
 * temporary database of its own on that server, created and dropped here.
 */
type FreshDatabase = {
  connection: SqlConnection;
  /** Another session on the same database (the same one on PGlite, which has only one). */
  openAnother(): Promise<SqlConnection>;
  dispose(): Promise<void>;
};

async function freshPglite(): Promise<FreshDatabase> {
  const database = new PGlite();
  await database.waitReady;
  return {
    connection: pgliteConnection(database),
    openAnother: async () => pgliteConnection(database),
    dispose: () => database.close(),
  };
}

/** A new, empty database on the server of DATABASE_URL; dispose drops it. */
async function freshServerDatabase(serverUrl: string): Promise<FreshDatabase & { url: string }> {
  const name = `tcms_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openPgConnection(serverUrl);
  try {
    await admin.execScript(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened: SqlConnection[] = [];
  const openAnother = async () => {
    const connection = await openPgConnection(url.toString());
    opened.push(connection);
    return connection;
  };
  const connection = await openAnother();
  return {
    url: url.toString(),
    connection,
    openAnother,
    dispose: async () => {
      await Promise.allSettled(opened.map((each) => each.close()));
      const cleanup = await openPgConnection(serverUrl);
      try {
        await cleanup.execScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleanup.close();
      }
    },
  };
}

const engines: Array<[string, () => Promise<FreshDatabase>]> = [['pglite', freshPglite]];
const serverUrl = process.env.DATABASE_URL;
if (serverUrl) engines.push(['postgres', () => freshServerDatabase(serverUrl)]);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function tempMigrations(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-migrations-'));
  // Created in reverse name order so that directory order cannot pass for name order.
  for (const name of Object.keys(files).sort().reverse()) {
    await mkdir(path.join(directory, name));
    await writeFile(path.join(directory, name, 'migration.sql'), files[name]!);
  }
  return directory;
}

const tableExists = async (connection: SqlConnection, table: string) =>
  (await connection.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [`public.${table}`]))[0]!.found !== null;

const recorded = (connection: SqlConnection) =>
  connection.query<{
    id: string;
    checksum: string;
    migration_name: string;
    finished_at: Date | null;
    rolled_back_at: Date | null;
    started_at: Date;
    applied_steps_count: number;
    logs: string | null;
  }>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name');

// Each migration logs its name and the id of the transaction it runs in.
const logged = (name: string, extra = '') => `
${extra}
INSERT INTO "migration_log" ("name", "xid") VALUES ('${name}', (txid_current() % 4294967296)::bigint);
`;

describe.each(engines)('migrator on %s', { timeout: 120_000 }, (_engine, open) => {
  let database: FreshDatabase | undefined;
  const directories: string[] = [];

  const fresh = async () => {
    database = await open();
    return database;
  };

  afterEach(async () => {
    await database?.dispose();
    database = undefined;
    await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
  });

  const migrations = async (files: Record<string, string>) => {
    const directory = await tempMigrations(files);
    directories.push(directory);
    return directory;
  };

  it('applies the project migrations and records them exactly as Prisma does', async () => {
    const { connection } = await fresh();
    const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(names.length).toBeGreaterThan(0);

    expect(await migrate(connection)).toEqual(names);

    const columns = await connection.query(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
         FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = '_prisma_migrations'
        ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', character_maximum_length: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', character_maximum_length: 64, is_nullable: 'NO', column_default: null },
      {
        column_name: 'finished_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'migration_name',
        data_type: 'character varying',
        character_maximum_length: 255,
        is_nullable: 'NO',
        column_default: null,
      },
      { column_name: 'logs', data_type: 'text', character_maximum_length: null, is_nullable: 'YES', column_default: null },
      {
        column_name: 'rolled_back_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'started_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'NO',
        column_default: 'now()',
      },
      { column_name: 'applied_steps_count', data_type: 'integer', character_maximum_length: null, is_nullable: 'NO', column_default: '0' },
    ]);
    const primaryKey = await connection.query<{ column_name: string }>(
      `SELECT a.attname AS column_name
         FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = '"_prisma_migrations"'::regclass AND i.indisprimary`,
    );
    expect(primaryKey).toEqual([{ column_name: 'id' }]);

    const rows = await recorded(connection);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const file = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(sha256(file));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect(await tableExists(connection, 'users')).toBe(true);
  });

  it('applies nothing on a second run', async () => {
    const { connection } = await fresh();
    await migrate(connection);
    const before = await recorded(connection);

    expect(await migrate(connection)).toEqual([]);
    expect(await recorded(connection)).toEqual(before);
  });

  it('applies migrations in name order, each in a transaction of its own together with its record', async () => {
    const { connection } = await fresh();
    const directory = await migrations({
      '20250101000000_log': logged(
        '20250101000000_log',
        'CREATE TABLE "migration_log" ("seq" SERIAL PRIMARY KEY, "name" TEXT NOT NULL, "xid" BIGINT NOT NULL);',
      ),
      // Needs the table of the first one: applying out of order fails.
      '20250102000000_widgets': logged('20250102000000_widgets', 'CREATE TABLE "widgets" ("id" INTEGER PRIMARY KEY);'),
      '20250110000000_gadgets': logged(
        '20250110000000_gadgets',
        'CREATE TABLE "gadgets" ("widget_id" INTEGER REFERENCES "widgets"("id"));',
      ),
    });
    const names = ['20250101000000_log', '20250102000000_widgets', '20250110000000_gadgets'];

    expect(await migrate(connection, directory)).toEqual(names);

    const log = await connection.query<{ name: string; xid: string }>(
      'SELECT "name", "xid"::text AS "xid" FROM "migration_log" ORDER BY "seq"',
    );
    expect(log.map((entry) => entry.name)).toEqual(names);
    expect(new Set(log.map((entry) => entry.xid)).size).toBe(names.length);
    // The bookkeeping row of each migration was written by the transaction that ran it.
    const records = await connection.query<{ migration_name: string; xid: string }>(
      'SELECT migration_name, xmin::text AS xid FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(records).toEqual(log.map((entry) => ({ migration_name: entry.name, xid: entry.xid })));
  });

  it('rolls a failing migration back entirely, does not record it, and keeps the earlier ones', async () => {
    const { connection, openAnother } = await fresh();
    const directory = await migrations({
      '001_first': 'CREATE TABLE "first" ("id" INTEGER PRIMARY KEY);',
      '002_broken': `
        CREATE TABLE "second" ("id" INTEGER PRIMARY KEY);
        INSERT INTO "first" ("id") VALUES (1);
        INSERT INTO "no_such_table" ("id") VALUES (1);`,
      '003_third': 'CREATE TABLE "third" ("id" INTEGER PRIMARY KEY);',
    });

    await expect(migrate(connection, directory)).rejects.toThrow(/Migration 002_broken failed: .*no_such_table/);

    expect(await tableExists(connection, 'first')).toBe(true);
    expect(await connection.query('SELECT * FROM "first"')).toEqual([]);
    expect(await tableExists(connection, 'second')).toBe(false);
    expect(await tableExists(connection, 'third')).toBe(false);
    expect((await recorded(connection)).map((row) => row.migration_name)).toEqual(['001_first']);

    // The session is usable again and the lock was released: a fixed migration goes through,
    // from another session too.
    await writeFile(path.join(directory, '002_broken', 'migration.sql'), 'CREATE TABLE "second" ("id" INTEGER PRIMARY KEY);');
    const another = await openAnother();
    expect(await migrate(another, directory)).toEqual(['002_broken', '003_third']);
    expect((await recorded(connection)).map((row) => row.migration_name)).toEqual(['001_first', '002_broken', '003_third']);
  });

  it('fails loudly when an applied migration was changed afterwards', async () => {
    const { connection } = await fresh();
    const directory = await migrations({
      '001_first': 'CREATE TABLE "first" ("id" INTEGER PRIMARY KEY);',
    });
    await migrate(connection, directory);
    const before = await recorded(connection);

    await writeFile(path.join(directory, '001_first', 'migration.sql'), 'CREATE TABLE "first" ("id" BIGINT PRIMARY KEY);');
    await mkdir(path.join(directory, '002_second'));
    await writeFile(path.join(directory, '002_second', 'migration.sql'), 'CREATE TABLE "second" ("id" INTEGER);');

    await expect(migrate(connection, directory)).rejects.toThrow('Migration 001_first was changed after it was applied');
    expect(await recorded(connection)).toEqual(before);
    expect(await tableExists(connection, 'second')).toBe(false);
  });
});
