import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  type Caller,
  createMilestone,
  createProject,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  useTestApp,
} from '../support/app.ts';
import { configurationValue, createCases, createEnvironment, createRun, runCasesOf, runOf } from '../support/runs.ts';

const t = useTestApp();

const UNKNOWN = '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D';

/** Marks the run's cases, in position order, with `statuses` (undefined leaves a case untested). */
async function mark(caller: Caller, runUlid: string, statuses: Array<string | undefined>) {
  const cases = await runCasesOf(t.http, caller, runUlid);
  for (const [index, status] of statuses.entries()) {
    if (!status) continue;
    const response = await t.http.patch(`/api/v1/runs/${runUlid}/cases/${cases[index]!.ulid}`).set(caller.headers).send({ status });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
}

/** An owner's project with a run of `size` cases (two steps each). */
async function runScenario(size = 3, body: Record<string, unknown> = {}) {
  const { owner, project, code } = await ownerWithProject(t.http);
  const cases = await createCases(t.http, owner, code, size, 2);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid), ...body });
  return { owner, project, code, cases, run };
}

const patchRun = (caller: Caller, runUlid: string, body: Record<string, unknown>) =>
  t.http.patch(`/api/v1/runs/${runUlid}`).set(caller.headers).send(body);
const post = (caller: Caller, path: string, body: Record<string, unknown> = {}) =>
  t.http.post(`/api/v1${path}`).set(caller.headers).send(body);

