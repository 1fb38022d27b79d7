import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import {
  type AuditEventBody,
  auditEvents,
  type Caller,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  tokenFor,
  useTestApp,
} from '../support/app.ts';
import { createRun, resultsOf, runCasesOf, runOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();

type BulkCases = {
  cases: Array<Record<string, unknown>>;
  omittedCount?: number;
  summary: Record<string, unknown>;
};

const bulk = (caller: Caller, runUlid: string, operation: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/runs/${runUlid}/cases/${operation}`).set(caller.headers).send(body);

const bulkCasesOf = (event: AuditEventBody) => event.metadata.bulkCases as BulkCases;

async function patchRunSettings(caller: Caller, code: string, settings: Record<string, unknown>) {
  const response = await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(caller.headers).send(settings);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

describe('POST /api/v1/runs/{runUlid}/cases/bulk-mark', () => {
  it('marks the cases named by run case or test case ULID, their steps too, and appends one bulk result per case', async () => {
    const { owner, run, cases, runCases } = await runWithCases(t.http, 4, 2);
    const response = await bulk(owner, run.ulid, 'bulk-mark', {
      caseUlids: [runCases[0]!.ulid, cases[1]!.ulid, runCases[2]!.ulid],
      status: 'failed',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ affected: 3, unchanged: 0 });

    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after.map((each) => each.status)).toEqual(['failed', 'failed', 'failed', 'untested']);
    expect(after[0]!.steps.map((step) => step.status)).toEqual(['failed', 'failed']);
    expect(after[3]!.steps.map((step) => step.status)).toEqual(['untested', 'untested']);
    const results = await resultsOf(t.http, owner, run.ulid);
    expect(results).toHaveLength(3);
    expect(results.map((result) => result.source)).toEqual(['bulk', 'bulk', 'bulk']);
    expect(results.map((result) => result.runCaseUlid).sort()).toEqual(
      runCases
        .slice(0, 3)
        .map((each) => each.ulid)
        .sort(),
    );
    expect(results.every((result) => result.status === 'failed')).toBe(true);

    const updated = await runOf(t.http, owner, run.ulid);
    expect(updated).toMatchObject({ state: 'open', counts: { passed: 0, failed: 3, blocked: 0, skipped: 0, untested: 1 } });
    expect(updated.lastResultAt).toEqual(expect.any(Number));
  });

  it('records one run.cases_bulk_marked event with entries, skips and a summary', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[3]!.ulid], status: 'passed' });
    const unknown = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const response = await bulk(owner, run.ulid, 'bulk-mark', {
      caseUlids: [runCases[0]!.ulid, unknown, runCases[1]!.ulid, runCases[3]!.ulid],
      status: 'passed',
    });
    expect(response.body).toEqual({ affected: 2, unchanged: 2 });

    const events = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(bulkCasesOf(events[0]!)).toEqual({
      cases: [
        {
          ulid: runCases[0]!.ulid,
          caseDisplayId: runCases[0]!.displayId,
          titleSnapshot: 'Case 1',
          fromStatus: 'untested',
          toStatus: 'passed',
        },
        {
          ulid: runCases[1]!.ulid,
          caseDisplayId: runCases[1]!.displayId,
          titleSnapshot: 'Case 2',
          fromStatus: 'untested',
          toStatus: 'passed',
        },
        { ulid: unknown, caseDisplayId: null, titleSnapshot: null, skipped: 'not_found' },
        { ulid: runCases[3]!.ulid, caseDisplayId: runCases[3]!.displayId, titleSnapshot: 'Case 4', skipped: 'unchanged' },
      ],
      summary: { affected: 2, unchanged: 2, statusFrom: 'untested', statusTo: 'passed' },
    });
    // Only the two changed cases got a result (plus the first call's one).
    expect(await resultsOf(t.http, owner, run.ulid)).toHaveLength(3);
  });

  it('counts a case named twice (by its run case and its test case ULID) once, the second as unchanged', async () => {
    const { owner, run, cases, runCases } = await runWithCases(t.http, 1);
    const response = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid, cases[0]!.ulid], status: 'passed' });
    expect(response.body).toEqual({ affected: 1, unchanged: 1 });
    expect(await resultsOf(t.http, owner, run.ulid)).toHaveLength(1);
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(bulkCasesOf(event!).cases.map((entry) => entry.skipped)).toEqual([undefined, 'unchanged']);
  });

  it('leaves statusFrom out when the marked cases came from different statuses', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 3);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'failed' });
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid, runCases[1]!.ulid], status: 'blocked' });
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(bulkCasesOf(event!).summary).toEqual({ affected: 2, unchanged: 0, statusTo: 'blocked' });
  });

  it('answers 200 with nothing affected and records no event when nothing changes', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const response = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], status: 'passed' });
    expect(response.body).toEqual({ affected: 0, unchanged: 1 });
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' })).toHaveLength(0);
  });

  it('lists at most 20 cases in the event, changed ones first, and counts the rest in omittedCount', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 23);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'skipped' });
    const response = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: runCases.map((each) => each.ulid), status: 'skipped' });
    expect(response.body).toEqual({ affected: 22, unchanged: 1 });
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    const bucket = bulkCasesOf(event!);
    expect(bucket.cases).toHaveLength(20);
    expect(bucket.omittedCount).toBe(3);
    expect(bucket.cases.every((entry) => entry.toStatus === 'skipped' && entry.skipped === undefined)).toBe(true);
    expect(bucket.summary).toEqual({ affected: 22, unchanged: 1, statusFrom: 'untested', statusTo: 'skipped' });
  });

  it('clips a long title snapshot to 240 characters and flags the entry truncated', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const created = await t.http
      .post(`/api/v1/projects/${code}/test-cases`)
      .set(owner.headers)
      .send({ title: 'x'.repeat(300) });
    const run = await createRun(t.http, owner, code, { caseUlids: [created.body.ulid] });
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [created.body.ulid], status: 'passed' });
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(bulkCasesOf(event!).cases[0]).toMatchObject({ titleSnapshot: 'x'.repeat(240), truncated: true });
  });

  it('closes the run automatically when every case has an outcome, after the bulk event', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const response = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: runCases.map((each) => each.ulid), status: 'passed' });
    expect(response.status).toBe(200);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'closed', status: 'passed' });
    const events = await auditEvents(t.http, owner, { actionPrefix: 'run.' });
    expect(events.slice(0, 2).map((event) => event.action)).toEqual(['run.closed', 'run.cases_bulk_marked']);
  });

  it('is not held to timeTracking required: no elapsedMs needed', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 1);
    await patchRunSettings(owner, code, { timeTracking: 'required' });
    const response = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'passed' });
    expect(response.body).toEqual({ affected: 1, unchanged: 0 });
  });

  it('skips as locked the cases assigned to someone else while assigneeResultLock is on', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 3);
    const member = await joinAs(t.http, owner, 'member');
    const other = await joinAs(t.http, owner, 'member');
    await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[0]!.ulid], assigneeUlid: member.userId });
    await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[1]!.ulid], assigneeUlid: other.userId });
    await patchRunSettings(owner, code, { assigneeResultLock: true });

    const response = await bulk(member, run.ulid, 'bulk-mark', { caseUlids: runCases.map((each) => each.ulid), status: 'passed' });
    expect(response.body).toEqual({ affected: 2, unchanged: 1 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.status)).toEqual(['passed', 'untested', 'passed']);
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(bulkCasesOf(event!).cases.at(-1)).toMatchObject({ ulid: runCases[1]!.ulid, skipped: 'locked' });

    // An owner in a session is exempt; a token of the owner is not.
    const token = await tokenFor(t.http, owner, { role: 'admin' });
    const byToken = await bulk(token, run.ulid, 'bulk-mark', { caseUlids: [runCases[1]!.ulid], status: 'failed' });
    expect(byToken.body).toEqual({ affected: 0, unchanged: 1 });
    const byOwner = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[1]!.ulid], status: 'failed' });
    expect(byOwner.body).toEqual({ affected: 1, unchanged: 0 });
  });

  it('charges a token caller one result per changed case, and refuses the whole call over the monthly ceiling', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 3 });
    const usage = async () => (await t.http.get(`/api/v1/orgs/${owner.orgId}/api-result-usage`).set(owner.headers)).body.used;

    const first = await bulk(token, run.ulid, 'bulk-mark', { caseUlids: runCases.slice(0, 2).map((each) => each.ulid), status: 'passed' });
    expect(first.body).toEqual({ affected: 2, unchanged: 0 });
    expect(await usage()).toBe(2);

    const over = await bulk(token, run.ulid, 'bulk-mark', { caseUlids: runCases.map((each) => each.ulid), status: 'failed' });
    expectError(over, 409, 'api_result_limit_exceeded');
    expect(await usage()).toBe(2);
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.status)).toEqual(['passed', 'passed', 'untested', 'untested']);
    expect(await resultsOf(t.http, owner, run.ulid)).toHaveLength(2);
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' })).toHaveLength(1);

    // A session caller is never metered.
    const bySession = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: runCases.map((each) => each.ulid), status: 'failed' });
    expect(bySession.body).toEqual({ affected: 4, unchanged: 0 });
    expect(await usage()).toBe(2);
  });

  it.each([
    ['no caseUlids', { status: 'passed' }, ['caseUlids']],
    ['an empty list', { caseUlids: [], status: 'passed' }, ['caseUlids']],
    ['a repeated ULID', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'], status: 'passed' }, ['caseUlids']],
    ['a non-ULID', { caseUlids: ['nope'], status: 'passed' }, ['caseUlids', 0]],
    ['status untested', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], status: 'untested' }, ['status']],
    ['status retested', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], status: 'retested' }, ['status']],
    ['an unknown key', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], status: 'passed', comment: 'x' }, ['comment']],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, run } = await runWithCases(t.http, 1);
    const response = await bulk(owner, run.ulid, 'bulk-mark', body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('takes 500 ULIDs and refuses 501', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const filler = Array.from({ length: 499 }, (_, index) => `01ARZ3NDEKTSV4RRFF${String(index).padStart(8, '0')}`);
    const ok = await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid, ...filler], status: 'passed' });
    expect(ok.body).toEqual({ affected: 1, unchanged: 499 });
    const tooMany = await bulk(owner, run.ulid, 'bulk-mark', {
      caseUlids: [...filler, '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAW'],
      status: 'passed',
    });
    expectError(tooMany, 422, 'validation_failed');
  });
});

describe('bulk operations: access and run state', () => {
  const operations: Array<[string, (runCaseUlid: string, userId: string) => Record<string, unknown>]> = [
    ['bulk-mark', (ulid) => ({ caseUlids: [ulid], status: 'passed' })],
    ['bulk-assign', (ulid, userId) => ({ caseUlids: [ulid], assigneeUlid: userId })],
    ['bulk-retry', (ulid) => ({ caseUlids: [ulid] })],
    ['bulk-remove', (ulid) => ({ caseUlids: [ulid] })],
  ];

  it.each(operations)('%s: viewer 403, unknown run and other organization 404, nothing changed', async (operation, bodyOf) => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[1]!.ulid], status: 'failed' });
    const body = bodyOf(runCases[1]!.ulid, owner.userId);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await bulk(viewer, run.ulid, operation, body), 403, 'forbidden');
    expectError(await bulk(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV', operation, body), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(await bulk(stranger, run.ulid, operation, body), 404, 'not_found');
    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after.map((each) => [each.status, each.assigneeUlid])).toEqual([
      ['untested', null],
      ['failed', null],
    ]);
  });

  it.each(operations)(
    '%s: 409 on an aborted run; on a closed run only while allowResultsInClosedRuns is off',
    async (operation, bodyOf) => {
      const { owner, code, run, runCases } = await runWithCases(t.http, 2);
      const body = bodyOf(runCases[1]!.ulid, owner.userId);
      await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[1]!.ulid], status: 'failed' });
      const close = await t.http.post(`/api/v1/runs/${run.ulid}/close`).set(owner.headers);
      expect(close.status, JSON.stringify(close.body)).toBe(200);
      await patchRunSettings(owner, code, { allowResultsInClosedRuns: false });
      expectError(await bulk(owner, run.ulid, operation, body), 409, 'conflict');
      await patchRunSettings(owner, code, { allowResultsInClosedRuns: null });
      const allowed = await bulk(owner, run.ulid, operation, body);
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
      expect(allowed.body.affected).toBe(1);
      expect((await runOf(t.http, owner, run.ulid)).state).toBe('closed');

      const other = await createRun(t.http, owner, code, { caseUlids: [runCases[0]!.caseUlid] });
      const abort = await t.http.post(`/api/v1/runs/${other.ulid}/abort`).set(owner.headers);
      expect(abort.status, JSON.stringify(abort.body)).toBe(200);
      const [otherCase] = await runCasesOf(t.http, owner, other.ulid);
      expectError(await bulk(owner, other.ulid, operation, bodyOf(otherCase!.ulid, owner.userId)), 409, 'conflict');
    },
  );
});

describe('POST /api/v1/runs/{runUlid}/cases/bulk-assign', () => {
  it('assigns the cases to a member and records run.cases_bulk_assigned with from/to assignees', async () => {
    const { owner, run, runCases, cases } = await runWithCases(t.http, 3);
    const member = await joinAs(t.http, owner, 'member');
    await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[2]!.ulid], assigneeUlid: member.userId });

    const response = await bulk(owner, run.ulid, 'bulk-assign', {
      caseUlids: [cases[0]!.ulid, runCases[1]!.ulid, runCases[2]!.ulid],
      assigneeUlid: member.userId,
    });
    expect(response.body).toEqual({ affected: 2, unchanged: 1 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([
      member.userId,
      member.userId,
      member.userId,
    ]);

    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_assigned' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, runUlid: run.ulid });
    const memberRef = { ulid: member.userId, name: 'Test User' };
    expect(bulkCasesOf(event!)).toEqual({
      cases: [
        {
          ulid: runCases[0]!.ulid,
          caseDisplayId: runCases[0]!.displayId,
          titleSnapshot: 'Case 1',
          fromAssignee: null,
          toAssignee: memberRef,
        },
        {
          ulid: runCases[1]!.ulid,
          caseDisplayId: runCases[1]!.displayId,
          titleSnapshot: 'Case 2',
          fromAssignee: null,
          toAssignee: memberRef,
        },
        { ulid: runCases[2]!.ulid, caseDisplayId: runCases[2]!.displayId, titleSnapshot: 'Case 3', skipped: 'unchanged' },
      ],
      summary: { affected: 2, unchanged: 1, assigneeFrom: null, assigneeTo: memberRef },
    });
  });

  it('unassigns with null; assigneeFrom is left out when the cases had different assignees', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const member = await joinAs(t.http, owner, 'member');
    await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[0]!.ulid], assigneeUlid: member.userId });
    await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[1]!.ulid], assigneeUlid: owner.userId });
    const response = await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: runCases.map((each) => each.ulid), assigneeUlid: null });
    expect(response.body).toEqual({ affected: 2, unchanged: 0 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([null, null]);
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_assigned' });
    expect(bulkCasesOf(event!).summary).toEqual({ affected: 2, unchanged: 0, assigneeTo: null });
    expect(bulkCasesOf(event!).cases[0]).toMatchObject({ fromAssignee: { ulid: member.userId, name: 'Test User' }, toAssignee: null });
  });

  it('answers 404 for an assignee who is not a member and changes nothing; 422 without assigneeUlid', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const stranger = await signUp(t.http);
    expectError(
      await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[0]!.ulid], assigneeUlid: stranger.userId }),
      404,
      'not_found',
    );
    expect((await runCasesOf(t.http, owner, run.ulid))[0]!.assigneeUlid).toBeNull();
    expectError(await bulk(owner, run.ulid, 'bulk-assign', { caseUlids: [runCases[0]!.ulid] }), 422, 'validation_failed');
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_assigned' })).toHaveLength(0);
  });
});

describe('POST /api/v1/runs/{runUlid}/cases/bulk-retry', () => {
  it('resets cases and their steps to untested, clears elapsedMs, appends no result and moves the counters', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 3, 2);
    const patch = await t.http
      .patch(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`)
      .set(owner.headers)
      .send({ status: 'passed', elapsedMs: 1200 });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[1]!.ulid], status: 'failed' });
    const resultsBefore = await resultsOf(t.http, owner, run.ulid);

    const response = await bulk(owner, run.ulid, 'bulk-retry', { caseUlids: runCases.map((each) => each.ulid) });
    expect(response.body).toEqual({ affected: 2, unchanged: 1 });
    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after.map((each) => [each.status, each.elapsedMs])).toEqual([
      ['untested', null],
      ['untested', null],
      ['untested', null],
    ]);
    expect(after.flatMap((each) => each.steps.map((step) => step.status)).every((status) => status === 'untested')).toBe(true);
    expect(await resultsOf(t.http, owner, run.ulid)).toEqual(resultsBefore);
    expect((await runOf(t.http, owner, run.ulid)).counts).toEqual({ passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 3 });

    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_retried' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, runUlid: run.ulid });
    expect(bulkCasesOf(event!)).toEqual({
      cases: [
        {
          ulid: runCases[0]!.ulid,
          caseDisplayId: runCases[0]!.displayId,
          titleSnapshot: 'Case 1',
          fromStatus: 'passed',
          toStatus: 'untested',
        },
        {
          ulid: runCases[1]!.ulid,
          caseDisplayId: runCases[1]!.displayId,
          titleSnapshot: 'Case 2',
          fromStatus: 'failed',
          toStatus: 'untested',
        },
        { ulid: runCases[2]!.ulid, caseDisplayId: runCases[2]!.displayId, titleSnapshot: 'Case 3', skipped: 'unchanged' },
      ],
      summary: { affected: 2, unchanged: 1, statusTo: 'untested' },
    });
  });

  it('keeps a closed run closed', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'passed' });
    expect((await runOf(t.http, owner, run.ulid)).state).toBe('closed');
    expect((await bulk(owner, run.ulid, 'bulk-retry', { caseUlids: [runCases[0]!.ulid] })).body).toEqual({ affected: 1, unchanged: 0 });
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'closed', counts: { untested: 1, passed: 0 } });
  });
});

