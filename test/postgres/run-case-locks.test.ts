import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { auditEvents, type Caller, ownerWithProject, useTestApp } from '../support/app.ts';
import { useLockHolder } from '../support/lock-holder.ts';
import { createCases, createRun, type RunCaseBody } from '../support/runs.ts';

/*
 * Issue 13: a mark of one run case locks the run FOR KEY SHARE and its case FOR UPDATE, and takes
 * the run row itself only for the counter update at its end; a run-wide mutation locks the run
 * FOR UPDATE. Another transaction on the PostgreSQL server holds those locks the way a mark in
 * flight does, and the requests show who overlaps and who waits.
 */

const t = useTestApp();

const holder = useLockHolder();

/** A request in flight, and whether it has been answered yet. */
function tracked<T>(request: PromiseLike<T>) {
  const promise = Promise.resolve(request);
  const state = { settled: false, promise };
  promise.finally(() => {
    state.settled = true;
  });
  return state;
}

async function runOfThree(owner: Caller, code: string) {
  const cases = await createCases(t.http, owner, code, 3, 1);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
  return { run, runCases: listed.body.items as RunCaseBody[] };
}

const mark = (owner: Caller, runUlid: string, runCaseUlid: string, status: string) =>
  t.http.patch(`/api/v1/runs/${runUlid}/cases/${runCaseUlid}`).set(owner.headers).send({ status });

describe('locks of a mark', { timeout: 60_000 }, () => {
  it('lets a mark of another case through while a mark of one case is in flight; that case and run-wide changes wait', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const { run, runCases } = await runOfThree(owner, code);
    const [first, second, third] = runCases as [RunCaseBody, RunCaseBody, RunCaseBody];

    await holder.query('BEGIN');
    await holder.query('SELECT id FROM test_runs WHERE id = $1 FOR KEY SHARE', [run.ulid]);
    await holder.query('SELECT id FROM test_run_cases WHERE id = $1 FOR UPDATE', [first.ulid]);

    const other = await mark(owner, run.ulid, second.ulid, 'passed');
    expect(other.status, JSON.stringify(other.body)).toBe(200);

    const sameCase = tracked(mark(owner, run.ulid, first.ulid, 'failed'));
    const runWide = tracked(
      t.http
        .post(`/api/v1/runs/${run.ulid}/cases/bulk-mark`)
        .set(owner.headers)
        .send({ caseUlids: [third.ulid], status: 'blocked' }),
    );
    await holder.untilWaitingForLocks(2);
    expect([sameCase.settled, runWide.settled]).toEqual([false, false]);

    await holder.query('ROLLBACK');
    expect((await sameCase.promise).status).toBe(200);
    expect((await runWide.promise).status).toBe(200);
    const after = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(after.body.counts).toMatchObject({ passed: 1, failed: 1, blocked: 1, untested: 0 });
  });

  it('refuses a mark whose run another mark closed meanwhile, when closed runs take no results, and writes nothing of it', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const settings = await t.http
      .patch(`/api/v1/projects/${code}/run-settings`)
      .set(owner.headers)
      .send({ allowResultsInClosedRuns: false });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const { run, runCases } = await runOfThree(owner, code);
    const [first, second, third] = runCases as [RunCaseBody, RunCaseBody, RunCaseBody];
    expect((await mark(owner, run.ulid, second.ulid, 'passed')).status).toBe(200);
    expect((await mark(owner, run.ulid, third.ulid, 'passed')).status).toBe(200);

    // The mark of the last untested case, at its counter update: the run closes with it.
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM test_runs WHERE id = $1 FOR KEY SHARE', [run.ulid]);
    await holder.query(`UPDATE test_run_cases SET status = 'passed' WHERE id = $1`, [first.ulid]);
    await holder.query(
      `UPDATE test_runs SET count_untested = count_untested - 1, count_passed = count_passed + 1, state = 'closed', closed_at = now() WHERE id = $1`,
      [run.ulid],
    );

    const late = tracked(mark(owner, run.ulid, second.ulid, 'failed'));
    await holder.untilWaitingForLocks(1);
    expect(late.settled).toBe(false);
    await holder.query('COMMIT');
    const refused = await late.promise;
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe('conflict');

    const stored = await prisma().testRunCase.findUniqueOrThrow({ where: { id: second.ulid }, include: { steps: true, results: true } });
    expect(stored.status).toBe('passed');
    expect(stored.steps.map((step) => step.status)).toEqual(['passed']);
    expect(stored.results.map((result) => result.status)).toEqual(['passed']);
    expect(await auditEvents(t.http, owner, { action: 'run.case_marked', entityUlid: second.ulid })).toHaveLength(1);
    const closed = await prisma().testRun.findUniqueOrThrow({ where: { id: run.ulid } });
    expect(closed).toMatchObject({ state: 'closed', countPassed: 3, countFailed: 0, countUntested: 0 });
  });

  it('lets a case merge wait for a mark in flight of a source case, without a deadlock', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const { run, runCases } = await runOfThree(owner, code);
    const [first] = runCases as [RunCaseBody];
    const [target] = await createCases(t.http, owner, code, 1, 1);

    // A mark of the first case between its gate and its result: the run's key share and its run case.
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM test_runs WHERE id = $1 FOR KEY SHARE', [run.ulid]);
    await holder.query('SELECT id FROM test_run_cases WHERE id = $1 FOR UPDATE', [first.ulid]);

    const merge = tracked(
      t.http
        .post(`/api/v1/projects/${code}/test-cases/merge`)
        .set(owner.headers)
        .send({ targetUlid: target!.ulid, sourceUlids: [first.caseUlid] }),
    );
    await holder.untilWaitingForLocks(1);
    // The mark's result refers to its case: the key share a foreign key takes. Had the merge locked
    // the cases before the run, this would wait for the merge while the merge waits for the mark.
    await holder.query('SELECT id FROM test_cases WHERE id = $1 FOR KEY SHARE', [first.caseUlid]);
    expect(merge.settled).toBe(false);
    await holder.query('COMMIT');

    const merged = await merge.promise;
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const moved = await prisma().testRunCase.findUniqueOrThrow({ where: { id: first.ulid } });
    expect(moved.caseId).toBe(target!.ulid);
  });
});
