import { Prisma } from '../prisma/generated/client/client.ts';
import { SESSION_IDLE_MS } from '../src/foundation/auth/auth.schemas.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../src/foundation/idempotency/idempotency.service.ts';
import { BUCKETS } from '../src/foundation/rate-limit/rate-limit.service.ts';
import { sweepStagedUploads } from '../src/foundation/storage/staged-uploads.ts';
import { sweepTemporaryUploads } from '../src/foundation/storage/temporary-uploads.ts';
import type { Db } from '../src/kernel/database/client.ts';
import { executeRaw, queryRaw, sql } from '../src/kernel/database/raw-sql.ts';
import { logger } from '../src/kernel/logger.ts';
import { applyDueSubscriptions } from '../src/subscription/subscription.service.ts';
import { DELIVERY_RETENTION_MS } from '../src/webhooks/webhook-dispatcher.service.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** How late a scheduled seat change or a period's renewal may take effect. */
const SUBSCRIPTION_INTERVAL_MS = 60 * 1000;

/**
 * Deletes what has outlived its purpose: idempotency keys, rate-limit windows (sign-in failures
 * among them), idle sessions, expired OAuth codes and tokens, expired password reset tokens,
 * staged uploads nobody committed within a day, the log of webhook deliveries settled (delivered
 * or failed) more than 30 days ago, and the temporary files of uploads that a killed process left
 * behind.
 */
export async function sweepExpired(client: Db, now = Date.now()): Promise<void> {
  await client.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(now - IDEMPOTENCY_RETENTION_MS) } } });
  await client.rateLimitWindow.deleteMany({
    where: { OR: Object.entries(BUCKETS).map(([bucket, { windowMs }]) => ({ bucket, windowStart: { lt: new Date(now - 2 * windowMs) } })) },
  });
  await client.session.deleteMany({ where: { lastSeenAt: { lt: new Date(now - SESSION_IDLE_MS) } } });
  await client.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  await client.oAuthAccessToken.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  await client.oAuthRefreshToken.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  await client.passwordResetToken.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  await sweepStagedUploads(client, now);
  await client.webhookDelivery.deleteMany({
    where: { status: { in: ['delivered', 'failed'] }, createdAt: { lt: new Date(now - DELIVERY_RETENTION_MS) } },
  });
  await sweepTemporaryUploads(now);
}

/**
 * Refreshes the planner statistics of the tables that changed as much as autovacuum's default
 * threshold waits for (50 rows + 10 %), in one ANALYZE. The embedded database needs it: PGlite
 * is a single-user backend that never runs autovacuum, so its tables would keep no statistics,
 * and without them every `org_id = …` filter looks like one row and joins are planned as nested
 * loops over whole tables.
 */
export async function analyzeChangedTables(client: Db): Promise<void> {
  const tables = await queryRaw<Array<{ name: string }>>(
    client,
    sql`
    SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)`,
  );
  if (tables.length > 0) await executeRaw(client, Prisma.raw(`ANALYZE ${tables.map((table) => table.name).join(', ')}`));
}

/**
 * Runs `job` now and then every `intervalMs`, never two runs at once; a failure is logged. The
 * stop function resolves once a run in progress has ended, so the database can close after it.
 */
function every(intervalMs: number, name: string, job: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= job()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, `${name} failed`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * The periodic jobs of every server process: the sweep every ten minutes (followed, with
 * `analyze` — the embedded database; a PostgreSQL server's autovacuum does it there — by
 * `analyzeChangedTables`), and every minute the subscriptions whose scheduled change or period
 * end has come. They run on `client`, the background client, as the outboxes do: work outside
 * requests neither takes a request's connection nor shows among the statements `onQuery` hears.
 * The stop function resolves once no job is running any more.
 */
export function startMaintenance(options: { analyze: boolean; client: Db }): () => Promise<void> {
  const { client } = options;
  const sweep = async () => {
    await sweepExpired(client);
    if (options.analyze) await analyzeChangedTables(client);
  };
  const stops = [
    every(SWEEP_INTERVAL_MS, 'maintenance sweep', sweep),
    every(SUBSCRIPTION_INTERVAL_MS, 'subscription renewals', () => applyDueSubscriptions(client)),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
