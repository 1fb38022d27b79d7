/**
 * The execution measures of `npm run bench`, service side (bench/raw-runs.ts is their raw-SQL
 * floor). Every request is made with an API token, so every appended result is also counted
 * against the organization's monthly ceiling (raised out of the way), as for any integrator.
 *
 * - marks: PATCH /api/v1/runs/{runUlid}/cases/{runCaseUlid} `{ status, elapsedMs }` into one run
 *   of RUN_CASES cases (three steps each), round-robin over its cases, the status cycling
 *   through the four outcomes pass by pass, so that every request changes the status and
 *   appends one result (an answer without resultUlid counts as failed). Afterwards the run's
 *   totalDurationMs must equal the sum of the elapsedMs answered (when nothing failed): the counters kept every result. The same spread over SPREAD_RUNS
 *   runs of RUN_CASES / SPREAD_RUNS cases (round-robin over the runs, then over their cases; the
 *   runs' durations summed for the check), and both at 10 and at MANY_CLIENTS clients
 *   (MARK_MEASURES), each measure in runs of its own.
 * - bulk-mark: POST /api/v1/runs/{runUlid}/cases/bulk-mark with all RUN_CASES run cases of one of
 *   BULK_RUNS runs (round-robin), the status cycling per run, so that every call marks 500
 *   cases (500 results). Figures are calls; results per second = calls per second × 500.
 * - bulk submit-result: POST /api/v1/runs/{runUlid}/results/bulk with RUN_CASES entries (one per
 *   run case, status cycling per run, an elapsedMs each), likewise 500 results per call.
 * - plan progress: POST /graphql reading `progress` (with byConfiguration) of PROGRESS_PLANS plans
 *   of one project, each with a run (some with four configured runs) that holds marked cases.
 * - plan detail: GET /api/v1/plans/{planUlid} of a plan with DETAIL_RUNS marked runs in five
 *   configuration buckets, some closed (seedDetailPlan); its progress is checked before the load.
 */
import type { ServiceProcess } from './child.ts';
import { runHttpLoad } from './load.ts';
import { bearer, createProjectThroughApi, getJson, graphqlData, type Integrator, seedCases } from './setup.ts';
import type { Measurement } from './stats.ts';
import { type Counts, type Drive, measureLoad, type Next, runVaryingLoad, STEPS } from './test-design.ts';

export const RUN_CASES = 500;
export const BULK_RUNS = 10;
export const PROGRESS_PLANS = 200;
/** Cases of each progress plan, and how many plans carry a configuration selection (2 groups × 2 values). */
const PLAN_CASES = 5;
const CONFIGURED_PLANS = 20;

const REQUEST_TIMEOUT_MS = 30_000;

/** One request with `who`'s token; the parsed answer, or an error naming the status and the answer. */
export async function send(
  service: ServiceProcess,
  who: Integrator,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = REQUEST_TIMEOUT_MS,
) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...bearer(who) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** A project with RUN_CASES cases of three steps, the source of every run of these measures. */
export type RunsProject = { who: Integrator; code: string; projectId: string; caseUlids: string[] };

export async function runsProject(service: ServiceProcess, who: Integrator, code: string): Promise<RunsProject> {
  const projectId = await createProjectThroughApi(service, who, code, `Execution ${code}`);
  const cases = await seedCases(service, who, code, RUN_CASES, (index) => ({ title: `Run case ${index}`, steps: STEPS }), 8);
  return { who, code, projectId, caseUlids: cases.map((each) => each.ulid) };
}

/** A run of all the project's cases; returns its ULID and its run case ULIDs in position order. */
export type BenchRun = { ulid: string; runCaseUlids: string[] };

export async function newRun(
  service: ServiceProcess,
  project: RunsProject,
  name: string,
  caseUlids = project.caseUlids,
): Promise<BenchRun> {
  const run = await send(service, project.who, 'POST', `/api/v1/projects/${project.code}/runs`, { name, caseUlids });
  const runCaseUlids: string[] = [];
  for (let page = 1; runCaseUlids.length < caseUlids.length; page++) {
    const body = await getJson(service, `/api/v1/runs/${run.ulid}/cases?pageSize=200&page=${page}`, project.who);
    if (body.items.length === 0) break;
    runCaseUlids.push(...body.items.map((item: { ulid: string }) => item.ulid));
  }
  return { ulid: run.ulid, runCaseUlids };
}

