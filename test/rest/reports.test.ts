import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, createMilestone, createSuite, expectError, joinAs, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { dateDefect, dateRun, ms, submitAt } from '../support/report-data.ts';
import { createCase, createCases, createPlan, createRun, runCasesOf } from '../support/runs.ts';

/** The reports of contract §20 over REST, on history dated at known instants (test/support/report-data.ts). */

const t = useTestApp();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function report(caller: Caller, code: string, name: string, query: Record<string, string | number> = {}) {
  const response = await t.http.get(`/api/v1/projects/${code}/reports/${name}`).query(query).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const zeros = {
  passed: 0,
  failed: 0,
  blocked: 0,
  skipped: 0,
  untested: 0,
  executedCases: 0,
  automated: 0,
  manual: 0,
  runsOpened: 0,
  runsClosed: 0,
};

describe('trend', () => {
  it('counts results per day in the time zone asked for, a DST change included', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner);
    const cases = await createCases(t.http, owner, code, 3);
    const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
    const [first, second, third] = await runCasesOf(t.http, owner, run.ulid);
    await submitAt(t.http, owner, run.ulid, [
      { runCaseUlid: first!.ulid, status: 'passed', at: '2026-03-07T12:00:00Z' },
      // 23:30 on March 7 in New York (EST), March 8 in UTC.
      { runCaseUlid: first!.ulid, status: 'failed', at: '2026-03-08T04:30:00Z' },
      { runCaseUlid: second!.ulid, status: 'blocked', at: '2026-03-08T05:30:00Z' },
    ]);
    // 23:30 on March 8 in New York, already on summer time (EDT, UTC-4); March 9 in UTC.
    await submitAt(t.http, token, run.ulid, [{ runCaseUlid: third!.ulid, status: 'skipped', at: '2026-03-09T03:30:00Z' }]);
    await dateRun(run.ulid, '2026-03-07T10:00:00Z', '2026-03-09T12:00:00Z');

    const newYork = await report(owner, code, 'trend', {
      from: ms('2026-03-07T05:00:00Z'),
      to: ms('2026-03-10T04:00:00Z'),
      timeZone: 'America/New_York',
    });
    expect(newYork).toEqual({
      from: ms('2026-03-07T05:00:00Z'),
      to: ms('2026-03-10T04:00:00Z'),
      bucket: 'day',
      timeZone: 'America/New_York',
      buckets: [
        { ...zeros, start: ms('2026-03-07T05:00:00Z'), passed: 1, failed: 1, passRate: 0.5, executedCases: 1, manual: 2, runsOpened: 1 },
        { ...zeros, start: ms('2026-03-08T05:00:00Z'), blocked: 1, skipped: 1, passRate: 0, executedCases: 2, automated: 1, manual: 1 },
        // Midnight of March 9 is an hour earlier in UTC than the day before's.
        { ...zeros, start: ms('2026-03-09T04:00:00Z'), passRate: null, runsClosed: 1 },
      ],
    });

    const utc = await report(owner, code, 'trend', { from: ms('2026-03-07T00:00:00Z'), to: ms('2026-03-10T00:00:00Z') });
    expect(utc.timeZone).toBe('UTC');
    expect(utc.buckets).toEqual([
      { ...zeros, start: ms('2026-03-07T00:00:00Z'), passed: 1, passRate: 1, executedCases: 1, manual: 1, runsOpened: 1 },
      { ...zeros, start: ms('2026-03-08T00:00:00Z'), failed: 1, blocked: 1, passRate: 0, executedCases: 2, manual: 2 },
      { ...zeros, start: ms('2026-03-09T00:00:00Z'), skipped: 1, passRate: null, executedCases: 1, automated: 1, runsClosed: 1 },
    ]);
  });

  it('buckets by weeks starting on Monday, the first one starting before `from`', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const [only] = await createCases(t.http, owner, code, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: [only!.ulid] });
    const [runCase] = await runCasesOf(t.http, owner, run.ulid);
    await submitAt(t.http, owner, run.ulid, [
      // Sunday 23:30 in Madrid (CEST since 01:00 UTC that day), and Monday 00:30.
      { runCaseUlid: runCase!.ulid, status: 'passed', at: '2026-03-29T21:30:00Z' },
      { runCaseUlid: runCase!.ulid, status: 'failed', at: '2026-03-29T22:30:00Z' },
    ]);
    const window = { from: ms('2026-03-25T00:00:00Z'), to: ms('2026-04-02T00:00:00Z'), bucket: 'week' };

    const madrid = await report(owner, code, 'trend', { ...window, timeZone: 'Europe/Madrid' });
    expect(
      madrid.buckets.map((bucket: { start: number; passed: number; failed: number }) => [bucket.start, bucket.passed, bucket.failed]),
    ).toEqual([
      // Monday March 23 at 00:00 CET, Monday March 30 at 00:00 CEST.
      [ms('2026-03-22T23:00:00Z'), 1, 0],
      [ms('2026-03-29T22:00:00Z'), 0, 1],
    ]);
    const utc = await report(owner, code, 'trend', window);
    expect(
      utc.buckets.map((bucket: { start: number; passed: number; failed: number }) => [bucket.start, bucket.passed, bucket.failed]),
    ).toEqual([
      [ms('2026-03-23T00:00:00Z'), 1, 1],
      [ms('2026-03-30T00:00:00Z'), 0, 0],
    ]);
  });

  it('covers the last 30 days until now by default, every day of them', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const before = Date.now();
    const trend = await report(owner, code, 'trend');
    expect(trend.to).toBeGreaterThanOrEqual(before);
    expect(trend.to - trend.from).toBe(30 * DAY);
    expect(trend.buckets).toHaveLength(trend.from % DAY === 0 ? 30 : 31);
    expect(trend.buckets[0].start).toBeLessThanOrEqual(trend.from);
  });
});

