/**
 * The execution measures of `npm run bench`, service side (bench/raw-runs.ts is their raw-SQL
 * floor). Every request is made with an API token, so every appended result is also counted
 * against the organization's monthly ceiling (raised out of the way), as for any integrator.
 *
 * - marks: PATCH /api/v1/runs/{runUlid}/cases/{runCaseUlid} `{ status, elapsedMs }` into one run
 *   of RUN_CASES cases (three steps each), round-robin over its cases, the status cycling
 *   through the four outcomes pass by pass, so that every request changes the status and
 *   appends one result. Afterwards the run's totalDurationMs must equal the sum of the elapsedMs
 *   sent (when nothing failed): the counters kept every result.
 * - bulk-mark: POST /api/v1/runs/{runUlid}/cases/bulk-mark with all RUN_CASES run cases of one of
 *   BULK_RUNS runs (round-robin), the status cycling per run, so that every call marks 500
 *   cases (500 results). Figures are calls; results per second = calls per second × 500.
 * - bulk submit-result: POST /api/v1/runs/{runUlid}/results/bulk with RUN_CASES entries (one per
 *   run case, status cycling per run, an elapsedMs each), likewise 500 results per call.
 * - plan progress: POST /graphql reading `progress` (with byConfiguration) of PROGRESS_PLANS plans
 *   of one project, each with a run (some with four configured runs) that holds marked cases.
 */
import type { ServiceProcess } from './child.ts';
import { bearer, createProjectThroughApi, getJson, graphqlData, seedCases, type Integrator } from './setup.ts';
import type { Measurement } from './stats.ts';
import { runVaryingLoad, STEPS, type Counts, type Drive, type Next } from './test-design.ts';

export const RUN_CASES = 500;
export const BULK_RUNS = 10;
export const PROGRESS_PLANS = 200;
/** Cases of each progress plan, and how many plans carry a configuration selection (2 groups × 2 values). */
const PLAN_CASES = 5;
const CONFIGURED_PLANS = 20;

const REQUEST_TIMEOUT_MS = 30_000;

