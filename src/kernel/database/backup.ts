import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../data-directory.ts';
import { SERVICE_VERSION } from '../version.ts';
import { appliedMigrations, knownMigration } from './migration-status.ts';
import { CREATE_PRISMA_MIGRATIONS, type Migration, readMigrations, recordApplied } from './migrator.ts';
import type { SqlConnection } from './sql-connection.ts';

/**
 * A backup is a plain SQL script: psql restores it into an empty database, and so does
 * `tcms restore`, reading it line by line. It holds the migrations the database had applied, then
 * its rows, one INSERT per line. Lines that start with MARK divide it:
 *   --tcms:migration <name> <checksum>  that migration's SQL follows, as this version's file holds it
 *   --tcms:data                          the rows follow
 *   --tcms:end                           the backup is complete
 */
const FORMAT_LINE = '-- tcms backup, format 1';
const MARK = '--tcms:';

/** Rows read per cursor fetch; the rows of one INSERT, at most, and at most about this many characters of them. */
const FETCH_ROWS = 1000;
const STATEMENT_CHARS = 1 << 20;

/** Where the rows of a table that references itself gather before they go in with one INSERT (see writeRows). */
const STAGING = 'pg_temp."tcms_restore_rows"';

/** The bookkeeping table as the migrator creates it, on one line: a backup holds one statement per line. */
const CREATE_MIGRATIONS_TABLE = `${CREATE_PRISMA_MIGRATIONS.replace(/\s+/g, ' ').trim()};`;

/** Every table of the schema: its columns but generated ones, the tables it references, whether a trigger of ours fires on INSERT. */
const TABLES = `
SELECT c.relname::text AS name,
  ARRAY(SELECT a.attname::text FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum) AS columns,
  ARRAY(SELECT DISTINCT p.relname::text FROM pg_constraint f JOIN pg_class p ON p.oid = f.confrelid
        WHERE f.conrelid = c.oid AND f.contype = 'f') AS parents,
  EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal AND (t.tgtype & 4) <> 0) AS "insertTriggers"
FROM pg_class c
WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind = 'r'
ORDER BY c.relname`;

const SEQUENCES = `
SELECT sequencename::text AS name, last_value::text AS "lastValue" FROM pg_sequences
WHERE schemaname = current_schema() AND last_value IS NOT NULL ORDER BY sequencename`;

type Table = { name: string; columns: string[]; parents: string[]; insertTriggers: boolean };

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type BackupSummary = { file: string; migrations: number; tables: number; rows: number; bytes: number };

/**
 * Writes a backup of the whole database to `file`: one REPEATABLE READ snapshot, so it holds
 * every write committed before it began and none half-done. Written aside and renamed into place,
 * so that `file` never holds half of one. On the embedded database served by a running server,
 * the server's own statements wait until it is done: PGlite is a single session.
 */
