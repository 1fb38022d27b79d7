import type { RequestContext } from '../context.ts';
import { runCounts } from '../runs/runs.schemas.ts';

type Counts = ReturnType<typeof runCounts>;

export type ProgressBucket = {
  comboKey: string;
  values: Array<{ groupName: string; valueName: string }>;
  totalRuns: number;
  closedRuns: number;
  counts: Counts;
};

export type PlanProgress = { totalRuns: number; closedRuns: number; counts: Counts; byConfiguration: ProgressBucket[] };

const noCounts = (): Counts => ({ passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 0 });

const addCounts = (into: Counts, more: Counts) => {
  for (const key of Object.keys(into) as Array<keyof Counts>) into[key] += more[key];
};

const emptyProgress = (): PlanProgress => ({ totalRuns: 0, closedRuns: 0, counts: noCounts(), byConfiguration: [] });

/**
 * The progress of many plans in at most two statements, whatever their number: the per-status
 * counters of their runs summed per plan, comboKey and state (never a scan of results), and the
 * configuration names of each configured bucket, taken from the snapshots of its most recent run.
 * Buckets come in comboKey order (the unconfigured one, '', first); a plan without runs has none.
 */
export async function readPlanProgress(ctx: RequestContext, planIds: string[]): Promise<Map<string, PlanProgress>> {
  const progress = new Map(planIds.map((id) => [id, emptyProgress()]));
  if (planIds.length === 0) return progress;
  const groups = await ctx.db.testRun.groupBy({
    by: ['planId', 'comboKey', 'state'],
    where: { planId: { in: planIds } },
    orderBy: [{ planId: 'asc' }, { comboKey: 'asc' }, { state: 'asc' }],
    _count: { _all: true },
    _sum: { countPassed: true, countFailed: true, countBlocked: true, countSkipped: true, countUntested: true, countRetested: true },
  });
  const names = groups.some((group) => group.comboKey !== '') ? await bucketNames(ctx, planIds) : new Map<string, ProgressBucket['values']>();

  for (const group of groups) {
    const plan = progress.get(group.planId!)!;
    let bucket = plan.byConfiguration.at(-1);
    if (bucket?.comboKey !== group.comboKey) {
      bucket = { comboKey: group.comboKey, values: names.get(`${group.planId}/${group.comboKey}`) ?? [], totalRuns: 0, closedRuns: 0, counts: noCounts() };
      plan.byConfiguration.push(bucket);
    }
    const sums = group._sum;
    const counts = runCounts({
      countPassed: sums.countPassed ?? 0,
      countFailed: sums.countFailed ?? 0,
      countBlocked: sums.countBlocked ?? 0,
      countSkipped: sums.countSkipped ?? 0,
      countUntested: sums.countUntested ?? 0,
      countRetested: sums.countRetested ?? 0,
    });
    const closed = group.state === 'closed' ? group._count._all : 0;
    for (const target of [plan, bucket]) {
      target.totalRuns += group._count._all;
      target.closedRuns += closed;
      addCounts(target.counts, counts);
    }
  }
  // Code-point order, the same on every database collation.
  for (const plan of progress.values()) plan.byConfiguration.sort((a, b) => (a.comboKey < b.comboKey ? -1 : a.comboKey > b.comboKey ? 1 : 0));
  return progress;
}

/** `{ groupName, valueName }` of each configured bucket (`<planId>/<comboKey>`), in position order. */
async function bucketNames(ctx: RequestContext, planIds: string[]) {
  // Raw SQL for DISTINCT ON (the latest run of each bucket); it names org_id itself.
  const rows = await ctx.db.$queryRaw<Array<{ plan_id: string; combo_key: string; group_name: string; value_name: string }>>`
    SELECT latest.plan_id, latest.combo_key, snapshot.group_name, snapshot.value_name
    FROM (
      SELECT DISTINCT ON (plan_id, combo_key) id, plan_id, combo_key
      FROM test_runs
      WHERE org_id = ${ctx.org.id} AND plan_id = ANY(${planIds}::char(26)[]) AND combo_key <> ''
      ORDER BY plan_id, combo_key, created_at DESC, id DESC
    ) AS latest
    JOIN test_run_configurations AS snapshot ON snapshot.run_id = latest.id
    ORDER BY latest.plan_id, latest.combo_key, snapshot.position, snapshot.id`;
  const names = new Map<string, ProgressBucket['values']>();
  for (const row of rows) {
    const key = `${row.plan_id}/${row.combo_key}`;
    const values = names.get(key) ?? [];
    values.push({ groupName: row.group_name, valueName: row.value_name });
    names.set(key, values);
  }
  return names;
}
