import { randomBytes } from 'node:crypto';
import { openPgConnection } from '../../src/kernel/database/sql-connection.ts';

/**
 * A new, empty database on the PostgreSQL server of `serverUrl`, for tests that need one no
 * other test file's processes work on; `drop` removes it (and ends its connections).
 */
export async function freshServerDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tcms_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openPgConnection(serverUrl);
  await admin.execScript(`CREATE DATABASE "${name}"`).finally(() => admin.close());
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = await openPgConnection(serverUrl);
      await cleanup.execScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => cleanup.close());
    },
  };
}
