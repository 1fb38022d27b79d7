import type { Db } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { bucketOf, byScope, EXECUTED, queryReport, type ReportScope, scopedRuns, windowBuckets } from './report-scopes.ts';
import type { ReportWindow, TrendBucket } from './reports.schemas.ts';

type TrendRow = Omit<TrendBucket, 'start'> & { key: number; start: Date };

/**
 * The trend of each scope, every bucket of the window, in one statement: results executed in the
 * window read through the (run_id, executed_at) index of each scoped run, grouped by bucket.
 * Results of imports and API tokens are automated, the rest manual.
 */
export async function readTrends(db: Db, orgId: string, scopes: ReportScope[], window: ReportWindow): Promise<TrendBucket[][]> {
  const { from, to } = window;
  const rows = await queryReport<TrendRow[]>(
    db,
    sql`
    WITH ${scopedRuns(orgId, scopes)}, ${windowBuckets(window)},
    executed AS (
      SELECT sr.key, ${bucketOf(sql`res.executed_at`, window)} AS local_start,
        count(*) FILTER (WHERE res.status = 'passed')::int AS passed,
        count(*) FILTER (WHERE res.status = 'failed')::int AS failed,
        count(*) FILTER (WHERE res.status = 'blocked')::int AS blocked,
        count(*) FILTER (WHERE res.status = 'skipped')::int AS skipped,
        count(*) FILTER (WHERE res.status IN ('untested', 'retested'))::int AS untested,
        (count(DISTINCT coalesce(res.case_id, res.run_case_id)) FILTER (WHERE res.status IN ${EXECUTED}))::int AS executed_cases,
        count(*) FILTER (WHERE res.source = 'import' OR res.author_kind = 'api_token')::int AS automated,
        count(*) FILTER (WHERE res.source <> 'import' AND res.author_kind <> 'api_token')::int AS manual
      FROM scoped_runs AS sr
      JOIN test_run_results AS res ON res.org_id = ${orgId} AND res.run_id = sr.id
        AND res.executed_at >= ${from}::timestamptz AND res.executed_at < ${to}::timestamptz
      GROUP BY 1, 2
    ),
    opened AS (
      SELECT key, ${bucketOf(sql`created_at`, window)} AS local_start, count(*)::int AS runs
      FROM scoped_runs WHERE created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz
      GROUP BY 1, 2
    ),
    closed AS (
      SELECT key, ${bucketOf(sql`closed_at`, window)} AS local_start, count(*)::int AS runs
      FROM scoped_runs WHERE closed_at >= ${from}::timestamptz AND closed_at < ${to}::timestamptz
      GROUP BY 1, 2
    )
    SELECT s.key, b.start,
      coalesce(e.passed, 0) AS passed, coalesce(e.failed, 0) AS failed, coalesce(e.blocked, 0) AS blocked,
      coalesce(e.skipped, 0) AS skipped, coalesce(e.untested, 0) AS untested,
      e.passed::float8 / nullif(e.passed + e.failed + e.blocked, 0) AS "passRate",
      coalesce(e.executed_cases, 0) AS "executedCases", coalesce(e.automated, 0) AS automated, coalesce(e.manual, 0) AS manual,
      coalesce(o.runs, 0) AS "runsOpened", coalesce(c.runs, 0) AS "runsClosed"
    FROM subject AS s
    CROSS JOIN buckets AS b
    LEFT JOIN executed AS e ON e.key = s.key AND e.local_start = b.local_start
    LEFT JOIN opened AS o ON o.key = s.key AND o.local_start = b.local_start
    LEFT JOIN closed AS c ON c.key = s.key AND c.local_start = b.local_start
    ORDER BY s.key, b.local_start`,
  );
  return byScope(scopes.length, rows).map((buckets) =>
    buckets.map(({ key: _key, start, ...counts }) => ({ start: start.getTime(), ...counts })),
  );
}
