import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import type { Db } from '../database/client.ts';
import { AppError } from '../errors.ts';
import { queryRaw, sql } from '../database/raw-sql.ts';

/** The calendar month (UTC) a result counts in: 'YYYY-MM'. */
export const periodKeyOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Counts `count` machine-authored results against the organization's monthly ceiling, inside the
 * transaction that appends them (a rollback gives them back). One conditional upsert: concurrent
 * callers queue on the month's row and the counter never passes the ceiling. Over the ceiling:
 * 409 api_result_limit_exceeded, naming neither ceiling nor usage and with no Retry-After.
 * Session callers are never metered. Call it last in the transaction: the month's row stays
 * locked until commit.
 */
export async function chargeMachineResults(tx: Db, ctx: RequestContext, count: number, at = new Date()): Promise<void> {
  if (!ctx.metered || count === 0) return;
  const limit = ctx.org.limits.maxResultsPerMonth;
  const exceeded = () => new AppError('api_result_limit_exceeded', 'The organization has used its monthly allowance of API results');
  if (limit !== null && count > limit) throw exceeded();
  // The tenant filter is written out: raw SQL does not pass through the confined client.
  const rows = await queryRaw<Array<{ used: number }>>(tx, sql`
    INSERT INTO api_result_usage AS usage (org_id, period_key, used)
    VALUES (${ctx.org.id}, ${periodKeyOf(at)}, ${count})
    ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used
    WHERE ${limit}::int IS NULL OR usage.used + EXCLUDED.used <= ${limit}::int
    RETURNING used`);
  if (rows.length === 0) throw exceeded();
}

/** GET /orgs/{orgUlid}/api-result-usage: a pure read; a month without results reports 0. */
export async function readResultUsage(ctx: RequestContext, at = new Date()) {
  authorize(ctx, 'usage.read');
  const periodKey = periodKeyOf(at);
  const row = await ctx.db.apiResultUsage.findFirst({ where: { periodKey } });
  return { periodKey, used: row?.used ?? 0, limit: ctx.org.limits.maxResultsPerMonth };
}
