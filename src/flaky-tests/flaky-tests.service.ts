import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { type FlakyTest, type FlakyTestsQuery, LAST_RESULTS_MAX } from './flaky-tests.schemas.ts';

type Row = {
  total: number;
  caseUlid: string | null;
  caseNumber: number;
  title: string;
  flips: number;
  flakyRate: number;
  resultsInWindow: number;
  flaggedFlaky: number;
  lastResults: FlakyTest['lastResults'];
  runs: FlakyTest['runs'];
};

/**
 * The flaky cases of a project, a page of them, in one statement: each active case's `window`
 * most recent passed or failed results (read through the (case_id, executed_at) index), their
 * flips between passed and failed (lag), and the cases with at least `minFlips` flips or a result
 * flagged flaky, by flips descending then case number. Other statuses are not verdicts on the
 * test and are left out of the window.
 */
export async function flakyTestsOf(ctx: RequestContext, project: Pick<ProjectRow, 'id' | 'code' | 'lockedAt'>, query: FlakyTestsQuery) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  const { skip, take } = pageWindow(query);
  const orgId = ctx.org.id;
  // Raw SQL for the window functions; it names org_id itself.
  const rows = await queryRaw<Row[]>(
    ctx.db,
    sql`
    WITH recent AS (
      SELECT c.id AS case_id, c.case_number, c.title, r.id, r.run_id, r.status, r.executed_at, r.flaky,
        row_number() OVER (PARTITION BY c.id ORDER BY r.executed_at DESC, r.id DESC) AS rn,
        lag(r.status) OVER (PARTITION BY c.id ORDER BY r.executed_at DESC, r.id DESC) AS newer_status
      FROM test_cases AS c
      CROSS JOIN LATERAL (
        SELECT id, run_id, status, executed_at, flaky FROM test_run_results
        WHERE org_id = ${orgId} AND case_id = c.id AND status IN ('passed', 'failed')
        ORDER BY executed_at DESC, id DESC
        LIMIT ${query.window}
      ) AS r
      WHERE c.org_id = ${orgId} AND c.project_id = ${project.id} AND c.archived_at IS NULL
    ), per_case AS (
      SELECT case_id, case_number, title,
        count(*) FILTER (WHERE newer_status <> status)::int AS flips,
        count(*)::int AS results_in_window,
        count(*) FILTER (WHERE flaky)::int AS flagged_flaky
      FROM recent
      GROUP BY case_id, case_number, title
    ), hits AS (
      SELECT * FROM per_case WHERE flips >= ${query.minFlips} OR flagged_flaky > 0
    ), page AS (
      SELECT * FROM hits ORDER BY flips DESC, case_number LIMIT ${take} OFFSET ${skip}
    ), page_rows AS (
      SELECT recent.* FROM recent WHERE recent.case_id IN (SELECT case_id FROM page)
    ), page_results AS (
      SELECT case_id,
        jsonb_agg(
          jsonb_build_object(
            'resultUlid', id, 'runUlid', run_id, 'status', status, 'flaky', flaky,
            'executedAt', floor(extract(epoch FROM executed_at) * 1000)::bigint
          ) ORDER BY rn
        ) FILTER (WHERE rn <= ${LAST_RESULTS_MAX}) AS last_results
      FROM page_rows GROUP BY case_id
    ), page_runs AS (
      SELECT latest.case_id, jsonb_agg(jsonb_build_object('ulid', run.id, 'name', run.name) ORDER BY latest.rn, run.id) AS runs
      FROM (SELECT case_id, run_id, min(rn) AS rn FROM page_rows GROUP BY case_id, run_id) AS latest
      JOIN test_runs AS run ON run.id = latest.run_id AND run.org_id = ${orgId}
      GROUP BY latest.case_id
    )
    SELECT (SELECT count(*) FROM hits)::int AS total,
      page.case_id AS "caseUlid", page.case_number AS "caseNumber", page.title, page.flips,
      CASE WHEN page.results_in_window > 1 THEN page.flips::float8 / (page.results_in_window - 1) ELSE 0 END AS "flakyRate",
      page.results_in_window AS "resultsInWindow", page.flagged_flaky AS "flaggedFlaky",
      page_results.last_results AS "lastResults", page_runs.runs
    FROM (SELECT 1) AS one
    LEFT JOIN page ON true
    LEFT JOIN page_results ON page_results.case_id = page.case_id
    LEFT JOIN page_runs ON page_runs.case_id = page.case_id
    ORDER BY page.flips DESC, page.case_number`,
  );
  const items = rows
    .filter((row) => row.caseUlid !== null)
    .map(
      (row): FlakyTest => ({
        caseUlid: row.caseUlid!,
        displayId: caseDisplayId(project.code, row.caseNumber),
        title: row.title,
        flips: row.flips,
        flakyRate: row.flakyRate,
        resultsInWindow: row.resultsInWindow,
        flaggedFlaky: row.flaggedFlaky,
        lastResults: row.lastResults,
        runs: row.runs,
      }),
    );
  return pageOf(items, query, rows[0]?.total ?? 0);
}

export async function listFlakyTests(ctx: RequestContext, projectCode: string, query: FlakyTestsQuery) {
  authorize(ctx, 'project.read');
  return flakyTestsOf(ctx, await resolveProject(ctx, projectCode), query);
}
