import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';

/**
 * A second session on the PostgreSQL server of DATABASE_URL that holds row locks the way a
 * request in flight does, for a test to show who overlaps and who waits. Each test gets its own;
 * whatever it still holds is rolled back after the test.
 */
export function useLockHolder() {
  let client: pg.Client;
  beforeEach(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterEach(async () => {
    await client.query('ROLLBACK');
    await client.end();
  });
  return {
    query: <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) => client.query<Row>(text, values),
    /** Resolves once `count` other sessions of this database wait for a lock (polled; bounded). */
    async untilWaitingForLocks(count = 1) {
      for (let attempt = 0; attempt < 500; attempt++) {
        const { rows } = await client.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (rows[0]!.waiting >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${count} sessions never waited for a lock`);
    },
  };
}
