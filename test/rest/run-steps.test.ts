import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { createCase, createCases, createRun } from '../support/runs.ts';

const t = useTestApp();

type Step = { ulid: string; position: number; action: string; status: string; actualResult: string | null };
type RunCase = { ulid: string; displayId: string; title: string; status: string; steps: Step[] };

/** An owner and a run of one case titled "Checkout" with the given step actions. */
async function runWithSteps(actions = ['Open cart', 'Enter card', 'Confirm']) {
  const { owner, code } = await ownerWithProject(t.http);
  const testCase = await createCase(t.http, owner, code, { title: 'Checkout', steps: actions.map((action) => ({ action })) });
  const run = await createRun(t.http, owner, code, { caseUlids: [testCase.ulid] });
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
  return { owner, code, run, runCase: listed.body.items[0] as RunCase };
}

const patchStep = (caller: Caller, runUlid: string, runCaseUlid: string, stepUlid: string, body: Record<string, unknown>) =>
  t.http.patch(`/api/v1/runs/${runUlid}/cases/${runCaseUlid}/steps/${stepUlid}`).set(caller.headers).send(body);

async function markStep(caller: Caller, runUlid: string, runCase: RunCase, index: number, body: Record<string, unknown>) {
  const response = await patchStep(caller, runUlid, runCase.ulid, runCase.steps[index]!.ulid, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as RunCase;
}

async function resultStatuses(caller: Caller, runUlid: string) {
  const response = await t.http.get(`/api/v1/runs/${runUlid}/results`).set(caller.headers);
  expect(response.status).toBe(200);
  return (response.body.items as Array<{ status: string; source: string }>).map((row) => row.status);
}

describe('PATCH /api/v1/runs/{runUlid}/cases/{runCaseUlid}/steps/{stepUlid}', () => {
  it('sets the case to the aggregate of its steps and appends a result only when that changes its status', async () => {
    const { owner, run, runCase } = await runWithSteps();
    const statuses = (body: RunCase) => [body.status, ...body.steps.map((step) => step.status)];

    expect(statuses(await markStep(owner, run.ulid, runCase, 0, { status: 'passed' }))).toEqual([
      'untested',
      'passed',
      'untested',
      'untested',
    ]);
    expect(await resultStatuses(owner, run.ulid)).toEqual([]);
    await markStep(owner, run.ulid, runCase, 1, { status: 'passed' });
    expect(statuses(await markStep(owner, run.ulid, runCase, 2, { status: 'passed' }))).toEqual(['passed', 'passed', 'passed', 'passed']);
    // Any failed step fails the case; the other steps keep their own status.
    expect(statuses(await markStep(owner, run.ulid, runCase, 1, { status: 'failed' }))).toEqual(['failed', 'passed', 'failed', 'passed']);
    expect(statuses(await markStep(owner, run.ulid, runCase, 1, { status: 'blocked' }))).toEqual([
      'blocked',
      'passed',
      'blocked',
      'passed',
    ]);
    // Skipped steps among passed ones: passed; every step skipped: skipped.
    expect(statuses(await markStep(owner, run.ulid, runCase, 1, { status: 'skipped' }))).toEqual(['passed', 'passed', 'skipped', 'passed']);
    await markStep(owner, run.ulid, runCase, 0, { status: 'skipped' });
    expect(statuses(await markStep(owner, run.ulid, runCase, 2, { status: 'skipped' }))).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
    // A step back to untested leaves the case untested again.
    expect(statuses(await markStep(owner, run.ulid, runCase, 2, { status: 'untested' }))).toEqual([
      'untested',
      'skipped',
      'skipped',
      'untested',
    ]);

    expect(await resultStatuses(owner, run.ulid)).toEqual(['passed', 'failed', 'blocked', 'passed', 'skipped', 'untested']);
    const runBody = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(runBody.body).toMatchObject({ counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 1 }, state: 'closed' });
  });

  it('closes the run automatically when a step mark gives the last case an outcome', async () => {
    const { owner, run, runCase } = await runWithSteps(['Only step']);
    await markStep(owner, run.ulid, runCase, 0, { status: 'failed' });
    const runBody = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(runBody.body).toMatchObject({ state: 'closed', status: 'failed', counts: { failed: 1, untested: 0 }, executed: 1 });
    expect(await auditEvents(t.http, owner, { action: 'run.closed' })).toHaveLength(1);
  });

  it('keeps a case to be retested as retested until its steps decide it', async () => {
    const { owner, run, runCase } = await runWithSteps(['One', 'Two']);
    const retested = await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(owner.headers).send({ status: 'retested' });
    expect(retested.body.steps.map((step: Step) => step.status)).toEqual(['untested', 'untested']);
    expect((await markStep(owner, run.ulid, runCase, 0, { status: 'passed' })).status).toBe('retested');
    expect(await resultStatuses(owner, run.ulid)).toEqual(['retested']);
    expect((await markStep(owner, run.ulid, runCase, 1, { status: 'passed' })).status).toBe('passed');
    expect(await resultStatuses(owner, run.ulid)).toEqual(['retested', 'passed']);
  });

  it('records run.case_step_marked and run.case_step_actual_result_set with the step label', async () => {
    const { owner, run, runCase } = await runWithSteps();
    const step = runCase.steps[1]!;
    const body = await markStep(owner, run.ulid, runCase, 1, { status: 'failed', actualResult: 'Card declined' });
    expect(body.steps[1]).toMatchObject({ status: 'failed', actualResult: 'Card declined' });
    await markStep(owner, run.ulid, runCase, 1, { actualResult: null });
    // Unchanged values record nothing.
    await markStep(owner, run.ulid, runCase, 1, { status: 'failed', actualResult: null });

    const events = (await auditEvents(t.http, owner, { entityUlid: step.ulid })).reverse();
    const stepSnapshot = {
      caseDisplayId: runCase.displayId,
      titleSnapshot: 'Checkout',
      stepUlid: step.ulid,
      stepPosition: 1,
      stepActionSnapshot: 'Enter card',
    };
    const base = {
      entityType: 'test_run_case_step',
      entityUlid: step.ulid,
      entityLabel: `${runCase.displayId} · Checkout — Enter card`,
      runUlid: run.ulid,
    };
    expect(events.map((event) => event.action)).toEqual([
      'run.case_step_actual_result_set',
      'run.case_step_marked',
      'run.case_step_actual_result_set',
    ]);
    expect(events[0]).toMatchObject(base);
    expect(events[0]!.metadata).toEqual({ ...stepSnapshot, changes: [{ field: 'actual_result', from: null, to: 'Card declined' }] });
    expect(events[1]).toMatchObject(base);
    expect(events[1]!.metadata).toEqual({
      ...stepSnapshot,
      changes: [{ field: 'status', from: 'untested', to: 'failed' }],
      caseStatus: 'failed',
    });
    expect(events[2]!.metadata).toEqual({ ...stepSnapshot, changes: [{ field: 'actual_result', from: 'Card declined', to: null }] });
    // The case's own status change is recorded by its result, not by a run.case_marked event.
    expect(await auditEvents(t.http, owner, { action: 'run.case_marked' })).toEqual([]);
    expect(await resultStatuses(owner, run.ulid)).toEqual(['failed']);
  });

  it('clips long snapshots in the metadata by graphemes and flags them truncated', async () => {
    const { owner, run, runCase } = await runWithSteps(['A'.repeat(300)]);
    // A family emoji is one grapheme of seven UTF-16 units: 240 of them are kept whole.
    const family = '👨‍👩‍👧';
    await markStep(owner, run.ulid, runCase, 0, { actualResult: family.repeat(300) });
    await markStep(owner, run.ulid, runCase, 0, { actualResult: 'short' });
    const [second, first] = await auditEvents(t.http, owner, { action: 'run.case_step_actual_result_set' });
    const snapshot = {
      caseDisplayId: runCase.displayId,
      titleSnapshot: 'Checkout',
      stepUlid: runCase.steps[0]!.ulid,
      stepPosition: 0,
      stepActionSnapshot: 'A'.repeat(240),
      truncated: true,
    };
    expect(first!.metadata).toEqual({
      ...snapshot,
      changes: [{ field: 'actual_result', from: null, to: family.repeat(240), truncated: true }],
    });
    expect(second!.metadata).toEqual({
      ...snapshot,
      changes: [{ field: 'actual_result', from: family.repeat(240), to: 'short', truncated: true }],
    });
  });

  it.each([
    ['an empty body', {}, []],
    ['an unknown status', { status: 'done' }, ['status']],
    ['an unknown key', { status: 'passed', elapsedMs: 5 }, ['elapsedMs']],
    ['an actual result over 10000 characters', { actualResult: 'x'.repeat(10_001) }, ['actualResult']],
  ])('answers 422 validation_failed for %s', async (_label, body, path) => {
    const { owner, run, runCase } = await runWithSteps();
    const response = await patchStep(owner, run.ulid, runCase.ulid, runCase.steps[0]!.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('answers 404 for an unknown step or a step of another case, and 403 to a viewer', async () => {
    const { owner, code, run, runCase } = await runWithSteps();
    const [other] = await createCases(t.http, owner, code, 1, 1);
    const otherRun = await createRun(t.http, owner, code, { caseUlids: [other!.ulid] });
    const otherCase = (await t.http.get(`/api/v1/runs/${otherRun.ulid}/cases`).set(owner.headers)).body.items[0] as RunCase;

    expectError(await patchStep(owner, run.ulid, runCase.ulid, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', { status: 'passed' }), 404, 'not_found');
    expectError(await patchStep(owner, run.ulid, runCase.ulid, otherCase.steps[0]!.ulid, { status: 'passed' }), 404, 'not_found');
    expectError(await patchStep(owner, run.ulid, otherCase.ulid, otherCase.steps[0]!.ulid, { status: 'passed' }), 404, 'not_found');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await patchStep(viewer, run.ulid, runCase.ulid, runCase.steps[0]!.ulid, { status: 'passed' }), 403, 'forbidden');
    expect(await auditEvents(t.http, owner, { actionPrefix: 'run.case_step' })).toEqual([]);
  });
});
