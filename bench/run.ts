/**
 * `npm run bench`: throughput and latency on both databases (embedded PGlite in a temporary data
 * directory, and a temporary database on the PostgreSQL server), each beside a raw-SQL floor
 * that runs the same statements without the service, of GET and POST /api/v1/projects and of
 * the test-design measures (bench/test-design.ts, floor bench/raw-test-design.ts): create 1,000
 * test cases, read a project's suite tree through GraphQL, consolidated PATCH of a case, the case
 * list page by page (50 a page); and of the execution measures (bench/runs.ts, floor
 * bench/raw-runs.ts): marks through PATCH run case into one run and spread over 10 runs, each at
 * 10 and at 50 clients (with the scaling from one run to 10 of each side, and how busy the
 * machine's cores and the service process were meanwhile: a side whose marks queue on a lock
 * leaves cores idle), results through
 * bulk-mark and bulk submit-result (500 a call), the progress of 200 plans through GraphQL and
 * the REST detail of a plan with 50 runs. `BENCH_ONLY=hot` runs only the rows issue 13 sets a
 * target ratio for (the four mark rows, bulk submit, progress, plan detail, case list), on both
 * engines, with the same seed (less the bulk-mark runs);
 * and of the project team (bench/project-team.ts, floor bench/raw-project-team.ts): the project
 * list with include=stats of an organization of 200 members, 50 groups and 100 projects, half of
 * them private, read by a member in a session. `BENCH_ONLY=team` runs only that measure (in a
 * data directory and a database of its own, as always); and of the exports (bench/exports.ts:
 * the audit export of 25,000 events and the project export of 10,000 cases beside a raw COPY of
 * the same rows, time and peak memory), `BENCH_ONLY=exports` for only those; and of the live
 * measures (bench/live.ts, floor bench/raw-live.ts): webhook throughput (bulk-marks of 500 cases
 * from 4 clients, one run.cases_bulk_marked event and one delivery each, to a receiver in this
 * process: events/s and delivery latency) and live progress latency (200 SSE streams on a run,
 * single marks 300 ms apart: from the mark's request to its event on each stream),
 * `BENCH_ONLY=live` for only those. The live measures run the service with
 * TCMS_WEBHOOKS_ALLOW_PRIVATE=true (the receiver is on 127.0.0.1) and stop it before their floor.
 * And of run creation (bench/run-creation.ts, floor bench/raw-run-creation.ts): a run created
 * from a plan of 500 and of 5,000 cases (median of 5 calls, how the 5,000 time grows over the 500
 * time, and the peak resident memory the service process gains during each call: its VmHWM reset
 * through /proc/<pid>/clear_refs before the call, read after it) and PUT plan selection of 5,000
 * cases, `BENCH_ONLY=runs` for only those (BENCH_RUNS_SCALE in (0, 1] scales their case counts
 * down for a quick check).
 * And of start-up (bench/start.ts): the built server from its spawn to the first 200 of
 * GET /api/v1/health, on a new and on an existing database of each engine, `BENCH_ONLY=start`
 * for only those (the build is brought up to date first).
 * And the rows of issue 33 against the tight floor (bench/raw-runs-tight.ts: the same rows as the
 * service in the fewest round trips, its lock order, statement names and NOTIFY, nothing else):
 * single marks by a session and by a token, into one run and over 10, and bulk submit of 500 and
 * of 50 results a call, `BENCH_ONLY=tight` for only those, in interleaved rounds (service, floor,
 * service, floor...; BENCH_ROUNDS, at least 5; BENCH_TIGHT_ROWS and BENCH_TIGHT_ENGINES pick rows and
 * engines) with the median ratio, its spread and the 1-minute
 * load average of each row. On PostgreSQL the two sides alternate row by row; on PGlite, whose
 * data directory one process holds at a time, round by round (the service restarted each round,
 * each side warmed up each round on both engines).
 *
 * Where the service runs: in a child process (bench/serve.ts, the same composition root as
 * app/server.ts, bound to 127.0.0.1), not in this process. In-process, autocannon's request
 * generation and response parsing would share one event loop with Express and Prisma, so the
 * service would be measured at less than one core while the raw floor (a pg Pool or PGlite in
 * this process, no HTTP) does not pay that tax; in a child, the service has its own event loop
 * and core as it has in production (`tsx app/server.ts`), and the load generator the other core.
 * The PostgreSQL server shares those two cores in both set-ups.
 *
 * The service's database pool is TCMS_DB_POOL_SIZE = 10 (the bench's concurrency) at every number
 * of clients, and the raw floor's pg Pool has as many connections: at 50 clients both queue for
 * them (PGlite is one session on both sides anyway), so the ratio compares equal resources.
 * The PostgreSQL floor sends unnamed statements, pg's default; BENCH_RAW_NAMED=true makes it name
 * them as the service names its raw statements (src/kernel/database/raw-sql.ts), to compare like with like.
 * The floor sends the statements the service sent when issue 13 was filed, which its target
 * ratios refer to; BENCH_FLOOR=today makes the mark and bulk floors send the service's statements
 * of today instead (bench/raw-runs-today.ts): the same locks held as long, so that the scaling of
 * marks from one run to many compares like with like.
 *
 * Callers authenticate with an API token (Authorization: Bearer), the integrator path: such
 * requests are metered, so each also bumps the per-minute request counter. The project-team
 * reader is the exception: a member in a session, since tokens are never held to allowlists. Ceilings are raised
 * with overrideOrganizationLimits so that neither the project ceiling nor the request ceiling
 * answers 403/429. The request log is off (TCMS_LOG_REQUESTS=false).
 *
 * Everything is bounded: fixed request counts, a time bound per measured run, and a deadline
 * for the whole benchmark, after which it cleans up and exits non-zero. Only loopback addresses
 * are contacted. Nothing is written to the work tree: the data directory and the database are
 * temporary and removed at the end, whatever happens.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
// @ts-expect-error the build script is plain JavaScript without type declarations
import { ensureBuilt } from '../scripts/build.mjs';
import { killServices, type ServiceProcess, serviceEnv, startService } from './child.ts';
import {
  EXPORT_MEASURES,
  type ExportMeasureName,
  type ExportRow,
  exportPeople,
  exportReport,
  rawExportPglite,
  rawExportPostgres,
  seedExports,
  serviceExport,
} from './exports.ts';
import { IMPORT_TESTS, type ImportFigures, importProject, peakRssOfLargeReport, REPORT_MB, rawImport, serviceImport } from './import.ts';
import {
  LIVE_STREAMS,
  type LiveRow,
  livePlan,
  liveReport,
  liveShortfall,
  seedLive,
  serviceProgressLatency,
  serviceWebhooks,
  startReceiver,
} from './live.ts';
import { runHttpLoad } from './load.ts';
import { benchMemory, memoryReport } from './memory.ts';
import {
  seedTeamOrganization,
  serviceTeamList,
  TEAM_GROUPS,
  TEAM_LIST_PATH,
  TEAM_MEMBERS,
  TEAM_PROJECTS,
  teamPeople,
} from './project-team.ts';
import { type Actor, createProject, listPage, pgliteSql, pgPoolSql, runOps, type Sql } from './raw.ts';
import { pgListen, pgliteListen, rawProgressLatency, rawWebhooks } from './raw-live.ts';
import { rawTeamList } from './raw-project-team.ts';
import { rawPutSelection, rawRunFromPlan } from './raw-run-creation.ts';
import { ISSUE_STATEMENTS, type RunsActor, rawBulk, rawMarks, rawPlanDetail, rawProgress } from './raw-runs.ts';
import {
  type PublishRunChange,
  publishNowhere,
  runChangeNotifier,
  type TightCredentials,
  tightMark,
  tightSubmit,
} from './raw-runs-tight.ts';
import { TODAY_STATEMENTS } from './raw-runs-today.ts';
import { type CaseActor, rawCaseList, rawCreateCases, rawPatchCases, rawReadTree } from './raw-test-design.ts';
import { benchReports, reportsReport } from './reports.ts';
import {
  PLAN_SIZES,
  type RunCreationRow,
  runCreationReport,
  SELECTION_SIZE,
  seedRunCreation,
  servicePutSelection,
  serviceRunFromPlan,
} from './run-creation.ts';
import {
  DETAIL_RUNS,
  MANY_CLIENTS,
  MARK_MEASURES,
  type MarkMeasure,
  PROGRESS_PLANS,
  RUN_CASES,
  type RunsFixture,
  runsProject,
  SPREAD_RUNS,
  seedRuns,
  seedTightSide,
  serviceBulkMark,
  serviceMarks,
  servicePlanDetail,
  serviceProgress,
  serviceSubmit,
  serviceTightLoad,
  TIGHT_KEYS,
  TIGHT_ROWS,
  type TightRow,
  type TightRowKey,
  type TightSide,
} from './runs.ts';
import { bearer, getJson, type Integrator, newIntegrator, seedProjects } from './setup.ts';
import { killStartedServers, START_RUNS, type StartFigures, type StartRow, startReport, timeStart } from './start.ts';
import { type Measurement, median } from './stats.ts';
import {
  CASE_PAGE,
  type Counts,
  casePageCursors,
  type DesignProject,
  designProject,
  STEPS,
  seedTree,
  serviceCaseList,
  serviceCreateCases,
  servicePatchCases,
  serviceReadTree,
  TREE_CASES,
  TREE_SUITES,
} from './test-design.ts';

const CONCURRENCY = 10;
const PAGE_SIZE = 20;
/** Projects in the listed organization: a full page of 20 and a total to count. */
const SEEDED_PROJECTS = 25;
type Plan = {
  list: Counts;
  create: Counts;
  createCases: Counts;
  tree: Counts;
  patch: Counts;
  marks: Counts;
  marks50: Counts;
  spread: Counts;
  spread50: Counts;
  bulkMark: Counts;
  submit: Counts;
  progress: Counts;
  planDetail: Counts;
  caseList: Counts;
  team: Counts;
};
/**
 * Fixed counts per engine (PGlite is one single-threaded session, several times slower), sized
 * so that the whole run stays within about four minutes on two cores. BENCH_SCALE (default 1)
 * multiplies them, for a quick check or a longer, steadier run. The PATCH pool is the cases the
 * same side created, so createCases (warm-up + measured) >= patch (warm-up + measured) keeps
 * every PATCH on a case of its own.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? '1');
if (!(SCALE > 0 && SCALE <= 10)) throw new Error('BENCH_SCALE must be a number in (0, 10]');
// autocannon needs at least one request per connection.
const times = (count: number) => Math.max(MANY_CLIENTS, Math.ceil(count * SCALE));
const scaled = (plan: Plan): Plan =>
  Object.fromEntries(
    Object.entries(plan).map(([name, counts]) => [name, { warmup: times(counts.warmup), measured: times(counts.measured) }]),
  ) as Plan;
const PLANS: Record<'pglite' | 'postgres', Plan> = {
  pglite: scaled({
    list: { warmup: 150, measured: 1500 },
    create: { warmup: 75, measured: 750 },
    createCases: { warmup: 50, measured: 1000 },
    tree: { warmup: 10, measured: 100 },
    patch: { warmup: 50, measured: 1000 },
    marks: { warmup: 50, measured: 500 },
    marks50: { warmup: 50, measured: 500 },
    spread: { warmup: 50, measured: 500 },
    spread50: { warmup: 50, measured: 500 },
    bulkMark: { warmup: 10, measured: 20 },
    submit: { warmup: 10, measured: 20 },
    progress: { warmup: 10, measured: 50 },
    planDetail: { warmup: 20, measured: 300 },
    caseList: { warmup: 10, measured: 100 },
    team: { warmup: 20, measured: 200 },
  }),
  postgres: scaled({
    list: { warmup: 300, measured: 3000 },
    create: { warmup: 150, measured: 1500 },
    createCases: { warmup: 50, measured: 1000 },
    tree: { warmup: 20, measured: 200 },
    patch: { warmup: 50, measured: 1000 },
    marks: { warmup: 100, measured: 1000 },
    marks50: { warmup: 100, measured: 1000 },
    spread: { warmup: 100, measured: 1000 },
    spread50: { warmup: 100, measured: 1000 },
    bulkMark: { warmup: 10, measured: 40 },
    submit: { warmup: 10, measured: 40 },
    progress: { warmup: 20, measured: 200 },
    planDetail: { warmup: 50, measured: 1000 },
    caseList: { warmup: 20, measured: 300 },
    team: { warmup: 30, measured: 500 },
  }),
};
/** A measured (or warm-up) run stops here even if its count is not reached; it is then marked. */
const RUN_BOUND_MS = 45_000;
/** The whole benchmark, set-up and clean-up included. */
const DEADLINE_MS = 1_800_000;
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * `BENCH_ONLY=team`, `exports`, `import`, `live`, `runs`, `start`, `tight`, `memory`, `reports` or `audit`: only the project-team,
 * the export, the import, the live, the run-creation, the start-up, the tight-floor, the memory (bench/memory.ts), the
 * report (bench/reports.ts) or the audit feed (bench/audit-feed.ts) measures, on both engines; `hot`: only the rows of HOT_ROWS.
 */
