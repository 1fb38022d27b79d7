/**
 * The report measures of issue 34 (`BENCH_ONLY=reports npm run bench`,
 * also runnable alone: `npx tsx bench/reports.ts`), service side; bench/raw-reports.ts is their
 * floor. Target: with 1,000,000 results and 10,000 cases in a project, each report answers within
 * 200 ms p95.
 *
 * The history is a year of a project's life: 10,000 cases in 100 suites (ten roots of nine
 * children, the cases in the children and the roots alike), 7 in 10 with an automation key; one
 * run every 8.76 hours (1,000 runs), four in five automated (an import by an API token: source
 * import, author api_token, elapsedMs always) and one in five manual (a person: source manual,
 * author user, elapsedMs on most), the manual ones in the plan of their month (12 plans, three to
 * each of 4 quarterly milestones). A run holds 950 consecutive cases of the project; one case in
 * 19 failed first and was marked again (a retry: attempt 2, flaky when it then passed), so a run
 * appends 1,000 results: 1,000,000 in all. One case in 40 is unstable (fails 3 times in 10, the
 * others 3 in 100), one in 97 is slow; failures carry an assertion message. The two newest runs
 * are still open, with 200 more cases untested. 300 defects, one every 29 hours, go open →
 * in_progress → resolved (→ closed for half) or stay open, their status changes recorded as the
 * service records them (defect.updated audit events), each linked to up to two failed results.
 *
 * Seeding: the organization, its token, the project, the milestones and the plans through the
 * API; the bulk in one transaction of set-based SQL (INSERT … SELECT generate_series) filling
 * the columns the service fills for each row, the counters included (the project's numbering,
 * each run's per-status counts, duration and first/last result instants, each run case's status,
 * elapsedMs and last result, the month's machine-authored results), plus a run.created and a
 * run.cases_bulk_marked event per run, then VACUUM ANALYZE (what autovacuum would have done by then).
 *
 * Measured, one request at a time: each report through REST with what a dashboard asks for (the
 * last 30 days by day in UTC, the first page of 50), the burn-up of the newest milestone over its
 * quarter, and the trend through GraphQL; beyond the target, the yearly trend by week. After a
 * warm-up, REPS rounds of (service request, floor) one after the other, so that both see the same
 * machine; p50/p95 of each and their ratio, and the 1-minute load average at the end of the row.
 * Before measuring, each answer is checked against its floor's (the same aggregate).
 *
 * Engines: PostgreSQL (a temporary database, dropped at the end; BENCH_REPORTS_DATABASE=name
 * keeps a database of that name seeded across runs instead), and PGlite (a temporary data
 * directory: the service runs on it and the floor on a copy of it in this process, PGlite being
 * one process's). BENCH_REPORTS_SCALE (default 1; PGlite's BENCH_REPORTS_PGLITE_SCALE, default
 * 0.1) scales the runs and results (the cases stay 10,000); BENCH_REPORTS_ENGINES=postgres or
 * pglite measures one.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type ServiceProcess, scaleOf, serviceEnv, withService } from './child.ts';
import { pgliteSql, pgPoolSql, type Sql } from './raw.ts';
import { FLOORS, type ReportCall, type ReportName, reportActor, sameAnswer } from './raw-reports.ts';
import { send } from './runs.ts';
import { createProjectThroughApi, graphqlData, type Integrator, newIntegrator } from './setup.ts';
import { percentile } from './stats.ts';

export const REPORT_CASES = 10_000;
const RESULTS_PER_RUN = 1_000;
/** Run cases per run: with one in RETRIED marked twice, RESULTS_PER_RUN results. */
const CASES_PER_RUN = 950;
const RETRIED = 19;
const UNTESTED_IN_OPEN_RUNS = 200;
const OPEN_RUNS = 2;
const PLANS = 12;
const MILESTONES = 4;
const DEFECTS = 300;
const SUITE_ROOTS = 10;
const SUITE_CHILDREN = 9;
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 365;
/** What a dashboard asks for: the last 30 days (the reports' default), by day. */
const RECENT_DAYS = 30;

const WARMUP = 5;
const REPS = 30;
const REQUEST_TIMEOUT_MS = 60_000;
const POOL_SIZE = 10;
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** The floor's sessions run with the settings the service gives each report statement (src/reports/report-scopes.ts, queryReport). */
const FLOOR_SETTINGS = ['jit=off', 'work_mem=32MB'];

const log = (message: string) => process.stderr.write(`${message}\n`);

