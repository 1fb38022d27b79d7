import type { Config } from '../config.ts';
import { pgdataOf, reachEmbeddedDatabase, serveEmbeddedDatabase } from './embedded.ts';
import { untilReachable } from './reachability.ts';
import { openPgConnection, pgliteConnection, type SqlConnection, withoutPassword } from './sql-connection.ts';

/** One raw SQL session on the configured database, and where that database is (never with a password). */
export type OperatorSession = { connection: SqlConnection; location: string; close(): Promise<void> };

/**
 * A session for the commands that work on the database as a whole (backup, restore, migrate).
 * Unlike openDatabase it applies no migration: a backup records the database as it is, a restore
 * applies the backup's own. On the embedded database it goes through the server's socket while a
 * server runs, else owns the database; `create` (a restore) makes a new one, as the server would.
 */
export async function openOperatorSession(config: Config, { create }: { create: boolean }): Promise<OperatorSession> {
  if (config.databaseUrl) {
    const { databaseUrl } = config;
    const location = withoutPassword(databaseUrl);
    const connection = await untilReachable(() => openPgConnection(databaseUrl), location, config.dbConnectTimeoutMs);
    return { connection, location, close: () => connection.close() };
  }
  const location = pgdataOf(config.dataDir);
  const embedded = create ? await serveEmbeddedDatabase(config.dataDir) : await reachEmbeddedDatabase(config.dataDir);
  if ('connectionString' in embedded) {
    const connection = await openPgConnection(embedded.connectionString);
    return { connection, location, close: () => connection.close() };
  }
  return { connection: pgliteConnection(embedded.database), location, close: embedded.close };
}
