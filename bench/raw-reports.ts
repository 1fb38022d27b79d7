/**
 * The raw-SQL floor of the report measures (bench/reports.ts): for each report the token lookup
 * and the per-minute counter of bench/raw.ts, as every token request pays them, then the same
 * aggregate as one plain SQL statement written for the one scope measured (a project, or a
 * milestone's runs for the burn-up): no scope list to unpack, no empty buckets to fill, no
 * HTTP, validation, Prisma or JSON. A scope's runs are read as an array (run_id = ANY (ARRAY(…))),
 * which keeps their results on the (run_id, executed_at) index whatever the planner guesses of
 * a CTE's rows. The statements compute what the report defines (contract
 * §20, docs/decisions.md §50), so each floor answer can be checked against the service's
 * (sameAnswer) before either is measured.
 */
import { createHash } from 'node:crypto';
import { type Actor, authenticate, type Sql } from './raw.ts';
import type { Integrator } from './setup.ts';

export type ReportName = 'trend' | 'burnUp' | 'failing' | 'slowest' | 'coverage' | 'defects';

/** What one report is asked: a window (epoch ms, half-open) in UTC days or weeks, or the instant `since`. */
export type ReportCall =
  | { name: 'trend' | 'burnUp' | 'defects'; from: number; to: number; bucket: 'day' | 'week'; milestoneId?: string }
  | { name: 'failing' | 'slowest' | 'coverage'; since: number };
type WindowCall = Extract<ReportCall, { from: number }>;
type SinceCall = Extract<ReportCall, { since: number }>;

export type ReportActor = Actor & { projectId: string };

export const reportActor = (who: Integrator, projectId: string): ReportActor => ({
  orgId: who.orgId,
  tokenHash: createHash('sha256').update(who.token).digest('hex'),
  tokenId: who.tokenId,
  tokenName: who.tokenName,
  maxProjects: 1_000_000,
  projectId,
});

type Row = Record<string, any>;
const PAGE_SIZE = 50;
const EXECUTED = `('passed', 'failed', 'blocked', 'skipped')`;
const FAILURE_MESSAGE_MAX = 500;
/** The local start of the bucket of `instant`, in UTC as the measures ask. */
const bucketOf = (instant: string) => `date_trunc($5, ${instant} AT TIME ZONE 'UTC')`;
const windowParameters = (actor: ReportActor, call: WindowCall) => [
  actor.orgId,
  actor.projectId,
  new Date(call.from),
  new Date(call.to),
  call.bucket,
];

const TREND = `
  WITH runs AS (SELECT id, created_at, closed_at FROM test_runs WHERE org_id = $1 AND project_id = $2),
  executed AS (
    SELECT ${bucketOf('res.executed_at')} AS bucket,
      count(*) FILTER (WHERE res.status = 'passed') AS passed, count(*) FILTER (WHERE res.status = 'failed') AS failed,
      count(*) FILTER (WHERE res.status = 'blocked') AS blocked, count(*) FILTER (WHERE res.status = 'skipped') AS skipped,
      count(*) FILTER (WHERE res.status IN ('untested', 'retested')) AS untested,
      count(DISTINCT coalesce(res.case_id, res.run_case_id)) FILTER (WHERE res.status IN ${EXECUTED}) AS executed_cases,
      count(*) FILTER (WHERE res.source = 'import' OR res.author_kind = 'api_token') AS automated
    FROM test_run_results AS res
    WHERE res.org_id = $1 AND res.run_id = ANY (ARRAY(SELECT id FROM runs)) AND res.executed_at >= $3 AND res.executed_at < $4
    GROUP BY 1
  ),
  opened AS (SELECT ${bucketOf('created_at')} AS bucket, count(*) AS runs FROM runs WHERE created_at >= $3 AND created_at < $4 GROUP BY 1),
  closed AS (SELECT ${bucketOf('closed_at')} AS bucket, count(*) AS runs FROM runs WHERE closed_at >= $3 AND closed_at < $4 GROUP BY 1)
  SELECT bucket AT TIME ZONE 'UTC' AS start, passed, failed, blocked, skipped, untested, executed_cases AS "executedCases", automated,
    passed + failed + blocked + skipped + untested - automated AS manual, opened.runs AS "runsOpened", closed.runs AS "runsClosed"
  FROM executed FULL JOIN opened USING (bucket) FULL JOIN closed USING (bucket)
  ORDER BY bucket`;

/** The runs of milestone $6: linked to it, or of a plan linked to it (read as an array: a few runs' rows through their indexes). */
const MILESTONE_RUNS = `runs AS (
    SELECT id, created_at, closed_at FROM test_runs
    WHERE org_id = $1 AND project_id = $2
      AND (milestone_id = $6 OR plan_id IN (SELECT id FROM test_plans WHERE org_id = $1 AND milestone_id = $6))
  )`;