/** A project with a plan of two cases linked to a milestone, a run of the plan, and another run of one case. */
async function planHistory() {
  const { owner, code } = await ownerWithProject(t.http);
  const [one, two] = await createCases(t.http, owner, code, 2);
  const milestone = await createMilestone(t.http, owner, code);
  const plan = await createPlan(t.http, owner, code);
  const selection = await t.http
    .put(`/api/v1/plans/${plan.ulid}/cases`)
    .set(owner.headers)
    .send({ caseUlids: [one!.ulid, two!.ulid] });
  expect(selection.status, JSON.stringify(selection.body)).toBe(200);
  const linked = await t.http.patch(`/api/v1/plans/${plan.ulid}`).set(owner.headers).send({ milestoneId: milestone.ulid });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  const planRun = await createRun(t.http, owner, code, { planUlid: plan.ulid });
  const otherRun = await createRun(t.http, owner, code, { caseUlids: [one!.ulid] });
  const [planFirst, planSecond] = await runCasesOf(t.http, owner, planRun.ulid);
  const [otherFirst] = await runCasesOf(t.http, owner, otherRun.ulid);
  await dateRun(planRun.ulid, '2026-03-01T10:00:00Z');
  await dateRun(otherRun.ulid, '2026-03-01T10:00:00Z');
  const planResults = await submitAt(t.http, owner, planRun.ulid, [
    { runCaseUlid: planFirst!.ulid, status: 'passed', at: '2026-03-02T10:00:00Z' },
    { runCaseUlid: planFirst!.ulid, status: 'failed', at: '2026-03-03T10:00:00Z' },
    { runCaseUlid: planSecond!.ulid, status: 'passed', at: '2026-03-03T11:00:00Z' },
  ]);
  // Every case has a result: the run closed itself.
  await dateRun(planRun.ulid, '2026-03-01T10:00:00Z', '2026-03-03T12:00:00Z');
  const otherResults = await submitAt(t.http, owner, otherRun.ulid, [
    { runCaseUlid: otherFirst!.ulid, status: 'blocked', at: '2026-03-02T12:00:00Z' },
  ]);
  await dateRun(otherRun.ulid, '2026-03-01T10:00:00Z');
  return { owner, code, plan, milestone, planRun, otherRun, planResults, otherResults };
}

const MARCH = { from: ms('2026-03-01T00:00:00Z'), to: ms('2026-03-05T00:00:00Z') };
const runs = (totalRuns: number, closedRuns: number) => ({ totalRuns, closedRuns });
const counts = (fields: Partial<Record<'passed' | 'failed' | 'blocked' | 'skipped' | 'untested', number>>) => ({
  passed: 0,
  failed: 0,
  blocked: 0,
  skipped: 0,
  untested: 0,
  ...fields,
});

