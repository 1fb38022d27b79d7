import { SERVICE_VERSION } from '../version.ts';
import { readMigrations } from './migrator.ts';
import type { SqlConnection } from './sql-connection.ts';

export type Migration = Awaited<ReturnType<typeof readMigrations>>[number];

/** Name → checksum of the migrations the database has applied (none before the first migration). */
async function appliedChecksums(connection: SqlConnection): Promise<Map<string, string>> {
  const [bookkeeping] = await connection.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  if (!bookkeeping?.exists) return new Map();
  const rows = await connection.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
}

/**
 * This version's migration of that name and checksum; an error when it has none (`holder`, the
 * database or a backup, comes from a newer version) or one with other SQL.
 */
export function knownMigration(known: Migration[], name: string, checksum: string, holder: string): Migration {
  const migration = known.find((each) => each.name === name);
  if (!migration) {
    throw new Error(
      `${holder} has migration ${name}, which tcms ${SERVICE_VERSION} does not know: use the version that applied it, or a newer one`,
    );
  }
  if (migration.checksum !== checksum) throw new Error(`${holder} has migration ${name} with other SQL than tcms ${SERVICE_VERSION}'s`);
  return migration;
}

/** The migrations the database has applied, in name order, as this version knows them; an error for one it does not know. */
export async function appliedMigrations(connection: SqlConnection, known: Migration[]): Promise<Migration[]> {
  const applied = [...(await appliedChecksums(connection))].sort(([a], [b]) => (a < b ? -1 : 1));
  return applied.map(([name, checksum]) => knownMigration(known, name, checksum, 'the database'));
}

/** This version's migrations the database has not applied, in the order `migrate` would apply them. */
export async function pendingMigrations(connection: SqlConnection): Promise<Migration[]> {
  const applied = await appliedChecksums(connection);
  const known = await readMigrations();
  for (const migration of known) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new Error(`Migration ${migration.name} was changed after it was applied`);
    }
  }
  return known.filter((migration) => !applied.has(migration.name));
}
