import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, expectError, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCases, createRun, resultsOf, runCasesOf, runOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();

const submit = (caller: Caller, runUlid: string, results: unknown) =>
  t.http.post(`/api/v1/runs/${runUlid}/results/bulk`).set(caller.headers).send({ results });

/** Nothing was written: no result, every case untested, no bulk event. */
async function expectNothingWritten(owner: Caller, runUlid: string) {
  expect(await resultsOf(t.http, owner, runUlid)).toEqual([]);
  expect((await runCasesOf(t.http, owner, runUlid)).every((each) => each.status === 'untested')).toBe(true);
  expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' })).toHaveLength(0);
}

describe('POST /api/v1/runs/{runUlid}/results/bulk', () => {
  it('appends one bulk result per entry, in order, by run case or test case ULID, and marks the cases', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 3, 1);
    const response = await submit(owner, run.ulid, [
      { runCaseUlid: runCases[0]!.ulid, status: 'passed', elapsedMs: 1500, comment: 'fine' },
      { caseUlid: runCases[1]!.caseUlid, status: 'failed', elapsedMs: 500 },
      { runCaseUlid: runCases[2]!.ulid, status: 'blocked', comment: null, elapsedMs: null },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ affected: 3, unchanged: 0 });
    expect(response.body.resultUlids).toHaveLength(3);
    for (const ulid of response.body.resultUlids as string[]) expect(ulid).toMatch(ULID_PATTERN);

    const results = await resultsOf(t.http, owner, run.ulid);
    const byUlid = new Map(results.map((result) => [result.ulid, result]));
    expect(response.body.resultUlids.map((ulid: string) => byUlid.get(ulid))).toMatchObject([
      { runCaseUlid: runCases[0]!.ulid, status: 'passed', elapsedMs: 1500, comment: 'fine', source: 'bulk', executedByUlid: owner.userId },
      { runCaseUlid: runCases[1]!.ulid, status: 'failed', elapsedMs: 500, comment: null, source: 'bulk' },
      { runCaseUlid: runCases[2]!.ulid, status: 'blocked', elapsedMs: null, comment: null, source: 'bulk' },
    ]);
    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after.map((each) => [each.status, each.elapsedMs, each.steps[0]!.status])).toEqual([
      ['passed', 1500, 'passed'],
      ['failed', 500, 'failed'],
      ['blocked', null, 'blocked'],
    ]);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({
      state: 'closed',
      status: 'failed',
      totalDurationMs: 2000,
      counts: { passed: 1, failed: 1, blocked: 1, untested: 0 },
    });
  });

  it('appends a result even when the status repeats (counted unchanged), and applies entries for one case in order', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    await submit(owner, run.ulid, [{ runCaseUlid: runCases[0]!.ulid, status: 'passed' }]);
    const response = await submit(owner, run.ulid, [
      { runCaseUlid: runCases[0]!.ulid, status: 'passed' },
      { runCaseUlid: runCases[1]!.ulid, status: 'failed' },
      { caseUlid: runCases[1]!.caseUlid, status: 'passed' },
    ]);
    expect(response.body).toMatchObject({ affected: 2, unchanged: 1 });
    expect(response.body.resultUlids).toHaveLength(3);
    expect(await resultsOf(t.http, owner, run.ulid)).toHaveLength(4);
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.status)).toEqual(['passed', 'passed']);
    expect((await runOf(t.http, owner, run.ulid)).counts).toMatchObject({ passed: 2, failed: 0, untested: 0 });

    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(event!.metadata.bulkCases).toEqual({
      cases: [
        {
          ulid: runCases[1]!.ulid,
          caseDisplayId: runCases[1]!.displayId,
          titleSnapshot: 'Case 2',
          fromStatus: 'untested',
          toStatus: 'failed',
        },
        {
          ulid: runCases[1]!.ulid,
          caseDisplayId: runCases[1]!.displayId,
          titleSnapshot: 'Case 2',
          fromStatus: 'failed',
          toStatus: 'passed',
        },
        {
          ulid: runCases[0]!.ulid,
          caseDisplayId: runCases[0]!.displayId,
          titleSnapshot: 'Case 1',
          fromStatus: 'passed',
          toStatus: 'passed',
        },
      ],
      summary: { affected: 2, unchanged: 1 },
    });
  });

  it('records one event even when every entry repeats its case status', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    await submit(owner, run.ulid, [{ runCaseUlid: runCases[0]!.ulid, status: 'skipped' }]);
    const response = await submit(owner, run.ulid, [{ runCaseUlid: runCases[0]!.ulid, status: 'skipped' }]);
    expect(response.body).toMatchObject({ affected: 0, unchanged: 1 });
    const events = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(events).toHaveLength(2);
    expect((events[0]!.metadata.bulkCases as { summary: unknown }).summary).toEqual({ affected: 0, unchanged: 1, statusTo: 'skipped' });
  });

  it('answers 404 and writes nothing when any entry names no case of the run', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2);
    const [elsewhere] = await createCases(t.http, owner, code, 1);
    const cases: Array<[Record<string, unknown>, Array<string | number>]> = [
      [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed' }, ['results', 1, 'runCaseUlid']],
      [{ caseUlid: elsewhere!.ulid, status: 'passed' }, ['results', 1, 'caseUlid']],
      // Each key takes only its own kind of ULID.
      [{ runCaseUlid: runCases[1]!.caseUlid, status: 'passed' }, ['results', 1, 'runCaseUlid']],
      [{ caseUlid: runCases[1]!.ulid, status: 'passed' }, ['results', 1, 'caseUlid']],
    ];
    for (const [entry, path] of cases) {
      const response = await submit(owner, run.ulid, [{ runCaseUlid: runCases[0]!.ulid, status: 'passed' }, entry]);
      expectError(response, 404, 'not_found');
      expect(response.body.error.details.path).toEqual(path);
    }
    await expectNothingWritten(owner, run.ulid);
  });

  it('answers 403 run_case_assignee_locked for the whole request when an entry is locked to another assignee', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2);
    const member = await joinAs(t.http, owner, 'member');
    const other = await joinAs(t.http, owner, 'member');
    const assign = await t.http
      .post(`/api/v1/runs/${run.ulid}/cases/bulk-assign`)
      .set(owner.headers)
      .send({ caseUlids: [runCases[1]!.ulid], assigneeUlid: other.userId });
    expect(assign.status).toBe(200);
    const settings = await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ assigneeResultLock: true });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    const response = await submit(member, run.ulid, [
      { runCaseUlid: runCases[0]!.ulid, status: 'passed' },
      { runCaseUlid: runCases[1]!.ulid, status: 'passed' },
    ]);
    expectError(response, 403, 'run_case_assignee_locked');
    expect(response.body.error.details.path).toEqual(['results', 1, 'runCaseUlid']);
    await expectNothingWritten(owner, run.ulid);
    expect((await submit(other, run.ulid, [{ runCaseUlid: runCases[1]!.ulid, status: 'passed' }])).status).toBe(200);
  });

  it('is not held to timeTracking required', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 1);
    const settings = await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ timeTracking: 'required' });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect((await submit(owner, run.ulid, [{ runCaseUlid: runCases[0]!.ulid, status: 'failed' }])).status).toBe(200);
  });

  it('charges a token caller one result per entry and refuses the whole request over the monthly ceiling', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 4 });
    const usage = async () => (await t.http.get(`/api/v1/orgs/${owner.orgId}/api-result-usage`).set(owner.headers)).body.used;
    const entry = { runCaseUlid: runCases[0]!.ulid, status: 'passed' };

    expect((await submit(token, run.ulid, [entry, entry, entry])).status).toBe(200);
    expect(await usage()).toBe(3);
    expectError(
      await submit(token, run.ulid, [entry, { runCaseUlid: runCases[1]!.ulid, status: 'failed' }]),
      409,
      'api_result_limit_exceeded',
    );
    expect(await usage()).toBe(3);
    expect(await resultsOf(t.http, owner, run.ulid)).toHaveLength(3);
    expect((await runCasesOf(t.http, owner, run.ulid))[1]!.status).toBe('untested');
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' })).toHaveLength(1);
    const last = await submit(token, run.ulid, [{ runCaseUlid: runCases[1]!.ulid, status: 'failed' }]);
    expect(last.status).toBe(200);
    expect(await usage()).toBe(4);
    const [result] = (await resultsOf(t.http, owner, run.ulid)).slice(-1);
    expect(result).toMatchObject({ source: 'bulk', executedByUlid: owner.userId });
  });

  it.each([
    ['no results', {}, ['results']],
    ['an empty list', { results: [] }, ['results']],
    [
      'both ULIDs',
      { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', caseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed' }] },
      ['results', 0, 'runCaseUlid'],
    ],
    ['neither ULID', { results: [{ status: 'passed' }] }, ['results', 0, 'runCaseUlid']],
    ['status untested', { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'untested' }] }, ['results', 0, 'status']],
    ['status retested', { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'retested' }] }, ['results', 0, 'status']],
    [
      'a negative elapsedMs',
      { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed', elapsedMs: -1 }] },
      ['results', 0, 'elapsedMs'],
    ],
    [
      'a fractional elapsedMs',
      { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed', elapsedMs: 1.5 }] },
      ['results', 0, 'elapsedMs'],
    ],
    [
      'a comment over 10000 characters',
      { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed', comment: 'c'.repeat(10_001) }] },
      ['results', 0, 'comment'],
    ],
    [
      'an unknown entry key',
      { results: [{ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed', note: 'x' }] },
      ['results', 0, 'note'],
    ],
    [
      '501 entries',
      { results: Array.from({ length: 501 }, () => ({ runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed' })) },
      ['results'],
    ],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, run } = await runWithCases(t.http, 1);
    const response = await t.http.post(`/api/v1/runs/${run.ulid}/results/bulk`).set(owner.headers).send(body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('takes 500 entries and a 10000-character comment', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const results = Array.from({ length: 500 }, (_, index) => ({
      runCaseUlid: runCases[0]!.ulid,
      status: index % 2 ? 'passed' : 'failed',
      comment: index === 0 ? 'c'.repeat(10_000) : undefined,
    }));
    const response = await submit(owner, run.ulid, results);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ affected: 500, unchanged: 0 });
    expect(new Set(response.body.resultUlids).size).toBe(500);
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(event!.metadata.bulkCases).toMatchObject({ omittedCount: 480, summary: { affected: 500, unchanged: 0 } });
  });

  it('viewer 403; unknown or foreign run 404; aborted run 409; closed run only while allowed', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2);
    const entries = [{ runCaseUlid: runCases[0]!.ulid, status: 'passed' }];
    expectError(await submit(await joinAs(t.http, owner, 'viewer'), run.ulid, entries), 403, 'forbidden');
    expectError(await submit(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV', entries), 404, 'not_found');
    expectError(await submit(await signUp(t.http), run.ulid, entries), 404, 'not_found');
    await expectNothingWritten(owner, run.ulid);

    expect((await t.http.post(`/api/v1/runs/${run.ulid}/close`).set(owner.headers)).status).toBe(200);
    expect(
      (await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ allowResultsInClosedRuns: false })).status,
    ).toBe(200);
    expectError(await submit(owner, run.ulid, entries), 409, 'conflict');
    expect(
      (await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ allowResultsInClosedRuns: true })).status,
    ).toBe(200);
    expect((await submit(owner, run.ulid, entries)).status).toBe(200);

    const aborted = await createRun(t.http, owner, code, { caseUlids: [runCases[0]!.caseUlid] });
    expect((await t.http.post(`/api/v1/runs/${aborted.ulid}/abort`).set(owner.headers)).status).toBe(200);
    expectError(await submit(owner, aborted.ulid, [{ caseUlid: runCases[0]!.caseUlid, status: 'passed' }]), 409, 'conflict');
  });
});
