import type { RequestContext } from '../context.ts';
import { prisma } from '../database/client.ts';

export const WINDOW_MS = 60_000;

export type RateLimitState = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the current fixed window rolls. */
  resetAt: number;
  retryAfterSeconds: number;
};

/**
 * Counts one machine-authenticated request against the organization's per-minute ceiling
 * (decisions §2). The counter is one row per organization and fixed 60-second window, bumped by
 * a single upsert, so it stays exact however many processes share the database.
 */
export async function consumeRequest(ctx: RequestContext, now = Date.now()): Promise<RateLimitState> {
  const limit = ctx.org.limits.requestsPerMinute;
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  const rows = await prisma().$queryRaw<Array<{ count: number }>>`
    INSERT INTO rate_limit_windows (org_id, window_start, count)
    VALUES (${ctx.org.id}, ${new Date(windowStart)}, 1)
    ON CONFLICT (org_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
  const resetAt = windowStart + WINDOW_MS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}