describe('PATCH /api/v1/runs/{runUlid}', () => {
  it('changes name, description, default assignee, environment and milestone in one run.updated', async () => {
    const { owner, code, run } = await runScenario(1, { environment: 'Legacy box' });
    const member = await joinAs(t.http, owner, 'member');
    const environment = await createEnvironment(t.http, owner, code, 'Staging');
    const milestone = await createMilestone(t.http, owner, code, { name: 'R2' });
    const legacy = run.environment as { ulid: string; name: string };
    const response = await patchRun(owner, run.ulid, {
      name: 'Nightly (EU)',
      description: 'Only EU',
      defaultAssigneeUlid: member.userId,
      environmentId: environment.ulid,
      milestoneId: milestone.ulid,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Nightly (EU)',
      description: 'Only EU',
      defaultAssigneeUlid: member.userId,
      environmentId: environment.ulid,
      environment: { ulid: environment.ulid, name: 'Staging' },
      environmentName: null,
      milestoneUlid: milestone.ulid,
      milestone: { ulid: milestone.ulid, name: 'R2' },
    });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(run.updatedAt as number);
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ name: 'Nightly (EU)', environmentId: environment.ulid });

    const [event] = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: 'Nightly (EU)', runUlid: run.ulid });
    expect(event!.metadata).toEqual({
      changes: [
        { field: 'name', from: 'Nightly', to: 'Nightly (EU)' },
        { field: 'description', from: null, to: 'Only EU' },
        { field: 'defaultAssigneeUlid', from: null, to: member.userId, fromLabel: null, toLabel: 'Test User' },
        { field: 'environment', from: legacy.ulid, to: environment.ulid, fromLabel: 'Legacy box', toLabel: 'Staging' },
        { field: 'milestoneUlid', from: null, to: milestone.ulid, fromLabel: null, toLabel: 'R2' },
      ],
    });
  });

  it('answers 200 without an event or an updatedAt bump when nothing changes', async () => {
    const { owner, run } = await runScenario(1, { description: 'Same' });
    const response = await patchRun(owner, run.ulid, {
      name: run.name,
      description: 'Same',
      environmentId: null,
      defaultAssigneeUlid: null,
    });
    expect(response.status).toBe(200);
    expect(response.body.updatedAt).toBe(run.updatedAt);
    expect(await auditEvents(t.http, owner, { action: 'run.updated' })).toEqual([]);
  });

  it('unlinks the environment with null and clears the milestone and default assignee with null', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const environment = await createEnvironment(t.http, owner, code, 'Prod');
    const milestone = await createMilestone(t.http, owner, code);
    const run = await createRun(t.http, owner, code, {
      caseUlids: [],
      environmentId: environment.ulid,
      milestoneId: milestone.ulid,
      defaultAssigneeUlid: owner.userId,
    });
    const response = await patchRun(owner, run.ulid, { environmentId: null, milestoneId: null, defaultAssigneeUlid: null });
    expect(response.body).toMatchObject({
      environmentId: null,
      environment: null,
      milestoneUlid: null,
      milestone: null,
      defaultAssigneeUlid: null,
    });
    const [event] = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(event!.metadata.changes).toEqual([
      { field: 'defaultAssigneeUlid', from: owner.userId, to: null, fromLabel: 'Test User', toLabel: null },
      { field: 'environment', from: environment.ulid, to: null, fromLabel: 'Prod', toLabel: null },
      { field: 'milestoneUlid', from: milestone.ulid, to: null, fromLabel: 'Release 1', toLabel: null },
    ]);
  });

  it('re-snapshots configurations and the comboKey', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const chrome = await configurationValue(t.http, owner, code, 'Browser', 'Chrome');
    const linux = await configurationValue(t.http, owner, code, 'OS', 'Linux');
    const run = await createRun(t.http, owner, code, { caseUlids: [], configurationUlids: [chrome] });
    const response = await patchRun(owner, run.ulid, { configurationUlids: [linux, chrome] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.comboKey).toBe([chrome, linux].sort().join(':'));
    expect(response.body.configurations.map((each: { valueName: string }) => each.valueName)).toEqual(['Chrome', 'Linux']);
    const [event] = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(event!.metadata.changes).toEqual([
      {
        field: 'configurations',
        from: chrome,
        to: response.body.comboKey,
        fromLabel: 'Browser: Chrome',
        toLabel: 'Browser: Chrome, OS: Linux',
      },
    ]);
    const cleared = await patchRun(owner, run.ulid, { configurationUlids: [] });
    expect(cleared.body).toMatchObject({ comboKey: '', configurations: [] });
    expectError(await patchRun(owner, run.ulid, { configurationUlids: [UNKNOWN] }), 404, 'not_found');
  });

  it.each([
    ['an empty body', {}, []],
    ['free-text environment', { environment: 'Staging' }, ['environment']],
    ['an empty name', { name: '' }, ['name']],
    ['a malformed environmentId', { environmentId: 'staging' }, ['environmentId']],
    ['a repeated configuration', { configurationUlids: [UNKNOWN, UNKNOWN] }, ['configurationUlids']],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, run } = await runScenario(1);
    const response = await patchRun(owner, run.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('answers 404 for unknown references and changes nothing', async () => {
    const { owner, run } = await runScenario(1);
    const other = await createProject(t.http, owner);
    const foreignMilestone = await createMilestone(t.http, owner, other.id);
    const stranger = await signUp(t.http);
    for (const body of [
      { name: 'Renamed', environmentId: UNKNOWN },
      { name: 'Renamed', milestoneId: foreignMilestone.ulid },
      { name: 'Renamed', defaultAssigneeUlid: stranger.userId },
    ]) {
      expectError(await patchRun(owner, run.ulid, body), 404, 'not_found');
    }
    expect((await runOf(t.http, owner, run.ulid)).name).toBe('Nightly');
    expectError(await patchRun(owner, UNKNOWN, { name: 'x' }), 404, 'not_found');
    expectError(await patchRun(stranger, run.ulid, { name: 'x' }), 404, 'not_found');
  });

  it('is allowed to members, refused to viewers (403), and allowed on a closed run', async () => {
    const { owner, run } = await runScenario(1);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await patchRun(viewer, run.ulid, { name: 'Viewer' }), 403, 'forbidden');
    expect((await post(owner, `/runs/${run.ulid}/close`)).status).toBe(200);
    const response = await patchRun(member, run.ulid, { name: 'After close' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'After close', state: 'closed' });
  });
});