/** Each run case's history replayed (creation, then each result against the one before), summed per bucket, running totals. */
const BURN_UP = `
  WITH ${MILESTONE_RUNS},
  first_bucket AS (SELECT ${bucketOf('$3::timestamptz')} AS bucket),
  marks AS (
    SELECT res.executed_at AS at, res.status,
      coalesce(lag(res.status) OVER (PARTITION BY res.run_case_id ORDER BY res.executed_at, res.id), 'untested') AS previous
    FROM test_run_results AS res
    WHERE res.org_id = $1 AND res.run_id = ANY (ARRAY(SELECT id FROM runs)) AND res.executed_at < $4 AND res.run_case_id IS NOT NULL
  ),
  changes (at, status, delta, runs, closed_runs) AS (
    SELECT created_at, 'untested', 1, 0, 0 FROM test_run_cases
    WHERE org_id = $1 AND run_id = ANY (ARRAY(SELECT id FROM runs)) AND created_at < $4
    UNION ALL SELECT at, status, 1, 0, 0 FROM marks
    UNION ALL SELECT at, previous, -1, 0, 0 FROM marks
    UNION ALL SELECT created_at, NULL, 0, 1, 0 FROM runs WHERE created_at < $4
    UNION ALL SELECT closed_at, NULL, 0, 0, 1 FROM runs WHERE closed_at < $4
  ),
  per_bucket AS (
    SELECT greatest(${bucketOf('at')}, (SELECT bucket FROM first_bucket)) AS bucket, sum(runs) AS runs, sum(closed_runs) AS closed_runs,
      coalesce(sum(delta) FILTER (WHERE status = 'passed'), 0) AS passed, coalesce(sum(delta) FILTER (WHERE status = 'failed'), 0) AS failed,
      coalesce(sum(delta) FILTER (WHERE status = 'blocked'), 0) AS blocked, coalesce(sum(delta) FILTER (WHERE status = 'skipped'), 0) AS skipped,
      coalesce(sum(delta) FILTER (WHERE status IN ('untested', 'retested')), 0) AS untested
    FROM changes GROUP BY 1
  )
  SELECT bucket AT TIME ZONE 'UTC' AS start,
    sum(runs) OVER running AS "totalRuns", sum(closed_runs) OVER running AS "closedRuns", sum(passed) OVER running AS passed,
    sum(failed) OVER running AS failed, sum(blocked) OVER running AS blocked, sum(skipped) OVER running AS skipped,
    sum(untested) OVER running AS untested
  FROM per_bucket WINDOW running AS (ORDER BY bucket) ORDER BY bucket`;

/** A defect's status changes are the `status` entries of its defect.updated events; its first status the first one's `from`. */
const DEFECTS = `
  WITH project_defects AS (SELECT id, created_at, status FROM defects WHERE org_id = $1 AND project_id = $2),
  first_bucket AS (SELECT ${bucketOf('$3::timestamptz')} AS bucket),
  status_changes AS (
    SELECT d.id, event.created_at AS at, event.id AS event_id, entry->>'from' AS from_status, entry->>'to' AS to_status
    FROM project_defects AS d
    JOIN audit_events AS event ON event.entity_ulid = d.id AND event.action = 'defect.updated' AND event.org_id = $1
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(event.metadata->'changes') = 'array' THEN event.metadata->'changes' ELSE '[]'::jsonb END) AS entry
    WHERE entry->>'field' = 'status'
  ),
  timeline (at, from_status, to_status) AS (
    SELECT d.created_at, NULL,
      coalesce((SELECT c.from_status FROM status_changes AS c WHERE c.id = d.id ORDER BY c.at, c.event_id LIMIT 1), d.status)
    FROM project_defects AS d WHERE d.created_at < $4
    UNION ALL SELECT at, from_status, to_status FROM status_changes WHERE at < $4
  ),
  per_bucket AS (
    SELECT greatest(${bucketOf('at')}, (SELECT bucket FROM first_bucket)) AS bucket,
      count(*) FILTER (WHERE from_status IS NULL AND at >= $3) AS opened,
      count(*) FILTER (WHERE at >= $3 AND to_status IN ('resolved', 'closed') AND (from_status IS NULL OR from_status IN ('open', 'in_progress'))) AS resolved,
      sum((to_status IN ('open', 'in_progress'))::int - coalesce((from_status IN ('open', 'in_progress'))::int, 0)) AS open_change
    FROM timeline GROUP BY 1
  )
  SELECT bucket AT TIME ZONE 'UTC' AS start, opened, resolved, sum(open_change) OVER (ORDER BY bucket) AS open
  FROM per_bucket ORDER BY bucket`;

