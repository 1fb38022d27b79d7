import { describe, expect, it } from 'vitest';
import { auditEvents, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { useLockHolder } from '../support/lock-holder.ts';
import { createCases, createRun, type RunBody, type RunCaseBody } from '../support/runs.ts';

/*
 * A mark outside a transaction (issue 33) reads its case without locks and writes in one
 * statement that commits alone, only while the case is still as read. A second session changes
 * the case, a step or the run between the read and the write, holding its row until the mark
 * waits for it: the mark must come out as if it had run after that change, and never deadlock.
 */

const t = useTestApp();
const holder = useLockHolder();

async function markableRun() {
  const { owner, code } = await ownerWithProject(t.http);
  const token = await tokenFor(t.http, owner);
  const cases = await createCases(t.http, owner, code, 3, 2);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const runCases = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(token.headers)).body.items as RunCaseBody[];
  return { owner, token, run, runCase: runCases[0]! };
}

async function stored(token: { headers: Record<string, string> }, run: RunBody, runCase: RunCaseBody) {
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(token.headers);
  const counters = await t.http.get(`/api/v1/runs/${run.ulid}`).set(token.headers);
  const results = await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(token.headers);
  return {
    runCase: (listed.body.items as RunCaseBody[]).find((each) => each.ulid === runCase.ulid)!,
    run: counters.body as Record<string, unknown>,
    results: results.body.items as Array<{ runCaseUlid: string; status: string }>,
  };
}

/**
 * PATCHes the case to `status` while the holder's open transaction holds what it took; once the
 * mark waits for it, `release` finishes the holder's transaction. Answers the mark's response.
 */
async function markWhileHeld(marking: Awaited<ReturnType<typeof markableRun>>, status: string, release: () => Promise<void>) {
  const { token, run, runCase } = marking;
  const answered = t.http
    .patch(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`)
    .set(token.headers)
    .send({ status })
    .then((response) => response);
  await holder.untilWaitingForLocks();
  await release();
  const response = await answered;
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response;
}

const commit = async () => {
  await holder.query('COMMIT');
};

describe('a mark that commits alone', { timeout: 60_000 }, () => {
  it('marks the case as changed meanwhile by another session, once', async () => {
    const marking = await markableRun();
    const { owner, token, run, runCase } = marking;
    await holder.query('BEGIN');
    await holder.query('UPDATE test_run_cases SET assignee_id = $1, updated_at = now() WHERE id = $2', [owner.userId, runCase.ulid]);
    const response = await markWhileHeld(marking, 'failed', commit);
    const { resultUlid, ...answer } = response.body as RunCaseBody & { resultUlid: string };
    expect(answer).toMatchObject({ status: 'failed', assigneeUlid: owner.userId });
    const after = await stored(token, run, runCase);
    expect(answer).toEqual(after.runCase);
    expect(after.results.map((result) => result.status)).toEqual(['failed']);
    expect(after.run).toMatchObject({ counts: { failed: 1, untested: 2 } });
    const events = await auditEvents(t.http, owner, { action: 'run.case_marked', entityUlid: runCase.ulid });
    expect(events).toHaveLength(1);
    expect(resultUlid).toBeTruthy();
  });

  it('writes every step from its current row when another session changed one while holding the case', async () => {
    const marking = await markableRun();
    const { token, run, runCase } = marking;
    const [first, second] = runCase.steps;
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM test_run_cases WHERE id = $1 FOR UPDATE', [runCase.ulid]);
    await holder.query(
      `UPDATE test_run_case_steps SET status = 'blocked', actual_result = 'Seen by the holder', updated_at = now() WHERE id = $1`,
      [first!.ulid],
    );
    // Retested sets the steps to untested, the status the read saw on both.
    const response = await markWhileHeld(marking, 'retested', commit);
    const { resultUlid: _, ...answer } = response.body as RunCaseBody & { resultUlid: string };
    expect(answer.steps).toMatchObject([
      { ulid: first!.ulid, status: 'untested', actualResult: 'Seen by the holder' },
      { ulid: second!.ulid, status: 'untested', actualResult: null },
    ]);
    expect(answer).toEqual((await stored(token, run, runCase)).runCase);
  });

  it('waits for a run-wide change that holds the run, without a deadlock, and marks after it', async () => {
    const marking = await markableRun();
    const { owner, token, run, runCase } = marking;
    await holder.query('BEGIN');
    // As lockRun does: the run first, then its cases.
    await holder.query('SELECT id FROM test_runs WHERE id = $1 FOR UPDATE', [run.ulid]);
    const response = await markWhileHeld(marking, 'passed', async () => {
      await holder.query('UPDATE test_run_cases SET assignee_id = $1, updated_at = now() WHERE id = $2', [owner.userId, runCase.ulid]);
      await holder.query('COMMIT');
    });
    expect(response.body).toMatchObject({ status: 'passed', assigneeUlid: owner.userId });
    const after = await stored(token, run, runCase);
    expect(after.results.map((result) => result.status)).toEqual(['passed']);
    expect(after.run).toMatchObject({ counts: { passed: 1, untested: 2 } });
  });
});
