import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { byScope, EXECUTED, queryReport, type ReportScope, scopedRuns, WHOLE_PROJECT } from './report-scopes.ts';
import { type CaseResultStats, type CaseResultStatsPage, FAILURE_MESSAGE_MAX } from './reports.schemas.ts';

/** Which results of each case are looked at: those of the last days, or each case's last ones. */
export type ResultSample = { since: Date } | { lastResults: number };

/** The two rankings over the same statistics. */
const RANKINGS = {
  failing: { keep: sql`failures > 0`, order: sql`failures DESC, failure_rate DESC, c.case_number` },
  slowest: { keep: sql`p95 IS NOT NULL`, order: sql`p95 DESC, p50 DESC, c.case_number` },
} satisfies Record<string, { keep: Prisma.Sql; order: Prisma.Sql }>;
export type Ranking = keyof typeof RANKINGS;

type Row = Omit<CaseResultStats, 'displayId'> & { key: number; total: number; projectCode: string; caseNumber: number };

/** The executed results of the sample: per active case, from the scoped runs. */
function sampledResults(orgId: string, sample: ResultSample): Prisma.Sql {
  if ('since' in sample) {
    return sql`
    SELECT sr.key, res.case_id, res.id, res.status, res.elapsed_ms, res.executed_at
    FROM scoped_runs AS sr
    JOIN test_run_results AS res ON res.org_id = ${orgId} AND res.run_id = sr.id AND res.executed_at >= ${sample.since}::timestamptz
    WHERE res.case_id IS NOT NULL AND res.status IN ${EXECUTED}`;
  }
  // Each case's last results through the (case_id, executed_at) index, as the flaky-tests list reads them.
  return sql`
    SELECT s.key, c.id AS case_id, res.id, res.status, res.elapsed_ms, res.executed_at
    FROM subject AS s
    JOIN test_cases AS c ON c.org_id = ${orgId} AND c.project_id = s.project_id AND c.archived_at IS NULL
    CROSS JOIN LATERAL (
      SELECT id, status, elapsed_ms, executed_at FROM test_run_results
      WHERE org_id = ${orgId} AND case_id = c.id AND status IN ${EXECUTED}
        AND (${WHOLE_PROJECT} OR run_id IN (SELECT sr.id FROM scoped_runs AS sr WHERE sr.key = s.key))
      ORDER BY executed_at DESC, id DESC
      LIMIT ${sample.lastResults}
    ) AS res`;
}

/**
 * A page of each scope's active cases by `ranking`, in one statement: per case the results of
 * the sample, its failures and failure rate (over passed, failed and blocked), the comment of
 * its latest failure, the 50th and 95th percentiles of elapsedMs (percentile_disc: durations
 * that occurred), and its suite's path. The results are sorted by case to be aggregated, so they
 * carry no comment: the latest failure is kept by id and its comment read, and the suite path
 * walked up, for the cases of the page only.
 */
export async function readCaseResults(
  db: Db,
  orgId: string,
  scopes: ReportScope[],
  sample: ResultSample,
  ranking: Ranking,
  page: PageQuery,
): Promise<CaseResultStatsPage[]> {
  const { skip, take } = pageWindow(page);
  const { keep, order } = RANKINGS[ranking];
  const rows = await queryReport<Row[]>(
    db,
    sql`
    WITH ${scopedRuns(orgId, scopes)},
    sampled AS (${sampledResults(orgId, sample)}),
    per_case AS (
      SELECT key, case_id, count(*)::int AS results,
        count(*) FILTER (WHERE status = 'failed')::int AS failures,
        count(*) FILTER (WHERE status = 'failed')::float8 / nullif(count(*) FILTER (WHERE status IN ('passed', 'failed', 'blocked')), 0)
          AS failure_rate,
        (array_agg(id ORDER BY executed_at DESC, id DESC) FILTER (WHERE status = 'failed'))[1] AS last_failure_id,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY elapsed_ms) AS p50,
        percentile_disc(0.95) WITHIN GROUP (ORDER BY elapsed_ms) AS p95
      FROM sampled
      GROUP BY key, case_id
    ),
    ranked AS (
      SELECT per_case.*, c.case_number, c.title, c.suite_id,
        row_number() OVER (PARTITION BY per_case.key ORDER BY ${order}) AS position
      FROM per_case
      JOIN test_cases AS c ON c.org_id = ${orgId} AND c.id = per_case.case_id AND c.archived_at IS NULL
      WHERE ${keep}
    )
    SELECT s.key, (SELECT count(*) FROM ranked AS counted WHERE counted.key = s.key)::int AS total,
      project.code AS "projectCode", page.case_id AS "caseUlid", page.case_number AS "caseNumber", page.title,
      coalesce(suite_path.names, '{}') AS "suitePath", page.results, page.failures, page.failure_rate AS "failureRate",
      (SELECT left(comment, ${FAILURE_MESSAGE_MAX}) FROM test_run_results WHERE org_id = ${orgId} AND id = page.last_failure_id)
        AS "lastFailureMessage", page.p50 AS "p50ElapsedMs", page.p95 AS "p95ElapsedMs"
    FROM subject AS s
    JOIN projects AS project ON project.org_id = ${orgId} AND project.id = s.project_id
    LEFT JOIN ranked AS page ON page.key = s.key AND page.position > ${skip} AND page.position <= ${skip + take}
    LEFT JOIN LATERAL (
      WITH RECURSIVE up (id, parent_id, name, depth) AS (
        SELECT id, parent_id, name, 0 FROM suites WHERE org_id = ${orgId} AND id = page.suite_id
        UNION ALL
        SELECT parent.id, parent.parent_id, parent.name, up.depth + 1 FROM suites AS parent JOIN up ON parent.id = up.parent_id
      )
      SELECT array_agg(name ORDER BY depth DESC) AS names FROM up
    ) AS suite_path ON true
    ORDER BY s.key, page.position`,
  );
  return byScope(scopes.length, rows).map((scopeRows) => {
    const items = scopeRows
      .filter((row) => row.caseUlid !== null)
      .map(
        (row): CaseResultStats => ({
          caseUlid: row.caseUlid,
          displayId: caseDisplayId(row.projectCode, row.caseNumber),
          title: row.title,
          suitePath: row.suitePath,
          results: row.results,
          failures: row.failures,
          failureRate: row.failureRate,
          lastFailureMessage: row.lastFailureMessage,
          p50ElapsedMs: row.p50ElapsedMs,
          p95ElapsedMs: row.p95ElapsedMs,
        }),
      );
    return pageOf(items, page, scopeRows[0]?.total ?? 0);
  });
}
