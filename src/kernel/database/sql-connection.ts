import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** The one raw SQL session the migrator (and the schema-drift test) needs, on either engine. */
export interface SqlConnection {
  query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (a migration file). */
  execScript(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** A postgres:// address as logs and answers may show it: its password masked. */
export function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = url.password ? '***' : '';
  return url.toString();
}

export async function openPgConnection(connectionString: string): Promise<SqlConnection> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    execScript: async (sql) => {
      await client.query(sql);
    },
    close: () => client.end(),
  };
}

/** Wraps the process's PGlite instance; closing it is the owner's job, not the connection's. */
export function pgliteConnection(database: PGlite): SqlConnection {
  return {
    query: async <Row extends Record<string, unknown>>(sql: string, params?: unknown[]) => (await database.query<Row>(sql, params)).rows,
    execScript: async (sql) => {
      await database.exec(sql);
    },
    close: async () => {},
  };
}
