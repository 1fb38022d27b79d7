import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { type Caller, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { createCases, createRun } from '../support/runs.ts';

/**
 * Marks of one run arriving at the same moment on a PostgreSQL server: the run's counters,
 * durations and result times, kept incrementally by every mutation, must equal a recount of
 * its cases and results afterwards, and the monthly result counter must stop exactly at the
 * ceiling.
 */

const t = useTestApp();

const CASE_STATUSES = ['untested', 'retested', 'passed', 'failed', 'skipped', 'blocked'] as const;
const OUTCOMES = ['passed', 'failed', 'skipped', 'blocked'] as const;

type RunCase = { ulid: string; steps: Array<{ ulid: string }> };

/** A small seeded generator (mulberry32), so that a failing mix can be replayed. */
function randomOf(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

/** A run of `count` new cases of the project, with `steps` steps each, and its run cases. */
async function runOf(caller: Caller, code: string, count: number, steps: number) {
  const cases = await createCases(t.http, caller, code, count, steps);
  const run = await createRun(t.http, caller, code, { caseUlids: cases.map((each) => each.ulid) });
  const runCases: RunCase[] = [];
  for (let page = 1; runCases.length < count; page++) {
    const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases?pageSize=200&page=${page}`).set(caller.headers);
    runCases.push(...(listed.body.items as RunCase[]));
  }
  return { run, runCases };
}

describe('run counters under concurrent marks', { timeout: 300_000 }, () => {
  let owner: Caller;
  let token: Caller;
  let code: string;

  beforeAll(async () => {
    const created = await ownerWithProject(t.http);
    owner = created.owner;
    code = created.code;
    token = await tokenFor(t.http, owner, { role: 'admin' });
    // Room for every request of the test: the per-minute ceiling is not under test here.
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 100_000, maxResultsPerMonth: 1_000_000 });
  }, 120_000);

  it('keeps counts, total, duration and result times equal to a recount after 200 parallel marks', async () => {
    const { run, runCases } = await runOf(owner, code, 300, 2);
    const random = randomOf(20261121);
    // Requests crowd onto a third of the cases, so that marks of one case interleave.
    const hot = runCases.slice(0, 100);
    const requests = Array.from({ length: 200 }, (_, index) => {
      const caller = index % 2 === 0 ? owner : token;
      const kind = random.int(10);
      if (kind < 5) {
        const elapsed = random.int(3) === 0 ? {} : { elapsedMs: random.int(5000) };
        const body = { status: random.pick(CASE_STATUSES), ...elapsed };
        return t.http
          .patch(`/api/v1/runs/${run.ulid}/cases/${random.pick(hot).ulid}`)
          .set(caller.headers)
          .send(body);
      }
      if (kind < 7) {
        const runCase = random.pick(hot);
        const step = runCase.steps[random.int(runCase.steps.length)]!;
        const body = { status: random.pick(CASE_STATUSES) };
        return t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}/steps/${step.ulid}`).set(caller.headers).send(body);
      }
      const caseUlids = [...new Set(Array.from({ length: 1 + random.int(15) }, () => random.pick(runCases).ulid))];
      return t.http
        .post(`/api/v1/runs/${run.ulid}/cases/bulk-mark`)
        .set(caller.headers)
        .send({ caseUlids, status: random.pick(OUTCOMES) });
    });
    const answers = await Promise.all(requests);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const db = prisma();
    const stored = await db.testRun.findUniqueOrThrow({ where: { id: run.ulid } });
    const perStatus = await db.testRunCase.groupBy({ by: ['status'], where: { runId: run.ulid }, _count: { _all: true } });
    const casesWith = (status: string) => perStatus.find((row) => row.status === status)?._count._all ?? 0;
    const recount = await db.testRunResult.aggregate({
      where: { runId: run.ulid },
      _count: { _all: true },
      _sum: { elapsedMs: true },
      _min: { executedAt: true },
      _max: { executedAt: true },
    });
    expect(recount._count._all).toBeGreaterThan(100);
    expect({
      countUntested: stored.countUntested,
      countRetested: stored.countRetested,
      countPassed: stored.countPassed,
      countFailed: stored.countFailed,
      countSkipped: stored.countSkipped,
      countBlocked: stored.countBlocked,
      totalDurationMs: Number(stored.totalDurationMs),
      firstResultAt: stored.firstResultAt,
      lastResultAt: stored.lastResultAt,
    }).toEqual({
      countUntested: casesWith('untested'),
      countRetested: casesWith('retested'),
      countPassed: casesWith('passed'),
      countFailed: casesWith('failed'),
      countSkipped: casesWith('skipped'),
      countBlocked: casesWith('blocked'),
      totalDurationMs: recount._sum.elapsedMs ?? 0,
      firstResultAt: recount._min.executedAt,
      lastResultAt: recount._max.executedAt,
    });

    const response = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    const untested = casesWith('untested') + casesWith('retested');
    expect(response.body).toMatchObject({
      total: 300,
      executed: 300 - untested,
      counts: {
        passed: casesWith('passed'),
        failed: casesWith('failed'),
        skipped: casesWith('skipped'),
        blocked: casesWith('blocked'),
        untested,
      },
      totalDurationMs: recount._sum.elapsedMs ?? 0,
      firstResultAt: recount._min.executedAt!.getTime(),
      lastResultAt: recount._max.executedAt!.getTime(),
    });

    // Every result records a change of its case's status: per case, in history order, each
    // differs from the one before, and the last is the status the case has now.
    const cases = await db.testRunCase.findMany({ where: { runId: run.ulid }, select: { id: true, status: true } });
    const history = await db.testRunResult.findMany({ where: { runId: run.ulid }, orderBy: [{ executedAt: 'asc' }, { id: 'asc' }] });
    for (const runCase of cases) {
      const statuses = ['untested', ...history.filter((row) => row.runCaseId === runCase.id).map((row) => row.status)];
      for (let index = 1; index < statuses.length; index++) expect(statuses[index]).not.toBe(statuses[index - 1]);
      expect(statuses.at(-1)).toBe(runCase.status);
    }
  });

  it('stops the monthly counter exactly at the ceiling under parallel token marks', async () => {
    const { run, runCases } = await runOf(owner, code, 60, 0);
    const used = async () => (await t.http.get(`/api/v1/orgs/${owner.orgId}/api-result-usage`).set(owner.headers)).body.used as number;
    const before = await used();
    const ceiling = before + 25;
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: ceiling });

    const answers = await Promise.all(
      runCases.map((runCase) =>
        t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(token.headers).send({ status: 'passed' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(25);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('api_result_limit_exceeded');
    }
    expect(await used()).toBe(ceiling);
    expect(await prisma().testRunResult.count({ where: { runId: run.ulid } })).toBe(25);
    expect(await prisma().testRunCase.count({ where: { runId: run.ulid, status: 'passed' } })).toBe(25);
    const response = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(response.body.counts).toMatchObject({ passed: 25, untested: 35 });
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 1_000_000 });
  });
});