const ONLY = process.env.BENCH_ONLY;
/** BENCH_RAW_NAMED=true: the PostgreSQL floor names its statements as the service does (bench/raw.ts). */
const RAW_NAMED = process.env.BENCH_RAW_NAMED === 'true';
/** BENCH_FLOOR=today: the mark and bulk floors send the service's statements of today, not those of the day issue 13 was filed. */
const FLOOR = process.env.BENCH_FLOOR ?? 'issue';
if (!['issue', 'today'].includes(FLOOR)) throw new Error('BENCH_FLOOR takes issue (the default) or today');
const RUNS_STATEMENTS = FLOOR === 'today' ? TODAY_STATEMENTS : ISSUE_STATEMENTS;
if (
  ONLY !== undefined &&
  !['team', 'exports', 'import', 'live', 'runs', 'start', 'hot', 'tight', 'memory', 'reports', 'audit'].includes(ONLY)
) {
  throw new Error('BENCH_ONLY takes one value: team, exports, import, live, runs, start, hot, tight, memory, reports or audit');
}
const LIVE_PLANS = { pglite: livePlan('pglite', SCALE), postgres: livePlan('postgres', SCALE) };

/** `key`: the row of ENDPOINTS (the team row has none); `perOp`: results each successful request appends (the bulk rows), reported as results/s. */
type Row = { engine: string; key?: RowKey; endpoint: string; service: Measurement; raw: Measurement; perOp?: number };

const log = (message: string) => process.stderr.write(`${message}\n`);

// ---- clean-up, signals and the deadline ---------------------------------------------------------

const cleanups: Array<{ name: string; run: () => Promise<void> }> = [];
let exiting = false;
/** Registers a clean-up; returns a function that runs it now (the normal path) unless already run. */
const onCleanup = (name: string, run: () => Promise<void>) => {
  const entry = { name, run };
  cleanups.push(entry);
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index < 0) return; // already taken by cleanUpAll
    cleanups.splice(index, 1);
    await run();
  };
};
let cleaning: Promise<void> | undefined;
/** Runs every pending clean-up, newest first; concurrent callers share one pass. */
function cleanUpAll(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const { name, run } = cleanups.pop() as (typeof cleanups)[number];
      try {
        await Promise.race([run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 20_000).unref())]);
      } catch (error) {
        log(`clean-up "${name}" failed: ${String(error)}`);
      }
    }
  })();
  return cleaning;
}
function abort(reason: string, code: number) {
  if (exiting) return;
  exiting = true;
  log(`bench: ${reason}; cleaning up`);
  killServices();
  killStartedServers();
  void cleanUpAll().finally(() => process.exit(code));
}
const deadline = setTimeout(() => abort(`the ${DEADLINE_MS / 1000} s deadline passed`, 2), DEADLINE_MS);
process.on('SIGINT', () => abort('interrupted', 130));
process.on('SIGTERM', () => abort('terminated', 143));

// ---- helpers ------------------------------------------------------------------------------------

let codeCounter = 0;
/** Unique project ids (^[A-Z][A-Z0-9]*$, at most 20 characters). */
const nextCode = () => `B${(codeCounter++).toString(36).toUpperCase()}`;

const listUrl = (service: ServiceProcess) => `${service.baseUrl}/api/v1/projects?pageSize=${PAGE_SIZE}`;

async function serviceList(service: ServiceProcess, who: Integrator, plan: Plan): Promise<Measurement> {
  const page = await getJson(service, `/api/v1/projects?pageSize=${PAGE_SIZE}`, who);
  if (page.items.length !== PAGE_SIZE || page.total !== SEEDED_PROJECTS) {
    throw new Error(`unexpected page: ${page.items.length} items, total ${page.total}`);
  }
  const load = { url: listUrl(service), method: 'GET' as const, headers: bearer(who), concurrency: CONCURRENCY, maxMs: RUN_BOUND_MS };
  await runHttpLoad({ ...load, requests: plan.list.warmup });
  return runHttpLoad({ ...load, requests: plan.list.measured });
}

async function serviceCreate(service: ServiceProcess, who: Integrator, plan: Plan): Promise<Measurement> {
  const load = {
    url: `${service.baseUrl}/api/v1/projects`,
    method: 'POST' as const,
    headers: { ...bearer(who), 'content-type': 'application/json' },
    body: () => {
      const id = nextCode();
      return JSON.stringify({ id, name: `Bench project ${id}` });
    },
    concurrency: CONCURRENCY,
    maxMs: RUN_BOUND_MS,
  };
  await runHttpLoad({ ...load, requests: plan.create.warmup });
  return runHttpLoad({ ...load, requests: plan.create.measured });
}

const rawActor = (who: Integrator): Actor => ({
  orgId: who.orgId,
  tokenHash: createHash('sha256').update(who.token).digest('hex'),
  tokenId: who.tokenId,
  tokenName: who.tokenName,
  maxProjects: 1_000_000,
});

async function rawList(sql: Sql, who: Integrator, plan: Plan): Promise<Measurement> {
  const actor = rawActor(who);
  const op = () => listPage(sql, actor, PAGE_SIZE);
  await runOps(plan.list.warmup, CONCURRENCY, RUN_BOUND_MS, op);
  return runOps(plan.list.measured, CONCURRENCY, RUN_BOUND_MS, op);
}