// ---- seeding ------------------------------------------------------------------------------------

/** What the measures need of the seeded history; kept beside a kept database (BENCH_REPORTS_DATABASE). */
export type ReportsFixture = {
  who: Integrator;
  code: string;
  projectId: string;
  runs: number;
  results: number;
  /** The instant the history ends at (epoch ms): the newest run was created shortly before. */
  endsAt: number;
  milestones: Array<{ ulid: string; from: number; to: number }>;
  plans: string[];
};

/** The organization, token, project, quarterly milestones and monthly plans (each in its quarter's milestone), through the API. */
async function seedThroughApi(service: ServiceProcess, scale: number): Promise<ReportsFixture> {
  const who = await newIntegrator(service, 'reports');
  const code = `RPT${Date.now().toString(36).toUpperCase().slice(-5)}`;
  const projectId = await createProjectThroughApi(service, who, code, 'Reports at scale');
  const endsAt = Math.floor(Date.now() / 1000) * 1000;
  const startsAt = endsAt - HISTORY_DAYS * DAY_MS;
  const quarter = (HISTORY_DAYS * DAY_MS) / MILESTONES;
  const milestones = [];
  for (let index = 0; index < MILESTONES; index++) {
    const from = startsAt + Math.round(index * quarter);
    const to = startsAt + Math.round((index + 1) * quarter);
    const milestone = await send(service, who, 'POST', `/api/v1/projects/${code}/milestones`, { name: `Quarter ${index + 1}`, dueAt: to });
    milestones.push({ ulid: milestone.ulid as string, from, to });
  }
  const plans = [];
  for (let index = 0; index < PLANS; index++) {
    const plan = await send(service, who, 'POST', `/api/v1/projects/${code}/plans`, { name: `Release ${index + 1}`, status: 'active' });
    const milestone = milestones[Math.floor((index * MILESTONES) / PLANS)]!;
    await send(service, who, 'PATCH', `/api/v1/plans/${plan.ulid}`, { milestoneId: milestone.ulid });
    plans.push(plan.ulid as string);
  }
  const runs = Math.max(OPEN_RUNS + 1, Math.round((1_000_000 * scale) / RESULTS_PER_RUN));
  return { who, code, projectId, runs, results: runs * RESULTS_PER_RUN, endsAt, milestones, plans };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/**
 * pg_temp.bench_ulid(ms, seed): a ULID of the instant `ms` (epoch ms, the 10 time characters) and
 * 16 characters of md5(seed) (hexadecimal digits are Crockford base32 digits too), so that seeded
 * ids sort by time as the service's do.
 */
const ULID_FUNCTION = `CREATE FUNCTION pg_temp.bench_ulid(ms bigint, seed text) RETURNS char(26) LANGUAGE sql IMMUTABLE AS $$
  SELECT ${Array.from({ length: 10 }, (_, index) => `substr('${CROCKFORD}', ((ms >> ${5 * (9 - index)}) & 31)::int + 1, 1)`).join(' || ')}
    || upper(substr(md5(seed), 1, 16)) $$`;
const ulidAt = (instant: string, seed: string) => `pg_temp.bench_ulid((extract(epoch FROM ${instant}) * 1000)::bigint, ${seed})`;
/** A number in 0..999 that looks random but is fixed by `seed` (an integer expression). */
const draw = (seed: string) => `((hashint8((${seed})::bigint)::bigint & 2147483647) % 1000)`;

/**
 * The bulk of the history, in the caller's transaction; `$name` placeholders are SeedParameters.
 */
const SEED_STATEMENTS = [
  ULID_FUNCTION,
  `CREATE TEMP TABLE seed_runs ON COMMIT DROP AS
   SELECT r, ${ulidAt('created_at', `'run' || r`)} AS id, created_at, r % 5 = 0 AS manual, r >= $runs::int - ${OPEN_RUNS} AS open,
     CASE WHEN r % 5 = 0 THEN ($plans::char(26)[])[1 + r * ${PLANS} / $runs::int] END AS plan_id
   FROM generate_series(0, $runs::int - 1) AS r,
     LATERAL (SELECT $endsAt::timestamptz - interval '${HISTORY_DAYS} days' + (r + 1) * interval '${HISTORY_DAYS} days' / ($runs::int + 1) AS created_at) AS at`,
  `UPDATE projects SET last_suite_number = ${SUITE_ROOTS * (1 + SUITE_CHILDREN)}, last_case_number = ${REPORT_CASES},
     last_defect_number = ${DEFECTS} WHERE id = $project`,
  // Suites 1..10 are the roots, 11..100 their children (suite n > 10 under root (n - 11) / 9 + 1).
  `INSERT INTO suites (id, org_id, project_id, suite_number, name, parent_id, position, created_at, updated_at)
   SELECT ${ulidAt('created', `'suite' || n`)}, $org, $project, n,
     CASE WHEN n <= ${SUITE_ROOTS} THEN 'Area ' || n ELSE 'Feature ' || n END, NULL,
     CASE WHEN n <= ${SUITE_ROOTS} THEN n - 1 ELSE (n - ${SUITE_ROOTS + 1}) % ${SUITE_CHILDREN} END, created, created
   FROM generate_series(1, ${SUITE_ROOTS * (1 + SUITE_CHILDREN)}) AS n,
     LATERAL (SELECT $endsAt::timestamptz - interval '${HISTORY_DAYS + 30} days' + n * interval '1 minute' AS created) AS at`,
  `UPDATE suites AS child SET parent_id = root.id FROM suites AS root
   WHERE child.project_id = $project AND root.project_id = $project AND child.suite_number > ${SUITE_ROOTS}
     AND root.suite_number = (child.suite_number - ${SUITE_ROOTS + 1}) / ${SUITE_CHILDREN} + 1`,
  `INSERT INTO test_cases (id, org_id, project_id, case_number, title, suite_id, automation_key, created_at, updated_at)
   SELECT ${ulidAt('created', `'case' || n`)}, $org, $project, n, 'Checks behaviour ' || n || ' of feature ' || (1 + n % 100), suite.id,
     CASE WHEN n % 10 < 7 THEN 'com.acme.feature' || (1 + n % 100) || '.Test' || n END, created, created
   FROM generate_series(1, ${REPORT_CASES}) AS n
   JOIN suites AS suite ON suite.project_id = $project AND suite.suite_number = 1 + n % ${SUITE_ROOTS * (1 + SUITE_CHILDREN)},
     LATERAL (SELECT $endsAt::timestamptz - interval '${HISTORY_DAYS + 20} days' + n * interval '1 second' AS created) AS at`,
  `INSERT INTO test_runs (id, org_id, project_id, plan_id, name, state, combo_key, author_kind, author_id, author_name, created_at, updated_at)
   SELECT id, $org, $project, plan_id, CASE WHEN manual THEN 'Regression ' ELSE 'Nightly ' END || to_char(created_at, 'YYYY-MM-DD HH24:MI'), 'open', '',
     CASE WHEN manual THEN 'user' ELSE 'api_token' END, CASE WHEN manual THEN $user ELSE $token END,
     CASE WHEN manual THEN (SELECT first_name || ' ' || last_name FROM users WHERE id = $user) ELSE $tokenName END, created_at, created_at
   FROM seed_runs`,
  // A run's k-th case is the project's case (r * 3137 + k) mod 10,000 + 1; its outcome is drawn
  // from (run, position): unstable cases (one in 40) fail 3 times in 10, the others 3 in 100;
  // one in 100 blocked, two skipped. Automated runs mark a case every 5 s, manual ones every 20 s.
  `INSERT INTO test_run_cases (id, org_id, run_id, case_id, case_number, title, suite_name, position, status, elapsed_ms,
                               last_result_at, created_at, updated_at)
   SELECT ${ulidAt('sr.created_at', `sr.id || k`)}, $org, sr.id, c.id, c.case_number, c.title, suite.name, k, outcome.status,
     CASE WHEN outcome.status <> 'untested' THEN outcome.elapsed_ms END, outcome.at, sr.created_at, coalesce(outcome.at, sr.created_at)
   FROM seed_runs AS sr
   CROSS JOIN LATERAL generate_series(0, ${CASES_PER_RUN - 1} + CASE WHEN sr.open THEN ${UNTESTED_IN_OPEN_RUNS} ELSE 0 END) AS k
   JOIN test_cases AS c ON c.project_id = $project AND c.case_number = (sr.r * 3137 + k) % ${REPORT_CASES} + 1
   JOIN suites AS suite ON suite.id = c.suite_id
   CROSS JOIN LATERAL (SELECT ${draw('sr.r * 100003 + k')} AS u, CASE WHEN c.case_number % 40 = 0 THEN 300 ELSE 30 END AS fails,
     ${draw('c.case_number')} AS pace, ${draw('sr.r * 7 + k * 100019')} AS jitter) AS dice
   CROSS JOIN LATERAL (SELECT
     CASE WHEN k >= ${CASES_PER_RUN} THEN 'untested' WHEN dice.u < dice.fails THEN 'failed' WHEN dice.u < dice.fails + 10 THEN 'blocked'
          WHEN dice.u < dice.fails + 30 THEN 'skipped' ELSE 'passed' END AS status,
     CASE WHEN sr.manual AND dice.jitter < 300 THEN NULL
          ELSE ((20 + dice.pace * 4) * CASE WHEN c.case_number % 97 = 0 THEN 20 ELSE 1 END * (600 + dice.jitter) / 1000)::int END AS elapsed_ms,
     CASE WHEN k < ${CASES_PER_RUN} THEN sr.created_at + (k + 1) * CASE WHEN sr.manual THEN interval '20 seconds' ELSE interval '5 seconds' END END AS at
   ) AS outcome`,
  // Every marked run case's result, and before it a failed first attempt for one in 19.
  `INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, flaky, attempt,
                                 executed_at, executed_by_id, author_kind, author_id, author_name)
   SELECT ${ulidAt('attempt.at', `rc.id || attempt.number`)}, $org, rc.run_id, rc.id, rc.case_id, attempt.status, attempt.elapsed_ms,
     CASE WHEN attempt.status = 'failed' THEN
       'AssertionError: expected status 200 but was ' || (500 + rc.case_number % 4) || E'\\n    at Feature' || (1 + rc.case_number % 100)
       || '.test' || rc.case_number || ' (feature' || (1 + rc.case_number % 100) || '.spec.ts:' || (10 + rc.case_number % 300) || ')' END,
     CASE WHEN sr.manual THEN 'manual' ELSE 'import' END,
     NOT sr.manual AND attempt.number = 2 AND attempt.status = 'passed',
     CASE WHEN sr.manual THEN 1 ELSE attempt.number END,
     attempt.at, $user, run.author_kind, run.author_id, run.author_name
   FROM test_run_cases AS rc
   JOIN seed_runs AS sr ON sr.id = rc.run_id
   JOIN test_runs AS run ON run.id = rc.run_id
   CROSS JOIN LATERAL (VALUES (2, rc.status, rc.elapsed_ms, rc.last_result_at),
                              (1, 'failed', rc.elapsed_ms, rc.last_result_at - interval '2 seconds')) AS attempt(number, status, elapsed_ms, at)
   WHERE rc.status <> 'untested' AND (attempt.number = 2 OR rc.position % ${RETRIED} = 0)`,
  `UPDATE test_runs AS run SET
     count_passed = cases.passed, count_failed = cases.failed, count_blocked = cases.blocked, count_skipped = cases.skipped,
     count_untested = cases.untested, total_duration_ms = results.duration, first_result_at = results.first_at,
     last_result_at = results.last_at, state = CASE WHEN cases.untested = 0 THEN 'closed' ELSE 'open' END,
     closed_at = CASE WHEN cases.untested = 0 THEN results.last_at END, updated_at = results.last_at
   FROM (SELECT run_id, count(*) FILTER (WHERE status = 'passed') AS passed, count(*) FILTER (WHERE status = 'failed') AS failed,
           count(*) FILTER (WHERE status = 'blocked') AS blocked, count(*) FILTER (WHERE status = 'skipped') AS skipped,
           count(*) FILTER (WHERE status = 'untested') AS untested
         FROM test_run_cases WHERE run_id IN (SELECT id FROM seed_runs) GROUP BY run_id) AS cases,
        (SELECT run_id, coalesce(sum(elapsed_ms), 0) AS duration, min(executed_at) AS first_at, max(executed_at) AS last_at
         FROM test_run_results WHERE run_id IN (SELECT id FROM seed_runs) GROUP BY run_id) AS results
   WHERE run.id = cases.run_id AND run.id = results.run_id`,
  `INSERT INTO api_result_usage AS usage (org_id, period_key, used)
   SELECT $org, to_char(executed_at AT TIME ZONE 'UTC', 'YYYY-MM'), count(*) FROM test_run_results
   WHERE run_id IN (SELECT id FROM seed_runs) AND author_kind = 'api_token' GROUP BY 2
   ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used`,
  `INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_name, entity_type, entity_ulid,
                             entity_label, run_id, origin_run_id, metadata, created_at)
   SELECT ${ulidAt('event.at', `run.id || event.action`)}, $org, event.action, run.author_kind, CASE WHEN run.author_kind = 'user' THEN $user END,
     CASE WHEN run.author_kind = 'api_token' THEN $token END, run.author_name, 'test_run', run.id, run.name, run.id, run.id, event.metadata, event.at
   FROM test_runs AS run
   CROSS JOIN LATERAL (VALUES ('run.created', run.created_at, jsonb_build_object('caseCount', run.count_passed + run.count_failed
                                 + run.count_blocked + run.count_skipped + run.count_untested)),
                              ('run.cases_bulk_marked', run.last_result_at, '{}'::jsonb)) AS event(action, at, metadata)
   WHERE run.id IN (SELECT id FROM seed_runs)`,
  // Defect d is created at one of DEFECTS even steps through the year; seven in ten go to
  // in_progress a day later and to resolved 2..10 days after that, half of those to closed 5..9
  // days later; changes after the history's end have not happened yet.
  `INSERT INTO defects (id, org_id, project_id, defect_number, title, status, author_kind, author_id, author_name, created_at, updated_at)
   SELECT ${ulidAt('created', `'defect' || d`)}, $org, $project, d, 'Failure ' || d || ' in feature ' || (1 + d % 100), 'open',
     'user', $user, (SELECT first_name || ' ' || last_name FROM users WHERE id = $user), created, created
   FROM generate_series(1, ${DEFECTS}) AS d,
     LATERAL (SELECT $endsAt::timestamptz - interval '${HISTORY_DAYS} days' + d * interval '${HISTORY_DAYS} days' / ${DEFECTS + 1} AS created) AS at`,
  `INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_name, entity_type, entity_ulid, entity_label, metadata, created_at)
   SELECT ${ulidAt('change.at', `d.id || change.step`)}, $org, CASE WHEN change.step = 0 THEN 'defect.created' ELSE 'defect.updated' END,
     'user', $user, d.author_name, 'defect', d.id, d.title,
     CASE WHEN change.step = 0 THEN jsonb_build_object('defectNumber', d.defect_number, 'status', 'open')
          ELSE jsonb_build_object('changes', jsonb_build_array(jsonb_build_object('field', 'status', 'from', change.from_status, 'to', change.to_status))) END,
     change.at
   FROM defects AS d
   CROSS JOIN LATERAL (VALUES
     (0, NULL, 'open', d.created_at, true),
     (1, 'open', 'in_progress', d.created_at + interval '1 day', d.defect_number % 10 < 7),
     (2, 'in_progress', 'resolved', d.created_at + (3 + d.defect_number % 9) * interval '1 day', d.defect_number % 10 < 7),
     (3, 'resolved', 'closed', d.created_at + (8 + d.defect_number % 13) * interval '1 day', d.defect_number % 10 < 7 AND d.defect_number % 2 = 0)
   ) AS change(step, from_status, to_status, at, happens)
   WHERE d.project_id = $project AND change.happens AND change.at < $endsAt::timestamptz`,
  `UPDATE defects AS d SET status = latest.to_status, updated_at = latest.at
   FROM (SELECT DISTINCT ON (entity_ulid) entity_ulid, metadata->'changes'->0->>'to' AS to_status, created_at AS at
         FROM audit_events WHERE org_id = $org AND action = 'defect.updated' ORDER BY entity_ulid, created_at DESC) AS latest
   WHERE d.project_id = $project AND d.id = latest.entity_ulid`,
  // Each defect is linked to (up to) two failed results of the run created just before it.
  `INSERT INTO defect_result_links (defect_id, result_id, org_id, created_at)
   SELECT d.id, failed.id, $org, d.created_at
   FROM defects AS d
   CROSS JOIN LATERAL (SELECT id FROM seed_runs WHERE created_at <= d.created_at ORDER BY created_at DESC LIMIT 1) AS run
   CROSS JOIN LATERAL (SELECT id FROM test_run_results WHERE run_id = run.id AND status = 'failed' ORDER BY executed_at, id LIMIT 2) AS failed
   WHERE d.project_id = $project`,
];
const ANALYZED = [
  'suites',
  'test_cases',
  'test_runs',
  'test_run_cases',
  'test_run_results',
  'defects',
  'defect_result_links',
  'audit_events',
];

type SeedParameters = Record<'org' | 'project' | 'user' | 'token' | 'tokenName' | 'endsAt' | 'runs' | 'plans', unknown>;

/** `statement` with its `$name` placeholders numbered, and the values they name in that order. */
function numbered(statement: string, parameters: SeedParameters): [string, unknown[]] {
  const names: string[] = [];
  const text = statement.replace(/\$([a-zA-Z]+)/g, (_, name: string) => {
    if (!(name in parameters)) throw new Error(`no seed parameter ${name}`);
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((name) => parameters[name as keyof SeedParameters])];
}

/** The set-based bulk of the history (see the header), then ANALYZE. */
export async function seedHistory(sql: Sql, fixture: ReportsFixture): Promise<void> {
  const { who, projectId, runs, endsAt, plans } = fixture;
  const parameters: SeedParameters = {
    org: who.orgId,
    project: projectId,
    user: who.userId,
    token: who.tokenId,
    tokenName: who.tokenName,
    endsAt: new Date(endsAt),
    runs,
    plans,
  };
  await sql.transaction(async (query) => {
    for (const statement of SEED_STATEMENTS) {
      const started = performance.now();
      await query(...numbered(statement, parameters));
      log(`    ${statement.trim().split(/\s+/).slice(0, 4).join(' ')} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  });
  for (const table of ANALYZED) await sql.query(`VACUUM ANALYZE ${table}`, []);
}

// ---- the measures --------------------------------------------------------------------------------

/** One measured report: the call both sides answer (the service through REST, or GraphQL for the trend). */
type Measure = { label: string; call: (fixture: ReportsFixture, now: number) => ReportCall; graphql?: boolean; beyondTarget?: boolean };
type ServiceRequest = { rest: string } | { graphql: string; variables: Record<string, unknown>; pick: (data: any) => unknown };

const REST_NAMES: Record<ReportName, string> = {
  trend: 'trend',
  burnUp: 'burn-up',
  failing: 'failing',
  slowest: 'slowest',
  coverage: 'coverage',
  defects: 'defects',
};

/** GET /api/v1/projects/{code}/reports/… asking what `call` asks. */
function restRequest(fixture: ReportsFixture, call: ReportCall, now: number): ServiceRequest {
  const parameters =
    'from' in call
      ? { from: call.from, to: call.to, bucket: call.bucket, ...(call.milestoneId ? { milestoneId: call.milestoneId } : {}) }
      : call.name === 'coverage'
        ? { since: call.since }
        : { limit: Math.round((now - call.since) / DAY_MS) };
  const query = new URLSearchParams(Object.entries(parameters).map(([key, value]) => [key, String(value)]));
  return { rest: `/api/v1/projects/${fixture.code}/reports/${REST_NAMES[call.name]}?${query}` };
}

const TREND_GRAPHQL = `query ($code: String!, $from: Timestamp, $to: Timestamp, $bucket: String) { project(code: $code) { reports {
  trend(from: $from, to: $to, bucket: $bucket) { from to bucket timeZone
    buckets { start passed failed blocked skipped untested passRate executedCases automated manual runsOpened runsClosed } } } } }`;

function graphqlRequest(fixture: ReportsFixture, call: ReportCall): ServiceRequest {
  if (call.name !== 'trend') throw new Error('only the trend is measured through GraphQL');
  const { from, to, bucket } = call;
  return { graphql: TREND_GRAPHQL, variables: { code: fixture.code, from, to, bucket }, pick: (data) => data.project.reports.trend };
}

const recent = (now: number) => ({ from: now - RECENT_DAYS * DAY_MS, to: now, bucket: 'day' as const });
const recentSince = (now: number) => now - RECENT_DAYS * DAY_MS;

const MEASURES: Measure[] = [
  { label: `trend, project, ${RECENT_DAYS} days by day`, call: (_, now) => ({ name: 'trend', ...recent(now) }) },
  { label: 'trend through GraphQL, the same', graphql: true, call: (_, now) => ({ name: 'trend', ...recent(now) }) },
  {
    label: 'burn-up, newest milestone, its quarter by day',
    call: (fixture) => {
      const milestone = fixture.milestones.at(-1)!;
      return { name: 'burnUp', from: milestone.from, to: milestone.to, bucket: 'day', milestoneId: milestone.ulid };
    },
  },
  { label: `failing, project, ${RECENT_DAYS} days, page of 50`, call: (_, now) => ({ name: 'failing', since: recentSince(now) }) },
  { label: `slowest, project, ${RECENT_DAYS} days, page of 50`, call: (_, now) => ({ name: 'slowest', since: recentSince(now) }) },
  { label: `coverage, project, since ${RECENT_DAYS} days, page of 50`, call: (_, now) => ({ name: 'coverage', since: recentSince(now) }) },
  { label: `defects, project, ${RECENT_DAYS} days by day`, call: (_, now) => ({ name: 'defects', ...recent(now) }) },
  {
    label: 'trend, project, 366 days by week',
    beyondTarget: true,
    call: (_, now) => ({ name: 'trend', from: now - 366 * DAY_MS, to: now, bucket: 'week' }),
  },
];

async function requestService(service: ServiceProcess, fixture: ReportsFixture, request: ServiceRequest): Promise<unknown> {
  if ('graphql' in request) return request.pick(await graphqlData(service, fixture.who, request.graphql, request.variables));
  const response = await fetch(`${service.baseUrl}${request.rest}`, {
    headers: { authorization: `Bearer ${fixture.who.token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${request.rest}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export type ReportRow = {
  engine: string;
  label: string;
  beyondTarget: boolean;
  service: { p50: number; p95: number };
  floor: { p50: number; p95: number };
  load: number;
};

const elapsed = async (work: () => Promise<unknown>) => {
  const begin = performance.now();
  await work();
  return performance.now() - begin;
};

/** Each measure: its answer checked against the floor's, a warm-up, then REPS interleaved rounds. */
async function measureAll(engine: string, service: ServiceProcess, floorSql: Sql, fixture: ReportsFixture): Promise<ReportRow[]> {
  const actor = reportActor(fixture.who, fixture.projectId);
  const rows: ReportRow[] = [];
  for (const measure of MEASURES) {
    // One instant for both sides and every round: the same window, the same answer.
    const now = Date.now();
    const call = measure.call(fixture, now);
    const request = measure.graphql ? graphqlRequest(fixture, call) : restRequest(fixture, call, now);
    const floor = FLOORS[call.name];
    const answer = await requestService(service, fixture, request);
    const floorAnswer = await floor(floorSql, actor, call);
    const mismatch = sameAnswer(call, answer, floorAnswer);
    if (mismatch) throw new Error(`${engine} ${measure.label}: the service and the floor disagree: ${mismatch}`);
    for (let round = 0; round < WARMUP; round++) {
      await requestService(service, fixture, request);
      await floor(floorSql, actor, call);
    }
    const serviceMs: number[] = [];
    const floorMs: number[] = [];
    for (let round = 0; round < REPS; round++) {
      serviceMs.push(await elapsed(() => requestService(service, fixture, request)));
      floorMs.push(await elapsed(() => floor(floorSql, actor, call)));
    }
    const summary = (latencies: number[]) => {
      const sorted = latencies.sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    const row = {
      engine,
      label: measure.label,
      beyondTarget: measure.beyondTarget ?? false,
      service: summary(serviceMs),
      floor: summary(floorMs),
      load: os.loadavg()[0]!,
    };
    log(`  ${engine} ${row.label}: service p95 ${row.service.p95.toFixed(1)} ms, floor p95 ${row.floor.p95.toFixed(1)} ms`);
    rows.push(row);
  }
  return rows;
}

// ---- engines -------------------------------------------------------------------------------------

const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  log(`  ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
};

/**
 * PostgreSQL: a temporary database, or the kept one BENCH_REPORTS_DATABASE names (seeded on its
 * first use, its fixture beside it in the temporary directory).
 */
async function postgresRows(scale: number): Promise<ReportRow[]> {
  const adminUrl = new URL(process.env.BENCH_PG_URL ?? DEFAULT_PG_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) throw new Error('BENCH_PG_URL must be a loopback address');
  const kept = process.env.BENCH_REPORTS_DATABASE;
  const database = kept ?? `tcms_bench_reports_${process.pid}_${Date.now().toString(36)}`;
  const fixtureFile = path.join(os.tmpdir(), `tcms-bench-reports-${database}.json`);
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1;
    let fixture: ReportsFixture | undefined =
      exists && kept ? JSON.parse(await readFile(fixtureFile, 'utf8').catch(() => 'null')) : undefined;
    if (!exists) await admin.query(`CREATE DATABASE "${database}"`);
    log(`postgres: database ${database}${fixture ? ' (seeded before)' : ''}`);
    const env = serviceEnv(POOL_SIZE, {
      DATABASE_URL: databaseUrl.toString(),
      TCMS_DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'tcms-bench-reports-')),
    });
    const pool = new pg.Pool({
      connectionString: databaseUrl.toString(),
      max: 2,
      options: FLOOR_SETTINGS.map((setting) => `-c ${setting}`).join(' '),
    });
    try {
      return await withService(env, async (service) => {
        if (!fixture) {
          const seeded = await timed('organization, project, milestones and plans through the API', () => seedThroughApi(service, scale));
          await timed(`history of ${seeded.results} results`, () => seedHistory(pgPoolSql(pool), seeded));
          if (kept) await writeFile(fixtureFile, JSON.stringify(seeded));
          fixture = seeded;
        }
        return measureAll('postgres', service, pgPoolSql(pool), fixture);
      });
    } finally {
      await pool.end();
      await rm(env.TCMS_DATA_DIR!, { recursive: true, force: true });
    }
  } finally {
    if (!kept) await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * PGlite: the API seed on the service, the bulk in this process once the service is down (one
 * process at a time on a data directory), then the service on it and the floor on a copy.
 */
async function pgliteRows(scale: number): Promise<ReportRow[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-bench-reports-'));
  const floorDir = `${dataDir}-floor`;
  try {
    const env = serviceEnv(POOL_SIZE, { TCMS_DATA_DIR: dataDir });
    const fixture = await withService(env, (service) =>
      timed('organization, project, milestones and plans through the API', () => seedThroughApi(service, scale)),
    );
    const seeding = await PGlite.create(path.join(dataDir, 'pgdata'));
    try {
      await timed(`history of ${fixture.results} results`, () => seedHistory(pgliteSql(seeding), fixture));
    } finally {
      await seeding.close();
    }
    await cp(dataDir, floorDir, { recursive: true });
    const floorDb = await PGlite.create(path.join(floorDir, 'pgdata'));
    try {
      for (const [name, value] of FLOOR_SETTINGS.map((setting) => setting.split('='))) await floorDb.exec(`SET ${name} = '${value}'`);
      return await withService(env, (service) => measureAll('pglite', service, pgliteSql(floorDb), fixture));
    } finally {
      await floorDb.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(floorDir, { recursive: true, force: true });
  }
}

export type ReportEngine = 'postgres' | 'pglite';

/** The report measures on `engines`; the rows for reportsReport. */
export async function benchReports(engines: ReportEngine[] = ['postgres', 'pglite']): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (const engine of engines) {
    rows.push(
      ...(engine === 'postgres'
        ? await postgresRows(scaleOf('BENCH_REPORTS_SCALE', 1))
        : await pgliteRows(scaleOf('BENCH_REPORTS_PGLITE_SCALE', 0.1))),
    );
  }
  return rows;
}

const TARGET_MS = 200;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

export function reportsReport(rows: ReportRow[]): string {
  const width = Math.max(...rows.map((row) => row.label.length));
  const scale = (engine: string) =>
    engine === 'postgres' ? scaleOf('BENCH_REPORTS_SCALE', 1) : scaleOf('BENCH_REPORTS_PGLITE_SCALE', 0.1);
  const engines = [...new Set(rows.map((row) => row.engine))];
  return [
    '',
    `tcms bench, reports (issue 34): ${REPORT_CASES} cases, a year of history, one request at a time: ${WARMUP} warm-up rounds, then ${REPS} rounds of (service, floor)`,
    `  ${engines.map((engine) => `${engine} ${Math.round(1_000_000 * scale(engine)).toLocaleString('en')} results`).join(', ')}; target p95 <= ${TARGET_MS} ms`,
    '  service = GET /api/v1/projects/{code}/reports/… with an API token (or POST /graphql); floor = token lookup, counter, then the same aggregate in one',
    '  plain SQL statement (bench/raw-reports.ts); every answer checked against the floor before measuring; load = 1-minute load average after the row',
    '',
    ...rows.map((row) =>
      [
        row.engine.padEnd(8),
        row.label.padEnd(width),
        `service p50 ${ms(row.service.p50).padStart(9)} p95 ${ms(row.service.p95).padStart(9)}`,
        '|',
        `floor p50 ${ms(row.floor.p50).padStart(9)} p95 ${ms(row.floor.p95).padStart(9)}`,
        '|',
        `ratio p95 ${(row.service.p95 / row.floor.p95).toFixed(2)}x`,
        `load ${row.load.toFixed(2)}`,
        row.beyondTarget ? '(beyond the target)' : row.service.p95 > TARGET_MS ? `! over ${TARGET_MS} ms` : '',
      ].join('  '),
    ),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const engines = (process.env.BENCH_REPORTS_ENGINES ?? 'postgres,pglite').split(',') as ReportEngine[];
  const rows = await benchReports(engines);
  process.stdout.write(reportsReport(rows));
  process.exit(rows.some((row) => !row.beyondTarget && row.service.p95 > TARGET_MS) ? 1 : 0);
}