/** The names of suite `suite_id`'s path, root first (a lateral subquery over the row aliased `page`). */
const SUITE_PATH = `LEFT JOIN LATERAL (
    WITH RECURSIVE up (id, parent_id, name, position, depth) AS (
      SELECT id, parent_id, name, position, 0 FROM suites WHERE org_id = $1 AND id = page.suite_id
      UNION ALL
      SELECT parent.id, parent.parent_id, parent.name, parent.position, up.depth + 1 FROM suites AS parent JOIN up ON parent.id = up.parent_id
    )
    SELECT array_agg(name ORDER BY depth DESC) AS names, string_agg(lpad(position::text, 10, '0') || id, '' ORDER BY depth DESC) AS sort_key
    FROM up
  ) AS suite_path ON true`;

/** The project's results since $3 per active case, ranked by `order` among those `keep` holds: a page and the total. */
const caseResults = (keep: string, order: string) => `
  WITH per_case AS (
    SELECT res.case_id, count(*) AS results, count(*) FILTER (WHERE res.status = 'failed') AS failures,
      count(*) FILTER (WHERE res.status = 'failed')::float8 / nullif(count(*) FILTER (WHERE res.status IN ('passed', 'failed', 'blocked')), 0) AS failure_rate,
      (array_agg(left(res.comment, ${FAILURE_MESSAGE_MAX}) ORDER BY res.executed_at DESC, res.id DESC) FILTER (WHERE res.status = 'failed'))[1]
        AS last_failure_message,
      percentile_disc(0.5) WITHIN GROUP (ORDER BY res.elapsed_ms) AS p50, percentile_disc(0.95) WITHIN GROUP (ORDER BY res.elapsed_ms) AS p95
    FROM test_runs AS run
    JOIN test_run_results AS res ON res.org_id = $1 AND res.run_id = run.id AND res.executed_at >= $3
    WHERE run.org_id = $1 AND run.project_id = $2 AND res.case_id IS NOT NULL AND res.status IN ${EXECUTED}
    GROUP BY res.case_id
  ),
  page AS (
    SELECT per_case.*, c.case_number, c.title, c.suite_id, count(*) OVER () AS total
    FROM per_case JOIN test_cases AS c ON c.org_id = $1 AND c.id = per_case.case_id AND c.archived_at IS NULL
    WHERE ${keep}
    ORDER BY ${order} LIMIT ${PAGE_SIZE}
  )
  SELECT page.case_id AS "caseUlid", page.total, page.failures, page.p50, page.p95, page.last_failure_message AS "lastFailureMessage",
    coalesce(suite_path.names, '{}') AS "suitePath"
  FROM page ${SUITE_PATH}
  ORDER BY ${order}`;

/** Per suite: the project's active cases, each with its latest executed result (one probe of the case's results). */
const COVERAGE = `
  WITH cases AS (
    SELECT c.suite_id, c.automation_key, latest.executed_at
    FROM test_cases AS c
    LEFT JOIN LATERAL (
      SELECT executed_at FROM test_run_results WHERE org_id = $1 AND case_id = c.id AND status IN ${EXECUTED} ORDER BY executed_at DESC LIMIT 1
    ) AS latest ON true
    WHERE c.org_id = $1 AND c.project_id = $2 AND c.archived_at IS NULL
  ),
  per_suite AS (
    SELECT suite_id, count(*) AS cases, count(*) FILTER (WHERE executed_at IS NULL) AS never_executed,
      count(*) FILTER (WHERE executed_at IS NULL OR executed_at < $3) AS not_executed_since,
      count(*) FILTER (WHERE automation_key IS NULL) AS without_automation_key
    FROM cases GROUP BY suite_id
  ),
  page AS (
    SELECT per_suite.*, count(*) OVER () AS total, sum(cases) OVER () AS all_cases, sum(never_executed) OVER () AS all_never_executed
    FROM per_suite
  )
  SELECT page.suite_id AS "suiteUlid", page.total, page.all_cases AS "allCases", page.all_never_executed AS "allNeverExecuted",
    page.cases, page.never_executed AS "neverExecuted", page.not_executed_since AS "notExecutedSince",
    page.without_automation_key AS "withoutAutomationKey"
  FROM page ${SUITE_PATH}
  ORDER BY page.suite_id IS NULL, suite_path.sort_key COLLATE "C"
  LIMIT ${PAGE_SIZE}`;

const rowsOf = async (sql: Sql, text: string, parameters: unknown[]) => ((await sql.query(text, parameters)) as { rows: Row[] }).rows;

