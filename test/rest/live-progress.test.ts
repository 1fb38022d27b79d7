import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { grant, setAccessMode } from '../support/access-fixtures.ts';
import { type Caller, createProject, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { openStreamsGauge, progressOf, until, useListeningApp } from '../support/event-streams.ts';
import { createCases, createPlan, createRun, patchRunCase, putPlanCases, runOf, runWithCases } from '../support/runs.ts';

const t = useTestApp({ TCMS_SSE_KEEPALIVE_MS: '100' });
const live = useListeningApp(t);

type RunProgress = {
  runUlid: string;
  state: string;
  counts: Record<string, number>;
  total: number;
  passRate: number;
  lastResultAt: number | null;
};
type PlanProgress = { totalRuns: number; closedRuns: number; counts: Record<string, number>; byConfiguration: unknown[] };

const runEvents = (caller: Caller, runUlid: string, headers: Record<string, string> = {}) =>
  live.open(`/api/v1/runs/${runUlid}/events`, { headers: { ...caller.headers, ...headers } });

const expectNotFound = (stream: { status: number; errorBody?: unknown }) => {
  expect(stream.status).toBe(404);
  expect(stream.errorBody).toMatchObject({ error: { code: 'not_found' } });
};

/** A JUnit report of `count` skipped tests: its import is a run of `count` new cases. */
const skippedReport = (count: number) =>
  `<testsuites><testsuite name="bulk" tests="${count}">${Array.from(
    { length: count },
    (_, index) => `<testcase classname="bulk" name="case ${index}"><skipped/></testcase>`,
  ).join('')}</testsuite></testsuites>`;

describe('GET /api/v1/runs/{runUlid}/events', () => {
  it('starts with the counts of the run response and sends the new counts after a mark', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 3);
    const stream = await runEvents(owner, run.ulid, { 'Last-Event-ID': '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');

    const first = await stream.nextEvent();
    expect(first.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(progressOf<RunProgress>(first)).toEqual({
      runUlid: run.ulid,
      state: 'open',
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 3 },
      total: 3,
      passRate: 0,
      lastResultAt: null,
    });

    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' })).status).toBe(200);
    const after = await runOf(t.http, owner, run.ulid);
    const second = await stream.nextEvent();
    expect(second.id! > first.id!).toBe(true);
    expect(progressOf<RunProgress>(second)).toEqual({
      runUlid: run.ulid,
      state: 'open',
      counts: after.counts,
      total: 3,
      passRate: after.passRate,
      lastResultAt: after.lastResultAt,
    });
    expect(after.counts).toMatchObject({ passed: 1, untested: 2 });
  });

  it('sends a bulk mark of 500 cases as one event', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const imported = await t.http
      .post(`/api/v1/projects/${code}/result-imports`)
      .set(owner.headers)
      .set('Content-Type', 'application/xml')
      .send(skippedReport(500));
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const runUlid = imported.body.runUlid as string;
    const runCases = await prisma().testRunCase.findMany({ where: { runId: runUlid }, select: { id: true } });
    expect(runCases).toHaveLength(500);

    const stream = await runEvents(owner, runUlid);
    expect(progressOf<RunProgress>(await stream.nextEvent()).counts).toMatchObject({ skipped: 500 });
    const marked = await t.http
      .post(`/api/v1/runs/${runUlid}/cases/bulk-mark`)
      .set(owner.headers)
      .send({ caseUlids: runCases.map((each) => each.id), status: 'failed' });
    expect(marked.body).toEqual({ affected: 500, unchanged: 0 });
    expect(progressOf<RunProgress>(await stream.nextEvent()).counts).toMatchObject({ failed: 500, skipped: 0 });
    // The next event is that of a later mark: the bulk mark sent no other.
    expect((await patchRunCase(t.http, owner, runUlid, runCases[0]!.id, { status: 'blocked' })).status).toBe(200);
    expect(progressOf<RunProgress>(await stream.nextEvent()).counts).toMatchObject({ failed: 499, blocked: 1 });
  });

  it('never sends two events of one stream within 250 ms, and the latest counts last', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    const stream = await runEvents(owner, run.ulid);
    await stream.nextEvent();
    for (const runCase of runCases)
      expect((await patchRunCase(t.http, owner, run.ulid, runCase.ulid, { status: 'passed' })).status).toBe(200);
    await stream.nextEvent((message) => progressOf<RunProgress>(message).counts.passed === 4);
    // Arrival times, not send times: a frame delayed on a loaded machine arrives closer to the next one.
    // Unthrottled, the four marks' events would arrive within a few ms of each other.
    const arrivals = stream.received.filter((message) => message.event === 'progress').map((message) => message.at);
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    for (let index = 1; index < arrivals.length; index++) expect(arrivals[index]! - arrivals[index - 1]!).toBeGreaterThanOrEqual(100);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(250 * (arrivals.length - 1) - 100);
  });

  it('lets a viewer read; a private project is 404 for a member without a grant; another organization and an unknown run 404', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const project = { ulid: run.projectUlid as string };
    const viewer = await joinAs(t.http, owner, 'viewer');
    const viewerStream = await runEvents(viewer, run.ulid);
    expect(viewerStream.status).toBe(200);
    expect(progressOf<RunProgress>(await viewerStream.nextEvent()).runUlid).toBe(run.ulid);

    const member = await joinAs(t.http, owner, 'member');
    await setAccessMode(owner.orgId, project, 'private');
    expectNotFound(await runEvents(member, run.ulid));
    await grant(owner.orgId, project, member.userId);
    expect((await runEvents(member, run.ulid)).status).toBe(200);

    expectNotFound(await runEvents(await signUp(t.http), run.ulid));
    expectNotFound(await runEvents(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV'));
    expect((await live.open(`/api/v1/runs/${run.ulid}/events`)).status).toBe(401);
  });

  it('ends the stream when the run is deleted', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const stream = await runEvents(owner, run.ulid);
    await stream.nextEvent();
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers)).status).toBe(204);
    await stream.ended;
  });

  it('sends a comment line every TCMS_SSE_KEEPALIVE_MS', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const stream = await runEvents(owner, run.ulid);
    await stream.nextEvent();
    expect((await stream.nextComment(2_000)).comment).toBe('keep-alive');
    expect((await stream.nextComment(2_000)).comment).toBe('keep-alive');
  });

  it('frees a stream when its client goes away: the open-streams gauge returns to 0', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    await until(() => openStreamsGauge(t), 0);
    const streams = [await runEvents(owner, run.ulid), await runEvents(owner, run.ulid)];
    for (const stream of streams) await stream.nextEvent();
    await until(() => openStreamsGauge(t), 2);
    for (const stream of streams) stream.close();
    await until(() => openStreamsGauge(t), 0);
  });
});

