/**
 * The test-design measures of `npm run bench`, service side (bench/raw-test-design.ts is their
 * raw-SQL floor). Each is a fixed number of requests after a small warm-up, at the bench's
 * concurrency, with an API token:
 *
 * - create cases: POST /api/v1/projects/{code}/test-cases into one project, each body a title,
 *   three steps and the system `priority` (a select_single) value. Afterwards the project's cases
 *   are listed and their caseNumbers must be exactly 1..N (N = the creates answered 201), or the
 *   bench fails. The created cases become the PATCH pool.
 * - read the tree: POST /graphql with the suite-tree query of test/graphql/test-cases.test.ts
 *   (every suite of the project with its cases, their steps and custom field values) on a
 *   project of TREE_SUITES suites x CASES_PER_SUITE cases; an answer carrying `errors` counts as
 *   failed.
 * - consolidated PATCH: PATCH /api/v1/test-cases/{caseUlid} with `patch.title`, the three steps
 *   (by ULID, the second one's action changed) and `priority` toggled, each request on the next
 *   case of the pool and with the next version of its values, so that every request changes
 *   all three parts and records one test_case.updated event (checked in the audit feed after
 *   the run: one event per 2xx PATCH, else the bench fails).
 * - case list: GET /api/v1/projects/{code}/test-cases?limit=CASE_PAGE of the tree project, its
 *   pages round-robin (their cursors walked and checked first: full pages, every case with its
 *   steps and priority).
 */
import type { ServiceProcess } from './child.ts';
import { type HttpLoad, runHttpLoad } from './load.ts';
import {
  bearer,
  type CreatedCase,
  createProjectThroughApi,
  createSuiteThroughApi,
  getJson,
  graphqlData,
  type Integrator,
  listCases,
  newestEventsOf,
  type SelectField,
  seedCases,
  systemSelectField,
} from './setup.ts';
import type { Measurement } from './stats.ts';

export type Counts = { warmup: number; measured: number };
/** How every run is driven: connections (or raw workers) and the time bound of one run. */
export type Drive = { concurrency: number; maxMs: number };

// ---- what the cases hold ------------------------------------------------------------------------

export const STEPS = [1, 2, 3].map((n) => ({ action: `Step ${n}`, expectedResult: `Result ${n}` }));
/** The step whose action every PATCH changes. */
export const CHANGED_STEP = 1;
export const caseTitle = (index: number) => `Bench case ${index}`;

/** A create body: title, three steps, priority = its first option. */
export const caseBody = (index: number, priority: SelectField, suiteUlid?: string) => ({
  title: caseTitle(index),
  ...(suiteUlid ? { suiteUlid } : {}),
  steps: STEPS,
  customFieldValues: [{ fieldUlid: priority.fieldUlid, value: priority.optionUlids[0] }],
});

/** A case of the PATCH pool: what it was created with, and how many PATCHes were sent for it. */
export type PoolCase = {
  ulid: string;
  caseNumber: number;
  title: string;
  steps: Array<{ ulid: string; action: string; expectedResult: string | null }>;
  version: number;
};

export const toPoolCase = (created: CreatedCase): PoolCase => ({
  ulid: created.ulid,
  caseNumber: created.caseNumber,
  title: created.title,
  steps: created.steps.map(({ ulid, action, expectedResult }) => ({ ulid, action, expectedResult })),
  version: 0,
});

/** A case's values after its `version`-th PATCH (version 0: as created). */
export function versionOf(testCase: PoolCase, version: number, priority: SelectField) {
  const original = testCase.steps[CHANGED_STEP]!.action;
  return {
    title: version === 0 ? testCase.title : `${testCase.title} v${version}`,
    action: version === 0 ? original : `${original} v${version}`,
    option: priority.optionUlids[version % 2]!,
  };
}

/** Hands out the pool round-robin, each time with the case's next version. */
export function patchSequence(pool: PoolCase[]): () => { testCase: PoolCase; version: number } {
  if (pool.length === 0) throw new Error('the PATCH pool is empty');
  let next = 0;
  return () => {
    const testCase = pool[next++ % pool.length]!;
    testCase.version += 1;
    return { testCase, version: testCase.version };
  };
}

export function patchBody(testCase: PoolCase, version: number, priority: SelectField) {
  const values = versionOf(testCase, version, priority);
  return {
    patch: { title: values.title },
    steps: testCase.steps.map((step, index) => ({
      ulid: step.ulid,
      action: index === CHANGED_STEP ? values.action : step.action,
      expectedResult: step.expectedResult,
    })),
    customFieldValues: [{ fieldUlid: priority.fieldUlid, value: values.option }],
  };
}