describe('burn-up', () => {
  it("answers a plan's progress counts as they stood at the end of each bucket", async () => {
    const { owner, code, plan, milestone, otherRun } = await planHistory();
    const planPoints = [
      { start: ms('2026-03-01T00:00:00Z'), end: ms('2026-03-02T00:00:00Z'), ...runs(1, 0), ...counts({ untested: 2 }) },
      { start: ms('2026-03-02T00:00:00Z'), end: ms('2026-03-03T00:00:00Z'), ...runs(1, 0), ...counts({ passed: 1, untested: 1 }) },
      { start: ms('2026-03-03T00:00:00Z'), end: ms('2026-03-04T00:00:00Z'), ...runs(1, 1), ...counts({ passed: 1, failed: 1 }) },
      { start: ms('2026-03-04T00:00:00Z'), end: ms('2026-03-05T00:00:00Z'), ...runs(1, 1), ...counts({ passed: 1, failed: 1 }) },
    ];
    expect((await report(owner, code, 'burn-up', { ...MARCH, planUlid: plan.ulid })).points).toEqual(planPoints);
    // The milestone's runs are those of its plan here.
    expect((await report(owner, code, 'burn-up', { ...MARCH, milestoneId: milestone.ulid })).points).toEqual(planPoints);
    expect((await report(owner, code, 'burn-up', { ...MARCH, runUlids: otherRun.ulid })).points).toEqual([
      { start: ms('2026-03-01T00:00:00Z'), end: ms('2026-03-02T00:00:00Z'), ...runs(1, 0), ...counts({ untested: 1 }) },
      { start: ms('2026-03-02T00:00:00Z'), end: ms('2026-03-03T00:00:00Z'), ...runs(1, 0), ...counts({ blocked: 1 }) },
      { start: ms('2026-03-03T00:00:00Z'), end: ms('2026-03-04T00:00:00Z'), ...runs(1, 0), ...counts({ blocked: 1 }) },
      { start: ms('2026-03-04T00:00:00Z'), end: ms('2026-03-05T00:00:00Z'), ...runs(1, 0), ...counts({ blocked: 1 }) },
    ]);
    const project = await report(owner, code, 'burn-up', MARCH);
    expect(project.points[1]).toMatchObject({ ...runs(2, 0), ...counts({ passed: 1, blocked: 1, untested: 1 }) });

    // A window ending within a day ends its last point there.
    const morning = await report(owner, code, 'burn-up', { from: MARCH.from, to: ms('2026-03-03T10:30:00Z'), planUlid: plan.ulid });
    expect(morning.points.at(-1)).toEqual({
      start: ms('2026-03-03T00:00:00Z'),
      end: ms('2026-03-03T10:30:00Z'),
      ...runs(1, 0),
      ...counts({ failed: 1, untested: 1 }),
    });
  });

  it('is narrowed the same way for the trend, and a narrowing that names nothing of the project counts nothing', async () => {
    const { owner, code, plan, otherRun } = await planHistory();
    const planTrend = await report(owner, code, 'trend', { ...MARCH, planUlid: plan.ulid });
    expect(
      planTrend.buckets.map((bucket: { passed: number; failed: number; blocked: number }) => [
        bucket.passed,
        bucket.failed,
        bucket.blocked,
      ]),
    ).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 0],
    ]);
    const both = await report(owner, code, 'trend', { ...MARCH, planUlid: plan.ulid, runUlids: otherRun.ulid });
    expect(both.buckets.every((bucket: { passed: number; blocked: number }) => bucket.passed + bucket.blocked === 0)).toBe(true);
    const elsewhere = await ownerWithProject(t.http);
    const foreign = await report(owner, code, 'trend', { ...MARCH, runUlids: `${otherRun.ulid},${elsewhere.project.ulid}` });
    expect(foreign.buckets[1]).toMatchObject({ blocked: 1, runsOpened: 0 });
  });
});