async function rawCreate(sql: Sql, who: Integrator, plan: Plan): Promise<Measurement> {
  const actor = rawActor(who);
  const op = () => {
    const code = nextCode();
    return createProject(sql, actor, code, `Bench project ${code}`);
  };
  await runOps(plan.create.warmup, CONCURRENCY, RUN_BOUND_MS, op);
  return runOps(plan.create.measured, CONCURRENCY, RUN_BOUND_MS, op);
}

const ENDPOINTS = {
  list: 'GET  /api/v1/projects',
  create: 'POST /api/v1/projects',
  createCases: 'POST /api/v1/projects/{code}/test-cases',
  tree: 'POST /graphql (suite tree)',
  patch: 'PATCH /api/v1/test-cases/{ulid}',
  ...markEndpoints(),
  bulkMark: `POST /api/v1/runs/{run}/cases/bulk-mark (${RUN_CASES})`,
  submit: `POST /api/v1/runs/{run}/results/bulk (${RUN_CASES})`,
  progress: `POST /graphql (progress of ${PROGRESS_PLANS} plans)`,
  planDetail: `GET  /api/v1/plans/{plan} (${DETAIL_RUNS} runs)`,
  caseList: `GET  /api/v1/projects/{code}/test-cases?limit=${CASE_PAGE}`,
};
type RowKey = keyof typeof ENDPOINTS;
function markEndpoints(): Record<MarkMeasure, string> {
  const label = (measure: MarkMeasure) => {
    const { runs, clients } = MARK_MEASURES[measure];
    return `PATCH /api/v1/runs/{run}/cases/{runCase} (${runs === 1 ? 'one run' : `${runs} runs`}, ${clients} clients)`;
  };
  return { marks: label('marks'), marks50: label('marks50'), spread: label('spread'), spread50: label('spread50') };
}
/** The rows BENCH_ONLY=hot measures: those issue 13 sets a target ratio for. */
const HOT_ROWS: RowKey[] = ['marks', 'marks50', 'spread', 'spread50', 'submit', 'progress', 'planDetail', 'caseList'];
const SELECTED = new Set<RowKey>(ONLY === 'hot' ? HOT_ROWS : (Object.keys(ENDPOINTS) as RowKey[]));
/** Results appended by one successful request of a bulk measure. */
const PER_OP: Partial<Record<RowKey, number>> = { bulkMark: RUN_CASES, submit: RUN_CASES };

/**
 * Seven organizations: one listed (seeded), one the service creates projects in, one the raw floor
 * creates projects in; one whose project holds the suite tree (read by both sides, whole through
 * GraphQL and page by page through the case list), one the service creates and PATCHes cases in,
 * one the raw floor creates and PATCHes cases in; one whose project holds the runs (separate runs
 * for each side and measure), the 200 plans whose progress both sides read and the plan of 50
 * runs whose detail both sides read.
 */
async function prepare(service: ServiceProcess) {
  const lister = await newIntegrator(service, 'list');
  const creator = await newIntegrator(service, 'create');
  const rawCreator = await newIntegrator(service, 'rawcreate');
  await seedProjects(service, lister, SEEDED_PROJECTS, () => nextCode());
  const tree = await designProject(service, await newIntegrator(service, 'tree'), nextCode());
  await seedTree(service, tree.who, tree.code, tree.priority);
  const casePages = await casePageCursors(service, tree.who, tree.code, tree.priority);
  const cases = await designProject(service, await newIntegrator(service, 'cases'), nextCode());
  const rawCases = await designProject(service, await newIntegrator(service, 'rawcases'), nextCode());
  const runs = await seedRuns(service, await newIntegrator(service, 'runs'), nextCode(), SELECTED.has('bulkMark'));
  return { lister, creator, rawCreator, tree, casePages, cases, rawCases, runs };
}
type Fixture = Awaited<ReturnType<typeof prepare>>;

const tokenActor = (who: Integrator): RunsActor => ({ ...rawActor(who), userId: who.userId });
const runsActor = (runs: Pick<RunsFixture, 'project'>): RunsActor => tokenActor(runs.project.who);
const caseActor = (project: DesignProject): CaseActor => ({
  ...rawActor(project.who),
  projectId: project.projectId,
  projectCode: project.code,
  priority: project.priority,
});
const drive = { concurrency: CONCURRENCY, maxMs: RUN_BOUND_MS };
const markDrive = (measure: MarkMeasure) => ({ concurrency: MARK_MEASURES[measure].clients, maxMs: RUN_BOUND_MS });
const MARK_KEYS = Object.keys(MARK_MEASURES) as MarkMeasure[];