describe('POST /api/v1/runs/{runUlid}/close', () => {
  it('closes an open run early, untested cases remaining, with run.closed and its runAggregates; 409 the second time', async () => {
    const { owner, run } = await runScenario(3);
    await mark(owner, run.ulid, ['passed', 'skipped']);
    const response = await post(owner, `/runs/${run.ulid}/close`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      state: 'closed',
      status: 'passed',
      abortedAt: null,
      counts: { passed: 1, failed: 0, blocked: 0, skipped: 1, untested: 1 },
    });
    expect(response.body.closedAt).toBeGreaterThanOrEqual(run.createdAt as number);
    const [event] = await auditEvents(t.http, owner, { action: 'run.closed' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(event!.metadata).toEqual({
      runAggregates: {
        countPassed: 1,
        countFailed: 0,
        countBlocked: 0,
        countSkipped: 1,
        countUntested: 1,
        totalDurationMs: 0,
        projectedStatus: 'passed',
      },
    });
    expectError(await post(owner, `/runs/${run.ulid}/close`), 409, 'conflict');
    expect(await auditEvents(t.http, owner, { action: 'run.closed' })).toHaveLength(1);
  });

  it('projects failed when a case failed or is blocked; viewers get 403', async () => {
    const { owner, run } = await runScenario(2);
    const viewer = await joinAs(t.http, owner, 'viewer');
    await mark(owner, run.ulid, ['blocked']);
    expectError(await post(viewer, `/runs/${run.ulid}/close`), 403, 'forbidden');
    const response = await post(owner, `/runs/${run.ulid}/close`);
    expect(response.body.status).toBe('failed');
    const [event] = await auditEvents(t.http, owner, { action: 'run.closed' });
    expect((event!.metadata.runAggregates as { projectedStatus: string }).projectedStatus).toBe('failed');
  });
});

describe('POST /api/v1/runs/{runUlid}/abort', () => {
  it('closes the run with abortedAt, leaves untested cases untested and records run.aborted', async () => {
    const { owner, run } = await runScenario(3);
    await mark(owner, run.ulid, ['failed']);
    const response = await post(owner, `/runs/${run.ulid}/abort`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'closed', status: 'aborted', counts: { failed: 1, untested: 2 } });
    expect(response.body.abortedAt).toBe(response.body.closedAt);
    expect(typeof response.body.abortedAt).toBe('number');
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.status)).toEqual(['failed', 'untested', 'untested']);
    const [event] = await auditEvents(t.http, owner, { action: 'run.aborted' });
    expect(event).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(event!.metadata).toEqual({
      runAggregates: {
        countPassed: 0,
        countFailed: 1,
        countBlocked: 0,
        countSkipped: 0,
        countUntested: 2,
        totalDurationMs: 0,
        projectedStatus: 'aborted',
      },
    });
  });

  it('answers 409 unless the run is open (closed or already aborted), 403 for viewers', async () => {
    const { owner, code, run } = await runScenario(1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await post(viewer, `/runs/${run.ulid}/abort`), 403, 'forbidden');
    expect((await post(owner, `/runs/${run.ulid}/abort`)).status).toBe(200);
    expectError(await post(owner, `/runs/${run.ulid}/abort`), 409, 'conflict');
    const closed = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await post(owner, `/runs/${closed.ulid}/close`)).status).toBe(200);
    expectError(await post(owner, `/runs/${closed.ulid}/abort`), 409, 'conflict');
    expect(await runOf(t.http, owner, closed.ulid)).toMatchObject({ state: 'closed', abortedAt: null, status: 'passed' });
    expect(await auditEvents(t.http, owner, { action: 'run.aborted' })).toHaveLength(1);
  });

  it('freezes the run: every mutation answers 409, reads still work', async () => {
    const { owner, run } = await runScenario(2);
    expect((await post(owner, `/runs/${run.ulid}/abort`)).status).toBe(200);
    const [first] = await runCasesOf(t.http, owner, run.ulid);
    const attempts = [
      await patchRun(owner, run.ulid, { name: 'Later' }),
      await post(owner, `/runs/${run.ulid}/close`),
      await t.http.put(`/api/v1/runs/${run.ulid}/custom-field-values`).set(owner.headers).send({ values: [] }),
      await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${first!.ulid}`).set(owner.headers).send({ status: 'passed' }),
    ];
    for (const attempt of attempts) expectError(attempt, 409, 'conflict');
    expect(await runOf(t.http, owner, run.ulid)).toMatchObject({ name: 'Nightly', status: 'aborted', counts: { untested: 2 } });
  });
});

describe('DELETE /api/v1/runs/{runUlid}', () => {
  it('is for owners and admins: members and viewers get 403', async () => {
    const { owner, run } = await runScenario(1);
    const admin = await joinAs(t.http, owner, 'admin');
    for (const role of ['member', 'viewer'] as const) {
      expectError(await t.http.delete(`/api/v1/runs/${run.ulid}`).set((await joinAs(t.http, owner, role)).headers), 403, 'forbidden');
    }
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(admin.headers)).status).toBe(204);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers), 404, 'not_found');
    expectError(await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers), 404, 'not_found');
  });

  it('records run.deleted (runAggregates, wasState, closedAt), which stays in the org feed with runUlid null', async () => {
    const { owner, code, run } = await runScenario(2);
    await mark(owner, run.ulid, ['passed']);
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers)).status).toBe(204);
    const events = await auditEvents(t.http, owner, { entityUlid: run.ulid });
    expect(events.map((event) => event.action)).toEqual(['run.deleted', 'run.created']);
    expect(events.every((event) => event.runUlid === null)).toBe(true);
    expect(events[0]).toMatchObject({ entityType: 'test_run', entityLabel: 'Nightly' });
    expect(events[0]!.metadata).toEqual({
      runAggregates: {
        countPassed: 1,
        countFailed: 0,
        countBlocked: 0,
        countSkipped: 0,
        countUntested: 1,
        totalDurationMs: 0,
        projectedStatus: 'in_progress',
      },
      wasState: 'open',
      closedAt: null,
    });
    expect((await t.http.get(`/api/v1/projects/${code}/runs`).set(owner.headers)).body.total).toBe(0);
  });

  it('deletes closed and aborted runs too, reporting their state', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const closed = await createRun(t.http, owner, code, { caseUlids: [] });
    const closedAt = (await post(owner, `/runs/${closed.ulid}/close`)).body.closedAt;
    const aborted = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await post(owner, `/runs/${aborted.ulid}/abort`)).status).toBe(200);
    for (const run of [closed, aborted]) expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers)).status).toBe(204);
    const events = await auditEvents(t.http, owner, { action: 'run.deleted' });
    expect(
      events.map((event) => [
        event.metadata.wasState,
        event.metadata.closedAt,
        (event.metadata.runAggregates as { projectedStatus: string }).projectedStatus,
      ]),
    ).toEqual([
      ['closed', expect.any(Number), 'aborted'],
      ['closed', closedAt, 'passed'],
    ]);
  });
});

describe('POST /api/v1/projects/{projectId}/runs/{runUlid}/clone', () => {
  const clone = (caller: Caller, code: string, runUlid: string, body: Record<string, unknown>) =>
    post(caller, `/projects/${code}/runs/${runUlid}/clone`, body);

  it('copies the case snapshots filtered by status into a new open run with run.cloned', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const environment = await createEnvironment(t.http, owner, code, 'Prod');
    const milestone = await createMilestone(t.http, owner, code);
    const chrome = await configurationValue(t.http, owner, code, 'Browser', 'Chrome');
    const cases = await createCases(t.http, owner, code, 5, 1);
    const source = await createRun(t.http, owner, code, {
      caseUlids: cases.map((each) => each.ulid),
      description: 'Source run',
      defaultAssigneeUlid: member.userId,
      environmentId: environment.ulid,
      milestoneId: milestone.ulid,
      configurationUlids: [chrome],
    });
    await mark(owner, source.ulid, ['passed', 'failed', 'blocked', 'skipped']);
    // The live case changes after the source run snapshotted it: the clone copies the snapshot.
    const edit = await t.http
      .patch(`/api/v1/test-cases/${cases[1]!.ulid}`)
      .set(owner.headers)
      .send({ patch: { title: 'Edited live' } });
    expect(edit.status).toBe(200);

    const response = await clone(owner, code, source.ulid, { title: 'Rerun failures', statusFilter: ['failed', 'blocked'] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Rerun failures',
      description: 'Source run',
      state: 'open',
      status: 'in_progress',
      abortedAt: null,
      total: 2,
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 2 },
      defaultAssigneeUlid: member.userId,
      environmentId: environment.ulid,
      milestoneUlid: milestone.ulid,
      comboKey: chrome,
      configurations: [{ configurationUlid: chrome, groupName: 'Browser', valueName: 'Chrome' }],
      author: { kind: 'user', ulid: owner.userId },
    });
    expect(response.body.ulid).not.toBe(source.ulid);
    const copied = await runCasesOf(t.http, owner, response.body.ulid);
    expect(copied.map((each) => [each.title, each.status, each.assigneeUlid, each.steps.map((step) => step.action)])).toEqual([
      ['Case 2', 'untested', null, ['Step 1']],
      ['Case 3', 'untested', null, ['Step 1']],
    ]);
    expect((await runOf(t.http, owner, source.ulid)).counts).toEqual({ passed: 1, failed: 1, blocked: 1, skipped: 1, untested: 1 });

    const [event] = await auditEvents(t.http, owner, { action: 'run.cloned' });
    expect(event).toMatchObject({
      entityType: 'test_run',
      entityUlid: response.body.ulid,
      entityLabel: 'Rerun failures',
      runUlid: response.body.ulid,
    });
    expect(event!.metadata).toEqual({
      caseCount: 2,
      sourceRun: { ulid: source.ulid, name: 'Nightly' },
      cloneAssignees: false,
      statusFilter: ['failed', 'blocked'],
    });
  });

  it('clones every case when statusFilter is omitted or empty (statusFilter null); cloneAssignees keeps assignees', async () => {
    const { owner, code, run } = await runScenario(3);
    const member = await joinAs(t.http, owner, 'member');
    const [first] = await runCasesOf(t.http, owner, run.ulid);
    const assign = await t.http
      .patch(`/api/v1/runs/${run.ulid}/cases/${first!.ulid}`)
      .set(owner.headers)
      .send({ assigneeUlid: member.userId });
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);

    const all = await clone(owner, code, run.ulid, { title: 'All', cloneAssignees: true });
    expect(all.body.total).toBe(3);
    expect((await runCasesOf(t.http, owner, all.body.ulid)).map((each) => each.assigneeUlid)).toEqual([member.userId, null, null]);
    const empty = await clone(owner, code, run.ulid, { title: 'Empty filter', statusFilter: [] });
    expect(empty.body.total).toBe(3);
    expect((await runCasesOf(t.http, owner, empty.body.ulid)).map((each) => each.assigneeUlid)).toEqual([null, null, null]);
    const events = await auditEvents(t.http, owner, { action: 'run.cloned' });
    expect(events.map((event) => [event.metadata.cloneAssignees, event.metadata.statusFilter, event.metadata.caseCount])).toEqual([
      [false, null, 3],
      [true, null, 3],
    ]);
  });

  it('statusFilter untested also takes cases to be retested; a filter matching nothing makes an empty run', async () => {
    const { owner, code, run } = await runScenario(2);
    await mark(owner, run.ulid, ['passed']);
    const untested = await clone(owner, code, run.ulid, { title: 'Leftovers', statusFilter: ['untested'] });
    expect((await runCasesOf(t.http, owner, untested.body.ulid)).map((each) => each.title)).toEqual(['Case 2']);
    const none = await clone(owner, code, run.ulid, { title: 'Nothing', statusFilter: ['blocked'] });
    expect(none.status).toBe(201);
    expect(none.body).toMatchObject({ total: 0, state: 'open' });
  });

  it('works on closed and aborted sources, which stay unchanged', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 2);
    const closed = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
    await mark(owner, closed.ulid, ['passed', 'failed']);
    const aborted = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
    expect((await post(owner, `/runs/${aborted.ulid}/abort`)).status).toBe(200);
    for (const source of [closed, aborted]) {
      const before = await runOf(t.http, owner, source.ulid);
      const response = await clone(owner, code, source.ulid, { title: `Clone of ${source.ulid}` });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ state: 'open', abortedAt: null, total: 2 });
      expect(await runOf(t.http, owner, source.ulid)).toEqual(before);
    }
  });

  it('copies stored custom field values of fields still visible in the project, dropping the others', async () => {
    const { owner, code, run } = await runScenario(1);
    const other = await createProject(t.http, owner);
    const fieldsPath = `/api/v1/orgs/${owner.orgId}/custom-fields`;
    const create = async (title: string) => {
      const response = await t.http.post(fieldsPath).set(owner.headers).send({ entity: 'test_run', valueType: 'paragraph', title });
      expect(response.status).toBe(201);
      return response.body.field.ulid as string;
    };
    const kept = await create('Build');
    const hidden = await create('Branch');
    const put = await t.http
      .put(`/api/v1/runs/${run.ulid}/custom-field-values`)
      .set(owner.headers)
      .send({
        values: [
          { fieldUlid: kept, value: '42' },
          { fieldUlid: hidden, value: 'main' },
        ],
      });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const scoped = await t.http
      .patch(`${fieldsPath}/${hidden}`)
      .set(owner.headers)
      .send({ projectUlids: [other.ulid] });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);

    const response = await clone(owner, code, run.ulid, { title: 'With values' });
    const read = await t.http.get(`/api/v1/runs/${response.body.ulid}`).set(owner.headers);
    expect(read.body.customFieldValues).toEqual([{ fieldUlid: kept, value: '42', systemKey: null, optionName: null }]);
    // The hidden field's value was not copied: making it visible again shows nothing stored.
    expect((await t.http.patch(`${fieldsPath}/${hidden}`).set(owner.headers).send({ allProjects: true })).status).toBe(200);
    const again = await t.http.get(`/api/v1/runs/${response.body.ulid}`).set(owner.headers);
    expect(again.body.customFieldValues.find((each: { fieldUlid: string }) => each.fieldUlid === hidden).value).toBeNull();
    const source = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(source.body.customFieldValues.find((each: { fieldUlid: string }) => each.fieldUlid === hidden).value).toBe('main');
  });

  it.each([
    ['an empty title', { title: '' }, ['title']],
    ['a blank title', { title: '   ' }, ['title']],
    ['a 201-character title', { title: 'x'.repeat(201) }, ['title']],
    ['a missing title', {}, ['title']],
    ['an unknown status', { title: 'T', statusFilter: ['exploded'] }, ['statusFilter', 0]],
    ['an unknown key', { title: 'T', rerun: true }, ['rerun']],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, code, run } = await runScenario(1);
    const response = await clone(owner, code, run.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
  });

  it('answers 404 for a run of another project or organization and 403 for viewers', async () => {
    const { owner, code, run } = await runScenario(1);
    const other = await createProject(t.http, owner);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    expectError(await clone(owner, other.id, run.ulid, { title: 'Elsewhere' }), 404, 'not_found');
    expectError(await clone(owner, code, UNKNOWN, { title: 'Nothing' }), 404, 'not_found');
    expectError(await clone(stranger, code, run.ulid, { title: 'Stolen' }), 404, 'not_found');
    expectError(await clone(viewer, code, run.ulid, { title: 'Viewer' }), 403, 'forbidden');
    expect((await t.http.get(`/api/v1/projects/${code}/runs`).set(owner.headers)).body.total).toBe(1);
  });
});

describe('removed run operations', () => {
  it('answer 404: reopen, PUT results/{caseUlid}, rerun-failed', async () => {
    const { owner, code, run, cases } = await runScenario(1);
    expect((await post(owner, `/runs/${run.ulid}/close`)).status).toBe(200);
    expectError(await post(owner, `/runs/${run.ulid}/reopen`), 404, 'not_found');
    expectError(
      await t.http.put(`/api/v1/runs/${run.ulid}/results/${cases[0]!.ulid}`).set(owner.headers).send({ status: 'passed' }),
      404,
      'not_found',
    );
    expectError(await post(owner, `/runs/${run.ulid}/rerun-failed`), 404, 'not_found');
    expectError(await post(owner, `/projects/${code}/runs/${run.ulid}/rerun-failed`), 404, 'not_found');
    expect((await runOf(t.http, owner, run.ulid)).state).toBe('closed');
  });
});