const OUTCOMES = ['passed', 'failed', 'skipped', 'blocked'];
/**
 * The status of every case on a pass: a cycle of the four outcomes, so that every pass changes
 * every case, even when two neighbouring passes over a run reach its lock in swapped order.
 */
export const statusOfPass = (pass: number) => OUTCOMES[pass % OUTCOMES.length]!;
export const elapsedOf = (sequence: number) => 1000 + (sequence % 997);

/** Round-robin over `items`, with the number of completed passes over them. */
export function roundRobin<T>(items: T[]): () => { item: T; pass: number; sequence: number } {
  let sequence = 0;
  return () => {
    const current = sequence++;
    return { item: items[current % items.length]!, pass: Math.floor(current / items.length), sequence: current };
  };
}

/** One single mark: the run, its run case, the status (changing the case) and the elapsedMs sent. */
export type Mark = { run: BenchRun; runCaseUlid: string; status: string; elapsedMs: number };

/**
 * The marks of `runs`, round-robin over the runs and, within each, over its cases (consecutive
 * marks go to different runs), the status cycling pass by pass over all of them.
 */
export function markSequence(runs: BenchRun[]): () => Mark {
  const targets = runs[0]!.runCaseUlids.flatMap((_, index) => runs.map((run) => ({ run, runCaseUlid: run.runCaseUlids[index]! })));
  const next = roundRobin(targets);
  return () => {
    const { item, pass, sequence } = next();
    return { ...item, status: statusOfPass(pass), elapsedMs: elapsedOf(sequence) };
  };
}

export async function serviceMarks(
  service: ServiceProcess,
  project: RunsProject,
  runs: BenchRun[],
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  const next = markSequence(runs);
  const load: Next = () => {
    const { run, runCaseUlid, status, elapsedMs } = next();
    return { method: 'PATCH', path: `/api/v1/runs/${run.ulid}/cases/${runCaseUlid}`, body: JSON.stringify({ status, elapsedMs }) };
  };
  // Summed from the answers, not the requests built: autocannon may build more than it sends.
  let answeredElapsed = 0;
  const accept = (answer: string) => {
    const marked = JSON.parse(answer) as { resultUlid: string | null; elapsedMs: number };
    if (marked.resultUlid) answeredElapsed += marked.elapsedMs;
    return marked.resultUlid !== null;
  };
  const warmup = await runVaryingLoad(service, project.who, drive, counts.warmup, load, accept);
  const measurement = await runVaryingLoad(service, project.who, drive, counts.measured, load, accept);
  let totalDurationMs = 0;
  for (const run of runs) totalDurationMs += (await getJson(service, `/api/v1/runs/${run.ulid}`, project.who)).totalDurationMs;
  if (warmup.failed + measurement.failed === 0 && totalDurationMs !== answeredElapsed) {
    throw new Error(`service marks: totalDurationMs ${totalDurationMs} for ${answeredElapsed} ms of results answered`);
  }
  return measurement;
}

/**
 * The single-mark measures: into one run of RUN_CASES cases, or spread over SPREAD_RUNS runs of
 * RUN_CASES / SPREAD_RUNS cases each (the same number of run cases, but the marks no longer queue
 * on one run's lock, so throughput should grow as the raw floor's does), each at the bench's 10
 * clients and at MANY_CLIENTS.
 */
export const SPREAD_RUNS = 10;
export const MANY_CLIENTS = 50;
export const MARK_MEASURES = {
  marks: { runs: 1, clients: 10 },
  marks50: { runs: 1, clients: MANY_CLIENTS },
  spread: { runs: SPREAD_RUNS, clients: 10 },
  spread50: { runs: SPREAD_RUNS, clients: MANY_CLIENTS },
} as const;
export type MarkMeasure = keyof typeof MARK_MEASURES;

/** The runs one side (service or raw) works in: those of each mark measure, BULK_RUNS of all cases for each bulk measure. */
export type SideRuns = { marks: Record<MarkMeasure, BenchRun[]>; bulkMark: BenchRun[]; submit: BenchRun[] };

async function sideRuns(service: ServiceProcess, project: RunsProject, side: string, withBulkMark: boolean): Promise<SideRuns> {
  /** `count` runs, each of all the project's cases or (`split`) of its share of them. */
  const many = async (label: string, count: number, split: boolean) => {
    const runs: BenchRun[] = [];
    const size = split ? RUN_CASES / count : RUN_CASES;
    for (let index = 0; index < count; index++) {
      const from = split ? index * size : 0;
      runs.push(await newRun(service, project, `${side} ${label} ${index}`, project.caseUlids.slice(from, from + size)));
    }
    return runs;
  };
  const marks = {} as Record<MarkMeasure, BenchRun[]>;
  for (const [measure, { runs }] of Object.entries(MARK_MEASURES)) marks[measure as MarkMeasure] = await many(measure, runs, true);
  return { marks, bulkMark: withBulkMark ? await many('bulk-mark', BULK_RUNS, false) : [], submit: await many('submit', BULK_RUNS, false) };
}

