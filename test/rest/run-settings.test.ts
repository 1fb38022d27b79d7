import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { createRun } from '../support/runs.ts';

const t = useTestApp();

const projectPath = (code: string) => `/api/v1/projects/${code}/run-settings`;
const orgPath = (caller: Caller) => `/api/v1/orgs/${caller.orgId}/run-settings`;

async function read(caller: Caller, path: string) {
  const response = await t.http.get(path).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.settings as Record<string, { value: unknown; source: string }>;
}

const patch = (caller: Caller, path: string, body: Record<string, unknown>) => t.http.patch(path).set(caller.headers).send(body);

const DEFAULTS = {
  allowResultsInClosedRuns: { value: true, source: 'default' },
  assigneeResultLock: { value: false, source: 'default' },
  timeTracking: { value: 'optional', source: 'default' },
  requireCommentOnNegativeResult: { value: false, source: 'default' },
};

describe('GET run settings', () => {
  it('answers every project setting (five keys) and the four organization keys with their defaults, to any member', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const project = await t.http.get(projectPath(code)).set(viewer.headers);
    expect(project.status).toBe(200);
    expect(project.body).toEqual({ settings: { ...DEFAULTS, defaultAssigneeUserId: { value: null, source: 'default' } } });
    const org = await t.http.get(orgPath(viewer)).set(viewer.headers);
    expect(org.status).toBe(200);
    expect(org.body).toEqual({ settings: DEFAULTS });
  });

  it('answers 404 for a project or organization of another tenant', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const stranger = await signUp(t.http);
    expectError(await t.http.get(projectPath(code)).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.get(orgPath(owner)).set(stranger.headers), 404, 'not_found');
    expectError(await patch(stranger, orgPath(owner), { assigneeResultLock: true }), 404, 'not_found');
  });
});

