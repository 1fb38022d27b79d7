import { describe, expect, it } from 'vitest';
import { ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { useLockHolder } from '../support/lock-holder.ts';
import { createCases, createRun, type RunCaseBody } from '../support/runs.ts';

/*
 * A mark's writes ride on the statement that updates the run's counters and charges the month
 * (issue 33); they must run before it takes the run's row and the organization's month row,
 * which every mark of the organization queues on, so that those are held for little more than
 * the COMMIT. A second session holds the month row: the waiting mark has already written its
 * case's steps (their rows are locked), and goes on once the row is free.
 */

const t = useTestApp();
const holder = useLockHolder();

async function markedRun() {
  const { owner, code } = await ownerWithProject(t.http);
  const token = await tokenFor(t.http, owner);
  const cases = await createCases(t.http, owner, code, 3, 2);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const runCases = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(token.headers)).body.items as RunCaseBody[];
  // The month's row exists once a result was charged.
  const first = await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`).set(token.headers).send({ status: 'passed' });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  return { owner, token, run, waiting: runCases.slice(1) };
}

describe("a mark's writes come before its run and month locks", { timeout: 60_000 }, () => {
  it.each([
    ['a single mark', 'single'],
    ['a bulk submit', 'bulk'],
  ] as const)('%s has written its steps while it waits for the month row', async (_, kind) => {
    const { owner, token, run, waiting } = await markedRun();
    await holder.query('BEGIN');
    await holder.query('SELECT used FROM api_result_usage WHERE org_id = $1 FOR UPDATE', [owner.orgId]);
    const marked =
      kind === 'single'
        ? t.http.patch(`/api/v1/runs/${run.ulid}/cases/${waiting[0]!.ulid}`).set(token.headers).send({ status: 'failed' })
        : t.http
            .post(`/api/v1/runs/${run.ulid}/results/bulk`)
            .set(token.headers)
            .send({ results: waiting.map((runCase) => ({ runCaseUlid: runCase.ulid, status: 'failed' })) });
    const answered = marked.then((response) => response);
    await holder.untilWaitingForLocks();

    const marking = kind === 'single' ? [waiting[0]!.ulid] : waiting.map((runCase) => runCase.ulid);
    const locked = await holder.query('SELECT id FROM test_run_case_steps WHERE run_case_id = ANY($1) FOR UPDATE NOWAIT', [marking]).then(
      () => 'free',
      (error: { code?: string }) => error.code,
    );
    expect(locked).toBe('55P03');
    await holder.query('ROLLBACK');

    const response = await answered;
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });
});