/** Everything the execution measures need, seeded through the API before anything is measured. */
export type RunsFixture = { project: RunsProject; detailPlan: DetailPlan; service: SideRuns; raw: SideRuns };

/** `withBulkMark`: also the runs of the bulk-mark measure (BENCH_ONLY=hot goes without). */
export async function seedRuns(service: ServiceProcess, who: Integrator, code: string, withBulkMark: boolean): Promise<RunsFixture> {
  const project = await runsProject(service, who, code);
  const configurations = await seedConfigurations(service, project);
  await seedProgressPlans(service, project, configurations);
  const detailPlan = await seedDetailPlan(service, project, configurations);
  const sides = {
    service: await sideRuns(service, project, 'service', withBulkMark),
    raw: await sideRuns(service, project, 'raw', withBulkMark),
  };
  return { project, detailPlan, ...sides };
}

export const bulkMarkBody = (run: BenchRun, pass: number) => ({ caseUlids: run.runCaseUlids, status: statusOfPass(pass) });
/** The entries of a submit of all of `run`'s cases on `pass`: the status of the pass, an elapsedMs each. */
export const submitEntries = (run: BenchRun, pass: number) =>
  run.runCaseUlids.map((runCaseUlid, index) => ({ runCaseUlid, status: statusOfPass(pass), elapsedMs: elapsedOf(index) }));
export const submitBody = (run: BenchRun, pass: number) => ({ results: submitEntries(run, pass) });

async function serviceBulk(
  service: ServiceProcess,
  project: RunsProject,
  runs: BenchRun[],
  path: (run: BenchRun) => string,
  bodyOf: (run: BenchRun, pass: number) => unknown,
  accept: (answer: string) => boolean,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  const next = roundRobin(runs);
  const load: Next = () => {
    const { item, pass } = next();
    return { method: 'POST', path: path(item), body: JSON.stringify(bodyOf(item, pass)) };
  };
  return measureLoad(service, project.who, drive, counts, load, accept);
}

/** Every bulk-mark must have changed all cases of its run (a case it leaves unchanged appends no result). */
export const serviceBulkMark = (service: ServiceProcess, project: RunsProject, runs: BenchRun[], counts: Counts, drive: Drive) =>
  serviceBulk(
    service,
    project,
    runs,
    (run) => `/api/v1/runs/${run.ulid}/cases/bulk-mark`,
    bulkMarkBody,
    (answer) => answer.includes(`"affected":${RUN_CASES}`),
    counts,
    drive,
  );

/**
 * Every submit must have appended a result per case. Not every one changes every case: a call
 * that waits long enough for a call of its run four passes on (the same status) to go first
 * finds its cases already set (PGlite under 10 clients, 1 call in 50 on 2026-11-28).
 */
export const serviceSubmit = (service: ServiceProcess, project: RunsProject, runs: BenchRun[], counts: Counts, drive: Drive) =>
  serviceBulk(
    service,
    project,
    runs,
    (run) => `/api/v1/runs/${run.ulid}/results/bulk`,
    submitBody,
    (answer) => JSON.parse(answer).resultUlids?.length === RUN_CASES,
    counts,
    drive,
  );

// ---- the plans of the progress and detail measures ---------------------------------------------

/** The project's two configuration groups of two values each: the values, and their four combinations. */
type Configurations = { values: string[]; combinations: string[][] };

async function seedConfigurations(service: ServiceProcess, project: RunsProject): Promise<Configurations> {
  const { who, code } = project;
  const groups: string[][] = [];
  for (const group of ['Browser', 'OS']) {
    const created = await send(service, who, 'POST', `/api/v1/projects/${code}/configuration-groups`, { name: group });
    const pair: string[] = [];
    for (const name of ['A', 'B'])
      pair.push(
        (await send(service, who, 'POST', `/api/v1/configuration-groups/${created.ulid}/values`, { name: `${group} ${name}` })).ulid,
      );
    groups.push(pair);
  }
  return { values: groups.flat(), combinations: groups[0]!.flatMap((first) => groups[1]!.map((second) => [first, second])) };
}

