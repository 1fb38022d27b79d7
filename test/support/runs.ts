import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import { type Caller, ownerWithProject } from './app.ts';

export type CaseBody = {
  ulid: string;
  displayId: string;
  caseNumber: number;
  title: string;
  steps: Array<{ ulid: string; action: string }>;
};

/** A test case in the project; `body` overrides the title and adds steps or anything else. */
export async function createCase(
  http: TestAgent,
  caller: Caller,
  projectCode: string,
  body: Record<string, unknown> = {},
): Promise<CaseBody> {
  const response = await http
    .post(`/api/v1/projects/${projectCode}/test-cases`)
    .set(caller.headers)
    .send({ title: 'Login works', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as CaseBody;
}

/** `count` cases titled "Case 1" … with `steps` steps each, created one after the other. */
export async function createCases(http: TestAgent, caller: Caller, projectCode: string, count: number, steps = 0): Promise<CaseBody[]> {
  const cases: CaseBody[] = [];
  for (let index = 1; index <= count; index++) {
    const stepList = Array.from({ length: steps }, (_, step) => ({ action: `Step ${step + 1}`, expectedResult: `Result ${step + 1}` }));
    cases.push(await createCase(http, caller, projectCode, { title: `Case ${index}`, steps: stepList }));
  }
  return cases;
}

export type RunBody = {
  ulid: string;
  name: string;
  state: 'open' | 'closed';
  status: string;
  total: number;
  counts: Record<'passed' | 'failed' | 'blocked' | 'skipped' | 'untested', number>;
  [key: string]: unknown;
};

/** POST /projects/{code}/runs, expecting 201. */
export async function createRun(http: TestAgent, caller: Caller, projectCode: string, body: Record<string, unknown>): Promise<RunBody> {
  const response = await http
    .post(`/api/v1/projects/${projectCode}/runs`)
    .set(caller.headers)
    .send({ name: 'Nightly', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as RunBody;
}

/** POST /projects/{code}/plans, expecting 201. */
export async function createPlan(http: TestAgent, caller: Caller, projectCode: string, body: Record<string, unknown> = {}) {
  const response = await http
    .post(`/api/v1/projects/${projectCode}/plans`)
    .set(caller.headers)
    .send({ name: 'Release plan', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { ulid: string; planNumber: number; name: string; [key: string]: unknown };
}

/** A status of a run case or of one of its steps. */
export type CaseStatus = 'untested' | 'retested' | 'passed' | 'failed' | 'skipped' | 'blocked';

/** One RunCase (contract §3) as REST answers it. */
export type RunCaseBody = {
  ulid: string;
  runUlid: string;
  /** Null once the test case was deleted; the snapshot stays. */
  caseUlid: string | null;
  displayId: string;
  title: string;
  suiteName: string | null;
  position: number;
  status: CaseStatus;
  assigneeUlid: string | null;
  elapsedMs: number | null;
  steps: Array<{
    ulid: string;
    position: number;
    action: string;
    expectedResult: string | null;
    status: CaseStatus;
    actualResult: string | null;
  }>;
  lastResultAt: number | null;
  createdAt: number;
  updatedAt: number;
};

/** Who wrote a result (or a run, a plan, a comment): a user or an API token. */
export type AuthorBody =
  | { kind: 'user'; ulid: string | null; displayName: string | null; avatarKey: string | null }
  | { kind: 'api_token'; ulid: string | null; name: string | null };

/** One result of GET /runs/{runUlid}/results. */
export type ResultBody = {
  ulid: string;
  runUlid: string;
  /** Null once the case was removed from the run. */
  runCaseUlid: string | null;
  /** Null once the test case was deleted. */
  caseUlid: string | null;
  status: CaseStatus;
  elapsedMs: number | null;
  comment: string | null;
  executedAt: number;
  executedByUlid: string | null;
  author: AuthorBody;
  source: 'manual' | 'api' | 'bulk' | 'import';
  /** Which run of an imported test, from 1; 1 when not imported. */
  attempt: number;
  flaky: boolean;
  parameters: Record<string, unknown> | string | null;
};

/** GET /runs/{runUlid}, expecting 200. */
export async function runOf(http: TestAgent, caller: Caller, runUlid: string): Promise<RunBody> {
  const response = await http.get(`/api/v1/runs/${runUlid}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as RunBody;
}

/** The run's cases in position order (the first 200), expecting 200. */
export async function runCasesOf(http: TestAgent, caller: Caller, runUlid: string): Promise<RunCaseBody[]> {
  const response = await http.get(`/api/v1/runs/${runUlid}/cases?pageSize=200`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as RunCaseBody[];
}

/** The run's results, oldest first (the first 200), expecting 200. */
export async function resultsOf(http: TestAgent, caller: Caller, runUlid: string): Promise<ResultBody[]> {
  const response = await http.get(`/api/v1/runs/${runUlid}/results?limit=200`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as ResultBody[];
}

/** PATCH /runs/{runUlid}/cases/{runCaseUlid}; the response is the caller's to check. */
export const patchRunCase = (http: TestAgent, caller: Caller, runUlid: string, runCaseUlid: string, body: Record<string, unknown>) =>
  http.patch(`/api/v1/runs/${runUlid}/cases/${runCaseUlid}`).set(caller.headers).send(body);

/**
 * An owner's new project with `count` cases (`steps` steps each) and a run of them all
 * (`body` adds to or overrides the run's fields), with the run's cases in position order.
 */
export async function runWithCases(http: TestAgent, count: number, steps = 0, body: Record<string, unknown> = {}) {
  const { owner, code } = await ownerWithProject(http);
  const cases = await createCases(http, owner, code, count, steps);
  const run = await createRun(http, owner, code, { caseUlids: cases.map((each) => each.ulid), ...body });
  return { owner, code, cases, run, runCases: await runCasesOf(http, owner, run.ulid) };
}

export type ConfigurationValueBody = { ulid: string; name: string };

/** A configuration group named `name` with `values` in that order, created over REST. */
export async function configurationGroup(http: TestAgent, caller: Caller, projectCode: string, name: string, values: string[]) {
  const group = await http.post(`/api/v1/projects/${projectCode}/configuration-groups`).set(caller.headers).send({ name });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  const created: ConfigurationValueBody[] = [];
  for (const value of values) {
    const response = await http.post(`/api/v1/configuration-groups/${group.body.ulid}/values`).set(caller.headers).send({ name: value });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    created.push(response.body as ConfigurationValueBody);
  }
  return { ulid: group.body.ulid as string, name, values: created };
}

/** The comboKey of a combination of configuration values: their ULIDs, sorted, joined by ':'. */
export const comboKeyOf = (...values: ConfigurationValueBody[]) =>
  values
    .map((value) => value.ulid)
    .sort()
    .join(':');

/** An environment of the project named `name`, expecting 201. */
export async function createEnvironment(http: TestAgent, caller: Caller, projectCode: string, name: string) {
  const response = await http.post(`/api/v1/projects/${projectCode}/environments`).set(caller.headers).send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { ulid: string; name: string; slug: string };
}

/** A custom field of test runs in the caller's organization (`body` names it and its type), expecting 201. */
export async function createRunField(http: TestAgent, caller: Caller, body: Record<string, unknown>) {
  const response = await http
    .post(`/api/v1/orgs/${caller.orgId}/custom-fields`)
    .set(caller.headers)
    .send({ entity: 'test_run', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.field as { ulid: string; options: Array<{ ulid: string; name: string }> };
}

/** The ULID of `value`, the one value of a new configuration group named `group`. */
export async function configurationValue(http: TestAgent, caller: Caller, projectCode: string, group: string, value: string) {
  const created = await configurationGroup(http, caller, projectCode, group, [value]);
  return created.values[0]!.ulid;
}

/** PUT /plans/{planUlid}/cases (the plan's whole selection), expecting 200; answers the selection's items. */
export async function putPlanCases(
  http: TestAgent,
  caller: Caller,
  planUlid: string,
  body: { caseUlids: string[]; caseAssignees?: Array<{ caseUlid: string; assigneeUlid: string | null }> },
) {
  const response = await http.put(`/api/v1/plans/${planUlid}/cases`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as Array<{ ulid: string; caseUlid: string }>;
}