describe('failing and slowest', () => {
  it('rank the active cases of the last days by failures, or by the 95th percentile of their elapsed time', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const root = await createSuite(t.http, owner, code, { name: 'Root' });
    const child = await createSuite(t.http, owner, code, { name: 'Child', parentUlid: root.ulid });
    const flaky = await createCase(t.http, owner, code, { title: 'Flaky', suiteUlid: child.ulid });
    const broken = await createCase(t.http, owner, code, { title: 'Broken', suiteUlid: root.ulid });
    const steady = await createCase(t.http, owner, code, { title: 'Steady' });
    const run = await createRun(t.http, owner, code, { caseUlids: [flaky.ulid, broken.ulid, steady.ulid] });
    const [a, b, c] = await runCasesOf(t.http, owner, run.ulid);
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    await submitAt(t.http, owner, run.ulid, [
      { runCaseUlid: a!.ulid, status: 'failed', elapsedMs: 100, comment: 'first', at: ago(3 * HOUR) },
      { runCaseUlid: a!.ulid, status: 'passed', elapsedMs: 300, at: ago(2 * HOUR) },
      { runCaseUlid: a!.ulid, status: 'failed', elapsedMs: 200, comment: 'boom', at: ago(HOUR) },
      { runCaseUlid: b!.ulid, status: 'failed', elapsedMs: 1000, comment: 'B'.repeat(600), at: ago(2 * HOUR) },
      { runCaseUlid: c!.ulid, status: 'passed', elapsedMs: 50, at: ago(40 * DAY) },
      { runCaseUlid: c!.ulid, status: 'passed', elapsedMs: 60, at: ago(HOUR) },
    ]);
    const flakyStats = {
      caseUlid: flaky.ulid,
      displayId: flaky.displayId,
      title: 'Flaky',
      suitePath: ['Root', 'Child'],
      results: 3,
      failures: 2,
      failureRate: 2 / 3,
      lastFailureMessage: 'boom',
      p50ElapsedMs: 200,
      p95ElapsedMs: 300,
    };
    const brokenStats = {
      caseUlid: broken.ulid,
      displayId: broken.displayId,
      title: 'Broken',
      suitePath: ['Root'],
      results: 1,
      failures: 1,
      failureRate: 1,
      lastFailureMessage: 'B'.repeat(500),
      p50ElapsedMs: 1000,
      p95ElapsedMs: 1000,
    };
    const steadyStats = {
      caseUlid: steady.ulid,
      displayId: steady.displayId,
      title: 'Steady',
      suitePath: [],
      results: 1,
      failures: 0,
      failureRate: 0,
      lastFailureMessage: null,
      p50ElapsedMs: 60,
      p95ElapsedMs: 60,
    };
    expect(await report(owner, code, 'failing')).toEqual({ items: [flakyStats, brokenStats], page: 1, pageSize: 50, total: 2 });
    expect(await report(owner, code, 'slowest')).toEqual({
      items: [brokenStats, flakyStats, steadyStats],
      page: 1,
      pageSize: 50,
      total: 3,
    });
    expect((await report(owner, code, 'failing', { pageSize: 1, page: 2 })).items).toEqual([brokenStats]);
    expect(await report(owner, code, 'failing', { page: 3, pageSize: 1 })).toEqual({ items: [], page: 3, pageSize: 1, total: 2 });

    const longer = await report(owner, code, 'slowest', { limit: 60 });
    expect(longer.items[2]).toMatchObject({ caseUlid: steady.ulid, results: 2, p50ElapsedMs: 50, p95ElapsedMs: 60 });

    const lastOnly = await report(owner, code, 'failing', { lastResults: 1 });
    expect(
      lastOnly.items.map((item: { caseUlid: string; failures: number; failureRate: number }) => [
        item.caseUlid,
        item.failures,
        item.failureRate,
      ]),
    ).toEqual([
      [flaky.ulid, 1, 1],
      [broken.ulid, 1, 1],
    ]);
    const lastTwo = await report(owner, code, 'slowest', { lastResults: 2 });
    expect(lastTwo.items.map((item: { caseUlid: string; p95ElapsedMs: number }) => [item.caseUlid, item.p95ElapsedMs])).toEqual([
      [broken.ulid, 1000],
      [flaky.ulid, 300],
      [steady.ulid, 60],
    ]);

    const archived = await t.http.post(`/api/v1/test-cases/${broken.ulid}/archive`).set(owner.headers);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect((await report(owner, code, 'failing')).items).toEqual([flakyStats]);
  });
});

