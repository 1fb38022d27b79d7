import type { Db } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { bucketOf, byScope, queryReport, type ReportScope, scopedRuns, windowBuckets } from './report-scopes.ts';
import type { BurnUpPoint, ReportWindow } from './reports.schemas.ts';

type BurnUpRow = Omit<BurnUpPoint, 'start' | 'end'> & { key: number; start: Date; end: Date };

/**
 * The burn-up of each scope in one statement: the progress counts of its runs' cases as they
 * stood at the end of every bucket. Every status change of a run case appends a result, so a
 * case's history is its creation (untested) and then its results; each is a change of +1 to the
 * new status and -1 to the one before (lag), and a run adds 1 to the runs when created and to the
 * closed runs when closed. A run's cases are counted per creation instant first (they are created
 * together), each result is a change of its own; changes are summed per bucket (those before the
 * window into the first), and the running sum over buckets is the state at each end: one pass over
 * the history, not one per bucket. Cases removed from a run are no longer part of it, in the
 * past either.
 */
export async function readBurnUps(db: Db, orgId: string, scopes: ReportScope[], window: ReportWindow): Promise<BurnUpPoint[][]> {
  const { to } = window;
  const rows = await queryReport<BurnUpRow[]>(
    db,
    sql`
    WITH ${scopedRuns(orgId, scopes)}, ${windowBuckets(window)},
    created_cases AS (
      SELECT sr.key, rc.created_at AS at, count(*) AS cases
      FROM scoped_runs AS sr
      JOIN test_run_cases AS rc ON rc.org_id = ${orgId} AND rc.run_id = sr.id
      WHERE rc.created_at < ${to}::timestamptz
      GROUP BY 1, 2
    ),
    marks AS (
      SELECT sr.key, res.executed_at AS at, res.status,
        coalesce(lag(res.status) OVER (PARTITION BY res.run_case_id ORDER BY res.executed_at, res.id), 'untested') AS previous
      FROM scoped_runs AS sr
      JOIN test_run_results AS res ON res.org_id = ${orgId} AND res.run_id = sr.id AND res.executed_at < ${to}::timestamptz
      WHERE res.run_case_id IS NOT NULL
    ),
    changes (key, at, status, delta, runs, closed_runs) AS (
      SELECT key, at, 'untested', cases, 0, 0 FROM created_cases
      UNION ALL SELECT key, at, status, 1, 0, 0 FROM marks
      UNION ALL SELECT key, at, previous, -1, 0, 0 FROM marks
      UNION ALL SELECT key, created_at, NULL, 0, 1, 0 FROM scoped_runs WHERE created_at < ${to}::timestamptz
      UNION ALL SELECT key, closed_at, NULL, 0, 0, 1 FROM scoped_runs WHERE closed_at < ${to}::timestamptz
    ),
    per_bucket AS (
      SELECT key, greatest(${bucketOf(sql`at`, window)}, (SELECT min(local_start) FROM buckets)) AS local_start,
        sum(runs) AS runs, sum(closed_runs) AS closed_runs,
        sum(delta) FILTER (WHERE status = 'passed') AS passed,
        sum(delta) FILTER (WHERE status = 'failed') AS failed,
        sum(delta) FILTER (WHERE status = 'blocked') AS blocked,
        sum(delta) FILTER (WHERE status = 'skipped') AS skipped,
        sum(delta) FILTER (WHERE status IN ('untested', 'retested')) AS untested
      FROM changes
      GROUP BY 1, 2
    )
    SELECT s.key, b.start, b."end",
      (sum(coalesce(p.runs, 0)) OVER running)::int AS "totalRuns",
      (sum(coalesce(p.closed_runs, 0)) OVER running)::int AS "closedRuns",
      (sum(coalesce(p.passed, 0)) OVER running)::int AS passed,
      (sum(coalesce(p.failed, 0)) OVER running)::int AS failed,
      (sum(coalesce(p.blocked, 0)) OVER running)::int AS blocked,
      (sum(coalesce(p.skipped, 0)) OVER running)::int AS skipped,
      (sum(coalesce(p.untested, 0)) OVER running)::int AS untested
    FROM subject AS s
    CROSS JOIN buckets AS b
    LEFT JOIN per_bucket AS p ON p.key = s.key AND p.local_start = b.local_start
    WINDOW running AS (PARTITION BY s.key ORDER BY b.local_start)
    ORDER BY s.key, b.local_start`,
  );
  return byScope(scopes.length, rows).map((points) =>
    points.map(({ key: _key, start, end, ...counts }) => ({ start: start.getTime(), end: end.getTime(), ...counts })),
  );
}