const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  if (exiting) throw new Error('aborted');
  const started = performance.now();
  const result = await work();
  log(`  ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
};

// ---- the measures of one side --------------------------------------------------------------------

/** The figures of one side (service or raw) of each measured row. */
type Side = Partial<Record<RowKey, Measurement>>;

/** Runs one side of the row `key` if it is selected, keeping its figures in `side`. */
async function measure(side: Side, key: RowKey, label: string, work: () => Promise<Measurement>): Promise<void> {
  if (SELECTED.has(key)) side[key] = await timed(label, work);
}

/** The reads: they change nothing, so both sides read the same data. */
async function serviceReads(side: Side, service: ServiceProcess, fixture: Fixture, plan: Plan): Promise<void> {
  const { lister, tree, casePages, runs } = fixture;
  await measure(side, 'list', 'service GET', () => serviceList(service, lister, plan));
  await measure(side, 'tree', 'service tree', () => serviceReadTree(service, tree.who, tree.code, tree.priority, plan.tree, drive));
  await measure(side, 'progress', 'service progress', () => serviceProgress(service, runs.project, plan.progress, drive));
  await measure(side, 'planDetail', 'service plan detail', () => servicePlanDetail(service, runs, plan.planDetail, drive));
  await measure(side, 'caseList', 'service case list', () =>
    serviceCaseList(service, tree.who, tree.code, casePages, plan.caseList, drive),
  );
}

async function rawReads(side: Side, sql: Sql, fixture: Fixture, plan: Plan): Promise<void> {
  const { lister, tree, casePages, runs } = fixture;
  await measure(side, 'list', 'raw GET', () => rawList(sql, lister, plan));
  await measure(side, 'tree', 'raw tree', () => rawReadTree(sql, caseActor(tree), plan.tree, drive));
  await measure(side, 'progress', 'raw progress', () => rawProgress(sql, runsActor(runs), runs.project.code, plan.progress, drive));
  await measure(side, 'planDetail', 'raw plan detail', () =>
    rawPlanDetail(sql, runsActor(runs), runs.detailPlan.ulid, plan.planDetail, drive),
  );
  await measure(side, 'caseList', 'raw case list', () => rawCaseList(sql, caseActor(tree), casePages, plan.caseList, drive));
}

/** The writes, each side in organizations, projects or runs of its own. */
async function serviceWrites(side: Side, service: ServiceProcess, fixture: Fixture, plan: Plan): Promise<void> {
  const { creator, cases, runs } = fixture;
  await measure(side, 'create', 'service POST', () => serviceCreate(service, creator, plan));
  // The cases created are the PATCH pool: the two rows are measured together.
  if (SELECTED.has('createCases')) {
    const created = await timed('service create cases', () =>
      serviceCreateCases(service, cases.who, cases.code, cases.priority, plan.createCases, drive),
    );
    side.createCases = created.measurement;
    await measure(side, 'patch', 'service PATCH', () =>
      servicePatchCases(service, cases.who, created.pool, cases.priority, plan.patch, drive),
    );
  }
  for (const key of MARK_KEYS) {
    await measure(side, key, `service ${ENDPOINTS[key]}`, () =>
      serviceMarks(service, runs.project, runs.service.marks[key], plan[key], markDrive(key)),
    );
  }
  await measure(side, 'bulkMark', 'service bulk-mark', () =>
    serviceBulkMark(service, runs.project, runs.service.bulkMark, plan.bulkMark, drive),
  );
  await measure(side, 'submit', 'service submit', () => serviceSubmit(service, runs.project, runs.service.submit, plan.submit, drive));
}

async function rawWrites(side: Side, sql: Sql, fixture: Fixture, plan: Plan): Promise<void> {
  const { rawCreator, rawCases, runs } = fixture;
  await measure(side, 'create', 'raw POST', () => rawCreate(sql, rawCreator, plan));
  if (SELECTED.has('createCases')) {
    const created = await timed('raw create cases', () => rawCreateCases(sql, caseActor(rawCases), plan.createCases, drive));
    side.createCases = created.measurement;
    await measure(side, 'patch', 'raw PATCH', () => rawPatchCases(sql, caseActor(rawCases), created.pool, plan.patch, drive));
  }
  for (const key of MARK_KEYS) {
    await measure(side, key, `raw ${ENDPOINTS[key]}`, () =>
      rawMarks(sql, runsActor(runs), runs.raw.marks[key], plan[key], markDrive(key), RUNS_STATEMENTS),
    );
  }
  await measure(side, 'bulkMark', 'raw bulk-mark', () =>
    rawBulk(sql, runsActor(runs), runs.raw.bulkMark, false, plan.bulkMark, drive, RUNS_STATEMENTS),
  );
  await measure(side, 'submit', 'raw submit', () =>
    rawBulk(sql, runsActor(runs), runs.raw.submit, true, plan.submit, drive, RUNS_STATEMENTS),
  );
}

/** The rows measured on both sides, in ENDPOINTS order. */
const rowsOf = (engine: string, service: Side, raw: Side): Row[] =>
  (Object.keys(ENDPOINTS) as RowKey[]).flatMap((key) => {
    const [serviceFigures, rawFigures] = [service[key], raw[key]];
    return serviceFigures && rawFigures
      ? [{ engine, key, endpoint: ENDPOINTS[key], perOp: PER_OP[key], service: serviceFigures, raw: rawFigures }]
      : [];
  });

// ---- the two engines ----------------------------------------------------------------------------
// On PGlite the service reads, then (the service stopped: one process per data directory) the raw
// floor reads and writes, then the restarted service writes. On PostgreSQL the service reads, the
// raw floor reads and writes, then the service writes. Every write runs in an organization, project
// or runs of its own side, so both start from the same state.

async function benchPglite(): Promise<Row[]> {
  const plan = PLANS.pglite;
  log('pglite: embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const env = serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir });
  const serviceSide: Side = {};
  const rawSide: Side = {};

  let service = await timed('service started', () => startService(env));
  let stopService = onCleanup('pglite service', () => service.stop());
  const fixture = await timed('organizations, tokens, seed projects, suite tree, runs and plans', () => prepare(service));
  await serviceReads(serviceSide, service, fixture, plan);
  await stopService();

  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  const sql = pgliteSql(db);
  await rawReads(rawSide, sql, fixture, plan);
  await rawWrites(rawSide, sql, fixture, plan);
  await closeDb();

  service = await timed('service restarted', () => startService(env));
  stopService = onCleanup('pglite service', () => service.stop());
  await serviceWrites(serviceSide, service, fixture, plan);
  await stopService();
  await removeDir();
  return rowsOf('pglite', serviceSide, rawSide);
}

function loopbackOnly(url: URL) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`BENCH_PG_URL must point at a loopback address, not ${host}`);
  }
}

/** A temporary data directory; the returned function removes it (clean-up does otherwise). */
async function temporaryDataDir() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-bench-'));
  return { dataDir, remove: onCleanup('temporary data directory', () => rm(dataDir, { recursive: true, force: true })) };
}

/** A temporary database on the PostgreSQL server of BENCH_PG_URL; the returned function drops it. */
async function temporaryDatabase() {
  const adminUrl = new URL(process.env.BENCH_PG_URL ?? DEFAULT_PG_URL);
  loopbackOnly(adminUrl);
  const database = `tcms_bench_${process.pid}_${Date.now().toString(36)}`;
  log(`postgres: temporary database ${database} on ${adminUrl.host}`);
  const admin = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 10_000 });
  // A backend that goes away (DROP DATABASE ... WITH (FORCE) at clean-up) must not crash us.
  admin.on('error', (error) => log(`admin connection: ${error.message}`));
  await admin.connect();
  const closeAdmin = onCleanup('admin connection', () => admin.end());
  await admin.query(`CREATE DATABASE "${database}"`);
  const dropDatabase = onCleanup('temporary database', async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  return {
    databaseUrl,
    drop: async () => {
      await dropDatabase();
      await closeAdmin();
    },
  };
}

async function benchPostgres(): Promise<Row[]> {
  const plan = PLANS.postgres;
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const serviceSide: Side = {};
  const rawSide: Side = {};

  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const fixture = await timed('organizations, tokens, seed projects, suite tree, runs and plans', () => prepare(service));

  // Sized like the service's pool (TCMS_DB_POOL_SIZE): at 50 clients both queue for its connections.
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: CONCURRENCY, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log(`raw pool: ${error.message}`));
  const endPool = onCleanup('raw pool', () => pool.end());
  const sql = pgPoolSql(pool, RAW_NAMED);

  await serviceReads(serviceSide, service, fixture, plan);
  await rawReads(rawSide, sql, fixture, plan);
  await rawWrites(rawSide, sql, fixture, plan);
  await serviceWrites(serviceSide, service, fixture, plan);

  await endPool();
  await stopService();
  await drop();
  await removeDir();
  return rowsOf('postgres', serviceSide, rawSide);
}

// ---- the project team, on each engine in a database of its own ---------------------------------

const TEAM_ENDPOINT = `GET  ${TEAM_LIST_PATH} (member session)`;

async function teamPglite(): Promise<Row> {
  const plan = PLANS.pglite;
  log('pglite: project team, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const env = serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir });
  let service = await timed('service started', () => startService(env));
  let stopService = onCleanup('pglite service', () => service.stop());
  const people = await timed('owner and reader signed up', () => teamPeople(service));
  // PGlite is single-process: the seed and the raw floor open the data directory while the service is down.
  await stopService();
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  const sql = pgliteSql(db);
  const organization = await timed('team organization seeded', () => seedTeamOrganization(sql, people));
  const raw = await timed('raw team list', () => rawTeamList(sql, organization, plan.team, drive));
  await closeDb();
  service = await timed('service restarted', () => startService(env));
  stopService = onCleanup('pglite service', () => service.stop());
  const measured = await timed('service team list', () => serviceTeamList(service, organization, plan.team, drive));
  await stopService();
  await removeDir();
  return { engine: 'pglite', endpoint: TEAM_ENDPOINT, service: measured, raw };
}

async function teamPostgres(): Promise<Row> {
  const plan = PLANS.postgres;
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: CONCURRENCY, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log(`raw pool: ${error.message}`));
  const endPool = onCleanup('raw pool', () => pool.end());
  const sql = pgPoolSql(pool, RAW_NAMED);
  const organization = await timed('team organization seeded', async () => seedTeamOrganization(sql, await teamPeople(service)));
  const measured = await timed('service team list', () => serviceTeamList(service, organization, plan.team, drive));
  const raw = await timed('raw team list', () => rawTeamList(sql, organization, plan.team, drive));
  await endPool();
  await stopService();
  await drop();
  await removeDir();
  return { engine: 'postgres', endpoint: TEAM_ENDPOINT, service: measured, raw };
}

// ---- the exports, on each engine in a database of its own --------------------------------------

const EXPORT_NAMES = Object.keys(EXPORT_MEASURES) as ExportMeasureName[];

async function exportsPglite(): Promise<ExportRow[]> {
  log('pglite: exports, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const env = serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir });
  let service = await timed('service started', () => startService(env));
  let stopService = onCleanup('pglite service', () => service.stop());
  const fixture = await timed('owner and project', () => exportPeople(service));
  // PGlite is single-process: the seed and the raw floor open the data directory while the service is down.
  await stopService();
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  await timed('events and cases seeded', () => seedExports(pgliteSql(db), fixture));
  const raw: Partial<Record<ExportMeasureName, ExportRow['raw']>> = {};
  for (const name of EXPORT_NAMES) raw[name] = await timed(`raw ${name}`, () => rawExportPglite(db, fixture, name));
  await closeDb();
  service = await timed('service restarted', () => startService(env));
  stopService = onCleanup('pglite service', () => service.stop());
  const rows: ExportRow[] = [];
  for (const name of EXPORT_NAMES) {
    const measured = await timed(`service ${name}`, () => serviceExport(service, fixture, name));
    rows.push({ engine: 'pglite', measure: EXPORT_MEASURES[name], service: measured, raw: raw[name]! });
  }
  await stopService();
  await removeDir();
  return rows;
}

async function exportsPostgres(): Promise<ExportRow[]> {
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const client = new pg.Client({ connectionString: databaseUrl.toString(), connectionTimeoutMillis: 10_000 });
  client.on('error', (error) => log(`raw client: ${error.message}`));
  await client.connect();
  const endClient = onCleanup('raw client', () => client.end());
  const fixture = await timed('owner and project', () => exportPeople(service));
  await timed('events and cases seeded', () =>
    seedExports(
      {
        query: (text, params) => client.query(text, params),
        transaction: async (work) => {
          await client.query('BEGIN');
          await work((text, params) => client.query(text, params));
          await client.query('COMMIT');
        },
      },
      fixture,
    ),
  );
  const rows: ExportRow[] = [];
  for (const name of EXPORT_NAMES) {
    const measured = await timed(`service ${name}`, () => serviceExport(service, fixture, name));
    const raw = await timed(`raw ${name}`, () => rawExportPostgres(client, fixture, name));
    rows.push({ engine: 'postgres', measure: EXPORT_MEASURES[name], service: measured, raw });
  }
  await endClient();
  await stopService();
  await drop();
  await removeDir();
  return rows;
}

// ---- run creation and plan selection (BENCH_ONLY=runs), on each engine in a database of its own --

/** The fixture and the service's measures: runs from each plan size, then the PUTs. */
async function runCreationServiceSide(service: ServiceProcess) {
  const who = await newIntegrator(service, 'runcreation');
  const fixture = await timed(`project of ${SELECTION_SIZE} cases (CSV import) and plans`, () => seedRunCreation(service, who, nextCode()));
  const runs = [];
  for (const size of PLAN_SIZES)
    runs.push({ size, service: await timed(`service run from a plan of ${size}`, () => serviceRunFromPlan(service, fixture, size)) });
  const selection = await timed(`service PUT selection of ${SELECTION_SIZE}`, () => servicePutSelection(service, fixture));
  return { fixture, runs, selection };
}

/** The raw floor of the same measures, in the same order; the row of both sides. */
async function runCreationRow(
  engine: string,
  sql: Sql,
  measured: Awaited<ReturnType<typeof runCreationServiceSide>>,
): Promise<RunCreationRow> {
  const actor = tokenActor(measured.fixture.who);
  const runs = [];
  for (const run of measured.runs)
    runs.push({
      ...run,
      raw: await timed(`raw run from a plan of ${run.size}`, () => rawRunFromPlan(sql, actor, measured.fixture, run.size)),
    });
  const raw = await timed(`raw PUT selection of ${SELECTION_SIZE}`, () => rawPutSelection(sql, actor, measured.fixture));
  return { engine, runs, selection: { service: measured.selection, raw } };
}

async function runCreationPglite(): Promise<RunCreationRow> {
  log('pglite: run creation and plan selection, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () => startService(serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir })));
  const stopService = onCleanup('pglite service', () => service.stop());
  const measured = await runCreationServiceSide(service);
  // PGlite is single-process: the raw floor opens the data directory once the service is down.
  await stopService();
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  const row = await runCreationRow('pglite', pgliteSql(db), measured);
  await closeDb();
  await removeDir();
  return row;
}

async function runCreationPostgres(): Promise<RunCreationRow> {
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const measured = await runCreationServiceSide(service);
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log(`raw pool: ${error.message}`));
  const endPool = onCleanup('raw pool', () => pool.end());
  const row = await runCreationRow('postgres', pgPoolSql(pool, RAW_NAMED), measured);
  await endPool();
  await stopService();
  await drop();
  await removeDir();
  return row;
}

// ---- the live measures (BENCH_ONLY=live), on each engine in a database of its own ---------------

/** The receiver and the service (allowed to post to it), the fixture, then the service's two measures. */
async function liveServiceSide(env: NodeJS.ProcessEnv, plan: (typeof LIVE_PLANS)['pglite']) {
  const receiver = await startReceiver();
  const closeReceiver = onCleanup('webhook receiver', () => receiver.close());
  // Every stream is the same token's, from the same address: the per-process stream caps must take them all.
  const streamCaps = { TCMS_SSE_STREAMS_PER_CREDENTIAL: String(LIVE_STREAMS), TCMS_SSE_STREAMS_PER_ADDRESS: String(LIVE_STREAMS) };
  const service = await timed('service started', () => startService({ ...env, TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true', ...streamCaps }));
  const stopService = onCleanup('live service', () => service.stop());
  const fixture = await timed('project, runs and webhook', async () =>
    seedLive(service, await newIntegrator(service, 'live'), nextCode(), receiver.url),
  );
  const webhooks = await timed('service webhooks', () => serviceWebhooks(service, fixture, receiver, plan.webhookCalls, RUN_BOUND_MS));
  const progress = await timed(`service progress (${plan.marks.warmup + plan.marks.measured} marks)`, () =>
    serviceProgressLatency(service, fixture, plan.marks),
  );
  // The floor runs without the service: on PGlite it needs the data directory, on PostgreSQL the
  // service's dispatcher would claim the floor's delivery rows.
  await stopService();
  return { receiver, closeReceiver, fixture, webhooks, progress };
}

async function livePglite(): Promise<LiveRow> {
  const plan = LIVE_PLANS.pglite;
  log('pglite: live measures, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const { receiver, closeReceiver, fixture, webhooks, progress } = await liveServiceSide(
    serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir }),
    plan,
  );
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  const sql = pgliteSql(db);
  const rawHooks = await timed('raw webhooks', () =>
    rawWebhooks(sql, runsActor(fixture), fixture, receiver, plan.webhookCalls, RUN_BOUND_MS),
  );
  const rawStreams = await timed('raw progress', () =>
    rawProgressLatency(sql, pgliteListen(db), runsActor(fixture), fixture.raw.progress, plan.marks),
  );
  await closeDb();
  await closeReceiver();
  await removeDir();
  return { engine: 'pglite', webhooks: { service: webhooks, raw: rawHooks }, progress: { service: progress, raw: rawStreams } };
}

async function livePostgres(): Promise<LiveRow> {
  const plan = LIVE_PLANS.postgres;
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const { receiver, closeReceiver, fixture, webhooks, progress } = await liveServiceSide(
    serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir }),
    plan,
  );
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: CONCURRENCY, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log(`raw pool: ${error.message}`));
  const endPool = onCleanup('raw pool', () => pool.end());
  const listener = new pg.Client({ connectionString: databaseUrl.toString(), connectionTimeoutMillis: 10_000 });
  listener.on('error', (error) => log(`raw listener: ${error.message}`));
  await listener.connect();
  const endListener = onCleanup('raw listener', () => listener.end());
  const sql = pgPoolSql(pool, RAW_NAMED);
  const rawHooks = await timed('raw webhooks', () =>
    rawWebhooks(sql, runsActor(fixture), fixture, receiver, plan.webhookCalls, RUN_BOUND_MS),
  );
  const rawStreams = await timed('raw progress', () =>
    rawProgressLatency(sql, pgListen(listener), runsActor(fixture), fixture.raw.progress, plan.marks),
  );
  await endListener();
  await endPool();
  await closeReceiver();
  await drop();
  await removeDir();
  return { engine: 'postgres', webhooks: { service: webhooks, raw: rawHooks }, progress: { service: progress, raw: rawStreams } };
}

// ---- against the tight floor (BENCH_ONLY=tight), on each engine in a database of its own --------

/** The rows measured: BENCH_TIGHT_ROWS (row keys, comma-separated) picks some, all by default. */
const MEASURED_TIGHT_KEYS = (process.env.BENCH_TIGHT_ROWS?.split(',') ?? TIGHT_KEYS) as TightRowKey[];
for (const key of MEASURED_TIGHT_KEYS)
  if (!TIGHT_KEYS.includes(key)) throw new Error(`BENCH_TIGHT_ROWS: no row ${key}; rows: ${TIGHT_KEYS.join(', ')}`);
/** The engines measured: BENCH_TIGHT_ENGINES (pglite, postgres, comma-separated), both by default. */
const TIGHT_ENGINES = (process.env.BENCH_TIGHT_ENGINES ?? 'pglite,postgres').split(',');
if (!TIGHT_ENGINES.every((engine) => engine === 'pglite' || engine === 'postgres'))
  throw new Error('BENCH_TIGHT_ENGINES takes pglite and/or postgres');
/** Interleaved rounds per row: at least five. */
const TIGHT_ROUNDS = Number(process.env.BENCH_ROUNDS ?? '5');
if (!(Number.isInteger(TIGHT_ROUNDS) && TIGHT_ROUNDS >= 5 && TIGHT_ROUNDS <= 20))
  throw new Error('BENCH_ROUNDS must be an integer in [5, 20]');
/** Requests measured per side, row and round (scaled by BENCH_SCALE), after a warm-up of a tenth of them (at least one per client). */
const TIGHT_MEASURED: Record<'pglite' | 'postgres', { mark: number; submitOf500: number; submitOf50: number }> = {
  pglite: { mark: 250, submitOf500: 6, submitOf50: 20 },
  postgres: { mark: 600, submitOf500: 12, submitOf50: 40 },
};
function tightCounts(engine: 'pglite' | 'postgres', row: TightRow): Counts {
  const base = TIGHT_MEASURED[engine];
  const measured = Math.max(
    row.clients,
    Math.ceil(SCALE * (row.kind === 'mark' ? base.mark : row.perCall === 50 ? base.submitOf50 : base.submitOf500)),
  );
  return { warmup: Math.max(row.clients, Math.ceil(measured / 10)), measured };
}

/** One round of a row: each side's measured figures and the 1-minute load average as each began. */
type TightSample = { service: Measurement; floor: Measurement; load: [number, number] };
type TightRowResult = { engine: string; key: TightRowKey; samples: TightSample[]; problems: string[] };
type TightFixture = { who: Integrator; service: Record<TightRowKey, TightSide>; floor: Record<TightRowKey, TightSide> };

async function prepareTight(service: ServiceProcess): Promise<TightFixture> {
  return timed('organization, token, session, project of 500 cases and the runs of both sides', async () => {
    const who = await newIntegrator(service, 'tight');
    const project = await runsProject(service, who, nextCode());
    return { who, service: await seedTightSide(service, project, 'service'), floor: await seedTightSide(service, project, 'floor') };
  });
}

const tightCredentials = (row: TightRow, who: Integrator): TightCredentials =>
  row.caller === 'session'
    ? { kind: 'session', sessionTokenHash: createHash('sha256').update(who.session.sessionToken).digest('hex'), organizationId: who.orgId }
    : { kind: 'api_token', tokenHash: createHash('sha256').update(who.token).digest('hex') };

/** The floor of one op of the side's sequence; what it appended is added to the side's duration once it succeeded. */
async function tightFloorOp(sql: Sql, credentials: TightCredentials, side: TightSide, publish: PublishRunChange) {
  const op = side.next();
  if (op.kind === 'mark') {
    const { run, runCaseUlid, status, elapsedMs } = op.mark;
    const { marked } = await tightMark(sql, credentials, { runUlid: run.ulid, runCaseUlid, status, elapsedMs }, publish);
    if (!marked) throw new Error(`tight floor: the mark of ${runCaseUlid} changed nothing`);
  } else {
    const { results } = await tightSubmit(sql, credentials, op.run.ulid, op.entries, publish);
    if (results !== op.entries.length) throw new Error(`tight floor: ${results} results for ${op.entries.length} entries`);
  }
  side.durationMs += op.durationMs;
}

/** The two sides of a round, each warmed up then measured; `load` notes the 1-minute load average as each measure begins. */
type TightSides = {
  service?: ServiceProcess;
  floor?: { sql: Sql; publish: PublishRunChange };
};
async function tightMeasure(
  engine: 'pglite' | 'postgres',
  side: 'service' | 'floor',
  key: TightRowKey,
  fixture: TightFixture,
  sides: TightSides,
): Promise<{ measurement: Measurement; load: number }> {
  const row: TightRow = TIGHT_ROWS[key];
  const counts = tightCounts(engine, row);
  const own = fixture[side][key];
  let run: (requests: number) => Promise<Measurement>;
  if (side === 'service') run = (requests) => serviceTightLoad(sides.service!, fixture.who, row, own, requests, RUN_BOUND_MS);
  else {
    const { sql, publish } = sides.floor!;
    const credentials = tightCredentials(row, fixture.who);
    run = (requests) => runOps(requests, row.clients, RUN_BOUND_MS, () => tightFloorOp(sql, credentials, own, publish));
  }
  await run(counts.warmup);
  const load = os.loadavg()[0]!;
  return { measurement: await timed(`round: ${side} ${key}`, () => run(counts.measured)), load };
}

/** The rows' results so far, one sample added per round. */
function tightResults(engine: string): Record<TightRowKey, TightRowResult> {
  const rowResult = (key: TightRowKey): TightRowResult => ({ engine, key, samples: [], problems: [] });
  return Object.fromEntries(MEASURED_TIGHT_KEYS.map((key) => [key, rowResult(key)])) as Record<TightRowKey, TightRowResult>;
}

/** After the rounds: every side's runs must total the elapsed time of the results it appended (when nothing failed). */
async function checkTightDurations(sql: Sql, fixture: TightFixture, results: Record<TightRowKey, TightRowResult>): Promise<void> {
  for (const key of MEASURED_TIGHT_KEYS) {
    for (const side of ['service', 'floor'] as const) {
      if (results[key].samples.some((sample) => sample[side].failed > 0)) continue;
      const { runs, durationMs } = fixture[side][key];
      const total = (await sql.query(
        'SELECT COALESCE(sum(total_duration_ms), 0)::text AS total FROM test_runs WHERE id = ANY($1::char(26)[])',
        [runs.map((run) => run.ulid)],
      )) as { rows: Array<{ total: string }> };
      if (Number(total.rows[0]!.total) !== durationMs) {
        results[key].problems.push(`${side}: totalDurationMs ${total.rows[0]!.total} for ${durationMs} ms of results appended`);
      }
    }
  }
}

async function tightPglite(): Promise<TightRowResult[]> {
  log('pglite: the rows of the tight floor, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const env = serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir });
  const results = tightResults('pglite');
  let fixture: TightFixture | undefined;
  for (let round = 1; round <= TIGHT_ROUNDS; round++) {
    const service = await timed(`round ${round}: service started`, () => startService(env));
    const stopService = onCleanup('pglite service', () => service.stop());
    fixture ??= await prepareTight(service);
    const serviceSide = new Map<TightRowKey, { measurement: Measurement; load: number }>();
    for (const key of MEASURED_TIGHT_KEYS) serviceSide.set(key, await tightMeasure('pglite', 'service', key, fixture, { service }));
    // One process holds the data directory at a time.
    await stopService();
    const db = await PGlite.create(path.join(dataDir, 'pgdata'));
    const closeDb = onCleanup('raw PGlite', () => db.close());
    const floor = { sql: pgliteSql(db), publish: publishNowhere };
    for (const key of MEASURED_TIGHT_KEYS) {
      const floorSide = await tightMeasure('pglite', 'floor', key, fixture, { floor });
      const serviceFigures = serviceSide.get(key)!;
      results[key].samples.push({
        service: serviceFigures.measurement,
        floor: floorSide.measurement,
        load: [serviceFigures.load, floorSide.load],
      });
    }
    if (round === TIGHT_ROUNDS) await checkTightDurations(floor.sql, fixture, results);
    await closeDb();
  }
  await removeDir();
  return Object.values(results);
}

async function tightPostgres(): Promise<TightRowResult[]> {
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const fixture = await prepareTight(service);
  // Sized like the service's pool; the floor names its statements as the service does.
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: CONCURRENCY, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log(`raw pool: ${error.message}`));
  const endPool = onCleanup('raw pool', () => pool.end());
  const notifier = await runChangeNotifier(databaseUrl.toString());
  const endNotifier = onCleanup('raw notifier', () => notifier.stop());
  const sides: TightSides = { service, floor: { sql: pgPoolSql(pool, true), publish: notifier.publish } };
  const results = tightResults('postgres');
  for (let round = 1; round <= TIGHT_ROUNDS; round++) {
    log(`postgres: round ${round} of ${TIGHT_ROUNDS}`);
    for (const key of MEASURED_TIGHT_KEYS) {
      const serviceSide = await tightMeasure('postgres', 'service', key, fixture, sides);
      const floorSide = await tightMeasure('postgres', 'floor', key, fixture, sides);
      results[key].samples.push({
        service: serviceSide.measurement,
        floor: floorSide.measurement,
        load: [serviceSide.load, floorSide.load],
      });
    }
  }
  await checkTightDurations(sides.floor!.sql, fixture, results);
  await endNotifier();
  await endPool();
  await stopService();
  await drop();
  await removeDir();
  return Object.values(results);
}

function tightLabel(row: TightRow): string {
  if (row.kind === 'submit') return `POST results/bulk, ${row.perCall} a call, ${row.clients} client${row.clients > 1 ? 's' : ''}`;
  return `PATCH run case, ${row.caller === 'session' ? 'session' : 'API token'}, ${row.runs === 1 ? 'one run' : `${row.runs} runs`}, ${row.clients} clients`;
}

function tightReport(rows: TightRowResult[]): string {
  const width = Math.max(...MEASURED_TIGHT_KEYS.map((key) => tightLabel(TIGHT_ROWS[key]).length));
  const lines = rows.map(({ engine, key, samples }) => {
    const row: TightRow = TIGHT_ROWS[key];
    const ratios = samples.map((sample) => sample.service.perSecond / sample.floor.perSecond);
    const loads = samples.flatMap((sample) => sample.load);
    const perSecond = (side: 'service' | 'floor') => median(samples.map((sample) => sample[side].perSecond));
    const results =
      row.kind === 'submit' ? `  | results/s ${rate(perSecond('service') * row.perCall)} vs ${rate(perSecond('floor') * row.perCall)}` : '';
    return [
      engine.padEnd(8),
      tightLabel(row).padEnd(width),
      `service ${rate(perSecond('service')).padStart(5)}/s p50 ${ms(median(samples.map((sample) => sample.service.p50))).padStart(8)}`,
      `floor ${rate(perSecond('floor')).padStart(5)}/s p50 ${ms(median(samples.map((sample) => sample.floor.p50))).padStart(8)}`,
      `| ratio ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`,
      `| load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}${results}`,
    ].join('  ');
  });
  const notes = rows.flatMap(({ engine, key, samples, problems }) => [
    ...problems.map((problem) => `! ${engine} ${key}: ${problem}`),
    ...samples.flatMap((sample, index) =>
      (['service', 'floor'] as const).flatMap((side) => {
        const text = flags(sample[side]);
        return text ? [`! ${engine} ${key} round ${index + 1} ${side}: ${text} (${sample[side].ok} ok)`] : [];
      }),
    ),
  ]);
  return [
    '',
    `tcms bench: the mark and bulk rows against the tight floor (bench/raw-runs-tight.ts), ${TIGHT_ROUNDS} interleaved rounds`,
    '  PATCH run case = one mark { status, elapsedMs } (each changes its case and appends a result), round-robin over one run of 500 cases or 10 runs of 50;',
    '    session = the owner in a session (cookie + X-Organization-Id, not metered); API token = Authorization: Bearer (metered and charged);',
    '  results/bulk = bulk submit-result by the token of every case of one of 10 runs (round-robin) of 500 or 50 cases, an elapsedMs each;',
    '  tight floor = authentication and metering in one statement, then a mark in one statement, a submit in BEGIN, the run locked, one statement, COMMIT;',
    '    named as the service names its statements, its locks in its order, its NOTIFY of the run change after the commit on PostgreSQL (none on PGlite)',
    `  per round and side: a warm-up of a tenth, then the measured requests (pglite: ${JSON.stringify(TIGHT_MEASURED.pglite)}, postgres: ${JSON.stringify(TIGHT_MEASURED.postgres)}, x BENCH_SCALE ${SCALE});`,
    '  figures are medians over the rounds; ratio = service throughput / floor throughput of the same round, median (lowest-highest);',
    `  load = the 1-minute load average as each measure began, lowest-highest, on ${os.availableParallelism()} cores`,
    '',
    ...lines,
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
}

// ---- start-up (BENCH_ONLY=start), on each engine -------------------------------------------------

async function startPglite(): Promise<StartRow[]> {
  log('pglite: start-up on new data directories, then on each again');
  const fresh: StartFigures[] = [];
  const again: StartFigures[] = [];
  for (let run = 1; run <= START_RUNS; run++) {
    const { dataDir, remove } = await temporaryDataDir();
    const env = serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir });
    fresh.push(await timed(`new data directory, run ${run}`, () => timeStart(env)));
    again.push(await timed(`existing data directory, run ${run}`, () => timeStart(env)));
    await remove();
  }
  return [
    { engine: 'pglite', database: 'new', runs: fresh },
    { engine: 'pglite', database: 'existing', runs: again },
  ];
}

async function startPostgres(): Promise<StartRow[]> {
  const fresh: StartFigures[] = [];
  const again: StartFigures[] = [];
  for (let run = 1; run <= START_RUNS; run++) {
    const { databaseUrl, drop } = await temporaryDatabase();
    const { dataDir, remove } = await temporaryDataDir();
    const env = serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir });
    fresh.push(await timed(`new database, run ${run}`, () => timeStart(env)));
    again.push(await timed(`existing database, run ${run}`, () => timeStart(env)));
    await drop();
    await remove();
  }
  return [
    { engine: 'postgres', database: 'new', runs: fresh },
    { engine: 'postgres', database: 'existing', runs: again },
  ];
}

async function benchStart(): Promise<void> {
  await timed('build up to date', () => ensureBuilt());
  process.stdout.write(startReport([...(await startPglite()), ...(await startPostgres())]));
}

// ---- result import (BENCH_ONLY=import), on each engine in a database of its own -----------------

type ImportRow = { engine: string; first: ImportFigures; second: ImportFigures; raw: ImportFigures };

async function importMeasures(service: ServiceProcess) {
  const who = await newIntegrator(service, 'import');
  const code = nextCode();
  const { projectId, body } = await timed('import project', () => importProject(service, who, code));
  const first = await timed('first import (creates the cases)', () => serviceImport(service, who, code, body, 'first import'));
  if (first.createdCases !== IMPORT_TESTS) throw new Error(`first import created ${first.createdCases} cases`);
  const second = await timed('second import (a new run, cases matched)', () => serviceImport(service, who, code, body, 'second import'));
  if (second.createdCases !== 0) throw new Error(`second import created ${second.createdCases} cases`);
  return { who, projectId, first, second };
}

async function importPglite(): Promise<ImportRow> {
  log('pglite: result import, embedded PostgreSQL in a temporary data directory');
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () => startService(serviceEnv(CONCURRENCY, { TCMS_DATA_DIR: dataDir })));
  const stopService = onCleanup('pglite service', () => service.stop());
  const { who, projectId, first, second } = await importMeasures(service);
  // PGlite is single-process: the raw floor opens the data directory once the service is down.
  await stopService();
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const closeDb = onCleanup('raw PGlite', () => db.close());
  const raw = await timed('raw import', () => rawImport(pgliteSql(db), who, projectId));
  await closeDb();
  await removeDir();
  return { engine: 'pglite', first, second, raw };
}

async function importPostgres(): Promise<ImportRow> {
  const { databaseUrl, drop } = await temporaryDatabase();
  const { dataDir, remove: removeDir } = await temporaryDataDir();
  const service = await timed('service started', () =>
    startService(serviceEnv(CONCURRENCY, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir })),
  );
  const stopService = onCleanup('postgres service', () => service.stop());
  const { who, projectId, first, second } = await importMeasures(service);
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2, connectionTimeoutMillis: 10_000 });
  const endPool = onCleanup('raw pool', () => pool.end());
  const raw = await timed('raw import', () => rawImport(pgPoolSql(pool, RAW_NAMED), who, projectId));
  await endPool();
  await stopService();
  await drop();
  await removeDir();
  return { engine: 'postgres', first, second, raw };
}

async function benchImport(): Promise<void> {
  const rows = [await importPglite(), await importPostgres()];
  const memory = await timed(`peak RSS of a ${REPORT_MB} MB report`, () => peakRssOfLargeReport());
  const figure = (label: string, figures: ImportFigures) =>
    `${label} ${(figures.ms / 1000).toFixed(2)} s = ${rate(figures.resultsPerSecond)} results/s`;
  process.stdout.write(
    [
      '',
      `tcms bench: POST /api/v1/projects/{code}/result-imports of a gzip-compressed JUnit report of ${IMPORT_TESTS} tests (100 classes, one in ten failing), one request each`,
      '  first = into a project without cases (creates every case and its suite path); second = the same report into a new run (binds by automation key);',
      '  raw = the same cases, run, run cases, results, counters and event straight into the database in one transaction, set-based (bench/import.ts)',
      ...rows.map(
        (row) => `${row.engine.padEnd(8)}  ${figure('first', row.first)}  |  ${figure('second', row.second)}  |  ${figure('raw', row.raw)}`,
      ),
      `memory: a ${(memory.reportBytes / 1024 / 1024).toFixed(0)} MiB report (${memory.tests} tests, 4 KiB system-out each, gzip on disk) read by the import's reader in ${(memory.ms / 1000).toFixed(1)} s:` +
        ` peak RSS ${memory.peakRssMb.toFixed(0)} MiB (the process before reading: ${memory.baselineRssMb.toFixed(0)} MiB)`,
      '',
    ].join('\n'),
  );
}

