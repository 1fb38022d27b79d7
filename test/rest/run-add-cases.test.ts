import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { createCase, createCases, createRun, type RunCaseBody, runCasesOf, runOf } from '../support/runs.ts';

const t = useTestApp();

const addCases = (caller: Caller, runUlid: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/runs/${runUlid}/cases`).set(caller.headers).send(body);

/** An owner's project with `inRun` cases in a run and `more` cases outside it. */
async function runAndMoreCases(inRun: number, more: number, runBody: Record<string, unknown> = {}) {
  const { owner, code } = await ownerWithProject(t.http);
  const cases = await createCases(t.http, owner, code, inRun + more);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.slice(0, inRun).map((each) => each.ulid), ...runBody });
  return { owner, code, run, inRun: cases.slice(0, inRun), more: cases.slice(inRun) };
}

describe('POST /api/v1/runs/{runUlid}/cases', () => {
  it('snapshots live cases after the last case, answers 201 with their run cases, and grows the counters', async () => {
    const { owner, code, run } = await runAndMoreCases(2, 0);
    const withSteps = await createCase(t.http, owner, code, {
      title: 'With steps',
      steps: [{ action: 'Open', expectedResult: 'Opens' }, { action: 'Close' }],
    });
    const plain = await createCase(t.http, owner, code, { title: 'Plain' });

    const response = await addCases(owner, run.ulid, { caseUlids: [plain.ulid, withSteps.ulid] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.added).toBe(2);
    expect(response.body.items).toMatchObject([
      { runUlid: run.ulid, caseUlid: plain.ulid, displayId: plain.displayId, title: 'Plain', position: 2, status: 'untested', steps: [] },
      {
        caseUlid: withSteps.ulid,
        title: 'With steps',
        position: 3,
        status: 'untested',
        steps: [
          { position: 0, action: 'Open', expectedResult: 'Opens', status: 'untested', actualResult: null },
          { position: 1, action: 'Close', expectedResult: null, status: 'untested', actualResult: null },
        ],
      },
    ]);
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.caseUlid).slice(2)).toEqual([plain.ulid, withSteps.ulid]);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ total: 4, counts: { untested: 4 } });

    const [event] = await auditEvents(t.http, owner, { action: 'run.case_added' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(event!.metadata).toEqual({
      added: 2,
      cases: [
        { ulid: response.body.items[0].ulid, caseDisplayId: plain.displayId, titleSnapshot: 'Plain' },
        { ulid: response.body.items[1].ulid, caseDisplayId: withSteps.displayId, titleSnapshot: 'With steps' },
      ],
    });
  });

  it('skips cases already in the run: items still list them, added counts only the new ones', async () => {
    const { owner, run, inRun, more } = await runAndMoreCases(2, 1);
    const before = await runCasesOf(t.http, owner, run.ulid);
    const response = await addCases(owner, run.ulid, { caseUlids: [inRun[1]!.ulid, more[0]!.ulid, inRun[0]!.ulid] });
    expect(response.status).toBe(201);
    expect(response.body.added).toBe(1);
    expect(response.body.items.map((item: RunCaseBody) => item.ulid)).toEqual([before[1]!.ulid, expect.any(String), before[0]!.ulid]);
    expect(response.body.items[1]).toMatchObject({ caseUlid: more[0]!.ulid, position: 2 });
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(3);

    const again = await addCases(owner, run.ulid, { caseUlids: [more[0]!.ulid] });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ added: 0, items: [{ ulid: response.body.items[1].ulid }] });
    expect(await auditEvents(t.http, owner, { action: 'run.case_added' })).toHaveLength(1);
  });

  it('places added cases after the highest position, even when a case before it was removed', async () => {
    const { owner, run, more } = await runAndMoreCases(3, 1);
    const cases = await runCasesOf(t.http, owner, run.ulid);
    const removed = await t.http
      .post(`/api/v1/runs/${run.ulid}/cases/bulk-remove`)
      .set(owner.headers)
      .send({ caseUlids: [cases[1]!.ulid] });
    expect(removed.status).toBe(200);
    const response = await addCases(owner, run.ulid, { caseUlids: [more[0]!.ulid] });
    expect(response.body.items[0].position).toBe(3);
  });

  it("assigns added cases to assigneeUlid, to nobody with null, and to the run's default assignee without it", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const cases = await createCases(t.http, owner, code, 4);
    const run = await createRun(t.http, owner, code, { caseUlids: [cases[0]!.ulid], defaultAssigneeUlid: owner.userId });

    expect((await addCases(owner, run.ulid, { caseUlids: [cases[1]!.ulid], assigneeUlid: member.userId })).body.items[0].assigneeUlid).toBe(
      member.userId,
    );
    expect((await addCases(owner, run.ulid, { caseUlids: [cases[2]!.ulid], assigneeUlid: null })).body.items[0].assigneeUlid).toBeNull();
    expect((await addCases(owner, run.ulid, { caseUlids: [cases[3]!.ulid] })).body.items[0].assigneeUlid).toBe(owner.userId);
  });

  it('answers 404 and adds nothing for an assignee who is not a member', async () => {
    const { owner, run, more } = await runAndMoreCases(1, 1);
    const stranger = await signUp(t.http);
    expectError(await addCases(owner, run.ulid, { caseUlids: [more[0]!.ulid], assigneeUlid: stranger.userId }), 404, 'not_found');
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(1);
  });

  it('answers 404 and adds nothing when a case is archived, unknown or of another project', async () => {
    const { owner, run, more } = await runAndMoreCases(1, 2);
    const archive = await t.http.post(`/api/v1/test-cases/${more[1]!.ulid}/archive`).set(owner.headers);
    expect(archive.status).toBe(200);
    const other = await createProject(t.http, owner);
    const foreign = await createCase(t.http, owner, other.id);
    for (const stranger of [more[1]!.ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV', foreign.ulid]) {
      expectError(await addCases(owner, run.ulid, { caseUlids: [more[0]!.ulid, stranger] }), 404, 'not_found');
    }
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(1);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ total: 1 });
    expect(await auditEvents(t.http, owner, { action: 'run.case_added' })).toHaveLength(0);
  });

  it('lists the first 20 added cases in run.case_added and counts the rest in omittedCount', async () => {
    const { owner, run, more } = await runAndMoreCases(1, 22);
    const response = await addCases(owner, run.ulid, { caseUlids: more.map((each) => each.ulid) });
    expect(response.body.added).toBe(22);
    const [event] = await auditEvents(t.http, owner, { action: 'run.case_added' });
    expect(event!.metadata).toMatchObject({ added: 22, omittedCount: 2 });
    expect((event!.metadata.cases as unknown[]).length).toBe(20);
  });

  it('adds to a closed run, which stays closed; refuses a closed run while allowResultsInClosedRuns is off and an aborted run', async () => {
    const { owner, code, run, inRun, more } = await runAndMoreCases(1, 2);
    const marked = await t.http
      .post(`/api/v1/runs/${run.ulid}/cases/bulk-mark`)
      .set(owner.headers)
      .send({ caseUlids: [inRun[0]!.ulid], status: 'passed' });
    expect(marked.status).toBe(200);
    expect((await runOf(t.http, owner, run.ulid)).state).toBe('closed');

    expect((await addCases(owner, run.ulid, { caseUlids: [more[0]!.ulid] })).status).toBe(201);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ state: 'closed', total: 2, counts: { passed: 1, untested: 1 } });

    expect(
      (await t.http.patch(`/api/v1/projects/${code}/run-settings`).set(owner.headers).send({ allowResultsInClosedRuns: false })).status,
    ).toBe(200);
    expectError(await addCases(owner, run.ulid, { caseUlids: [more[1]!.ulid] }), 409, 'conflict');

    const open = await createRun(t.http, owner, code, { caseUlids: [inRun[0]!.ulid] });
    expect((await t.http.post(`/api/v1/runs/${open.ulid}/abort`).set(owner.headers)).status).toBe(200);
    expectError(await addCases(owner, open.ulid, { caseUlids: [more[1]!.ulid] }), 409, 'conflict');
  });

  it('viewer 403; unknown or foreign run 404', async () => {
    const { owner, run, more } = await runAndMoreCases(1, 1);
    const body = { caseUlids: [more[0]!.ulid] };
    expectError(await addCases(await joinAs(t.http, owner, 'viewer'), run.ulid, body), 403, 'forbidden');
    expectError(await addCases(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV', body), 404, 'not_found');
    expectError(await addCases(await signUp(t.http), run.ulid, body), 404, 'not_found');
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(1);
  });

  it.each([
    ['no caseUlids', {}, ['caseUlids']],
    ['an empty list', { caseUlids: [] }, ['caseUlids']],
    ['a repeated ULID', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, ['caseUlids']],
    [
      '501 ULIDs',
      { caseUlids: Array.from({ length: 501 }, (_, index) => `01ARZ3NDEKTSV4RRFF${String(index).padStart(8, '0')}`) },
      ['caseUlids'],
    ],
    ['a malformed assignee', { caseUlids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], assigneeUlid: 'me' }, ['assigneeUlid']],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, run } = await runAndMoreCases(1, 0);
    const response = await addCases(owner, run.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });
});
