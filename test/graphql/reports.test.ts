import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { type Caller, createMilestone, createProject, graphql, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';
import { dateRun, submitAt } from '../support/report-data.ts';
import { createCases, createPlan, createRun, runCasesOf } from '../support/runs.ts';
import { recordStatements } from '../support/statements.ts';

/** The reports of contract §20 in GraphQL: the same services as REST, batched across a response. */

const t = useTestApp();

const DAY = 86_400_000;
/** Midnight UTC ten days ago: the history is recent, so that failing, slowest and coverage (the last days) see it too. */
const BASE = Math.floor(Date.now() / DAY) * DAY - 10 * DAY;
const at = (days: number, hours: number) => new Date(BASE + days * DAY + hours * 3_600_000).toISOString();
const WINDOW = { from: BASE, to: BASE + 4 * DAY };

async function rest(caller: Caller, code: string, name: string, query: Record<string, string | number>) {
  const response = await t.http.get(`/api/v1/projects/${code}/reports/${name}`).query(query).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const TREND = `trend(from: $from, to: $to, timeZone: "Europe/Madrid") {
  from to bucket timeZone
  buckets { start passed failed blocked skipped untested passRate executedCases automated manual runsOpened runsClosed }
}`;
const BURN_UP = `burnUp(from: $from, to: $to) {
  from to bucket timeZone points { start end totalRuns closedRuns passed failed blocked skipped untested }
}`;
const DEFECTS = 'defects(from: $from, to: $to) { buckets { start opened resolved open } }';
const CASE_STATS =
  'page pageSize total items { caseUlid displayId title suitePath results failures failureRate lastFailureMessage p50ElapsedMs p95ElapsedMs }';
const COVERAGE = `coverage { since page pageSize total
  totals { cases neverExecuted notExecutedSince withoutAutomationKey }
  items { suite { ulid displayId path } cases neverExecuted notExecutedSince withoutAutomationKey }
}`;
const ALL_REPORTS = `${TREND} ${BURN_UP} ${DEFECTS} failing { ${CASE_STATS} } slowest { ${CASE_STATS} } ${COVERAGE}`;

/** A project of `owner` with a run of two cases marked in the window, and a defect. */
async function projectWithHistory(owner: Caller) {
  const project = await createProject(t.http, owner);
  const cases = await createCases(t.http, owner, project.id, 2);
  const run = await createRun(t.http, owner, project.id, { caseUlids: cases.map((each) => each.ulid) });
  const [first, second] = await runCasesOf(t.http, owner, run.ulid);
  await dateRun(run.ulid, at(0, 10));
  await submitAt(t.http, owner, run.ulid, [
    { runCaseUlid: first!.ulid, status: 'failed', elapsedMs: 40, comment: 'red', at: at(1, 10) },
    { runCaseUlid: second!.ulid, status: 'passed', elapsedMs: 20, at: at(2, 10) },
  ]);
  const defect = await t.http.post(`/api/v1/projects/${project.id}/defects`).set(owner.headers).send({ title: 'Red' });
  expect(defect.status, JSON.stringify(defect.body)).toBe(201);
  return project;
}

describe('Project.reports', () => {
  it('answers what REST answers, each report', async () => {
    const owner = await signUp(t.http);
    const project = await projectWithHistory(owner);
    const data = dataOf(
      await graphql(
        t.http,
        owner,
        `query ($code: String!, $from: Timestamp, $to: Timestamp) { project(code: $code) { reports { ${ALL_REPORTS} } } }`,
        {
          code: project.id,
          ...WINDOW,
        },
      ),
    );
    const { reports } = data.project;
    expect(reports.trend).toEqual(await rest(owner, project.id, 'trend', { ...WINDOW, timeZone: 'Europe/Madrid' }));
    expect(reports.trend.buckets.map((bucket: { failed: number; passed: number }) => [bucket.failed, bucket.passed])).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [0, 0],
      // The window ends at midnight UTC, already the next day in Madrid: a bucket of its own there.
      [0, 0],
    ]);
    expect(reports.burnUp).toEqual(await rest(owner, project.id, 'burn-up', WINDOW));
    expect(reports.defects.buckets).toEqual((await rest(owner, project.id, 'defects', WINDOW)).buckets);
    expect(reports.failing).toEqual(await rest(owner, project.id, 'failing', {}));
    expect(reports.failing.total).toBe(1);
    expect(reports.slowest).toEqual(await rest(owner, project.id, 'slowest', {}));
    expect(reports.slowest.total).toBe(2);
    const coverage = await rest(owner, project.id, 'coverage', {});
    expect({ ...reports.coverage, since: undefined }).toEqual({ ...coverage, since: undefined });
  });

  it('answers the reports of a plan and of a milestone as the project narrowed to them', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const [one, two] = await createCases(t.http, owner, project.id, 2);
    const milestone = await createMilestone(t.http, owner, project.id);
    const plan = await createPlan(t.http, owner, project.id);
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .send({ caseUlids: [one!.ulid, two!.ulid] });
    const planRun = await createRun(t.http, owner, project.id, { planUlid: plan.ulid });
    const milestoneRun = await createRun(t.http, owner, project.id, { caseUlids: [one!.ulid], milestoneId: milestone.ulid });
    for (const run of [planRun, milestoneRun]) await dateRun(run.ulid, at(0, 10));
    const [planCase] = await runCasesOf(t.http, owner, planRun.ulid);
    const [milestoneCase] = await runCasesOf(t.http, owner, milestoneRun.ulid);
    await submitAt(t.http, owner, planRun.ulid, [{ runCaseUlid: planCase!.ulid, status: 'passed', at: at(1, 10) }]);
    await submitAt(t.http, owner, milestoneRun.ulid, [{ runCaseUlid: milestoneCase!.ulid, status: 'skipped', at: at(1, 11) }]);

    const data = dataOf(
      await graphql(
        t.http,
        owner,
        `query ($plan: String!, $milestone: String!, $from: Timestamp, $to: Timestamp) {
          plan(ulid: $plan) { reports { ${BURN_UP} ${TREND} } }
          milestone(ulid: $milestone) { reports { ${BURN_UP} ${TREND} } }
        }`,
        { plan: plan.ulid, milestone: milestone.ulid, ...WINDOW },
      ),
    );
    expect(data.plan.reports.burnUp).toEqual(await rest(owner, project.id, 'burn-up', { ...WINDOW, planUlid: plan.ulid }));
    expect(data.plan.reports.burnUp.points[1]).toMatchObject({ passed: 1, untested: 1 });
    expect(data.plan.reports.trend).toEqual(
      await rest(owner, project.id, 'trend', { ...WINDOW, planUlid: plan.ulid, timeZone: 'Europe/Madrid' }),
    );
    expect(data.milestone.reports.burnUp).toEqual(await rest(owner, project.id, 'burn-up', { ...WINDOW, milestoneId: milestone.ulid }));
    expect(data.milestone.reports.burnUp.points[1]).toMatchObject({ skipped: 1, passed: 0 });
  });

  it('costs the same number of statements for 50 projects as for 1', async () => {
    const few = await signUp(t.http);
    const many = await signUp(t.http);
    await overrideOrganizationLimits(many.orgId, { maxProjects: 50 });
    await projectWithHistory(few);
    // Three with history, the rest without: each is one more scope of the same statements.
    for (let index = 0; index < 3; index++) await projectWithHistory(many);
    for (let index = 3; index < 50; index++) await createProject(t.http, many);
    const query = `query ($from: Timestamp, $to: Timestamp) { projects(first: 50) { edges { node { code reports { ${ALL_REPORTS} } } } } }`;
    const measure = (caller: Caller) => recordStatements(async () => dataOf(await graphql(t.http, caller, query, WINDOW)));
    const small = await measure(few);
    const large = await measure(many);
    expect(small.result.projects.edges).toHaveLength(1);
    expect(large.result.projects.edges).toHaveLength(50);
    const withHistory = large.result.projects.edges.filter(
      ({ node }: { node: { reports: { failing: { total: number } } } }) => node.reports.failing.total > 0,
    );
    expect(withHistory).toHaveLength(3);
    for (const { node } of withHistory) {
      expect(node.reports).toMatchObject({ failing: { total: 1 }, slowest: { total: 2 }, coverage: { totals: { cases: 2 } } });
      expect(node.reports.burnUp.points.at(-1)).toMatchObject({ totalRuns: 1, passed: 1, failed: 1 });
    }
    expect(large.statements.length, large.statements.join('\n')).toBe(small.statements.length);
  });

  it('refuses a bad window, bucket or time zone as validation_failed', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const windows = [{ bucket: 'hour' }, { timeZone: 'Nowhere/Land' }, { from: 10, to: 5 }, { from: 0, to: 367 * DAY }];
    for (const window of windows) {
      const response = await graphql(
        t.http,
        owner,
        `query ($code: String!, $from: Timestamp, $to: Timestamp, $bucket: String, $timeZone: String) {
          project(code: $code) { reports { trend(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) { bucket } } }
        }`,
        { code: project.id, ...window },
      );
      expect(codeOf(response), JSON.stringify(window)).toBe('validation_failed');
    }
    const badRuns = await graphql(
      t.http,
      owner,
      `query ($code: String!) { project(code: $code) { reports(runUlids: ["x"]) { failing { total } } } }`,
      {
        code: project.id,
      },
    );
    expect(codeOf(badRuns)).toBe('validation_failed');
  });
});