describe('coverage', () => {
  it('counts per suite the cases never executed, not executed since `since`, and without an automation key', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const root = await createSuite(t.http, owner, code, { name: 'Root' });
    const child = await createSuite(t.http, owner, code, { name: 'Child', parentUlid: root.ulid });
    const recent = await createCase(t.http, owner, code, { title: 'Recent', suiteUlid: child.ulid });
    const stale = await createCase(t.http, owner, code, { title: 'Stale', suiteUlid: child.ulid });
    await createCase(t.http, owner, code, { title: 'Never', suiteUlid: child.ulid });
    await createCase(t.http, owner, code, { title: 'Loose', automationKey: 'loose.test' });
    const gone = await createCase(t.http, owner, code, { title: 'Gone', suiteUlid: root.ulid });
    expect((await t.http.post(`/api/v1/test-cases/${gone.ulid}/archive`).set(owner.headers)).status).toBe(200);
    const run = await createRun(t.http, owner, code, { caseUlids: [recent.ulid, stale.ulid] });
    const [first, second] = await runCasesOf(t.http, owner, run.ulid);
    await submitAt(t.http, owner, run.ulid, [
      { runCaseUlid: first!.ulid, status: 'passed', at: new Date(Date.now() - HOUR).toISOString() },
      { runCaseUlid: second!.ulid, status: 'failed', at: new Date(Date.now() - 40 * DAY).toISOString() },
    ]);
    const childSuite = { ulid: child.ulid, displayId: `${code}-S2`, path: ['Root', 'Child'] };

    const coverage = await report(owner, code, 'coverage');
    expect(Date.now() - coverage.since).toBeGreaterThanOrEqual(30 * DAY);
    expect(coverage).toMatchObject({
      totals: { cases: 4, neverExecuted: 2, notExecutedSince: 3, withoutAutomationKey: 3 },
      items: [
        { suite: childSuite, cases: 3, neverExecuted: 1, notExecutedSince: 2, withoutAutomationKey: 3 },
        { suite: null, cases: 1, neverExecuted: 1, notExecutedSince: 1, withoutAutomationKey: 0 },
      ],
      page: 1,
      pageSize: 50,
      total: 2,
    });
    const since = Date.now() - 60 * DAY;
    const longer = await report(owner, code, 'coverage', { since, pageSize: 1 });
    expect(longer).toMatchObject({
      since,
      items: [{ suite: childSuite, cases: 3, neverExecuted: 1, notExecutedSince: 1 }],
      total: 2,
      totals: { notExecutedSince: 2 },
    });
    // Executed means executed in the runs of the scope.
    const planless = await createPlan(t.http, owner, code);
    expect((await report(owner, code, 'coverage', { planUlid: planless.ulid })).totals).toEqual({
      cases: 4,
      neverExecuted: 4,
      notExecutedSince: 4,
      withoutAutomationKey: 3,
    });
  });
});

describe('defects', () => {
  it('counts defects opened and resolved per bucket, and those open at the end of each', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const createDefect = async (title: string) => {
      const response = await t.http.post(`/api/v1/projects/${code}/defects`).set(owner.headers).send({ title });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.ulid as string;
    };
    const setStatus = async (defectUlid: string, status: string) => {
      const response = await t.http.patch(`/api/v1/defects/${defectUlid}`).set(owner.headers).send({ status });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };
    const resolvedOnce = await createDefect('Resolved once');
    const reopened = await createDefect('Reopened');
    const older = await createDefect('Older');
    await setStatus(resolvedOnce, 'resolved');
    for (const status of ['in_progress', 'closed', 'open']) await setStatus(reopened, status);
    // A title change is no status change.
    const renamed = await t.http.patch(`/api/v1/defects/${older}`).set(owner.headers).send({ title: 'Older, renamed' });
    expect(renamed.status).toBe(200);
    await dateDefect(resolvedOnce, '2026-03-02T10:00:00Z', ['2026-03-03T10:00:00Z']);
    await dateDefect(reopened, '2026-03-01T10:00:00Z', ['2026-03-02T09:00:00Z', '2026-03-03T09:00:00Z', '2026-03-04T09:00:00Z']);
    await dateDefect(older, '2026-02-20T10:00:00Z', ['2026-03-02T09:00:00Z']);

    expect((await report(owner, code, 'defects', MARCH)).buckets).toEqual([
      { start: ms('2026-03-01T00:00:00Z'), opened: 1, resolved: 0, open: 2 },
      { start: ms('2026-03-02T00:00:00Z'), opened: 1, resolved: 0, open: 3 },
      { start: ms('2026-03-03T00:00:00Z'), opened: 0, resolved: 2, open: 1 },
      { start: ms('2026-03-04T00:00:00Z'), opened: 0, resolved: 0, open: 2 },
    ]);

    // Narrowed to runs, only the defects linked to their results count.
    const [only] = await createCases(t.http, owner, code, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: [only!.ulid] });
    const [runCase] = await runCasesOf(t.http, owner, run.ulid);
    const [result] = await submitAt(t.http, owner, run.ulid, [
      { runCaseUlid: runCase!.ulid, status: 'failed', at: '2026-03-02T08:00:00Z' },
    ]);
    const link = await t.http.post(`/api/v1/defects/${resolvedOnce}/links`).set(owner.headers).send({ resultUlid: result });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect((await report(owner, code, 'defects', { ...MARCH, runUlids: run.ulid })).buckets).toEqual([
      { start: ms('2026-03-01T00:00:00Z'), opened: 0, resolved: 0, open: 0 },
      { start: ms('2026-03-02T00:00:00Z'), opened: 1, resolved: 0, open: 1 },
      { start: ms('2026-03-03T00:00:00Z'), opened: 0, resolved: 1, open: 0 },
      { start: ms('2026-03-04T00:00:00Z'), opened: 0, resolved: 0, open: 0 },
    ]);
  });
});