const windowed = (statement: string) => async (sql: Sql, actor: ReportActor, call: ReportCall) => {
  await authenticate(sql, actor);
  const window = call as WindowCall;
  return rowsOf(sql, statement, [...windowParameters(actor, window), ...(window.milestoneId ? [window.milestoneId] : [])]);
};
const sinceOf = (statement: string) => async (sql: Sql, actor: ReportActor, call: ReportCall) => {
  await authenticate(sql, actor);
  return rowsOf(sql, statement, [actor.orgId, actor.projectId, new Date((call as SinceCall).since)]);
};

export const FLOORS: Record<ReportName, (sql: Sql, actor: ReportActor, call: ReportCall) => Promise<Row[]>> = {
  trend: windowed(TREND),
  burnUp: windowed(BURN_UP),
  defects: windowed(DEFECTS),
  failing: sinceOf(caseResults('failures > 0', 'failures DESC, failure_rate DESC, case_number')),
  slowest: sinceOf(caseResults('p95 IS NOT NULL', 'p95 DESC, p50 DESC, case_number')),
  coverage: sinceOf(COVERAGE),
};

// ---- the check ------------------------------------------------------------------------------------

/** Numbers as the service answers them (the floor's counts come back as bigint strings, instants as Dates). */
const plain = (value: unknown) =>
  value instanceof Date ? value.getTime() : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : (value ?? 0);

/** The first field of `fields` where `expected` (the floor) and `actual` (the service) differ, described. */
function differs(where: string, fields: string[], expected: Row, actual: Row | undefined): string | undefined {
  for (const field of fields) {
    const want = JSON.stringify(plain(expected[field]));
    const got = JSON.stringify(plain(actual?.[field]));
    if (want !== got) return `${where}: ${field} is ${got}, the floor says ${want}`;
  }
  return undefined;
}

const firstOf = (checks: Array<string | undefined>) => checks.find((check) => check !== undefined);

const TREND_FIELDS = [
  'passed',
  'failed',
  'blocked',
  'skipped',
  'untested',
  'executedCases',
  'automated',
  'manual',
  'runsOpened',
  'runsClosed',
];
const BURN_UP_FIELDS = ['totalRuns', 'closedRuns', 'passed', 'failed', 'blocked', 'skipped', 'untested'];
const DEFECT_FIELDS = ['opened', 'resolved', 'open'];
const CASE_FIELDS = ['caseUlid', 'failures', 'lastFailureMessage', 'suitePath'];
const COVERAGE_FIELDS = ['cases', 'neverExecuted', 'notExecutedSince', 'withoutAutomationKey'];

/**
 * Where the service's answer to `call` and the floor's rows disagree (undefined when they agree):
 * every bucket the floor has must be the service's bucket of the same start (running totals as
 * they stand there); the ranked pages and the coverage page item by item, with their totals.
 */
export function sameAnswer(call: ReportCall, answer: any, floorRows: Row[]): string | undefined {
  const byStart = (items: Row[]) => new Map(items.map((item) => [item.start as number, item]));
  const buckets = (items: Row[], fields: string[]) => {
    const service = byStart(items);
    if (floorRows.length === 0) return 'the floor found nothing to compare';
    return firstOf(
      floorRows.map((row) => differs(`bucket ${new Date(row.start).toISOString()}`, fields, row, service.get(plain(row.start) as number))),
    );
  };
  switch (call.name) {
    case 'trend':
      return buckets(answer.buckets, TREND_FIELDS);
    case 'burnUp':
      return buckets(answer.points, BURN_UP_FIELDS);
    case 'defects':
      return buckets(answer.buckets, DEFECT_FIELDS);
    case 'failing':
    case 'slowest': {
      const items = answer.items.map((item: Row) => ({ ...item, p50: item.p50ElapsedMs, p95: item.p95ElapsedMs }));
      if (plain(floorRows[0]?.total) !== answer.total) return `total is ${answer.total}, the floor says ${floorRows[0]?.total}`;
      return firstOf(floorRows.map((row, index) => differs(`item ${index + 1}`, [...CASE_FIELDS, 'p50', 'p95'], row, items[index])));
    }
    case 'coverage': {
      const first = floorRows[0];
      if (plain(first?.total) !== answer.total) return `total is ${answer.total}, the floor says ${first?.total}`;
      const totals = { cases: first?.allCases, neverExecuted: first?.allNeverExecuted };
      const items = answer.items.map((item: Row) => ({ ...item, suiteUlid: item.suite?.ulid ?? null }));
      return firstOf([
        differs('totals', ['cases', 'neverExecuted'], totals, answer.totals),
        ...floorRows.map((row, index) => differs(`suite ${index + 1}`, ['suiteUlid', ...COVERAGE_FIELDS], row, items[index])),
      ]);
    }
  }
}
