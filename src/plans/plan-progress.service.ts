import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { RequestContext } from '../foundation/context.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { type RunCounters, runCounts } from '../runs/runs.schemas.ts';

type Counts = ReturnType<typeof runCounts>;

export type ProgressBucket = {
  comboKey: string;
  values: Array<{ groupName: string; valueName: string }>;
  totalRuns: number;
  closedRuns: number;
  counts: Counts;
};

export type PlanProgress = { totalRuns: number; closedRuns: number; counts: Counts; byConfiguration: ProgressBucket[] };

/** One row per (plan, comboKey): its runs' counters summed, and the names of its most recent run's snapshots. */
export type BucketRow = RunCounters & {
  planId: string;
  comboKey: string;
  totalRuns: number;
  closedRuns: number;
  values: ProgressBucket['values'] | null;
};

const emptyProgress = (): PlanProgress => ({
  totalRuns: 0,
  closedRuns: 0,
  counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 0 },
  byConfiguration: [],
});

/**
 * One row per (plan, comboKey) of the plans `plans` matches (`= <plan id>`, `= ANY(<ids>)`): the
 * per-status counters of their runs summed (never a scan of results), with the configuration
 * names of each configured bucket taken from the snapshots of its most recent run.
 * Sums are cast to int (a per-plan sum of case counters fits) so that no BigInt reaches
 * JavaScript; the latest run of a configured bucket is found in the same scan (array_agg), its
 * names aggregated as JSON.
 */
export const progressBuckets = (orgId: string, plans: Prisma.Sql) => sql`
  SELECT bucket.*, names.values
  FROM (
    SELECT plan_id AS "planId", combo_key AS "comboKey",
      count(*)::int AS "totalRuns", (count(*) FILTER (WHERE state = 'closed'))::int AS "closedRuns",
      sum(count_passed)::int AS "countPassed", sum(count_failed)::int AS "countFailed",
      sum(count_blocked)::int AS "countBlocked", sum(count_skipped)::int AS "countSkipped",
      sum(count_untested)::int AS "countUntested", sum(count_retested)::int AS "countRetested",
      (array_agg(id ORDER BY created_at DESC, id DESC) FILTER (WHERE combo_key <> ''))[1] AS latest_run_id
    FROM test_runs
    WHERE org_id = ${orgId} AND plan_id ${plans}
    GROUP BY plan_id, combo_key
  ) AS bucket
  LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('groupName', snapshot.group_name, 'valueName', snapshot.value_name) ORDER BY snapshot.position, snapshot.id) AS values
    FROM test_run_configurations AS snapshot
    WHERE snapshot.run_id = bucket.latest_run_id
  ) AS names ON true`;

/** Buckets in comboKey code-point order (the unconfigured one, '', first) on every database collation. */
export const BUCKET_ORDER = sql`"comboKey" COLLATE "C"`;

/**
 * The progress of each of `planIds` from its bucket rows (in BUCKET_ORDER per plan); a plan
 * without runs has no buckets. The answer is plain objects, shaped once per bucket, that GraphQL
 * and REST read as they are.
 */
export function progressOf(planIds: string[], rows: BucketRow[]): Map<string, PlanProgress> {
  const progress = new Map(planIds.map((id) => [id, emptyProgress()]));
  for (const row of rows) {
    const plan = progress.get(row.planId)!;
    const counts = runCounts(row);
    plan.byConfiguration.push({
      comboKey: row.comboKey,
      values: row.values ?? [],
      totalRuns: row.totalRuns,
      closedRuns: row.closedRuns,
      counts,
    });
    plan.totalRuns += row.totalRuns;
    plan.closedRuns += row.closedRuns;
    plan.counts.passed += counts.passed;
    plan.counts.failed += counts.failed;
    plan.counts.blocked += counts.blocked;
    plan.counts.skipped += counts.skipped;
    plan.counts.untested += counts.untested;
  }
  return progress;
}

/** The progress of many plans in one statement, whatever their number. */
export async function readPlanProgress(ctx: RequestContext, planIds: string[]): Promise<Map<string, PlanProgress>> {
  if (planIds.length === 0) return progressOf(planIds, []);
  const rows = await queryRaw<BucketRow[]>(
    ctx.db,
    sql`
    ${progressBuckets(ctx.org.id, sql`= ANY(${planIds}::char(26)[])`)}
    ORDER BY bucket."planId", bucket.${BUCKET_ORDER}`,
  );
  return progressOf(planIds, rows);
}