/** Throws unless `numbers` are exactly 1..expected (the gapless, duplicate-free caseNumbers). */
export function assertGapless(numbers: number[], expected: number, what: string): void {
  const sorted = [...numbers].sort((a, b) => a - b);
  const wrong = sorted.findIndex((number, index) => number !== index + 1);
  if (sorted.length !== expected || wrong >= 0) {
    throw new Error(
      `${what}: ${sorted.length} cases for ${expected} successful creates` +
        (wrong >= 0 ? `, caseNumber ${sorted[wrong]} where ${wrong + 1} was due` : ''),
    );
  }
}

// ---- the tree ----------------------------------------------------------------------------------

export const TREE_ROOTS = 2;
export const TREE_CHILDREN_PER_ROOT = 4;
/** Two roots with four children each. */
export const TREE_SUITES = TREE_ROOTS * (1 + TREE_CHILDREN_PER_ROOT);
export const CASES_PER_SUITE = 50;
export const TREE_CASES = TREE_SUITES * CASES_PER_SUITE;

/** The query of the bounded-SQL test in test/graphql/test-cases.test.ts. */
export const TREE_QUERY = `query($code: String!) {
  project(code: $code) {
    suites { name cases { ulid displayId title tags steps { action } customFieldValues { fieldUlid value optionName } } }
  }
}`;

/** Seeds the tree project through the API: the suites, then CASES_PER_SUITE cases in each. */
export async function seedTree(service: ServiceProcess, who: Integrator, code: string, priority: SelectField): Promise<void> {
  const suites: string[] = [];
  for (let root = 0; root < TREE_ROOTS; root++) {
    const rootUlid = await createSuiteThroughApi(service, who, code, `Area ${root}`);
    suites.push(rootUlid);
    for (let child = 0; child < TREE_CHILDREN_PER_ROOT; child++) {
      suites.push(await createSuiteThroughApi(service, who, code, `Area ${root}.${child}`, rootUlid));
    }
  }
  await seedCases(service, who, code, TREE_CASES, (index) => caseBody(index, priority, suites[index % suites.length]), 8);
}

type TreeCase = { steps: unknown[]; customFieldValues: Array<{ fieldUlid: string; optionName: string | null }> };
type TreeAnswer = { project: { suites: Array<{ cases: TreeCase[] }> } };

/** Throws unless the answer holds the whole seeded tree, each case with its steps and priority. */
export function checkTree(data: TreeAnswer, priority: SelectField): void {
  const suites = data.project.suites;
  const cases = suites.flatMap((suite) => suite.cases);
  const hasPriority = (each: TreeCase) =>
    each.customFieldValues.some((value) => value.fieldUlid === priority.fieldUlid && value.optionName !== null);
  const complete = cases.every((each) => each.steps.length === STEPS.length && hasPriority(each));
  if (suites.length !== TREE_SUITES || cases.length !== TREE_CASES || !complete) {
    throw new Error(`unexpected tree: ${suites.length} suites, ${cases.length} cases, every case complete: ${complete}`);
  }
}

// ---- the case list ----------------------------------------------------------------------------

/** Cases per page of GET /api/v1/projects/{code}/test-cases (its `limit`), read from the tree project. */
export const CASE_PAGE = 50;
export const casePagePath = (code: string, cursor: string | null) =>
  `/api/v1/projects/${code}/test-cases?limit=${CASE_PAGE}${cursor ? `&cursor=${cursor}` : ''}`;

type ListedCase = { steps: unknown[]; customFieldValues: Array<{ fieldUlid: string }> };

/**
 * The cursors of the tree project's pages of CASE_PAGE cases (null: the first page), walked
 * through the API; throws unless every page is full and every case has its steps and priority.
 */
export async function casePageCursors(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  priority: SelectField,
): Promise<Array<string | null>> {
  const cursors: Array<string | null> = [];
  let cursor: string | null = null;
  do {
    cursors.push(cursor);
    const page: { items: ListedCase[]; nextCursor: string | null } = await getJson(service, casePagePath(code, cursor), who);
    const complete = page.items.every(
      (each) => each.steps.length === STEPS.length && each.customFieldValues.some((value) => value.fieldUlid === priority.fieldUlid),
    );
    if (page.items.length !== CASE_PAGE || !complete)
      throw new Error(`unexpected case page: ${page.items.length} cases, every case complete: ${complete}`);
    cursor = page.nextCursor;
  } while (cursor);
  if (cursors.length !== TREE_CASES / CASE_PAGE) throw new Error(`case list: ${cursors.length} pages of ${TREE_CASES} cases`);
  return cursors;
}

// ---- the load ----------------------------------------------------------------------------------

export type Next = NonNullable<HttpLoad['next']>;

/**
 * A load whose method, path and body `next()` picks per request, as the integrator with a token;
 * the figures say how busy the service process was (serviceCpu).
 */
