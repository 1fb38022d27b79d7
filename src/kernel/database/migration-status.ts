import { SERVICE_VERSION } from '../version.ts';
import { appliedChecksums, type Migration, pendingAmong, readMigrations } from './migrator.ts';
import type { SqlConnection } from './sql-connection.ts';

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
  return pendingAmong(await readMigrations(), await appliedChecksums(connection));
}
