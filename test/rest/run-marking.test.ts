import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, expectError, joinAs, tokenFor, useTestApp } from '../support/app.ts';
import { patchRunCase, type RunCaseBody, resultsOf, runWithCases } from '../support/runs.ts';

/**
 * The run settings that govern marking (api-v1.md "Run settings"): assigneeResultLock,
 * timeTracking and allowResultsInClosedRuns, set through the run-settings endpoints.
 */

const t = useTestApp();

async function setProjectSettings(caller: Caller, code: string, body: Record<string, unknown>) {
  const response = await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { settings: Record<string, { value: unknown; source: string }> };
}

const patchStep = (caller: Caller, runUlid: string, runCase: RunCaseBody, body: Record<string, unknown>) =>
  t.http.patch(`/api/v1/runs/${runUlid}/cases/${runCase.ulid}/steps/${runCase.steps[0]!.ulid}`).set(caller.headers).send(body);

async function readCase(caller: Caller, runUlid: string, runCaseUlid: string) {
  const response = await t.http.get(`/api/v1/runs/${runUlid}/cases/${runCaseUlid}`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body as RunCaseBody;
}

const resultCount = async (caller: Caller, runUlid: string) => (await resultsOf(t.http, caller, runUlid)).length;

describe('assigneeResultLock', () => {
  it('lets only the assignee and session owners/admins mark an assigned case; a token never counts as the assignee', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 3, 1);
    const assignee = await joinAs(t.http, owner, 'member');
    const colleague = await joinAs(t.http, owner, 'member');
    const admin = await joinAs(t.http, owner, 'admin');
    const [locked, unassigned, third] = runCases;
    for (const runCase of [locked!, third!]) {
      expect((await patchRunCase(t.http, owner, run.ulid, runCase.ulid, { assigneeUlid: assignee.userId })).status).toBe(200);
    }
    const settings = await setProjectSettings(owner, code, { assigneeResultLock: true });
    expect(settings.settings.assigneeResultLock).toEqual({ value: true, source: 'project' });

    const refusals = [
      await patchRunCase(t.http, colleague, run.ulid, locked!.ulid, { status: 'passed' }),
      await patchRunCase(t.http, await tokenFor(t.http, colleague), run.ulid, locked!.ulid, { status: 'passed' }),
      await patchRunCase(t.http, await tokenFor(t.http, admin), run.ulid, locked!.ulid, { status: 'failed' }),
      await patchRunCase(t.http, await tokenFor(t.http, owner, { role: 'admin' }), run.ulid, locked!.ulid, { status: 'failed' }),
      await patchRunCase(t.http, colleague, run.ulid, locked!.ulid, { elapsedMs: 100 }),
      await patchStep(colleague, run.ulid, locked!, { status: 'passed' }),
      await patchStep(colleague, run.ulid, locked!, { actualResult: 'Looked fine' }),
    ];
    for (const response of refusals) expectError(response, 403, 'run_case_assignee_locked');
    expect(await readCase(owner, run.ulid, locked!.ulid)).toMatchObject({
      status: 'untested',
      elapsedMs: null,
      steps: [{ status: 'untested' }],
    });
    expect(await resultCount(owner, run.ulid)).toBe(0);
    expect(await auditEvents(t.http, owner, { actionPrefix: 'run.case_step' })).toEqual([]);

    // A token is an actor of its own: not even the assignee's token counts as the assignee.
    expectError(
      await patchRunCase(t.http, await tokenFor(t.http, assignee), run.ulid, third!.ulid, { status: 'passed' }),
      403,
      'run_case_assignee_locked',
    );
    // The assignee marks in a session.
    expect((await patchRunCase(t.http, assignee, run.ulid, locked!.ulid, { status: 'failed' })).status).toBe(200);
    expect((await patchRunCase(t.http, assignee, run.ulid, third!.ulid, { status: 'passed' })).status).toBe(200);
    expect((await patchStep(assignee, run.ulid, locked!, { status: 'passed', actualResult: 'ok' })).status).toBe(200);
    // Owners and admins in a session are exempt.
    expect((await patchRunCase(t.http, admin, run.ulid, locked!.ulid, { status: 'blocked' })).status).toBe(200);
    expect((await patchRunCase(t.http, owner, run.ulid, third!.ulid, { status: 'skipped' })).status).toBe(200);
    // An unassigned case is open to anyone who may mark.
    expect((await patchRunCase(t.http, colleague, run.ulid, unassigned!.ulid, { status: 'passed' })).status).toBe(200);
    // The lock guards results, not assignment.
    const reassigned = await patchRunCase(t.http, colleague, run.ulid, locked!.ulid, { assigneeUlid: colleague.userId });
    expect(reassigned.status).toBe(200);
    expect((await patchRunCase(t.http, colleague, run.ulid, locked!.ulid, { status: 'passed' })).status).toBe(200);

    await setProjectSettings(owner, code, { assigneeResultLock: null });
    expect((await patchRunCase(t.http, assignee, run.ulid, locked!.ulid, { status: 'failed' })).status).toBe(200);
  });

  it('records no audit event for a refused mark', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 1);
    const assignee = await joinAs(t.http, owner, 'member');
    const colleague = await joinAs(t.http, owner, 'member');
    await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { assigneeUlid: assignee.userId });
    await setProjectSettings(owner, code, { assigneeResultLock: true });
    expectError(await patchRunCase(t.http, colleague, run.ulid, runCases[0]!.ulid, { status: 'passed' }), 403, 'run_case_assignee_locked');
    expect(await auditEvents(t.http, owner, { action: 'run.case_marked' })).toEqual([]);
  });
});