export async function runVaryingLoad(
  service: ServiceProcess,
  who: Integrator,
  drive: Drive,
  requests: number,
  next: Next,
  accept?: (body: string) => boolean,
): Promise<Measurement> {
  const cpuBefore = service.cpuSeconds();
  const measurement = await runHttpLoad({
    url: service.baseUrl,
    method: 'POST',
    headers: { ...bearer(who), 'content-type': 'application/json' },
    next,
    accept,
    requests,
    concurrency: drive.concurrency,
    maxMs: drive.maxMs,
  });
  return { ...measurement, serviceCpu: (service.cpuSeconds() - cpuBefore) / (measurement.elapsedMs / 1000) };
}

/** The warm-up load, then the measured one (whose figures are returned). */
export async function measureLoad(
  service: ServiceProcess,
  who: Integrator,
  drive: Drive,
  counts: Counts,
  next: Next,
  accept?: (body: string) => boolean,
): Promise<Measurement> {
  await runVaryingLoad(service, who, drive, counts.warmup, next, accept);
  return runVaryingLoad(service, who, drive, counts.measured, next, accept);
}

// ---- the measures ------------------------------------------------------------------------

/** Creates warm-up + measured cases in project `code`; checks their numbers; returns the PATCH pool. */
export async function serviceCreateCases(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  priority: SelectField,
  counts: Counts,
  drive: Drive,
): Promise<{ measurement: Measurement; pool: PoolCase[] }> {
  let index = 0;
  const load = {
    url: `${service.baseUrl}/api/v1/projects/${code}/test-cases`,
    method: 'POST' as const,
    headers: { ...bearer(who), 'content-type': 'application/json' },
    body: () => JSON.stringify(caseBody(index++, priority)),
    concurrency: drive.concurrency,
    maxMs: drive.maxMs,
  };
  const warmup = await runHttpLoad({ ...load, requests: counts.warmup });
  const measurement = await runHttpLoad({ ...load, requests: counts.measured });
  const cases = await listCases(service, who, code);
  assertGapless(
    cases.map((each) => each.caseNumber),
    warmup.ok + measurement.ok,
    'service create cases',
  );
  return { measurement, pool: cases.map(toPoolCase) };
}

export async function serviceReadTree(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  priority: SelectField,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  checkTree(await graphqlData(service, who, TREE_QUERY, { code }), priority);
  const body = JSON.stringify({ query: TREE_QUERY, variables: { code } });
  const next: Next = () => ({ method: 'POST', path: '/graphql', body });
  const accept = (answer: string) => answer.startsWith('{"data":{"project":{') && !answer.includes('"errors":');
  return measureLoad(service, who, drive, counts, next, accept);
}

/** GET the tree project's case pages round-robin (`cursors` from casePageCursors). */
export async function serviceCaseList(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  cursors: Array<string | null>,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  let page = 0;
  return measureLoad(service, who, drive, counts, () => ({
    method: 'GET',
    path: casePagePath(code, cursors[page++ % cursors.length] ?? null),
  }));
}

/** PATCHes the pool round-robin; then one test_case.updated event per 2xx answer must be in the feed. */
export async function servicePatchCases(
  service: ServiceProcess,
  who: Integrator,
  pool: PoolCase[],
  priority: SelectField,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  const sequence = patchSequence(pool);
  const next: Next = () => {
    const { testCase, version } = sequence();
    const body = JSON.stringify(patchBody(testCase, version, priority));
    return { method: 'PATCH', path: `/api/v1/test-cases/${testCase.ulid}`, body };
  };
  const warmup = await runVaryingLoad(service, who, drive, counts.warmup, next);
  const measurement = await runVaryingLoad(service, who, drive, counts.measured, next);
  const events = await newestEventsOf(service, who, 'test_case.updated');
  const full = events.filter((event) => ['changes', 'stepsChange', 'customFieldChanges'].every((key) => key in event.metadata));
  if (events.length !== warmup.ok + measurement.ok) {
    throw new Error(`service PATCH: ${events.length} test_case.updated events for ${warmup.ok + measurement.ok} successful PATCHes`);
  }
  if (full.length < events.length) console.error(`  ! service PATCH: ${events.length - full.length} events lack one of the three parts`);
  return measurement;
}

/** A project of its own organization that a measure works in, with that organization's priority field. */
export type DesignProject = { who: Integrator; code: string; projectId: string; priority: SelectField };

export async function designProject(service: ServiceProcess, who: Integrator, code: string): Promise<DesignProject> {
  const projectId = await createProjectThroughApi(service, who, code, `Test design ${code}`);
  return { who, code, projectId, priority: await systemSelectField(service, who, 'priority') };
}