describe('POST /api/v1/runs/{runUlid}/cases/bulk-remove', () => {
  it('removes the cases with their steps, keeps their results and records statusAtRemoval', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4, 1);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'blocked' });
    const response = await bulk(owner, run.ulid, 'bulk-remove', {
      caseUlids: [runCases[0]!.ulid, runCases[1]!.caseUlid, '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    });
    expect(response.body).toEqual({ affected: 2, unchanged: 1 });

    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.ulid)).toEqual([runCases[2]!.ulid, runCases[3]!.ulid]);
    const gone = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`).set(owner.headers);
    expectError(gone, 404, 'not_found');
    const [result] = await resultsOf(t.http, owner, run.ulid);
    expect(result).toMatchObject({ status: 'blocked', runCaseUlid: null, caseUlid: runCases[0]!.caseUlid });
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ total: 2, counts: { blocked: 0, untested: 2 } });

    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_removed' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, runUlid: run.ulid });
    expect(bulkCasesOf(event!)).toEqual({
      cases: [
        { ulid: runCases[0]!.ulid, caseDisplayId: runCases[0]!.displayId, titleSnapshot: 'Case 1', statusAtRemoval: 'blocked' },
        { ulid: runCases[1]!.ulid, caseDisplayId: runCases[1]!.displayId, titleSnapshot: 'Case 2', statusAtRemoval: 'untested' },
        { ulid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', caseDisplayId: null, titleSnapshot: null, skipped: 'not_found' },
      ],
      summary: { affected: 2, unchanged: 1 },
    });
  });

  it('closes the run automatically when the remaining cases all have an outcome', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    await bulk(owner, run.ulid, 'bulk-mark', { caseUlids: [runCases[0]!.ulid], status: 'failed' });
    await bulk(owner, run.ulid, 'bulk-remove', { caseUlids: [runCases[1]!.ulid] });
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'closed', status: 'failed', total: 1 });
    const [closed] = await auditEvents(t.http, owner, { action: 'run.closed' });
    expect(closed!.metadata).toMatchObject({ automatic: true });
  });

  it('leaves an emptied run open', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    await bulk(owner, run.ulid, 'bulk-remove', { caseUlids: runCases.map((each) => each.ulid) });
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'open', total: 0 });
  });
});