describe('timeTracking', () => {
  it("'required': an outcome mark without elapsedMs answers 422 elapsed_ms_required and writes nothing", async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 3, 2);
    await setProjectSettings(owner, code, { timeTracking: 'required' });
    const [first, second, third] = runCases;

    for (const body of [{ status: 'passed' }, { status: 'blocked', elapsedMs: null }, { status: 'failed', assigneeUlid: owner.userId }]) {
      const response = await patchRunCase(t.http, owner, run.ulid, first!.ulid, body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details).toMatchObject({ code: 'elapsed_ms_required', path: ['elapsedMs'] });
    }
    expect(await readCase(owner, run.ulid, first!.ulid)).toMatchObject({ status: 'untested', assigneeUlid: null });
    expect(await resultCount(owner, run.ulid)).toBe(0);

    const timed = await patchRunCase(t.http, owner, run.ulid, first!.ulid, { status: 'skipped', elapsedMs: 0 });
    expect(timed.status).toBe(200);
    expect(timed.body).toMatchObject({ status: 'skipped', elapsedMs: 0 });
    // Not outcomes, and marks that set no status, need no time.
    expect((await patchRunCase(t.http, owner, run.ulid, first!.ulid, { status: 'retested' })).status).toBe(200);
    expect((await patchRunCase(t.http, owner, run.ulid, second!.ulid, { assigneeUlid: owner.userId })).status).toBe(200);
    // A step carries no time: step marks are exempt, even when they decide the case.
    expect((await patchStep(owner, run.ulid, third!, { status: 'failed' })).body.status).toBe('failed');
  });

  it('applies an organization-wide setting unless the project overrides it', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 1);
    const org = await t.http.patch(`/api/v1/orgs/${owner.orgId}/run-settings`).set(owner.headers).send({ timeTracking: 'required' });
    expect(org.status, JSON.stringify(org.body)).toBe(200);
    const refused = await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' });
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.error.details.code).toBe('elapsed_ms_required');

    await setProjectSettings(owner, code, { timeTracking: 'off' });
    const accepted = await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed', elapsedMs: 700 });
    expect(accepted.status).toBe(200);
    // 'off' still stores a time the client sends.
    expect(accepted.body.elapsedMs).toBe(700);
  });
});

describe('allowResultsInClosedRuns', () => {
  it('when false, a closed run refuses marks, step marks and open with 409 and accepts them again when true', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2, 1);
    const closed = await t.http.post(`/api/v1/runs/${run.ulid}/close`).set(owner.headers);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await setProjectSettings(owner, code, { allowResultsInClosedRuns: false });

    const target = runCases[0]!;
    expectError(await patchRunCase(t.http, owner, run.ulid, target.ulid, { status: 'passed' }), 409, 'conflict');
    expectError(await patchRunCase(t.http, owner, run.ulid, target.ulid, { assigneeUlid: owner.userId }), 409, 'conflict');
    expectError(await patchStep(owner, run.ulid, target, { status: 'passed' }), 409, 'conflict');
    expectError(await t.http.post(`/api/v1/runs/${run.ulid}/cases/${target.ulid}/open`).set(owner.headers), 409, 'conflict');
    expect(await readCase(owner, run.ulid, target.ulid)).toMatchObject({ status: 'untested', assigneeUlid: null });
    expect(await resultCount(owner, run.ulid)).toBe(0);

    await setProjectSettings(owner, code, { allowResultsInClosedRuns: true });
    const marked = await patchRunCase(t.http, owner, run.ulid, target.ulid, { status: 'passed' });
    expect(marked.status).toBe(200);
    expect(marked.body.resultUlid).toEqual(expect.any(String));
    const after = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(after.body).toMatchObject({ state: 'closed', counts: { passed: 1, untested: 1 } });
  });

  it('does not keep an open run from being marked', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2);
    await setProjectSettings(owner, code, { allowResultsInClosedRuns: false });
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' })).status).toBe(200);
    // The mark that closes the run automatically is still accepted; the next one is not.
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[1]!.ulid, { status: 'failed' })).status).toBe(200);
    expectError(await patchRunCase(t.http, owner, run.ulid, runCases[1]!.ulid, { status: 'passed' }), 409, 'conflict');
  });
});
