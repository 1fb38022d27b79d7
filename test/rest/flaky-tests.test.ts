import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, expectError, graphql, joinAs, ownerWithProject, projectCode, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { type CaseBody, createCase, createRun, runCasesOf } from '../support/runs.ts';

/** GET /projects/{code}/flaky-tests and Project.flakyTests over results of twelve runs. */

const t = useTestApp();

const P = 'passed';
const F = 'failed';
const S = 'skipped';
const B = 'blocked';
const RUNS = 12;
/** The status each case gets in run 1 … 12 (oldest first). */
const SEQUENCES = {
  flipper: Array.from({ length: RUNS }, (_, index) => (index % 2 === 0 ? P : F)),
  steady: [P, P, P, P, P, P, F, F, F, F, F, F],
  // Passed/failed only: P F P F P P F — skipped and blocked are no verdict and are left out.
  noisy: [P, S, F, B, P, F, S, S, P, P, B, F],
  flagged: Array.from({ length: RUNS }, () => P),
  archived: Array.from({ length: RUNS }, (_, index) => (index % 2 === 0 ? P : F)),
};
type Name = keyof typeof SEQUENCES;

let owner: Caller;
let code: string;
const cases = {} as Record<Name, CaseBody>;
const runs: Array<{ ulid: string; name: string }> = [];

type Item = {
  caseUlid: string;
  displayId: string;
  title: string;
  flips: number;
  flakyRate: number;
  resultsInWindow: number;
  flaggedFlaky: number;
  lastResults: Array<{ resultUlid: string; runUlid: string; status: string; executedAt: number; flaky: boolean }>;
  runs: Array<{ ulid: string; name: string }>;
};

const flaky = (query: Record<string, string | number | undefined> = {}, caller = owner, project = code) =>
  t.http.get(`/api/v1/projects/${project}/flaky-tests`).query(query).set(caller.headers);

const namesOf = (items: Item[]) => items.map((item) => (Object.keys(cases) as Name[]).find((name) => cases[name].ulid === item.caseUlid));

beforeAll(async () => {
  ({ owner, code } = await ownerWithProject(t.http));
  for (const name of Object.keys(SEQUENCES) as Name[]) cases[name] = await createCase(t.http, owner, code, { title: name });
  for (let index = 0; index < RUNS; index++) {
    const run = await createRun(t.http, owner, code, {
      name: `Build ${index + 1}`,
      caseUlids: Object.values(cases).map((each) => each.ulid),
    });
    runs.push({ ulid: run.ulid, name: run.name });
    const runCases = await runCasesOf(t.http, owner, run.ulid);
    const results = (Object.keys(SEQUENCES) as Name[]).map((name) => ({
      runCaseUlid: runCases.find((runCase) => runCase.caseUlid === cases[name].ulid)!.ulid,
      status: SEQUENCES[name][index],
    }));
    const submitted = await t.http.post(`/api/v1/runs/${run.ulid}/results/bulk`).set(owner.headers).send({ results });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  }
  // The importer (built elsewhere) flags results flaky; here the oldest result of one case is flagged directly.
  const oldest = await prisma().testRunResult.findFirstOrThrow({ where: { caseId: cases.flagged.ulid, runId: runs[0]!.ulid } });
  await prisma().testRunResult.update({ where: { id: oldest.id }, data: { flaky: true } });
  await t.http.post(`/api/v1/test-cases/${cases.archived.ulid}/archive`).set(owner.headers).expect(200);
});