describe('PATCH run settings', () => {
  it('resolves project over organization over default; null removes an override', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const org = await patch(owner, orgPath(owner), { allowResultsInClosedRuns: false, timeTracking: 'required' });
    expect(org.status, JSON.stringify(org.body)).toBe(200);
    expect(org.body.settings).toEqual({
      ...DEFAULTS,
      allowResultsInClosedRuns: { value: false, source: 'organization' },
      timeTracking: { value: 'required', source: 'organization' },
    });
    const project = await patch(owner, projectPath(code), { timeTracking: 'off', assigneeResultLock: true });
    expect(project.status, JSON.stringify(project.body)).toBe(200);
    expect(project.body.settings).toEqual({
      allowResultsInClosedRuns: { value: false, source: 'organization' },
      assigneeResultLock: { value: true, source: 'project' },
      timeTracking: { value: 'off', source: 'project' },
      defaultAssigneeUserId: { value: null, source: 'default' },
      requireCommentOnNegativeResult: { value: false, source: 'default' },
    });
    expect(await read(owner, projectPath(code))).toEqual(project.body.settings);

    const removed = await patch(owner, projectPath(code), { timeTracking: null });
    expect(removed.body.settings.timeTracking).toEqual({ value: 'required', source: 'organization' });
    expect(removed.body.settings.assigneeResultLock).toEqual({ value: true, source: 'project' });
    await patch(owner, orgPath(owner), { timeTracking: null });
    expect((await read(owner, projectPath(code))).timeTracking).toEqual({ value: 'optional', source: 'default' });
    // The organization view never shows project overrides.
    expect((await read(owner, orgPath(owner))).assigneeResultLock).toEqual({ value: false, source: 'default' });
  });

  it('sets defaultAssigneeUserId on projects only, to a member (404 otherwise) or null', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const stranger = await signUp(t.http);
    expectError(await patch(owner, projectPath(code), { defaultAssigneeUserId: stranger.userId }), 404, 'not_found');
    const set = await patch(owner, projectPath(code), { defaultAssigneeUserId: member.userId });
    expect(set.body.settings.defaultAssigneeUserId).toEqual({ value: member.userId, source: 'project' });
    const orgAttempt = await patch(owner, orgPath(owner), { defaultAssigneeUserId: member.userId });
    expectError(orgAttempt, 422, 'validation_failed');
    expect(orgAttempt.body.error.details.path).toEqual(['defaultAssigneeUserId']);
    const cleared = await patch(owner, projectPath(code), { defaultAssigneeUserId: null });
    expect(cleared.body.settings.defaultAssigneeUserId).toEqual({ value: null, source: 'default' });
  });

  it.each([
    ['an unknown key', { autoClose: true }, ['autoClose']],
    ['an empty body', {}, []],
    ['an unknown timeTracking', { timeTracking: 'sometimes' }, ['timeTracking']],
    ['a string boolean', { allowResultsInClosedRuns: 'false' }, ['allowResultsInClosedRuns']],
    ['a malformed user', { defaultAssigneeUserId: 'someone' }, ['defaultAssigneeUserId']],
  ])('answers 422 for %s and changes nothing', async (_label, body, path) => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await patch(owner, projectPath(code), body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    const orgResponse = await patch(owner, orgPath(owner), body);
    expectError(orgResponse, 422, 'validation_failed');
    expect(await read(owner, projectPath(code))).toEqual({ ...DEFAULTS, defaultAssigneeUserId: { value: null, source: 'default' } });
  });

  it('needs owner or admin: members and viewers get 403', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expectError(await patch(caller, projectPath(code), { assigneeResultLock: true }), 403, 'forbidden');
      expectError(await patch(caller, orgPath(caller), { assigneeResultLock: true }), 403, 'forbidden');
    }
    expect((await patch(admin, projectPath(code), { assigneeResultLock: true })).status).toBe(200);
    expect((await patch(admin, orgPath(admin), { assigneeResultLock: true })).status).toBe(200);
  });

  it('records run_settings.updated with the override changes; an unchanged patch records nothing', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    await patch(owner, projectPath(code), { timeTracking: 'required', assigneeResultLock: false });
    await patch(owner, projectPath(code), { timeTracking: 'required' });
    await patch(owner, projectPath(code), { timeTracking: null, assigneeResultLock: null });
    await patch(owner, orgPath(owner), { requireCommentOnNegativeResult: true });
    const events = await auditEvents(t.http, owner, { action: 'run_settings.updated' });
    expect(events.map((event) => [event.entityType, event.entityUlid, event.metadata])).toEqual([
      [
        'organization',
        owner.orgId,
        { scope: 'organization', changes: [{ field: 'requireCommentOnNegativeResult', from: null, to: true }] },
      ],
      [
        'project',
        project.ulid,
        {
          scope: 'project',
          changes: [
            { field: 'assigneeResultLock', from: false, to: null },
            { field: 'timeTracking', from: 'required', to: null },
          ],
        },
      ],
      [
        'project',
        project.ulid,
        {
          scope: 'project',
          changes: [
            { field: 'assigneeResultLock', from: null, to: false },
            { field: 'timeTracking', from: null, to: 'required' },
          ],
        },
      ],
    ]);
    expect(events[1]!.entityLabel).toBe(project.name);
  });

  it('merges concurrent patches of different keys', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const responses = await Promise.all([
      patch(owner, projectPath(code), { assigneeResultLock: true }),
      patch(owner, projectPath(code), { timeTracking: 'off' }),
      patch(owner, projectPath(code), { requireCommentOnNegativeResult: true }),
    ]);
    for (const response of responses) expect(response.status).toBe(200);
    const settings = await read(owner, projectPath(code));
    expect([settings.assigneeResultLock, settings.timeTracking, settings.requireCommentOnNegativeResult]).toEqual([
      { value: true, source: 'project' },
      { value: 'off', source: 'project' },
      { value: true, source: 'project' },
    ]);
  });
});

describe('run settings take effect', () => {
  it('allowResultsInClosedRuns = false makes closed runs refuse PATCH and value writes (409); a project override re-allows', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await t.http.post(`/api/v1/runs/${run.ulid}/close`).set(owner.headers)).status).toBe(200);
    const open = await createRun(t.http, owner, code, { caseUlids: [] });

    await patch(owner, orgPath(owner), { allowResultsInClosedRuns: false });
    expectError(await t.http.patch(`/api/v1/runs/${run.ulid}`).set(owner.headers).send({ name: 'Late' }), 409, 'conflict');
    expectError(await t.http.put(`/api/v1/runs/${run.ulid}/custom-field-values`).set(owner.headers).send({ values: [] }), 409, 'conflict');
    expect((await t.http.patch(`/api/v1/runs/${open.ulid}`).set(owner.headers).send({ name: 'Still open' })).status).toBe(200);
    // Deleting is not a change to the run's results: it stays possible.
    const closedToo = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await t.http.post(`/api/v1/runs/${closedToo.ulid}/close`).set(owner.headers)).status).toBe(200);
    expect((await t.http.delete(`/api/v1/runs/${closedToo.ulid}`).set(owner.headers)).status).toBe(204);

    await patch(owner, projectPath(code), { allowResultsInClosedRuns: true });
    const allowed = await t.http.patch(`/api/v1/runs/${run.ulid}`).set(owner.headers).send({ name: 'Late' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.name).toBe('Late');
  });
});