// ---- report -------------------------------------------------------------------------------------

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const rate = (value: number) => value.toFixed(0);
const flags = (m: Measurement) =>
  [m.failed ? `${m.failed} failed` : '', m.truncated ? 'stopped at time bound' : ''].filter(Boolean).join(', ');
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const COUNT_LABELS: Record<keyof Plan, string> = {
  list: 'GET',
  create: 'POST',
  createCases: 'create cases',
  tree: 'tree',
  patch: 'PATCH',
  marks: 'marks',
  marks50: `marks (${MARK_MEASURES.marks50.clients} clients)`,
  spread: `marks over ${SPREAD_RUNS} runs`,
  spread50: `marks over ${SPREAD_RUNS} runs (${MARK_MEASURES.spread50.clients} clients)`,
  bulkMark: 'bulk-mark',
  submit: 'submit',
  progress: 'progress',
  planDetail: 'plan detail',
  caseList: 'case list',
  team: 'team',
};

/** Per engine and number of clients: marks/s over SPREAD_RUNS runs over marks/s into one run, service and raw. */
function scalingLines(rows: Row[]): string[] {
  const pairs: Array<[MarkMeasure, MarkMeasure]> = [
    ['marks', 'spread'],
    ['marks50', 'spread50'],
  ];
  return [...new Set(rows.map((row) => row.engine))].flatMap((engine) =>
    pairs.flatMap(([oneRun, spread]) => {
      const [one, many] = [oneRun, spread].map((key) => rows.find((row) => row.engine === engine && row.key === key));
      if (!one || !many) return [];
      const times = (side: 'service' | 'raw') => `${(many[side].perSecond / one[side].perSecond).toFixed(2)}x`;
      const share = (fraction: number | undefined) => `${Math.round(100 * (fraction ?? Number.NaN))}%`;
      const busy = (side: 'service' | 'raw') => `${share(one[side].machineBusy)} / ${share(many[side].machineBusy)}`;
      return [
        `${engine.padEnd(8)}  scaling over ${SPREAD_RUNS} runs at ${MARK_MEASURES[oneRun].clients} clients: service ${times('service')}, raw ${times('raw')};` +
          ` machine busy (one run / ${SPREAD_RUNS} runs): service ${busy('service')}, raw ${busy('raw')};` +
          ` service process ${share(one.service.serviceCpu)} / ${share(many.service.serviceCpu)} of a core`,
      ];
    }),
  );
}