/** A run of the plan (of its combination `configurationUlids`) with two cases marked: one passed, one failed. */
async function markedPlanRun(
  service: ServiceProcess,
  project: RunsProject,
  planUlid: string,
  caseUlids: string[],
  name: string,
  configurationUlids: string[],
) {
  const { who, code } = project;
  const run = await send(service, who, 'POST', `/api/v1/projects/${code}/runs`, { name, planUlid, configurationUlids });
  await send(service, who, 'POST', `/api/v1/runs/${run.ulid}/results/bulk`, {
    results: [
      { caseUlid: caseUlids[0], status: 'passed', elapsedMs: 1000 },
      { caseUlid: caseUlids[1], status: 'failed', elapsedMs: 2000 },
    ],
  });
  return run.ulid as string;
}

/** A plan selecting `caseUlids`, with no runs yet. */
async function newPlan(service: ServiceProcess, project: RunsProject, name: string, caseUlids: string[]): Promise<string> {
  const plan = await send(service, project.who, 'POST', `/api/v1/projects/${project.code}/plans`, { name, status: 'active' });
  await send(service, project.who, 'PUT', `/api/v1/plans/${plan.ulid}/cases`, { caseUlids });
  return plan.ulid;
}

const selectConfigurations = (service: ServiceProcess, project: RunsProject, planUlid: string, configurations: Configurations) =>
  send(service, project.who, 'PUT', `/api/v1/plans/${planUlid}/configurations`, { configurationUlids: configurations.values });

/**
 * PROGRESS_PLANS plans in the project, each selecting PLAN_CASES cases and with one marked run of
 * them; the first CONFIGURED_PLANS also select the two configuration groups and get a run per
 * combination.
 */