describe('flaky tests', () => {
  it('lists active cases with at least 3 flips in their 20 latest verdicts, or a flaky flag, most flips first', async () => {
    const response = await flaky();
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    const items = response.body.items as Item[];
    expect(namesOf(items)).toEqual(['flipper', 'noisy', 'flagged']);
    expect(items.map(({ flips, resultsInWindow, flaggedFlaky }) => ({ flips, resultsInWindow, flaggedFlaky }))).toEqual([
      { flips: 11, resultsInWindow: 12, flaggedFlaky: 0 },
      { flips: 5, resultsInWindow: 7, flaggedFlaky: 0 },
      { flips: 0, resultsInWindow: 12, flaggedFlaky: 1 },
    ]);
    expect(items.map((item) => item.flakyRate)).toEqual([1, 5 / 6, 0]);

    const [flipper] = items;
    expect(flipper).toMatchObject({ caseUlid: cases.flipper.ulid, displayId: cases.flipper.displayId, title: 'flipper' });
    // The 10 latest results, most recent first; every run of the window, most recent first.
    expect(flipper!.lastResults).toHaveLength(10);
    expect(flipper!.lastResults.map((result) => result.runUlid)).toEqual(
      runs
        .slice(2)
        .reverse()
        .map((run) => run.ulid),
    );
    expect(flipper!.lastResults.map((result) => result.status)).toEqual([F, P, F, P, F, P, F, P, F, P]);
    const times = flipper!.lastResults.map((result) => result.executedAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(flipper!.lastResults.every((result) => result.flaky === false && result.resultUlid.length === 26)).toBe(true);
    expect(flipper!.runs).toEqual([...runs].reverse());
  });

  it('looks only at the window, takes minFlips, and pages', async () => {
    const windowed = await flaky({ window: 5, minFlips: 1 });
    expect(windowed.status, JSON.stringify(windowed.body)).toBe(200);
    // steady: F F F F F in the window; flagged: its flagged result is older than the window.
    expect(namesOf(windowed.body.items)).toEqual(['flipper', 'noisy']);
    expect((windowed.body.items as Item[]).map((item) => [item.flips, item.resultsInWindow])).toEqual([
      [4, 5],
      [3, 5],
    ]);
    expect((windowed.body.items as Item[])[1]!.runs.map((run) => run.name)).toEqual([
      'Build 12',
      'Build 10',
      'Build 9',
      'Build 6',
      'Build 5',
    ]);

    const lenient = await flaky({ minFlips: 1 });
    expect(namesOf(lenient.body.items)).toEqual(['flipper', 'noisy', 'steady', 'flagged']);

    const second = await flaky({ minFlips: 1, pageSize: 2, page: 2 });
    expect(second.body).toMatchObject({ page: 2, pageSize: 2, total: 4 });
    expect(namesOf(second.body.items)).toEqual(['steady', 'flagged']);
    const beyond = await flaky({ page: 9 });
    expect(beyond.body).toMatchObject({ items: [], page: 9, total: 3 });
  });

  it('refuses a window or minFlips out of bounds (422) and an unknown project (404); a viewer reads it', async () => {
    for (const query of [{ window: 4 }, { window: 101 }, { minFlips: 0 }, { window: 5, minFlips: 5 }, { minFlips: 20 }, { window: 'x' }]) {
      expectError(await flaky(query), 422, 'validation_failed');
    }
    expect((await flaky({ window: 5, minFlips: 4 })).status).toBe(200);
    expectError(await flaky({}, owner, projectCode()), 404, 'not_found');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await flaky({}, viewer)).body.total).toBe(3);
    const stranger = await ownerWithProject(t.http);
    expectError(await flaky({}, stranger.owner), 404, 'not_found');
    expect((await flaky({}, stranger.owner, stranger.code)).body).toEqual({ items: [], page: 1, pageSize: 50, total: 0 });
  });
});

describe('Project.flakyTests in GraphQL', () => {
  const QUERY = `query($code: String!, $window: Int, $minFlips: Int, $page: Int, $pageSize: Int) {
    project(code: $code) {
      flakyTests(window: $window, minFlips: $minFlips, page: $page, pageSize: $pageSize) {
        page pageSize total
        items {
          caseUlid displayId title flips flakyRate resultsInWindow flaggedFlaky
          lastResults { resultUlid runUlid status executedAt flaky }
          runs { ulid name }
        }
      }
    }
  }`;

  it('answers what REST answers', async () => {
    for (const args of [{}, { window: 5, minFlips: 1 }, { minFlips: 1, page: 2, pageSize: 2 }]) {
      const rest = await flaky(args);
      const data = dataOf(await graphql(t.http, owner, QUERY, { code, ...args }));
      expect(data.project.flakyTests).toEqual(rest.body);
    }
  });

  it('refuses a window out of bounds', async () => {
    const response = await graphql(t.http, owner, QUERY, { code, window: 200 });
    expect(response.body.errors[0].extensions.code).toBe('validation_failed');
  });
});