function report(rows: Row[], totalMs: number, loadAtStart: string) {
  const counts = (engine: 'pglite' | 'postgres') => {
    const plan = PLANS[engine];
    const measured = (Object.keys(COUNT_LABELS) as Array<keyof Plan>).filter((key) =>
      key === 'team' ? rows.some((row) => !row.key) : SELECTED.has(key),
    );
    return `${engine}: ${measured.map((key) => `${COUNT_LABELS[key]} ${plan[key].measured} after ${plan[key].warmup}`).join(', ')}`;
  };
  const header = [
    '',
    `tcms bench: GET /api/v1/projects?pageSize=${PAGE_SIZE} (page of ${PAGE_SIZE}, total ${SEEDED_PROJECTS}) and POST /api/v1/projects (unique ids)`,
    `  test design: POST .../test-cases = create a case (title, ${STEPS.length} steps, priority) in one project, caseNumbers then checked to be 1..N;`,
    `    POST /graphql (suite tree) = the suites of a project with their cases, steps and custom field values (${TREE_SUITES} suites x ${TREE_CASES / TREE_SUITES} cases);`,
    `    PATCH = consolidated PATCH of title + ${STEPS.length} steps (one action changed) + priority toggled, each on another case, one audit event each (checked)`,
    `  execution: PATCH run case = one mark (status + elapsedMs) appending one result, round-robin over a run of ${RUN_CASES} cases with 3 steps, totalDurationMs then checked;`,
    `    the same over ${SPREAD_RUNS} runs of ${RUN_CASES / SPREAD_RUNS} cases (consecutive marks in different runs), each at ${MARK_MEASURES.marks.clients} and at ${MANY_CLIENTS} clients;`,
    `    scaling = marks/s over ${SPREAD_RUNS} runs / marks/s into one run, at the same clients: the raw floor's grows once marks stop queuing on one run's lock;`,
    `    beside it how busy the machine's ${os.cpus().length} cores were during each side's loads (/proc/stat: a side that queues on a lock leaves them idle, one that`,
    `    does not is bound by the machine) and the service process's CPU time over the wall time (100% = one core busy throughout);`,
    `    bulk-mark / results/bulk = ${RUN_CASES} cases (results) per call over 10 runs, every call changing every case (checked: affected = ${RUN_CASES}); results/s = calls/s x ${RUN_CASES};`,
    `    progress = one GraphQL read of progress with byConfiguration for ${PROGRESS_PLANS} plans (20 of them with 4 configured runs, the rest with one run);`,
    `    plan detail = GET of a plan with ${DETAIL_RUNS} runs (two results each, 5 configuration buckets, a fifth of the runs closed), progress checked first;`,
    `    case list = the ${TREE_CASES / CASE_PAGE} cursor pages of ${CASE_PAGE} of the suite-tree project round-robin (cases with ${STEPS.length} steps and priority, checked)`,
    `  project team: the project list with stats, team and teamCount of an organization of ${TEAM_MEMBERS} members, ${TEAM_GROUPS} groups and ${TEAM_PROJECTS} projects`,
    `    (every other one private, with granted members and two groups each), read by a member in a session (cookie + X-Organization-Id, not metered);`,
    `    its floor: session and membership lookups, the private projects hidden from the member, page + total, then teams and the three stats aggregates`,
    `  fixed counts (measured after warm-up) at concurrency ${CONCURRENCY} (the mark rows at the clients they name), closed loop: ${counts('pglite')}; ${counts('postgres')}`,
    `  service: child process on 127.0.0.1 (Express 5 + Prisma 7, pool ${CONCURRENCY} at any number of clients, request log off), load by autocannon;`,
    `    authenticated with an API token (Authorization: Bearer, the integrator path: metered, so every request also bumps the rate-limit counter)`,
    `  raw: the same reads and writes without the service (token lookup + per-minute counter, then the endpoint's statements): PostgreSQL server via a pg Pool of ${CONCURRENCY}`,
    `    (${RAW_NAMED ? 'named prepared statements, as the service sends its raw statements: BENCH_RAW_NAMED=true' : "unnamed statements, pg's default (BENCH_RAW_NAMED=true names them as the service does)"}), PGlite via one instance on the same data directory;`,
    `    GET = token lookup, counter bump, page SELECT + COUNT (concurrently, as the service does); POST = the same two, then lock org row, count, exists check, INSERT project, INSERT audit event in one transaction;`,
    `    test design, case list, execution, progress and plan detail = the same two, then the statements the service sent for the request when issue 13 was filed`,
    `    (taken from the PostgreSQL log then; see bench/raw-test-design.ts, bench/raw-runs.ts; the service now sends fewer: the token and counter in one, a mark in five after BEGIN)`,
    FLOOR === 'today'
      ? `    except marks and bulk calls: BENCH_FLOOR=today, the statements the service sends today (bench/raw-runs-today.ts: the token and counter in one, a mark in five after BEGIN);`
      : `    (BENCH_FLOOR=today: the marks and bulk calls with the statements the service sends today, bench/raw-runs-today.ts);`,
    `    at ${MANY_CLIENTS} clients the pg Pool of ${CONCURRENCY} queues them, PGlite's one session too`,
    `  ratio thr = service req/s / raw op/s; ratio p50 = service p50 / raw p50`,
    `  load average (1/5/15 min) at start ${loadAtStart}, at end ${loadAverage()} on ${os.availableParallelism()} cores`,
    '',
  ];
  const endpointWidth = Math.max(...rows.map((row) => row.endpoint.length));
  const table = rows.map((row) => {
    const s = row.service;
    const r = row.raw;
    return [
      row.engine.padEnd(8),
      row.endpoint.padEnd(endpointWidth),
      `${rate(s.perSecond).padStart(5)} req/s`,
      `p50 ${ms(s.p50).padStart(8)}`,
      `p99 ${ms(s.p99).padStart(8)}`,
      '|',
      `raw ${rate(r.perSecond).padStart(5)} op/s`,
      `p50 ${ms(r.p50).padStart(8)}`,
      `p99 ${ms(r.p99).padStart(8)}`,
      '|',
      `ratio thr ${(s.perSecond / r.perSecond).toFixed(2)}`,
      `p50 ${(s.p50 / r.p50).toFixed(1)}x`,
      ...(row.perOp ? [`| results/s ${rate(s.perSecond * row.perOp)} vs raw ${rate(r.perSecond * row.perOp)}`] : []),
    ].join('  ');
  });
  const scaling = scalingLines(rows);
  const notes = rows.flatMap((row) =>
    (['service', 'raw'] as const)
      .map((side) => ({ side, text: flags(row[side]), m: row[side] }))
      .filter(({ text }) => text)
      .map(({ side, text, m }) => `! ${row.engine} ${row.endpoint.replace(/\s+/, ' ')} ${side}: ${text} (${m.ok} ok)`),
  );
  // The benchmark itself keeps about two cores busy; other work before it started is what skews it.
  const before = Number(loadAtStart.split(' ')[0]);
  if (before > 1) {
    notes.push(
      `! other work was running (1-min load ${before.toFixed(1)} before the start, ${os.availableParallelism()} cores): figures are lower and noisier than on an idle machine`,
    );
  }
  process.stdout.write(
    [
      ...header,
      ...table,
      ...(scaling.length ? ['', ...scaling] : []),
      ...(notes.length ? ['', ...notes] : []),
      '',
      `total wall time ${(totalMs / 1000).toFixed(1)} s`,
      '',
    ].join('\n'),
  );
}

