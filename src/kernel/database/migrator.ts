import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
const CREATE_PRISMA_MIGRATIONS = `
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

type Migration = { name: string; sql: string; checksum: string };

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

/**
 * Applies every pending migration in name order, each in its own transaction together with its
 * `_prisma_migrations` row. A session-level advisory lock makes processes that start together
 * take turns, so each migration runs exactly once. Returns the names applied by this call.
 */
export async function migrate(connection: SqlConnection, directory = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(directory);
  await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await connection.execScript(CREATE_PRISMA_MIGRATIONS);
    const rows = await connection.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was changed after it was applied`);
        }
        continue;
      }
      await applyOne(connection, migration);
      appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}

async function applyOne(connection: SqlConnection, migration: Migration): Promise<void> {
  await connection.execScript('BEGIN');
  try {
    await connection.execScript(migration.sql);
    await connection.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await connection.execScript('COMMIT');
  } catch (error) {
    await connection.execScript('ROLLBACK');
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
