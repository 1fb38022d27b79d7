import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCase, createRun, patchRunCase, type ResultBody, type RunCaseBody, runOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();

const RUN_CASE_FIELDS = [
  'ulid',
  'runUlid',
  'caseUlid',
  'displayId',
  'title',
  'suiteName',
  'position',
  'status',
  'assigneeUlid',
  'elapsedMs',
  'steps',
  'lastResultAt',
  'createdAt',
  'updatedAt',
];

async function listCases(caller: Caller, runUlid: string, query = '') {
  const response = await t.http.get(`/api/v1/runs/${runUlid}/cases${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: RunCaseBody[]; page: number; pageSize: number; total: number };
}

async function mark(caller: Caller, runUlid: string, runCaseUlid: string, body: Record<string, unknown>) {
  const response = await patchRunCase(t.http, caller, runUlid, runCaseUlid, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as RunCaseBody & { resultUlid: string | null };
}

async function results(caller: Caller, runUlid: string, query = '') {
  const response = await t.http.get(`/api/v1/runs/${runUlid}/results${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: ResultBody[]; nextCursor: string | null };
}

describe('GET /api/v1/runs/{runUlid}/cases', () => {
  it('answers a page of RunCase in position order with exactly the record fields', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const suite = await t.http.post(`/api/v1/projects/${code}/suites`).set(owner.headers).send({ name: 'Checkout' });
    const first = await createCase(t.http, owner, code, {
      title: 'Pay by card',
      suiteUlid: suite.body.ulid,
      steps: [{ action: 'Open cart', expectedResult: 'Cart shows' }, { action: 'Pay' }],
    });
    const second = await createCase(t.http, owner, code, { title: 'Refund' });
    const run = await createRun(t.http, owner, code, { caseUlids: [second.ulid, first.ulid] });

    const page = await listCases(owner, run.ulid);
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 2 });
    expect(page.items.map((item) => item.caseUlid)).toEqual([second.ulid, first.ulid]);
    const [refund, card] = page.items;
    expect(Object.keys(card!).sort()).toEqual([...RUN_CASE_FIELDS].sort());
    expect(card).toMatchObject({
      runUlid: run.ulid,
      displayId: first.displayId,
      title: 'Pay by card',
      suiteName: 'Checkout',
      position: 1,
      status: 'untested',
      assigneeUlid: null,
      elapsedMs: null,
      lastResultAt: null,
    });
    expect(refund).toMatchObject({ position: 0, suiteName: null, steps: [] });
    expect(card!.ulid).toMatch(ULID_PATTERN);
    expect(card!.steps).toEqual([
      {
        ulid: expect.stringMatching(ULID_PATTERN),
        position: 0,
        action: 'Open cart',
        expectedResult: 'Cart shows',
        status: 'untested',
        actualResult: null,
      },
      {
        ulid: expect.stringMatching(ULID_PATTERN),
        position: 1,
        action: 'Pay',
        expectedResult: null,
        status: 'untested',
        actualResult: null,
      },
    ]);
  });

  it('pages with page and pageSize, and rejects out-of-range values', async () => {
    const { owner, run } = await runWithCases(t.http, 5);
    const second = await listCases(owner, run.ulid, '?page=2&pageSize=2');
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(second.items.map((item) => item.title)).toEqual(['Case 3', 'Case 4']);
    expect((await listCases(owner, run.ulid, '?page=9&pageSize=2')).items).toEqual([]);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases?pageSize=201`).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases?page=0`).set(owner.headers), 422, 'validation_failed');
  });

  it('filters by status (CSV), assignee (or unassigned with an empty value) and q over title and display ID', async () => {
    const { owner, run, runCases, cases } = await runWithCases(t.http, 12);
    const member = await joinAs(t.http, owner, 'member');
    await mark(owner, run.ulid, runCases[0]!.ulid, { status: 'passed' });
    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'failed' });
    await mark(owner, run.ulid, runCases[2]!.ulid, { status: 'blocked', assigneeUlid: member.userId });
    await mark(owner, run.ulid, runCases[3]!.ulid, { assigneeUlid: member.userId });

    const titlesOf = async (query: string) => (await listCases(owner, run.ulid, query)).items.map((item) => item.title);
    expect(await titlesOf('?status=failed,passed')).toEqual(['Case 1', 'Case 2']);
    expect((await listCases(owner, run.ulid, '?status=untested')).total).toBe(9);
    expect(await titlesOf(`?assigneeUlid=${member.userId}`)).toEqual(['Case 3', 'Case 4']);
    expect(await titlesOf(`?assigneeUlid=${member.userId}&status=blocked`)).toEqual(['Case 3']);
    expect((await listCases(owner, run.ulid, '?assigneeUlid=')).total).toBe(10);
    expect(await titlesOf('?q=case 1')).toEqual(['Case 1', 'Case 10', 'Case 11', 'Case 12']);
    // The display ID: `<code>-11` matches case 11 only; a bare number matches it anywhere.
    expect(await titlesOf(`?q=${cases[10]!.displayId.toLowerCase()}`)).toEqual(['Case 11']);
    expect((await listCases(owner, run.ulid, `?q=${cases[0]!.displayId.split('-')[0]}`)).total).toBe(12);
    expect(await titlesOf('?q=%25')).toEqual([]);
    const filtered = await listCases(owner, run.ulid, '?q=case 1&pageSize=2');
    expect(filtered).toMatchObject({ total: 4, pageSize: 2 });

    const unknown = await t.http.get(`/api/v1/runs/${run.ulid}/cases?status=passed,done`).set(owner.headers);
    expectError(unknown, 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases?assigneeUlid=nobody`).set(owner.headers), 422, 'validation_failed');
  });

  it('is open to a viewer and answers 404 for an unknown run or a run of another organization', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await listCases(viewer, run.ulid)).total).toBe(1);
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.get('/api/v1/runs/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D/cases').set(owner.headers), 404, 'not_found');
  });
});

describe('GET /api/v1/runs/{runUlid}/cases/{runCaseUlid}', () => {
  it('answers the RunCase with linkedDefects and attachments (always present, empty while none)', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const response = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[1]!.ulid}`).set(viewer.headers);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...runCases[1], linkedDefects: [], attachments: [] });
  });

  it('answers 404 for a case of another run, an unknown case and another organization', async () => {
    const { owner, code, run, runCases, cases } = await runWithCases(t.http, 1);
    const other = await createRun(t.http, owner, code, { caseUlids: [cases[0]!.ulid] });
    expectError(await t.http.get(`/api/v1/runs/${other.ulid}/cases/${runCases[0]!.ulid}`).set(owner.headers), 404, 'not_found');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D`).set(owner.headers), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCases[0]!.ulid}`).set(stranger.headers), 404, 'not_found');
  });
});

