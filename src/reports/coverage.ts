import type { Db } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { suiteDisplayId } from '../projects/projects.schemas.ts';
import { byScope, EXECUTED, queryReport, type ReportScope, scopedRuns, WHOLE_PROJECT } from './report-scopes.ts';
import type { CoverageCounts, CoverageReport, CoverageSuite } from './reports.schemas.ts';

type Row = CoverageCounts & {
  key: number;
  total: number;
  totals: CoverageCounts;
  projectCode: string;
  position: number | null;
  suiteUlid: string | null;
  suiteNumber: number | null;
  suitePath: string[] | null;
};

const NO_CASES: CoverageCounts = { cases: 0, neverExecuted: 0, notExecutedSince: 0, withoutAutomationKey: 0 };

/**
 * The coverage of each scope in one statement: the project's active cases, each with its latest
 * executed result in the scope's runs (one probe of the (case_id, executed_at) index), counted per
 * suite; a page of the suites in tree order (siblings by position, as the suite list orders
 * them), the cases in no suite last, with the totals over all of them.
 */
export async function readCoverage(
  db: Db,
  orgId: string,
  scopes: ReportScope[],
  since: Date,
  page: PageQuery,
): Promise<Omit<CoverageReport, 'since'>[]> {
  const { skip, take } = pageWindow(page);
  const rows = await queryReport<Row[]>(
    db,
    sql`
    WITH ${scopedRuns(orgId, scopes)},
    cases AS (
      SELECT s.key, c.suite_id, c.automation_key, latest.executed_at
      FROM subject AS s
      JOIN test_cases AS c ON c.org_id = ${orgId} AND c.project_id = s.project_id AND c.archived_at IS NULL
      LEFT JOIN LATERAL (
        SELECT executed_at FROM test_run_results
        WHERE org_id = ${orgId} AND case_id = c.id AND status IN ${EXECUTED}
          AND (${WHOLE_PROJECT} OR run_id IN (SELECT sr.id FROM scoped_runs AS sr WHERE sr.key = s.key))
        ORDER BY executed_at DESC
        LIMIT 1
      ) AS latest ON true
    ),
    per_suite AS (
      SELECT key, suite_id, count(*)::int AS cases,
        count(*) FILTER (WHERE executed_at IS NULL)::int AS never_executed,
        count(*) FILTER (WHERE executed_at IS NULL OR executed_at < ${since}::timestamptz)::int AS not_executed_since,
        count(*) FILTER (WHERE automation_key IS NULL)::int AS without_automation_key
      FROM cases
      GROUP BY key, suite_id
    ),
    placed AS (
      SELECT per_suite.*, suite.suite_number, tree.names,
        row_number() OVER (PARTITION BY per_suite.key ORDER BY per_suite.suite_id IS NULL, tree.sort_key COLLATE "C") AS position
      FROM per_suite
      LEFT JOIN suites AS suite ON suite.org_id = ${orgId} AND suite.id = per_suite.suite_id
      LEFT JOIN LATERAL (
        WITH RECURSIVE up (id, parent_id, name, position, depth) AS (
          SELECT suite.id, suite.parent_id, suite.name, suite.position, 0
          UNION ALL
          SELECT parent.id, parent.parent_id, parent.name, parent.position, up.depth + 1
          FROM suites AS parent JOIN up ON parent.id = up.parent_id
        )
        SELECT array_agg(name ORDER BY depth DESC) AS names,
          string_agg(lpad(position::text, 10, '0') || id, '' ORDER BY depth DESC) AS sort_key
        FROM up WHERE id IS NOT NULL
      ) AS tree ON true
    ),
    totals AS (
      SELECT key, count(*)::int AS suites,
        json_build_object('cases', sum(cases), 'neverExecuted', sum(never_executed),
          'notExecutedSince', sum(not_executed_since), 'withoutAutomationKey', sum(without_automation_key)) AS counts
      FROM per_suite
      GROUP BY key
    )
    SELECT s.key, coalesce(totals.suites, 0) AS total, totals.counts AS totals, project.code AS "projectCode",
      page.position, page.suite_id AS "suiteUlid", page.suite_number AS "suiteNumber", page.names AS "suitePath",
      page.cases, page.never_executed AS "neverExecuted", page.not_executed_since AS "notExecutedSince",
      page.without_automation_key AS "withoutAutomationKey"
    FROM subject AS s
    JOIN projects AS project ON project.org_id = ${orgId} AND project.id = s.project_id
    LEFT JOIN totals ON totals.key = s.key
    LEFT JOIN placed AS page ON page.key = s.key AND page.position > ${skip} AND page.position <= ${skip + take}
    ORDER BY s.key, page.position`,
  );
  return byScope(scopes.length, rows).map((scopeRows) => {
    const items = scopeRows
      .filter((row) => row.position !== null)
      .map(
        (row): CoverageSuite => ({
          suite:
            row.suiteUlid === null
              ? null
              : { ulid: row.suiteUlid, displayId: suiteDisplayId(row.projectCode, row.suiteNumber!), path: row.suitePath! },
          cases: row.cases,
          neverExecuted: row.neverExecuted,
          notExecutedSince: row.notExecutedSince,
          withoutAutomationKey: row.withoutAutomationKey,
        }),
      );
    const first = scopeRows[0];
    return { ...pageOf(items, page, first?.total ?? 0), totals: first?.totals ?? NO_CASES };
  });
}
