import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Prisma } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { AppError } from '../kernel/errors.ts';

/** The calendar month (UTC) a result counts in: 'YYYY-MM'. */
export const periodKeyOf = (at: Date) => at.toISOString().slice(0, 7);

export const resultLimitExceeded = () =>
  new AppError('api_result_limit_exceeded', 'The organization has used its monthly allowance of API results');

/**
 * Counts `count` machine-authored results against the organization's monthly ceiling, inside the
 * transaction that appends them (a rollback gives them back): the body of a CTE carried by the
 * statement that writes the run's counters (applyRunChange), which answers a row unless the
 * ceiling refused the charge (then resultLimitExceeded). One conditional upsert: concurrent
 * callers queue on the month's row and the counter never passes the ceiling. The row stays
 * locked until commit and every mark of the organization, in any run, queues on it, so it is
 * charged by the last statement of a mark, to be held for little more than the COMMIT.
 * Over the ceiling: 409 api_result_limit_exceeded, naming neither ceiling nor usage and with no
 * Retry-After. Session callers are never metered: undefined, nothing to charge.
 */
export function resultCharge(ctx: RequestContext, count: number, at: Date): Prisma.Sql | undefined {
  if (!ctx.metered || count === 0) return undefined;
  const limit = ctx.org.limits.maxResultsPerMonth;
  if (limit !== null && count > limit) throw resultLimitExceeded();
  // The tenant filter is written out: raw SQL does not pass through the confined client.
  return sql`
    INSERT INTO api_result_usage AS usage (org_id, period_key, used)
    VALUES (${ctx.org.id}, ${periodKeyOf(at)}, ${count})
    ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used
    WHERE ${limit}::int IS NULL OR usage.used + EXCLUDED.used <= ${limit}::int
    RETURNING used`;
}

/** GET /orgs/{orgUlid}/api-result-usage: a pure read; a month without results reports 0. */
export async function readResultUsage(ctx: RequestContext, at = new Date()) {
  authorize(ctx, 'usage.read');
  const periodKey = periodKeyOf(at);
  const row = await ctx.db.apiResultUsage.findFirst({ where: { periodKey } });
  return { periodKey, used: row?.used ?? 0, limit: ctx.org.limits.maxResultsPerMonth };
}
