import { SESSION_IDLE_MS } from './auth/auth.schemas.ts';
import { prisma } from './database/client.ts';
import { logger } from './logger.ts';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency/idempotency.service.ts';
import { WINDOW_MS } from './rate-limit/rate-limit.service.ts';
import { sweepStagedUploads } from './test-cases/attachments.service.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes what has outlived its purpose: idempotency keys, rate-limit windows, sign-in failure
 * counters, idle sessions and staged uploads nobody committed within a day.
 */
export async function sweepExpired(now = Date.now()): Promise<void> {
  const client = prisma();
  await client.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(now - IDEMPOTENCY_RETENTION_MS) } } });
  await client.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(now - 2 * WINDOW_MS) } } });
  await client.loginThrottle.deleteMany({ where: { expire: { lt: new Date(now) } } });
  await client.session.deleteMany({ where: { lastSeenAt: { lt: new Date(now - SESSION_IDLE_MS) } } });
  await sweepStagedUploads(now);
}

/** Runs the sweep now and then every ten minutes; returns the stop function. */
export function startMaintenance(): () => void {
  const run = () => void sweepExpired().catch((error: unknown) => logger.error({ err: error }, 'maintenance sweep failed'));
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