export async function writeBackup(connection: SqlConnection, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  const partial = `${target}.${process.pid}.partial`;
  // It holds what the database holds (password hashes, token digests): readable by its owner only.
  const output = await open(partial, 'w', 0o600).catch((error: unknown) => {
    throw new Error(`cannot write ${target} (${errorCode(error) ?? messageOf(error)})`);
  });
  let bytes = 0;
  const write = async (text: string) => {
    bytes += (await output.write(`${text}\n`)).bytesWritten;
  };
  try {
    const written = await inTransaction(connection, 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY', () =>
      writeSnapshot(connection, write),
    );
    await output.sync();
    await output.close();
    await rename(partial, target);
    return { file: target, ...written, bytes };
  } catch (error) {
    await output.close().catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

async function writeSnapshot(connection: SqlConnection, write: (text: string) => Promise<void>) {
  const migrations = await appliedMigrations(connection, await readMigrations());
  const tables = loadOrder(await connection.query<Table>(TABLES));
  await write(
    [
      FORMAT_LINE,
      `-- tcms ${SERVICE_VERSION}, ${new Date().toISOString()}: ${migrations.length} migrations (the latest ${migrations.at(-1)?.name ?? 'none'}), then the rows of ${tables.length} tables.`,
      '-- Restore into an empty database: `tcms restore <file>`, or `psql -v ON_ERROR_STOP=1 -1 -d <database> -f <file>`.',
      "SET client_encoding = 'UTF8';",
      'SET standard_conforming_strings = on;',
      CREATE_MIGRATIONS_TABLE,
    ].join('\n'),
  );
  for (const migration of migrations) await write(`${MARK}migration ${migration.name} ${migration.checksum}\n${migration.sql.trimEnd()}`);
  await write(`${MARK}data`);
  let rows = 0;
  for (const table of tables) rows += await writeRows(connection, table, write);
  for (const { name, lastValue } of await connection.query<{ name: string; lastValue: string }>(SEQUENCES)) {
    await write(`SELECT pg_catalog.setval(${literal(quoted(name))}, ${lastValue});`);
  }
  await write(`${MARK}end`);
  return { migrations: migrations.length, tables: tables.length, rows };
}

/**
 * The tables with every table before those that reference it, so that each foreign key finds its
 * row; a reference of a table to itself is writeRows's affair.
 */
function loadOrder(tables: Table[]): Table[] {
  const names = new Set(tables.map((table) => table.name));
  const placed = new Set<string>();
  const ordered: Table[] = [];
  let waiting = tables;
  while (waiting.length > 0) {
    const ready = waiting.filter((table) =>
      table.parents.every((parent) => parent === table.name || placed.has(parent) || !names.has(parent)),
    );
    if (ready.length === 0) {
      throw new Error(
        `the foreign keys of ${waiting.map((table) => table.name).join(', ')} form a cycle: tcms backup cannot order their rows`,
      );
    }
    for (const table of ready) placed.add(table.name);
    ordered.push(...ready);
    waiting = waiting.filter((table) => !placed.has(table.name));
  }
  return ordered;
}

/**
 * Writes the rows of `table`, read through a cursor a fetch at a time, as INSERTs of a JSON array
 * each. The foreign keys of a statement are checked at its end, so the rows of a table that
 * references itself, in any order, gather in a temporary table and go in with one INSERT.
 * OVERRIDING SYSTEM VALUE keeps the backed-up value of an identity column (and changes nothing
 * without one); triggers of ours that fire on INSERT stay off while the rows go in, as they were.
 */
async function writeRows(connection: SqlConnection, table: Table, write: (text: string) => Promise<void>): Promise<number> {
  const name = quoted(table.name);
  const columns = table.columns.map(quoted).join(', ');
  const selfReferencing = table.parents.includes(table.name);
  const into = selfReferencing ? STAGING : name;
  const before = [
    ...(table.insertTriggers ? [`ALTER TABLE ${name} DISABLE TRIGGER USER;`] : []),
    ...(selfReferencing ? [`CREATE TEMPORARY TABLE ${STAGING} (LIKE ${name});`] : []),
  ];
  const after = [
    ...(selfReferencing
      ? [`INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM ${STAGING};`, `DROP TABLE ${STAGING};`]
      : []),
    ...(table.insertTriggers ? [`ALTER TABLE ${name} ENABLE TRIGGER USER;`] : []),
  ];
  const insert = (rows: string[]) =>
    `INSERT INTO ${into} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${name}, ${literal(`[${rows.join(',')}]`)});`;

  await connection.execScript(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${name} t`);
  let count = 0;
  for (;;) {
    const fetched = (await connection.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`)).map(({ row }) => row);
    if (fetched.length > 0 && count === 0) for (const line of before) await write(line);
    for (const rows of bySize(fetched)) await write(insert(rows));
    count += fetched.length;
    if (fetched.length < FETCH_ROWS) break;
  }
  await connection.execScript('CLOSE backup_rows');
  if (count > 0) for (const line of after) await write(line);
  return count;
}

/** The rows in runs of about STATEMENT_CHARS characters (a longer row alone). */
function bySize(rows: string[]): string[][] {
  const runs: string[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (size + row.length > STATEMENT_CHARS) {
      runs.push([]);
      size = 0;
    }
    runs.at(-1)!.push(row);
    size += row.length;
  }
  return runs;
}

export type RestoreSummary = { file: string; location: string; migrations: number; appliedAfterData: string[] };

/** Throws unless `file` begins as a backup does: checked before a restore creates a database for it. */
export async function checkBackupFile(file: string): Promise<void> {
  for await (const line of linesOf(file)) {
    if (line === FORMAT_LINE) return;
    break;
  }
  throw notABackup(file);
}