describe('bad queries', () => {
  it.each([
    ['trend', { bucket: 'month' }, 'bucket'],
    ['trend', { timeZone: 'Mars/Olympus' }, 'timeZone'],
    ['burn-up', { timeZone: 'america/new_york' }, 'timeZone'],
    ['defects', { from: ms('2026-03-02T00:00:00Z'), to: ms('2026-03-02T00:00:00Z') }, 'from'],
    ['trend', { from: ms('2026-03-02T00:00:00Z'), to: ms('2026-03-01T00:00:00Z') }, 'from'],
    ['trend', { from: ms('2025-01-01T00:00:00Z'), to: ms('2025-01-01T00:00:00Z') + 367 * DAY }, 'from'],
    ['trend', { to: ms('2025-01-01T00:00:00Z') + 367 * DAY, from: 'yesterday' }, 'from'],
    ['trend', { from: Date.now() + DAY }, 'from'],
    ['trend', { runUlids: 'not-a-run' }, 'runUlids'],
    ['burn-up', { planUlid: 'P-1' }, 'planUlid'],
    ['failing', { limit: 0 }, 'limit'],
    ['slowest', { lastResults: 101 }, 'lastResults'],
    ['coverage', { since: -1 }, 'since'],
    ['coverage', { page: 0 }, 'page'],
  ] as const)('%s with %j answers 422 validation_failed at %s', async (name, query, field) => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await t.http.get(`/api/v1/projects/${code}/reports/${name}`).query(query).set(owner.headers);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path[0]).toBe(field);
  });

  it('takes a window of exactly 366 days, one bucket per day', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const from = ms('2025-01-01T00:00:00Z');
    expect((await report(owner, code, 'trend', { from, to: from + 366 * DAY })).buckets).toHaveLength(366);
  });
});

describe('access', () => {
  const NAMES = ['trend', 'burn-up', 'failing', 'slowest', 'coverage', 'defects'];

  it("answers 404 for another organization's project and for a private project off the caller's allowlist", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const stranger = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    for (const name of NAMES) {
      expectError(await t.http.get(`/api/v1/projects/${code}/reports/${name}`).set(stranger.owner.headers), 404, 'not_found');
      expect((await t.http.get(`/api/v1/projects/${code}/reports/${name}`).set(viewer.headers)).status).toBe(200);
    }
    const privately = await t.http.patch(`/api/v1/projects/${code}/access`).set(owner.headers).send({ mode: 'private' });
    expect(privately.status, JSON.stringify(privately.body)).toBe(200);
    for (const name of NAMES) {
      expectError(await t.http.get(`/api/v1/projects/${code}/reports/${name}`).set(member.headers), 404, 'not_found');
      expect((await t.http.get(`/api/v1/projects/${code}/reports/${name}`).set(owner.headers)).status).toBe(200);
    }
  });

  it('answers 403 project_locked for a locked project', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    await prisma().project.update({ where: { id: project.ulid }, data: { lockedAt: new Date() } });
    for (const name of NAMES) {
      expectError(await t.http.get(`/api/v1/projects/${code}/reports/${name}`).set(owner.headers), 403, 'project_locked');
    }
  });
});
