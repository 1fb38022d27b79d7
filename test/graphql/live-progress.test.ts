import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { setAccessMode } from '../support/access-fixtures.ts';
import { type Caller, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { openStreamsGauge, type StreamMessage, until, useListeningApp } from '../support/event-streams.ts';
import { createCases, createPlan, createRun, patchRunCase, putPlanCases, runOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();
const live = useListeningApp(t);

const RUN_PROGRESS = `subscription($runUlid: String!) {
  runProgress(runUlid: $runUlid) { runUlid state counts { passed failed blocked skipped untested } total passRate lastResultAt }
}`;
const PLAN_PROGRESS = `subscription($planUlid: String!) {
  planProgress(planUlid: $planUlid) { totalRuns closedRuns counts { passed failed untested } byConfiguration { comboKey totalRuns } }
}`;

/** A subscription over Server-Sent Events (graphql-yoga's `next` events). */
const subscribe = (caller: Caller, query: string, variables: Record<string, unknown>) =>
  live.open('/graphql', {
    method: 'POST',
    headers: { ...caller.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });

const payloadOf = (message: StreamMessage) => {
  expect(message.event).toBe('next');
  return JSON.parse(message.data!) as {
    data?: Record<string, Record<string, unknown>>;
    errors?: Array<{ extensions?: { code?: string } }>;
  };
};

describe('GraphQL subscriptions: runProgress and planProgress', () => {
  it('runProgress answers the current counts, then the counts after a mark', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const stream = await subscribe(owner, RUN_PROGRESS, { runUlid: run.ulid });
    expect(stream.status).toBe(200);
    expect(payloadOf(await stream.nextEvent()).data!.runProgress).toEqual({
      runUlid: run.ulid,
      state: 'open',
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 2 },
      total: 2,
      passRate: 0,
      lastResultAt: null,
    });

    expect((await patchRunCase(t.http, owner, run.ulid, runCases[1]!.ulid, { status: 'passed' })).status).toBe(200);
    const after = await runOf(t.http, owner, run.ulid);
    expect(payloadOf(await stream.nextEvent()).data!.runProgress).toEqual({
      runUlid: run.ulid,
      state: 'open',
      counts: after.counts,
      total: 2,
      passRate: 50,
      lastResultAt: after.lastResultAt,
    });

    await until(() => openStreamsGauge(t), 1);
    stream.close();
    await until(() => openStreamsGauge(t), 0);
  });

  it('planProgress follows the marks of the plan’s runs', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 1);
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, { caseUlids: [cases[0]!.ulid] });
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    const stream = await subscribe(owner, PLAN_PROGRESS, { planUlid: plan.ulid });
    expect(payloadOf(await stream.nextEvent()).data!.planProgress).toEqual({
      totalRuns: 1,
      closedRuns: 0,
      counts: { passed: 0, failed: 0, untested: 1 },
      byConfiguration: [{ comboKey: '', totalRuns: 1 }],
    });
    const runCase = await prisma().testRunCase.findFirstOrThrow({ where: { runId: run.ulid } });
    expect((await patchRunCase(t.http, owner, run.ulid, runCase.id, { status: 'failed' })).status).toBe(200);
    expect(payloadOf(await stream.nextEvent()).data!.planProgress).toMatchObject({ counts: { passed: 0, failed: 1, untested: 0 } });
  });

  it('is not_found for a run of a private project the member may not see, of another organization, or unknown', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const member = await joinAs(t.http, owner, 'member');
    await setAccessMode(owner.orgId, { ulid: run.projectUlid as string }, 'private');
    for (const [caller, runUlid] of [
      [member, run.ulid],
      [await signUp(t.http), run.ulid],
      [owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ] as const) {
      const stream = await subscribe(caller, RUN_PROGRESS, { runUlid });
      const answer = payloadOf(await stream.nextEvent());
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['not_found']);
      await stream.ended;
    }
    await until(() => openStreamsGauge(t), 0);
  });
});