describe('PATCH /api/v1/runs/{runUlid}/cases/{runCaseUlid}', () => {
  it('marks a changed status: the steps follow, a result is appended and its ULID answered', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 2);
    const target = runCases[0]!;
    const marked = await mark(owner, run.ulid, target.ulid, { status: 'failed', elapsedMs: 1500 });
    expect(marked.resultUlid).toMatch(ULID_PATTERN);
    expect(marked).toMatchObject({ ulid: target.ulid, status: 'failed', elapsedMs: 1500 });
    expect(marked.steps.map((step) => step.status)).toEqual(['failed', 'failed']);
    expect(marked.lastResultAt).toEqual(expect.any(Number));

    const history = await results(owner, run.ulid);
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({
      ulid: marked.resultUlid,
      runCaseUlid: target.ulid,
      status: 'failed',
      elapsedMs: 1500,
      source: 'manual',
    });

    const read = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${target.ulid}`).set(owner.headers);
    const { resultUlid: _resultUlid, ...withoutResult } = marked;
    expect(read.body).toEqual({ ...withoutResult, linkedDefects: [], attachments: [] });

    // untested resets the steps and is a status change like any other: it appends a result.
    const reset = await mark(owner, run.ulid, target.ulid, { status: 'untested' });
    expect(reset.resultUlid).toMatch(ULID_PATTERN);
    expect(reset.steps.map((step) => step.status)).toEqual(['untested', 'untested']);
    expect(reset.elapsedMs).toBe(1500);
    expect((await results(owner, run.ulid)).items.map((row) => row.status)).toEqual(['failed', 'untested']);
  });

  it('appends nothing for the same status again, an assignee-only or an elapsed-only patch', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const member = await joinAs(t.http, owner, 'member');
    const target = runCases[0]!;
    await mark(owner, run.ulid, target.ulid, { status: 'passed', elapsedMs: 100 });
    const before = await runOf(t.http, owner, run.ulid);

    const again = await mark(owner, run.ulid, target.ulid, { status: 'passed' });
    expect(again).toMatchObject({ status: 'passed', resultUlid: null, elapsedMs: 100 });
    const assigned = await mark(owner, run.ulid, target.ulid, { assigneeUlid: member.userId });
    expect(assigned).toMatchObject({ assigneeUlid: member.userId, resultUlid: null, status: 'passed' });
    const timed = await mark(owner, run.ulid, target.ulid, { elapsedMs: 2500 });
    expect(timed).toMatchObject({ elapsedMs: 2500, resultUlid: null });
    const cleared = await mark(owner, run.ulid, target.ulid, { elapsedMs: null, assigneeUlid: null });
    expect(cleared).toMatchObject({ elapsedMs: null, assigneeUlid: null, resultUlid: null });

    expect((await results(owner, run.ulid)).items).toHaveLength(1);
    const after = await runOf(t.http, owner, run.ulid);
    expect(after.totalDurationMs).toBe(100);
    expect(after.counts).toEqual(before.counts);
    expect(await auditEvents(t.http, owner, { action: 'run.case_marked' })).toHaveLength(1);
  });

  it('records run.case_marked, run.case_assigned (via patch) and run.case_updated with the run-case label', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const member = await joinAs(t.http, owner, 'member');
    const target = runCases[0]!;
    await mark(owner, run.ulid, target.ulid, { status: 'blocked', elapsedMs: 42, assigneeUlid: member.userId });
    await mark(owner, run.ulid, target.ulid, { assigneeUlid: null, elapsedMs: 50 });
    await mark(owner, run.ulid, target.ulid, { status: 'passed' });

    const events = (await auditEvents(t.http, owner, { entityUlid: target.ulid })).reverse();
    const label = `${target.displayId} · Case 1`;
    const base = { entityType: 'test_run_case', entityUlid: target.ulid, entityLabel: label, runUlid: run.ulid };
    const snapshot = { caseDisplayId: target.displayId, titleSnapshot: 'Case 1' };
    const memberName = 'Test User';
    expect(events.map((event) => event.action)).toEqual([
      'run.case_assigned',
      'run.case_marked',
      'run.case_assigned',
      'run.case_updated',
      'run.case_marked',
    ]);
    expect(events[0]).toMatchObject({
      ...base,
      metadata: { ...snapshot, assigneeChange: { from: null, to: { ulid: member.userId, name: memberName }, via: 'patch' } },
    });
    expect(events[1]).toMatchObject({
      ...base,
      metadata: { ...snapshot, changes: [{ field: 'status', from: 'untested', to: 'blocked' }], elapsedMs: 42 },
    });
    expect(events[2]!.metadata).toEqual({
      ...snapshot,
      assigneeChange: { from: { ulid: member.userId, name: memberName }, to: null, via: 'patch' },
    });
    expect(events[3]).toMatchObject({ ...base, metadata: { ...snapshot, changes: [{ field: 'elapsed_ms', from: 42, to: 50 }] } });
    expect(events[4]!.metadata).toEqual({ ...snapshot, changes: [{ field: 'status', from: 'blocked', to: 'passed' }] });
  });

  it('clips a long title snapshot in the metadata and flags it truncated', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const title = 'T'.repeat(300);
    const testCase = await createCase(t.http, owner, code, { title });
    const run = await createRun(t.http, owner, code, { caseUlids: [testCase.ulid] });
    const [runCase] = (await listCases(owner, run.ulid)).items;
    await mark(owner, run.ulid, runCase!.ulid, { status: 'passed' });
    const [event] = await auditEvents(t.http, owner, { action: 'run.case_marked' });
    expect(event!.metadata).toMatchObject({ titleSnapshot: 'T'.repeat(240), truncated: true });
    expect(event!.entityLabel).toHaveLength(240);
  });

  it('answers 404 for an assignee who is not a member, and changes nothing', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const outsider = await signUp(t.http);
    const response = await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { assigneeUlid: outsider.userId, status: 'passed' });
    expectError(response, 404, 'not_found');
    expect((await listCases(owner, run.ulid)).items[0]).toMatchObject({ status: 'untested', assigneeUlid: null });
    expect((await results(owner, run.ulid)).items).toEqual([]);
  });

  it.each([
    ['an empty body', {}, []],
    ['an unknown status', { status: 'done' }, ['status']],
    ['an unknown key', { status: 'passed', comment: 'x' }, ['comment']],
    ['a negative elapsedMs', { elapsedMs: -1 }, ['elapsedMs']],
    ['a fractional elapsedMs', { elapsedMs: 1.5 }, ['elapsedMs']],
    ['an elapsedMs past the integer range', { elapsedMs: 2_147_483_648 }, ['elapsedMs']],
    ['a malformed assigneeUlid', { assigneeUlid: 'someone' }, ['assigneeUlid']],
  ])('answers 422 validation_failed for %s', async (_label, body, path) => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const response = await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('accepts the largest elapsedMs', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const marked = await mark(owner, run.ulid, runCases[0]!.ulid, { status: 'passed', elapsedMs: 2_147_483_647 });
    expect(marked.elapsedMs).toBe(2_147_483_647);
    expect((await runOf(t.http, owner, run.ulid)).totalDurationMs).toBe(2_147_483_647);
  });

  it('refuses a viewer (403) and answers 404 for unknown cases, runs and other organizations', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await patchRunCase(t.http, viewer, run.ulid, runCases[0]!.ulid, { status: 'passed' }), 403, 'forbidden');
    expectError(await patchRunCase(t.http, owner, run.ulid, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', { status: 'passed' }), 404, 'not_found');
    expectError(await patchRunCase(t.http, owner, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', runCases[0]!.ulid, { status: 'passed' }), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(await patchRunCase(t.http, stranger, run.ulid, runCases[0]!.ulid, { status: 'passed' }), 404, 'not_found');
    expect((await results(owner, run.ulid)).items).toEqual([]);
  });
});

describe('POST /api/v1/runs/{runUlid}/cases/{runCaseUlid}/open', () => {
  it('assigns an unassigned case to the caller (run.case_assigned via open) and leaves an assigned one alone', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const member = await joinAs(t.http, owner, 'member');
    const open = (caller: Caller, runCaseUlid: string) =>
      t.http.post(`/api/v1/runs/${run.ulid}/cases/${runCaseUlid}/open`).set(caller.headers);

    const opened = await open(member, runCases[0]!.ulid);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ ulid: runCases[0]!.ulid, assigneeUlid: member.userId, status: 'untested' });
    expect(Object.keys(opened.body).sort()).toEqual([...RUN_CASE_FIELDS].sort());

    const again = await open(owner, runCases[0]!.ulid);
    expect(again.status).toBe(200);
    expect(again.body.assigneeUlid).toBe(member.userId);

    const events = await auditEvents(t.http, owner, { action: 'run.case_assigned' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityType: 'test_run_case',
      entityUlid: runCases[0]!.ulid,
      runUlid: run.ulid,
      metadata: { caseDisplayId: runCases[0]!.displayId, assigneeChange: { from: null, to: { ulid: member.userId }, via: 'open' } },
    });

    // A token acts as the user who created it.
    const token = await tokenFor(t.http, member);
    const byToken = await open(token, runCases[1]!.ulid);
    expect(byToken.body.assigneeUlid).toBe(member.userId);
    expectError(await open(await joinAs(t.http, owner, 'viewer'), runCases[1]!.ulid), 403, 'forbidden');
    expectError(await open(owner, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D'), 404, 'not_found');
  });
});

describe('GET /api/v1/runs/{runUlid}/results', () => {
  it('lists the append-only history oldest first with the Result row shape, by user and by token', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const token = await tokenFor(t.http, owner, { name: 'CI bot' });
    await mark(owner, run.ulid, runCases[0]!.ulid, { status: 'failed', elapsedMs: 10 });
    await mark(token, run.ulid, runCases[0]!.ulid, { status: 'passed' });
    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'skipped' });

    const viewer = await joinAs(t.http, owner, 'viewer');
    const history = await results(viewer, run.ulid);
    expect(history.nextCursor).toBeNull();
    expect(history.items.map((row) => [row.runCaseUlid, row.status])).toEqual([
      [runCases[0]!.ulid, 'failed'],
      [runCases[0]!.ulid, 'passed'],
      [runCases[1]!.ulid, 'skipped'],
    ]);
    const [first, second] = history.items;
    expect(first).toEqual({
      ulid: expect.stringMatching(ULID_PATTERN),
      runUlid: run.ulid,
      runCaseUlid: runCases[0]!.ulid,
      caseUlid: runCases[0]!.caseUlid,
      status: 'failed',
      elapsedMs: 10,
      comment: null,
      executedAt: expect.any(Number),
      executedByUlid: owner.userId,
      author: { kind: 'user', ulid: owner.userId, displayName: 'Test User', avatarKey: null },
      source: 'manual',
      attempt: 1,
      flaky: false,
      parameters: null,
    });
    expect(second).toMatchObject({
      elapsedMs: null,
      executedByUlid: owner.userId,
      author: { kind: 'api_token', ulid: token.tokenUlid, name: 'CI bot' },
      source: 'api',
    });
    expect(second!.executedAt).toBeGreaterThanOrEqual(first!.executedAt);
  });

  it('pages with limit and cursor, filters by runCaseUlid and rejects a foreign cursor', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    for (const status of ['passed', 'failed', 'blocked']) await mark(owner, run.ulid, runCases[0]!.ulid, { status });
    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'passed' });
    const all = (await results(owner, run.ulid)).items;
    expect(all).toHaveLength(4);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: ResultBody[]; nextCursor: string | null } = await results(
        owner,
        run.ulid,
        `?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.items.map((row) => row.ulid));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((row) => row.ulid));

    const ofSecond = await results(owner, run.ulid, `?runCaseUlid=${runCases[1]!.ulid}`);
    expect(ofSecond.items.map((row) => row.ulid)).toEqual([all[3]!.ulid]);

    const otherRun = await runWithCases(t.http, 1);
    await mark(otherRun.owner, otherRun.run.ulid, otherRun.runCases[0]!.ulid, { status: 'passed' });
    const foreign = (await results(otherRun.owner, otherRun.run.ulid)).items[0]!.ulid;
    const refused = await t.http.get(`/api/v1/runs/${run.ulid}/results?cursor=${foreign}`).set(owner.headers);
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.error.details.path).toEqual(['cursor']);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/results?limit=201`).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(otherRun.owner.headers), 404, 'not_found');
  });
});

describe('run counters and state under marks', () => {
  it('moves counts, executed, passRate, durations and result times, then closes the run automatically', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    const fresh = await runOf(t.http, owner, run.ulid);
    expect(fresh).toMatchObject({ total: 4, executed: 0, passRate: 0, firstResultAt: null, lastResultAt: null, totalDurationMs: 0 });

    await mark(owner, run.ulid, runCases[0]!.ulid, { status: 'passed', elapsedMs: 1000 });
    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'failed', elapsedMs: 500 });
    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'retested' });
    const midway = await runOf(t.http, owner, run.ulid);
    expect(midway).toMatchObject({
      state: 'open',
      status: 'in_progress',
      counts: { passed: 1, failed: 0, blocked: 0, skipped: 0, untested: 3 },
      total: 4,
      executed: 1,
      passRate: 25,
      totalDurationMs: 1500,
    });
    const history = (await results(owner, run.ulid)).items;
    expect(midway.firstResultAt).toBe(history[0]!.executedAt);
    expect(midway.lastResultAt).toBe(history[2]!.executedAt);

    await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'blocked' });
    await mark(owner, run.ulid, runCases[2]!.ulid, { status: 'skipped' });
    expect((await runOf(t.http, owner, run.ulid)).state).toBe('open');
    await mark(owner, run.ulid, runCases[3]!.ulid, { status: 'passed', elapsedMs: 1 });
    const closed = await runOf(t.http, owner, run.ulid);
    expect(closed).toMatchObject({
      state: 'closed',
      status: 'failed',
      closedAt: expect.any(Number),
      counts: { passed: 2, failed: 0, blocked: 1, skipped: 1, untested: 0 },
      executed: 4,
      passRate: 50,
      totalDurationMs: 1501,
    });
    const [event] = await auditEvents(t.http, owner, { action: 'run.closed' });
    expect(event).toMatchObject({
      entityType: 'test_run',
      entityUlid: run.ulid,
      runUlid: run.ulid,
      metadata: {
        automatic: true,
        runAggregates: {
          countPassed: 2,
          countFailed: 0,
          countBlocked: 1,
          countSkipped: 1,
          countUntested: 0,
          totalDurationMs: 1501,
          projectedStatus: 'failed',
        },
      },
    });

    // A closed (not aborted) run accepts marks by default and stays closed.
    const late = await mark(owner, run.ulid, runCases[1]!.ulid, { status: 'passed' });
    expect(late.resultUlid).toMatch(ULID_PATTERN);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'closed', status: 'passed', counts: { passed: 3, blocked: 0 } });
    expect(await auditEvents(t.http, owner, { action: 'run.closed' })).toHaveLength(1);
  });

  it('refuses every run case mutation on an aborted run with 409 conflict', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 1);
    const aborted = await t.http.post(`/api/v1/runs/${run.ulid}/abort`).set(owner.headers);
    expect(aborted.status, JSON.stringify(aborted.body)).toBe(200);
    const target = runCases[0]!;
    expectError(await patchRunCase(t.http, owner, run.ulid, target.ulid, { status: 'passed' }), 409, 'conflict');
    expectError(await patchRunCase(t.http, owner, run.ulid, target.ulid, { assigneeUlid: owner.userId }), 409, 'conflict');
    const step = t.http.patch(`/api/v1/runs/${run.ulid}/cases/${target.ulid}/steps/${target.steps[0]!.ulid}`);
    expectError(await step.set(owner.headers).send({ status: 'passed' }), 409, 'conflict');
    expectError(await t.http.post(`/api/v1/runs/${run.ulid}/cases/${target.ulid}/open`).set(owner.headers), 409, 'conflict');
    expect((await results(owner, run.ulid)).items).toEqual([]);
  });
});
