import { setTimeout as sleep } from 'node:timers/promises';
import { prisma } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';

/** How long readiness waits for the database before calling it unreachable. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export type Readiness = { ready: boolean; checks: { database: 'up' | 'down' } };

/** Readiness: the database answers a query within two seconds (liveness is GET /health). */
export async function checkReadiness(): Promise<Readiness> {
  const database = await Promise.race([
    queryRaw(prisma(), sql`SELECT 1`).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    sleep(DATABASE_CHECK_TIMEOUT_MS, 'down' as const, { ref: false }),
  ]);
  return { ready: database === 'up', checks: { database } };
}
