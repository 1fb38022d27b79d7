import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { createCases, createPlan, createRun, putPlanCases, runCasesOf } from '../support/runs.ts';

const t = useTestApp();

const setPlanCases = (
  caller: Caller,
  planUlid: string,
  caseUlids: string[],
  caseAssignees: Array<{ caseUlid: string; assigneeUlid: string | null }> = [],
) => putPlanCases(t.http, caller, planUlid, { caseUlids, caseAssignees });

const reconcile = (caller: Caller, runUlid: string) => t.http.post(`/api/v1/runs/${runUlid}/reconcile`).set(caller.headers);

async function post(caller: Caller, path: string, body: Record<string, unknown> = {}) {
  const response = await t.http.post(path).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** An owner's project with `count` cases, a plan selecting the first `selected`, and a run generated from it. */
async function planRun(count: number, selected: number, assignees: Array<{ caseUlid: string; assigneeUlid: string | null }> = []) {
  const { owner, code } = await ownerWithProject(t.http);
  const cases = await createCases(t.http, owner, code, count);
  const plan = await createPlan(t.http, owner, code);
  await setPlanCases(
    owner,
    plan.ulid,
    cases.slice(0, selected).map((each) => each.ulid),
    assignees,
  );
  const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
  return { owner, code, cases, plan, run };
}

describe('POST /api/v1/runs/{runUlid}/reconcile', () => {
  it('adds newly selected cases, removes untested unselected ones without results, and re-seeds assignees', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const other = await joinAs(t.http, owner, 'member');
    const cases = await createCases(t.http, owner, code, 6);
    const [c1, c2, c3, c4, c5, c6] = cases;
    const plan = await createPlan(t.http, owner, code);
    await setPlanCases(owner, plan.ulid, [c1!.ulid, c2!.ulid, c3!.ulid, c4!.ulid], [{ caseUlid: c1!.ulid, assigneeUlid: member.userId }]);
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    const before = await runCasesOf(t.http, owner, run.ulid);
    expect(before.map((each) => [each.caseUlid, each.assigneeUlid])).toEqual([
      [c1!.ulid, member.userId],
      [c2!.ulid, null],
      [c3!.ulid, null],
      [c4!.ulid, null],
    ]);
    // c2 has an outcome; c3 is untested again but has a result.
    await post(owner, `/api/v1/runs/${run.ulid}/cases/bulk-mark`, { caseUlids: [c2!.ulid, c3!.ulid], status: 'failed' });
    await post(owner, `/api/v1/runs/${run.ulid}/cases/bulk-retry`, { caseUlids: [c3!.ulid] });

    await setPlanCases(
      owner,
      plan.ulid,
      [c1!.ulid, c5!.ulid, c6!.ulid],
      [
        { caseUlid: c1!.ulid, assigneeUlid: other.userId },
        { caseUlid: c5!.ulid, assigneeUlid: member.userId },
      ],
    );
    const response = await reconcile(owner, run.ulid);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      added: 2,
      removed: 1,
      reassigned: 1,
      run: { ulid: run.ulid, planUlid: plan.ulid, state: 'open', total: 5, counts: { failed: 1, untested: 4 } },
    });

    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after.map((each) => [each.caseUlid, each.status, each.assigneeUlid, each.position])).toEqual([
      [c1!.ulid, 'untested', other.userId, 0],
      [c2!.ulid, 'failed', null, 1],
      [c3!.ulid, 'untested', null, 2],
      [c5!.ulid, 'untested', member.userId, 4],
      [c6!.ulid, 'untested', null, 5],
    ]);

    const [assigned] = await auditEvents(t.http, owner, { action: 'run.case_assigned' });
    expect(assigned).toMatchObject({
      entityType: 'test_run_case',
      entityUlid: before[0]!.ulid,
      entityLabel: `${c1!.displayId} · Case 1`,
      runUlid: run.ulid,
      metadata: {
        caseDisplayId: c1!.displayId,
        titleSnapshot: 'Case 1',
        assigneeChange: {
          from: { ulid: member.userId, name: 'Test User' },
          to: { ulid: other.userId, name: 'Test User' },
          via: 'reconcile',
        },
      },
    });
    const [removed] = await auditEvents(t.http, owner, { action: 'run.case_removed' });
    expect(removed).toMatchObject({
      entityType: 'test_run_case',
      entityUlid: before[3]!.ulid,
      runUlid: run.ulid,
      metadata: { caseDisplayId: c4!.displayId, titleSnapshot: 'Case 4', statusAtRemoval: 'untested' },
    });
    const [added] = await auditEvents(t.http, owner, { action: 'run.case_added' });
    expect(added).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, runUlid: run.ulid });
    expect(added!.metadata).toMatchObject({
      added: 2,
      cases: [
        { ulid: after[3]!.ulid, caseDisplayId: c5!.displayId, titleSnapshot: 'Case 5' },
        { ulid: after[4]!.ulid, caseDisplayId: c6!.displayId, titleSnapshot: 'Case 6' },
      ],
    });

    // A second reconcile finds nothing to do and records nothing.
    const eventsBefore = await auditEvents(t.http, owner, { actionPrefix: 'run.' });
    expect((await reconcile(owner, run.ulid)).body).toMatchObject({ added: 0, removed: 0, reassigned: 0 });
    expect(await auditEvents(t.http, owner, { actionPrefix: 'run.' })).toEqual(eventsBefore);
  });

  it('keeps the assignee of executed cases and of cases the plan leaves unassigned', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const cases = await createCases(t.http, owner, code, 3);
    const plan = await createPlan(t.http, owner, code);
    await setPlanCases(
      owner,
      plan.ulid,
      cases.map((each) => each.ulid),
    );
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    const runCases = await runCasesOf(t.http, owner, run.ulid);
    await post(owner, `/api/v1/runs/${run.ulid}/cases/bulk-assign`, { caseUlids: [runCases[0]!.ulid], assigneeUlid: owner.userId });
    await post(owner, `/api/v1/runs/${run.ulid}/cases/bulk-mark`, { caseUlids: [runCases[1]!.ulid], status: 'passed' });
    await setPlanCases(
      owner,
      plan.ulid,
      cases.map((each) => each.ulid),
      [
        { caseUlid: cases[1]!.ulid, assigneeUlid: member.userId },
        { caseUlid: cases[2]!.ulid, assigneeUlid: member.userId },
      ],
    );

    expect((await reconcile(owner, run.ulid)).body).toMatchObject({ added: 0, removed: 0, reassigned: 1 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([owner.userId, null, member.userId]);
  });

  it('treats an archived case as no longer selected', async () => {
    const { owner, cases, run } = await planRun(2, 2);
    expect((await t.http.post(`/api/v1/test-cases/${cases[1]!.ulid}/archive`).set(owner.headers)).status).toBe(200);
    expect((await reconcile(owner, run.ulid)).body).toMatchObject({ added: 0, removed: 1, run: { total: 1 } });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.caseUlid)).toEqual([cases[0]!.ulid]);
  });

  it('closes the run automatically when the removals leave only cases with an outcome', async () => {
    const { owner, cases, plan, run } = await planRun(2, 2);
    await post(owner, `/api/v1/runs/${run.ulid}/cases/bulk-mark`, { caseUlids: [cases[0]!.ulid], status: 'passed' });
    await setPlanCases(owner, plan.ulid, [cases[0]!.ulid]);
    const response = await reconcile(owner, run.ulid);
    expect(response.body).toMatchObject({ removed: 1, run: { state: 'closed', status: 'passed', total: 1 } });
    const events = await auditEvents(t.http, owner, { actionPrefix: 'run.' });
    expect(events.slice(0, 2).map((event) => event.action)).toEqual(['run.closed', 'run.case_removed']);
  });

  it('answers 409 for a run not generated from a plan and for a run whose plan was deleted', async () => {
    const { owner, code, cases, plan, run } = await planRun(2, 1);
    const manual = await createRun(t.http, owner, code, { caseUlids: [cases[0]!.ulid] });
    expectError(await reconcile(owner, manual.ulid), 409, 'conflict');

    await setPlanCases(owner, plan.ulid, [cases[1]!.ulid]);
    expect((await t.http.delete(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).status).toBe(204);
    expectError(await reconcile(owner, run.ulid), 409, 'conflict');
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.caseUlid)).toEqual([cases[0]!.ulid]);
  });

  it('viewer 403; unknown or foreign run 404; aborted 409; closed only while allowResultsInClosedRuns', async () => {
    const { owner, code, cases, plan, run } = await planRun(2, 1);
    await setPlanCases(
      owner,
      plan.ulid,
      cases.map((each) => each.ulid),
    );
    expectError(await reconcile(await joinAs(t.http, owner, 'viewer'), run.ulid), 403, 'forbidden');
    expectError(await reconcile(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, 'not_found');
    expectError(await reconcile(await signUp(t.http), run.ulid), 404, 'not_found');
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(1);

    await post(owner, `/api/v1/runs/${run.ulid}/close`);
    const settings = await t.http
      .patch(`/api/v1/projects/${code}/run-settings`)
      .set(owner.headers)
      .send({ allowResultsInClosedRuns: false });
    expect(settings.status).toBe(200);
    expectError(await reconcile(owner, run.ulid), 409, 'conflict');
    await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ allowResultsInClosedRuns: null });
    expect((await reconcile(owner, run.ulid)).body).toMatchObject({ added: 1, run: { state: 'closed', total: 2 } });

    const second = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    await post(owner, `/api/v1/runs/${second.ulid}/abort`);
    expectError(await reconcile(owner, second.ulid), 409, 'conflict');
  });
});