// ---- main ---------------------------------------------------------------------------------------

const started = performance.now();
const loadAtStart = loadAverage();
const footer = () =>
  `load average (1/5/15 min) at start ${loadAtStart}, at end ${loadAverage()} on ${os.availableParallelism()} cores; total wall time ${((performance.now() - started) / 1000).toFixed(1)} s\n`;
let exitCode = 0;
try {
  if (ONLY === 'exports') {
    process.stdout.write(exportReport([...(await exportsPglite()), ...(await exportsPostgres())]));
  } else if (ONLY === 'import') {
    await benchImport();
  } else if (ONLY === 'live') {
    const liveRows = [await livePglite(), await livePostgres()];
    process.stdout.write(liveReport(liveRows, LIVE_PLANS));
    process.stdout.write(footer());
    if (liveRows.some(liveShortfall)) exitCode = 1;
  } else if (ONLY === 'start') {
    await benchStart();
    process.stdout.write(footer());
  } else if (ONLY === 'tight') {
    const rows = [
      ...(TIGHT_ENGINES.includes('pglite') ? await tightPglite() : []),
      ...(TIGHT_ENGINES.includes('postgres') ? await tightPostgres() : []),
    ];
    process.stdout.write(tightReport(rows));
    process.stdout.write(footer());
    if (rows.some((row) => row.problems.length > 0)) exitCode = 1;
  } else if (ONLY === 'memory') {
    process.stdout.write(memoryReport(await benchMemory()));
    process.stdout.write(footer());
  } else if (ONLY === 'reports') {
    process.stdout.write(reportsReport(await benchReports()));
    process.stdout.write(footer());
  } else if (ONLY === 'audit') {
    const { auditFeedReport, benchAuditFeed } = await import('./audit-feed.ts');
    const auditRows = await benchAuditFeed();
    process.stdout.write(auditFeedReport(auditRows));
    process.stdout.write(footer());
    if (auditRows.some((row) => row.problems.length > 0)) exitCode = 1;
  } else if (ONLY === 'runs') {
    process.stdout.write(runCreationReport([await runCreationPglite(), await runCreationPostgres()]));
    process.stdout.write(footer());
  } else {
    const everything = ONLY === undefined;
    const rows =
      ONLY === 'team'
        ? [await teamPglite(), await teamPostgres()]
        : ONLY === 'hot'
          ? [...(await benchPglite()), ...(await benchPostgres())]
          : [...(await benchPglite()), await teamPglite(), ...(await benchPostgres()), await teamPostgres()];
    const exportRows = everything ? [...(await exportsPglite()), ...(await exportsPostgres())] : [];
    const liveRows = everything ? [await livePglite(), await livePostgres()] : [];
    const runCreationRows = everything ? [await runCreationPglite(), await runCreationPostgres()] : [];
    report(rows, performance.now() - started, loadAtStart);
    if (exportRows.length > 0) process.stdout.write(exportReport(exportRows));
    if (liveRows.length > 0) process.stdout.write(liveReport(liveRows, LIVE_PLANS));
    if (runCreationRows.length > 0) process.stdout.write(runCreationReport(runCreationRows));
    if (everything) await benchImport();
    if (everything) await benchStart();
    if (
      rows.some((row) => row.service.failed || row.raw.failed || row.service.truncated || row.raw.truncated) ||
      liveRows.some(liveShortfall)
    )
      exitCode = 1;
  }
} catch (error) {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanUpAll();
  clearTimeout(deadline);
}
if (!exiting) process.exit(exitCode);