/** One request with `who`'s token; the parsed answer, or an error naming the status and the answer. */
export async function send(service: ServiceProcess, who: Integrator, method: string, path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS) {
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

export async function newRun(service: ServiceProcess, project: RunsProject, name: string, caseUlids = project.caseUlids): Promise<BenchRun> {
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

export async function serviceMarks(service: ServiceProcess, project: RunsProject, run: BenchRun, counts: Counts, drive: Drive): Promise<Measurement> {
  const next = roundRobin(run.runCaseUlids);
  let sentElapsed = 0;
  const load: Next = () => {
    const { item, pass, sequence } = next();
    const elapsedMs = elapsedOf(sequence);
    sentElapsed += elapsedMs;
    return { method: 'PATCH', path: `/api/v1/runs/${run.ulid}/cases/${item}`, body: JSON.stringify({ status: statusOfPass(pass), elapsedMs }) };
  };
  const warmup = await runVaryingLoad(service, project.who, drive, counts.warmup, load);
  const measurement = await runVaryingLoad(service, project.who, drive, counts.measured, load);
  const after = await getJson(service, `/api/v1/runs/${run.ulid}`, project.who);
  if (warmup.failed + measurement.failed === 0 && after.totalDurationMs !== sentElapsed) {
    throw new Error(`service marks: totalDurationMs ${after.totalDurationMs} for ${sentElapsed} ms of results sent`);
  }
  return measurement;
}

/** The runs one side (service or raw) works in: one for marks, BULK_RUNS for each bulk measure. */
export type SideRuns = { marks: BenchRun; bulkMark: BenchRun[]; submit: BenchRun[] };

async function sideRuns(service: ServiceProcess, project: RunsProject, side: string): Promise<SideRuns> {
  const many = async (label: string) => {
    const runs: BenchRun[] = [];
    for (let index = 0; index < BULK_RUNS; index++) runs.push(await newRun(service, project, `${side} ${label} ${index}`));
    return runs;
  };
  return { marks: await newRun(service, project, `${side} marks`), bulkMark: await many('bulk-mark'), submit: await many('submit') };
}

/** Everything the execution measures need, seeded through the API before anything is measured. */
export type RunsFixture = { project: RunsProject; service: SideRuns; raw: SideRuns };

export async function seedRuns(service: ServiceProcess, who: Integrator, code: string): Promise<RunsFixture> {
  const project = await runsProject(service, who, code);
  await seedProgressPlans(service, project);
  return { project, service: await sideRuns(service, project, 'service'), raw: await sideRuns(service, project, 'raw') };
}

export const bulkMarkBody = (run: BenchRun, pass: number) => ({ caseUlids: run.runCaseUlids, status: statusOfPass(pass) });
export const submitBody = (run: BenchRun, pass: number) => ({
  results: run.runCaseUlids.map((runCaseUlid, index) => ({ runCaseUlid, status: statusOfPass(pass), elapsedMs: elapsedOf(index) })),
});

async function serviceBulk(
  service: ServiceProcess,
  project: RunsProject,
  runs: BenchRun[],
  path: (run: BenchRun) => string,
  bodyOf: (run: BenchRun, pass: number) => unknown,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  const next = roundRobin(runs);
  const load: Next = () => {
    const { item, pass } = next();
    return { method: 'POST', path: path(item), body: JSON.stringify(bodyOf(item, pass)) };
  };
  // Every call must have marked all cases of its run.
  const accept = (answer: string) => answer.includes(`"affected":${RUN_CASES}`);
  await runVaryingLoad(service, project.who, drive, counts.warmup, load, accept);
  return runVaryingLoad(service, project.who, drive, counts.measured, load, accept);
}

export const serviceBulkMark = (service: ServiceProcess, project: RunsProject, runs: BenchRun[], counts: Counts, drive: Drive) =>
  serviceBulk(service, project, runs, (run) => `/api/v1/runs/${run.ulid}/cases/bulk-mark`, bulkMarkBody, counts, drive);

export const serviceSubmit = (service: ServiceProcess, project: RunsProject, runs: BenchRun[], counts: Counts, drive: Drive) =>
  serviceBulk(service, project, runs, (run) => `/api/v1/runs/${run.ulid}/results/bulk`, submitBody, counts, drive);

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

/**
 * PROGRESS_PLANS plans in the project, each selecting PLAN_CASES cases and with one run of them
 * (two cases marked: one passed, one failed); the first CONFIGURED_PLANS also select two
 * configuration groups of two values each and get a run per combination.
 */
export async function seedProgressPlans(service: ServiceProcess, project: RunsProject): Promise<void> {
  const { who, code } = project;
  const values: string[][] = [];
  for (const group of ['Browser', 'OS']) {
    const created = await send(service, who, 'POST', `/api/v1/projects/${code}/configuration-groups`, { name: group });
    const pair: string[] = [];
    for (const name of ['A', 'B']) pair.push((await send(service, who, 'POST', `/api/v1/configuration-groups/${created.ulid}/values`, { name: `${group} ${name}` })).ulid);
    values.push(pair);
  }
  const combinations = values[0]!.flatMap((first) => values[1]!.map((second) => [first, second]));
  let next = 0;
  const worker = async () => {
    while (next < PROGRESS_PLANS) {
      const index = next++;
      const plan = await send(service, who, 'POST', `/api/v1/projects/${code}/plans`, { name: `Plan ${index}`, status: 'active' });
      const caseUlids = project.caseUlids.slice((index * PLAN_CASES) % (RUN_CASES - PLAN_CASES), ((index * PLAN_CASES) % (RUN_CASES - PLAN_CASES)) + PLAN_CASES);
      await send(service, who, 'PUT', `/api/v1/plans/${plan.ulid}/cases`, { caseUlids });
      const configured = index < CONFIGURED_PLANS;
      if (configured) await send(service, who, 'PUT', `/api/v1/plans/${plan.ulid}/configurations`, { configurationUlids: values.flat() });
      for (const configurationUlids of configured ? combinations : [[]]) {
        const run = await send(service, who, 'POST', `/api/v1/projects/${code}/runs`, { name: `Plan ${index} run`, planUlid: plan.ulid, configurationUlids });
        await send(service, who, 'POST', `/api/v1/runs/${run.ulid}/results/bulk`, {
          results: [
            { caseUlid: caseUlids[0], status: 'passed', elapsedMs: 1000 },
            { caseUlid: caseUlids[1], status: 'failed', elapsedMs: 2000 },
          ],
        });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

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
  await runVaryingLoad(service, project.who, drive, counts.warmup, next, accept);
  return runVaryingLoad(service, project.who, drive, counts.measured, next, accept);
}