async function seedProgressPlans(service: ServiceProcess, project: RunsProject, configurations: Configurations): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < PROGRESS_PLANS) {
      const index = next++;
      const from = (index * PLAN_CASES) % (RUN_CASES - PLAN_CASES);
      const caseUlids = project.caseUlids.slice(from, from + PLAN_CASES);
      const planUlid = await newPlan(service, project, `Plan ${index}`, caseUlids);
      const configured = index < CONFIGURED_PLANS;
      if (configured) await selectConfigurations(service, project, planUlid, configurations);
      for (const configurationUlids of configured ? configurations.combinations : [[]]) {
        await markedPlanRun(service, project, planUlid, caseUlids, `Plan ${index} run`, configurationUlids);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

// ---- plan detail ---------------------------------------------------------------------------------

/**
 * The plan of GET /api/v1/plans/{planUlid}: DETAIL_RUNS marked runs of its PLAN_CASES cases,
 * DETAIL_UNCONFIGURED_RUNS of them made before it selected the two configuration groups (the
 * unconfigured bucket), the rest spread over the four combinations; every DETAIL_CLOSE_EVERY-th
 * run is closed. Its progress thus has five buckets, open and closed runs in each.
 */
export const DETAIL_RUNS = 50;
const DETAIL_UNCONFIGURED_RUNS = 10;
const DETAIL_CLOSE_EVERY = 5;
export type DetailPlan = { ulid: string; buckets: number; closedRuns: number };

async function seedDetailPlan(service: ServiceProcess, project: RunsProject, configurations: Configurations): Promise<DetailPlan> {
  const caseUlids = project.caseUlids.slice(0, PLAN_CASES);
  const ulid = await newPlan(service, project, 'Plan with many runs', caseUlids);
  let closedRuns = 0;
  for (let index = 0; index < DETAIL_RUNS; index++) {
    if (index === DETAIL_UNCONFIGURED_RUNS) await selectConfigurations(service, project, ulid, configurations);
    const configurationUlids =
      index < DETAIL_UNCONFIGURED_RUNS ? [] : configurations.combinations[index % configurations.combinations.length]!;
    const runUlid = await markedPlanRun(service, project, ulid, caseUlids, `Detail run ${index}`, configurationUlids);
    if (index % DETAIL_CLOSE_EVERY === 0) {
      await send(service, project.who, 'POST', `/api/v1/runs/${runUlid}/close`);
      closedRuns++;
    }
  }
  return { ulid, buckets: 1 + configurations.combinations.length, closedRuns };
}

type PlanDetailAnswer = { progress: { totalRuns: number; closedRuns: number; byConfiguration: unknown[] } };

/** GET /api/v1/plans/{planUlid} of the detail plan; its progress is checked first. */
export async function servicePlanDetail(service: ServiceProcess, fixture: RunsFixture, counts: Counts, drive: Drive): Promise<Measurement> {
  const { project, detailPlan } = fixture;
  const path = `/api/v1/plans/${detailPlan.ulid}`;
  const { progress } = (await getJson(service, path, project.who)) as PlanDetailAnswer;
  if (
    progress.totalRuns !== DETAIL_RUNS ||
    progress.closedRuns !== detailPlan.closedRuns ||
    progress.byConfiguration.length !== detailPlan.buckets
  ) {
    throw new Error(`unexpected plan detail: ${JSON.stringify(progress).slice(0, 500)}`);
  }
  return measureLoad(service, project.who, drive, counts, () => ({ method: 'GET', path }));
}

// ---- plan progress -------------------------------------------------------------------------------

export const PROGRESS_QUERY = `query($code: String!, $first: Int!) {
  project(code: $code) {
    plans(first: $first) {
      edges { node { ulid progress {
        totalRuns closedRuns counts { passed failed blocked skipped untested }
        byConfiguration { comboKey values { groupName valueName } totalRuns closedRuns counts { passed failed blocked skipped untested } }
      } } }
    }
  }
}`;

type ProgressAnswer = { project: { plans: { edges: Array<{ node: { progress: { totalRuns: number; byConfiguration: unknown[] } } }> } } };

export async function serviceProgress(service: ServiceProcess, project: RunsProject, counts: Counts, drive: Drive): Promise<Measurement> {
  const variables = { code: project.code, first: PROGRESS_PLANS };
  const data = (await graphqlData(service, project.who, PROGRESS_QUERY, variables)) as ProgressAnswer;
  const plans = data.project.plans.edges.map((edge) => edge.node.progress);
  const runs = plans.reduce((sum, progress) => sum + progress.totalRuns, 0);
  if (plans.length !== PROGRESS_PLANS || runs !== PROGRESS_PLANS - CONFIGURED_PLANS + CONFIGURED_PLANS * 4) {
    throw new Error(`unexpected progress answer: ${plans.length} plans, ${runs} runs`);
  }
  const body = JSON.stringify({ query: PROGRESS_QUERY, variables });
  const next: Next = () => ({ method: 'POST', path: '/graphql', body });
  const accept = (answer: string) => answer.startsWith('{"data":{"project":{') && !answer.includes('"errors":');
  return measureLoad(service, project.who, drive, counts, next, accept);
}

// ---- the rows measured against the tight floor (BENCH_ONLY=tight) --------------------------------

/**
 * The rows issue 33 measures against the tight floor (bench/raw-runs-tight.ts): single marks by
 * the owner's session (cookie + X-Organization-Id, not metered) or by an API token, into one run
 * of RUN_CASES cases or spread over SPREAD_RUNS runs of RUN_CASES / SPREAD_RUNS, and bulk
 * submit-result by the token of every case of one of BULK_RUNS runs (round-robin) of `perCall` cases.
 */
export const TIGHT_ROWS = {
  sessionOne10: { kind: 'mark', caller: 'session', runs: 1, clients: 10 },
  sessionOne50: { kind: 'mark', caller: 'session', runs: 1, clients: MANY_CLIENTS },
  sessionSpread10: { kind: 'mark', caller: 'session', runs: SPREAD_RUNS, clients: 10 },
  sessionSpread50: { kind: 'mark', caller: 'session', runs: SPREAD_RUNS, clients: MANY_CLIENTS },
  tokenOne50: { kind: 'mark', caller: 'api_token', runs: 1, clients: MANY_CLIENTS },
  tokenSpread50: { kind: 'mark', caller: 'api_token', runs: SPREAD_RUNS, clients: MANY_CLIENTS },
  submit500x1: { kind: 'submit', caller: 'api_token', perCall: RUN_CASES, clients: 1 },
  submit500x4: { kind: 'submit', caller: 'api_token', perCall: RUN_CASES, clients: 4 },
  submit50x1: { kind: 'submit', caller: 'api_token', perCall: 50, clients: 1 },
} as const;
export type TightRowKey = keyof typeof TIGHT_ROWS;
export type TightRow = (typeof TIGHT_ROWS)[TightRowKey];
export const TIGHT_KEYS = Object.keys(TIGHT_ROWS) as TightRowKey[];

/** What one side's operation of a row is: the request it makes and, once it succeeded, the elapsed time its results add to their runs. */
export type TightOp =
  | { kind: 'mark'; mark: Mark; durationMs: number }
  | { kind: 'submit'; run: BenchRun; entries: ReturnType<typeof submitEntries>; durationMs: number };

/**
 * One side's runs of a row and the sequence of its operations, which goes on from round to round
 * (so that every mark still changes its case); `durationMs` sums what the operations that
 * succeeded added to the runs' totalDurationMs (checked after the rounds).
 */
export type TightSide = { runs: BenchRun[]; next: () => TightOp; durationMs: number };

function tightSide(row: TightRow, runs: BenchRun[]): TightSide {
  if (row.kind === 'mark') {
    const marks = markSequence(runs);
    return {
      runs,
      durationMs: 0,
      next: () => {
        const mark = marks();
        return { kind: 'mark', mark, durationMs: mark.elapsedMs };
      },
    };
  }
  const calls = roundRobin(runs);
  return {
    runs,
    durationMs: 0,
    next: () => {
      const { item, pass } = calls();
      const entries = submitEntries(item, pass);
      return { kind: 'submit', run: item, entries, durationMs: entries.reduce((sum, entry) => sum + entry.elapsedMs, 0) };
    },
  };
}

/** The runs of every tight row for one side (`side` names them), seeded through the API. */
export async function seedTightSide(service: ServiceProcess, project: RunsProject, side: string): Promise<Record<TightRowKey, TightSide>> {
  const sides = {} as Record<TightRowKey, TightSide>;
  for (const key of TIGHT_KEYS) {
    const row: TightRow = TIGHT_ROWS[key];
    const count = row.kind === 'mark' ? row.runs : BULK_RUNS;
    const size = row.kind === 'mark' ? RUN_CASES / row.runs : row.perCall;
    const runs: BenchRun[] = [];
    for (let index = 0; index < count; index++) {
      const from = row.kind === 'mark' ? index * size : 0;
      runs.push(await newRun(service, project, `${side} ${key} ${index}`, project.caseUlids.slice(from, from + size)));
    }
    sides[key] = tightSide(row, runs);
  }
  return sides;
}

/** The elapsed time one submit of `perCall` cases adds to its run (elapsedOf of each position). */
const PER_SUBMIT_MS: Record<number, number> = Object.fromEntries(
  [...new Set(Object.values(TIGHT_ROWS).flatMap((row) => (row.kind === 'submit' ? [row.perCall] : [])))].map((perCall) => [
    perCall,
    Array.from({ length: perCall }, (_, index) => elapsedOf(index)).reduce((sum, each) => sum + each, 0),
  ]),
);

/** The headers of `row`'s caller: the owner's session acting in the organization, or the token. */
export const tightHeaders = (row: TightRow, who: Integrator): Record<string, string> =>
  row.caller === 'session' ? { cookie: who.session.cookie, 'x-organization-id': who.orgId } : bearer(who);

/**
 * The service side of a tight row: `requests` requests of the side's sequence at the row's
 * clients; an answer counts when it appended what was asked (a mark's resultUlid, a submit's
 * resultUlids), and adds its duration to the side's.
 */
export function serviceTightLoad(
  service: ServiceProcess,
  who: Integrator,
  row: TightRow,
  side: TightSide,
  requests: number,
  maxMs: number,
) {
  // autocannon may build more requests than it sends: an answer's own figures are what counts.
  const accept = (answer: string) => {
    const body = JSON.parse(answer) as { resultUlid?: string | null; elapsedMs?: number; resultUlids?: string[] };
    if (row.kind === 'mark') {
      if (!body.resultUlid) return false;
      side.durationMs += body.elapsedMs!;
      return true;
    }
    if (body.resultUlids?.length !== row.perCall) return false;
    side.durationMs += PER_SUBMIT_MS[row.perCall]!;
    return true;
  };
  return runHttpLoad({
    url: service.baseUrl,
    method: 'POST',
    headers: { ...tightHeaders(row, who), 'content-type': 'application/json' },
    next: () => {
      const op = side.next();
      return op.kind === 'mark'
        ? {
            method: 'PATCH',
            path: `/api/v1/runs/${op.mark.run.ulid}/cases/${op.mark.runCaseUlid}`,
            body: JSON.stringify({ status: op.mark.status, elapsedMs: op.mark.elapsedMs }),
          }
        : { method: 'POST', path: `/api/v1/runs/${op.run.ulid}/results/bulk`, body: JSON.stringify({ results: op.entries }) };
    },
    accept,
    requests,
    concurrency: row.clients,
    maxMs,
    cpuSeconds: service.cpuSeconds,
  });
}