/**
 * Restores the backup in `file` into the empty database of `connection` (at `location`), in one
 * transaction: its migrations (this version's own, checked by name and checksum), its rows, then
 * this version's newer migrations, which upgrade an older backup.
 */
export async function restoreBackup(connection: SqlConnection, file: string, location: string): Promise<RestoreSummary> {
  const source = path.resolve(file);
  const known = await readMigrations();
  return inTransaction(connection, 'BEGIN', async () => {
    await refuseUnlessEmpty(connection, location);
    const restored = new Set(await replay(connection, source, known));
    const newer = known.filter((migration) => !restored.has(migration.name));
    for (const migration of newer) await applyMigration(connection, migration);
    return { file: source, location, migrations: restored.size, appliedAfterData: newer.map((migration) => migration.name) };
  });
}

async function refuseUnlessEmpty(connection: SqlConnection, location: string): Promise<void> {
  const [{ tables = 0 } = {}] = await connection.query<{ tables: number }>(
    `SELECT count(*)::int AS tables FROM pg_class WHERE relnamespace = to_regnamespace(current_schema()) AND relkind IN ('r', 'p')`,
  );
  if (tables > 0) {
    throw new Error(
      `the database at ${location} is not empty (${tables} tables): restore only into a new TCMS_DATA_DIR or an empty PostgreSQL database`,
    );
  }
}

/** Runs the statements of the backup in `file`; answers the names of the migrations it held. */
async function replay(connection: SqlConnection, file: string, known: Migration[]): Promise<string[]> {
  const migrations: string[] = [];
  let section: 'start' | 'prelude' | 'migration' | 'data' | 'end' = 'start';
  let lineNumber = 0;
  for await (const line of linesOf(file)) {
    lineNumber += 1;
    const where = `line ${lineNumber} of ${file}`;
    if (section === 'start') {
      if (line !== FORMAT_LINE) throw notABackup(file);
      section = 'prelude';
    } else if (line.startsWith(MARK)) {
      const [mark, name = '', checksum = ''] = line.slice(MARK.length).split(' ');
      if (mark === 'migration' && (section === 'prelude' || section === 'migration')) {
        const migration = knownMigration(known, name, checksum, `the backup (${where})`);
        await runStatements(connection, migration.sql, `migration ${migration.name}`);
        migrations.push(migration.name);
        section = 'migration';
      } else if (mark === 'data' && (section === 'prelude' || section === 'migration')) {
        section = 'data';
      } else if (mark === 'end' && section === 'data') {
        section = 'end';
      } else {
        throw new Error(`${where}: "${line}" is out of place: the backup is damaged`);
      }
    } else if (section === 'end') {
      if (line.trim() !== '') throw new Error(`${where}: the backup goes on after its end mark: it is damaged`);
    } else if (section !== 'migration' && line !== '' && !line.startsWith('--')) {
      // In a migration's section this version's own SQL (the same checksum) ran in its place.
      await runStatements(connection, line, where);
    }
  }
  if (section === 'start') throw notABackup(file);
  if (section !== 'end') throw new Error(`${file} stops before its end mark (${MARK}end): the backup is incomplete`);
  return migrations;
}

async function applyMigration(connection: SqlConnection, migration: Migration): Promise<void> {
  await runStatements(connection, migration.sql, `migration ${migration.name}`);
  await recordApplied(connection, migration);
}

async function runStatements(connection: SqlConnection, sql: string, what: string): Promise<void> {
  try {
    await connection.execScript(sql);
  } catch (error) {
    throw new Error(`${what} failed: ${messageOf(error)}`, { cause: error });
  }
}

async function inTransaction<T>(connection: SqlConnection, begin: string, work: () => Promise<T>): Promise<T> {
  await connection.execScript(begin);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await connection.execScript('ROLLBACK').catch(() => {});
    throw error;
  }
  await connection.execScript('COMMIT');
  return result;
}

const notABackup = (file: string) => new Error(`${file} is not a tcms backup (its first line is not "${FORMAT_LINE}")`);

/** The lines of `file`, read a chunk at a time as they are asked for: memory holds one chunk and one line. */
async function* linesOf(file: string): AsyncGenerator<string> {
  let partial = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    yield* lines;
  }
  if (partial !== '') yield partial;
}