describe('GET /api/v1/plans/{planUlid}/events', () => {
  it("starts with the plan's progress and sends it again when a run of the plan is marked", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 2);
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, { caseUlids: cases.map((each) => each.ulid) });
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });

    const stream = await live.open(`/api/v1/plans/${plan.ulid}/events`, { headers: owner.headers });
    expect(stream.status).toBe(200);
    const detail = await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers);
    expect(progressOf<PlanProgress>(await stream.nextEvent())).toEqual(detail.body.progress);
    expect(detail.body.progress).toMatchObject({ totalRuns: 1, counts: { untested: 2 } });

    const runCase = await prisma().testRunCase.findFirstOrThrow({ where: { runId: run.ulid } });
    expect((await patchRunCase(t.http, owner, run.ulid, runCase.id, { status: 'failed' })).status).toBe(200);
    const changed = progressOf<PlanProgress>(await stream.nextEvent());
    expect(changed).toEqual((await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body.progress);
    expect(changed.counts).toMatchObject({ failed: 1, untested: 1 });
  });

  it('is 404 for a plan of a private project the member may not see and for another organization', async () => {
    const { owner } = await ownerWithProject(t.http);
    const project = await createProject(t.http, owner);
    const plan = await createPlan(t.http, owner, project.id);
    const member = await joinAs(t.http, owner, 'member');
    await setAccessMode(owner.orgId, project, 'private');
    const open = (caller: Caller) => live.open(`/api/v1/plans/${plan.ulid}/events`, { headers: caller.headers });
    expectNotFound(await open(member));
    expectNotFound(await open(await signUp(t.http)));
    expect((await open(owner)).status).toBe(200);
  });
});
