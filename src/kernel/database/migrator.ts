import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { SqlConnection } from './sql-connection.ts';

/** The package's prisma/migrations, found upwards from this module: from src/ or from the dist/ bundle. */
function findMigrationsDir(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('prisma/migrations not found above the service code');
  }
}

export const MIGRATIONS_DIR = findMigrationsDir();

// Any constant shared by every process of the service; pg_advisory_lock serializes migrators.
const MIGRATION_LOCK_KEY = 7_202_611;

// The bookkeeping table exactly as `prisma migrate deploy` creates and reads it.
export const CREATE_PRISMA_MIGRATIONS = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export type Migration = { name: string; sql: string; checksum: string };

export async function readMigrations(directory = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** The first migration still running after this long is named while it runs: the operator learns what start-up waits for. */
const SLOW_MIGRATION_MS = 1_000;

/** Name → checksum of the migrations the database has applied (none before the bookkeeping table exists). */
export async function appliedChecksums(connection: SqlConnection): Promise<Map<string, string>> {
  const [bookkeeping] = await connection.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  if (!bookkeeping?.exists) return new Map();
  const rows = await connection.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
}

/** Those of `migrations` not `applied`, in their order; an error for an applied one whose SQL changed since. */
export function pendingAmong(migrations: Migration[], applied: Map<string, string>): Migration[] {
  for (const migration of migrations) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new Error(`Migration ${migration.name} was changed after it was applied`);
    }
  }
  return migrations.filter((migration) => !applied.has(migration.name));
}

/**
 * Applies every pending migration in name order, each in its own transaction together with its
 * `_prisma_migrations` row. A session-level advisory lock makes processes that start together
 * take turns, so each migration runs exactly once. Returns the names applied by this call;
 * `log` hears the pending ones, then each one applied and how long it took.
 */
export async function migrate(connection: SqlConnection, directory = MIGRATIONS_DIR, log?: Logger): Promise<string[]> {
  const migrations = await readMigrations(directory);
  await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await connection.execScript(CREATE_PRISMA_MIGRATIONS);
    const pending = pendingAmong(migrations, await appliedChecksums(connection));
    if (pending.length === 0) log?.info(`no pending migrations (${migrations.length} applied)`);
    else log?.info(`applying ${pending.length} migrations: ${pending.map((migration) => migration.name).join(', ')}`);
    let slowOneNamed = false;
    for (const migration of pending) {
      const startedAt = performance.now();
      const slow =
        log && !slowOneNamed
          ? setTimeout(() => {
              slowOneNamed = true;
              log.warn(`migration ${migration.name} is taking long (over ${SLOW_MIGRATION_MS / 1000} s); start-up waits for it`);
            }, SLOW_MIGRATION_MS)
          : undefined;
      try {
        await applyOne(connection, migration);
      } finally {
        clearTimeout(slow);
      }
      log?.info(`migration ${migration.name} applied in ${Math.round(performance.now() - startedAt)} ms`);
    }
    return pending.map((migration) => migration.name);
  } finally {
    await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}

/** The bookkeeping row of a migration just applied, in the same transaction as its SQL. */
export async function recordApplied(connection: SqlConnection, migration: Migration): Promise<void> {
  await connection.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES ($1, $2, $3, now(), now(), 1)`,
    [randomUUID(), migration.checksum, migration.name],
  );
}

async function applyOne(connection: SqlConnection, migration: Migration): Promise<void> {
  await connection.execScript('BEGIN');
  try {
    await connection.execScript(migration.sql);
    await recordApplied(connection, migration);
    await connection.execScript('COMMIT');
  } catch (error) {
    await connection.execScript('ROLLBACK');
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
