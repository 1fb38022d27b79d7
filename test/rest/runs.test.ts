import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import {
  auditEvents,
  type Caller,
  createMilestone,
  createProject,
  createSuite,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  tokenFor,
  useTestApp,
} from '../support/app.ts';
import { configurationValue, createCase, createCases, createEnvironment, createRun, createRunField, runCasesOf } from '../support/runs.ts';

const t = useTestApp();

const RUN_FIELDS = [
  'ulid',
  'projectUlid',
  'planUlid',
  'name',
  'description',
  'state',
  'status',
  'closedAt',
  'abortedAt',
  'defaultAssigneeUlid',
  'milestoneUlid',
  'milestone',
  'environmentId',
  'environment',
  'environmentName',
  'comboKey',
  'configurations',
  'total',
  'executed',
  'passRate',
  'counts',
  'firstResultAt',
  'lastResultAt',
  'totalDurationMs',
  'author',
  'createdAt',
  'updatedAt',
];

const postRun = (caller: Caller, code: string, body: Record<string, unknown>) =>
  t.http
    .post(`/api/v1/projects/${code}/runs`)
    .set(caller.headers)
    .send({ name: 'Nightly', ...body });

const runTotal = async (caller: Caller, code: string) =>
  (await t.http.get(`/api/v1/projects/${code}/runs`).set(caller.headers)).body.total as number;

describe('POST /api/v1/projects/{projectId}/runs', () => {
  it('creates an open run from caseUlids with every RunResponse field', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 3, 2);
    const created = await postRun(owner, code, { caseUlids: cases.map((each) => each.ulid), description: 'All of it' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([...RUN_FIELDS].sort());
    expect(created.body).toMatchObject({
      projectUlid: project.ulid,
      planUlid: null,
      name: 'Nightly',
      description: 'All of it',
      state: 'open',
      status: 'in_progress',
      closedAt: null,
      abortedAt: null,
      defaultAssigneeUlid: null,
      milestoneUlid: null,
      milestone: null,
      environmentId: null,
      environment: null,
      environmentName: null,
      comboKey: '',
      configurations: [],
      total: 3,
      executed: 0,
      passRate: 0,
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 3 },
      firstResultAt: null,
      lastResultAt: null,
      totalDurationMs: 0,
      author: { kind: 'user', ulid: owner.userId, displayName: 'Test User', avatarKey: null },
    });
    const counts = created.body.counts as Record<string, number>;
    expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(created.body.total);
    expect(created.body.ulid).toMatch(ULID_PATTERN);
    expect(created.body.updatedAt).toBeGreaterThanOrEqual(created.body.createdAt);

    const read = await t.http.get(`/api/v1/runs/${created.body.ulid}`).set(owner.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...created.body, customFieldValues: [] });
    expect((await runCasesOf(t.http, owner, created.body.ulid)).map((each) => each.title)).toEqual(['Case 1', 'Case 2', 'Case 3']);
  });

  it('snapshots title, steps and suite name, which stay intact after the case is edited or deleted', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code, { name: 'Checkout' });
    const edited = await createCase(t.http, owner, code, {
      title: 'Pay by card',
      suiteUlid: suite.ulid,
      steps: [
        { action: 'Open cart', expectedResult: 'Cart shows' },
        { action: 'Pay', expectedResult: 'Paid' },
      ],
    });
    const deleted = await createCase(t.http, owner, code, { title: 'Pay by invoice', steps: [{ action: 'Ask invoice' }] });
    const run = await createRun(t.http, owner, code, { caseUlids: [edited.ulid, deleted.ulid] });
    const before = await runCasesOf(t.http, owner, run.ulid);

    const patch = await t.http
      .patch(`/api/v1/test-cases/${edited.ulid}`)
      .set(owner.headers)
      .send({ patch: { title: 'Pay by card (new)' }, steps: [{ position: 0, action: 'Something else' }] });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect((await t.http.patch(`/api/v1/suites/${suite.ulid}`).set(owner.headers).send({ name: 'Renamed' })).status).toBe(200);
    expect((await t.http.delete(`/api/v1/test-cases/${deleted.ulid}`).set(owner.headers)).status).toBe(204);

    const after = await runCasesOf(t.http, owner, run.ulid);
    expect(after[0]).toMatchObject({
      caseUlid: edited.ulid,
      displayId: edited.displayId,
      title: 'Pay by card',
      suiteName: 'Checkout',
      steps: [
        { action: 'Open cart', expectedResult: 'Cart shows' },
        { action: 'Pay', expectedResult: 'Paid' },
      ],
    });
    expect(after[1]).toMatchObject({
      caseUlid: null,
      displayId: deleted.displayId,
      title: 'Pay by invoice',
      suiteName: null,
      steps: [{ action: 'Ask invoice' }],
    });
    expect(after.map(({ caseUlid: _caseUlid, ...snapshot }) => snapshot)).toEqual(
      before.map(({ caseUlid: _caseUlid, ...snapshot }) => snapshot),
    );
  });

  it('records run.created with caseCount only when nothing optional is given; the label is the run name', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 2);
    const run = await createRun(t.http, owner, code, { name: 'Smoke', caseUlids: cases.map((each) => each.ulid) });
    const [event] = await auditEvents(t.http, owner, { action: 'run.created' });
    expect(event).toMatchObject({
      actor: { kind: 'user', ulid: owner.userId },
      entityType: 'test_run',
      entityUlid: run.ulid,
      entityLabel: 'Smoke',
      runUlid: run.ulid,
      metadata: { caseCount: 2 },
    });
    expect(Object.keys(event!.metadata)).toEqual(['caseCount']);
  });

  it('records environment, defaultAssignee, milestone and customFieldChanges in run.created', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const environment = await createEnvironment(t.http, owner, code, 'Staging EU');
    const milestone = await createMilestone(t.http, owner, code, { name: 'R1' });
    const build = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Build' });
    const [only] = await createCases(t.http, owner, code, 1);
    const run = await createRun(t.http, owner, code, {
      caseUlids: [only!.ulid],
      environmentId: environment.ulid,
      milestoneId: milestone.ulid,
      defaultAssigneeUlid: member.userId,
      customFieldValues: [{ fieldUlid: build.ulid, value: '1.2.3' }],
    });
    expect(run).toMatchObject({
      environmentId: environment.ulid,
      environment: { ulid: environment.ulid, name: 'Staging EU', slug: 'staging-eu' },
      environmentName: null,
      milestoneUlid: milestone.ulid,
      milestone: { ulid: milestone.ulid, name: 'R1' },
      defaultAssigneeUlid: member.userId,
    });
    expect((await runCasesOf(t.http, owner, run.ulid))[0]!.assigneeUlid).toBe(member.userId);
    const [event] = await auditEvents(t.http, owner, { action: 'run.created' });
    expect(event!.metadata).toEqual({
      caseCount: 1,
      environment: { ulid: environment.ulid, name: 'Staging EU', slug: 'staging-eu' },
      defaultAssignee: { ulid: member.userId, name: 'Test User' },
      milestone: { ulid: milestone.ulid, name: 'R1' },
      customFieldChanges: [{ fieldUlid: build.ulid, fieldLabel: 'Build', from: null, to: '1.2.3' }],
    });
  });

  it('authors a token-created run as api_token, a session-created one as user', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner, { name: 'CI bot' });
    const byToken = await createRun(t.http, token, code, { caseUlids: [] });
    expect(byToken.author).toEqual({ kind: 'api_token', ulid: token.tokenUlid, name: 'CI bot' });
    const [event] = await auditEvents(t.http, owner, { action: 'run.created' });
    expect(event!.actor).toMatchObject({ kind: 'api_token', ulid: token.tokenUlid });
    const bySession = await createRun(t.http, owner, code, { caseUlids: [] });
    expect(bySession.author).toMatchObject({ kind: 'user', ulid: owner.userId });
  });

  it('lets members create runs and refuses viewers (403) without writing anything', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await postRun(member, code, { caseUlids: [] })).status).toBe(201);
    expectError(await postRun(viewer, code, { caseUlids: [] }), 403, 'forbidden');
    expect(await runTotal(owner, code)).toBe(1);
  });

  describe('environment', () => {
    it('links a live environment of the project; 404 for another project, a deleted or an unknown one', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const other = await createProject(t.http, owner);
      const foreign = await createEnvironment(t.http, owner, other.id, 'Prod');
      const gone = await createEnvironment(t.http, owner, code, 'Gone');
      expect((await t.http.delete(`/api/v1/environments/${gone.ulid}`).set(owner.headers)).status).toBe(204);
      for (const environmentId of [foreign.ulid, gone.ulid, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D']) {
        expectError(await postRun(owner, code, { caseUlids: [], environmentId }), 404, 'not_found');
      }
      expect(await runTotal(owner, code)).toBe(0);
      const unlinked = await createRun(t.http, owner, code, { caseUlids: [], environmentId: null });
      expect(unlinked).toMatchObject({ environmentId: null, environment: null, environmentName: null });
    });

    it('legacy text finds the environment by slug or creates it; environmentId wins when both are given', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const staging = await createEnvironment(t.http, owner, code, 'Staging');
      const found = await createRun(t.http, owner, code, { caseUlids: [], environment: 'STAGING' });
      expect(found).toMatchObject({
        environmentId: staging.ulid,
        environment: { ulid: staging.ulid, name: 'Staging' },
        environmentName: 'STAGING',
      });

      const created = await createRun(t.http, owner, code, { caseUlids: [], environment: 'QA Lab' });
      expect(created.environment).toMatchObject({ name: 'QA Lab', slug: 'qa-lab' });
      const listed = await t.http.get(`/api/v1/projects/${code}/environments`).set(owner.headers);
      expect(listed.body.items.map((each: { slug: string }) => each.slug).sort()).toEqual(['qa-lab', 'staging']);

      const both = await createRun(t.http, owner, code, { caseUlids: [], environmentId: staging.ulid, environment: 'Somewhere else' });
      expect(both).toMatchObject({ environmentId: staging.ulid, environmentName: 'Somewhere else' });
      const again = await t.http.get(`/api/v1/projects/${code}/environments`).set(owner.headers);
      expect(again.body.total).toBe(2);
    });
  });

  describe('milestone and configurations', () => {
    it('links a live milestone of the project and answers 404 for an unknown or deleted one', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const milestone = await createMilestone(t.http, owner, code, { name: 'Sprint 9' });
      const run = await createRun(t.http, owner, code, { caseUlids: [], milestoneId: milestone.ulid });
      expect(run).toMatchObject({ milestoneUlid: milestone.ulid, milestone: { ulid: milestone.ulid, name: 'Sprint 9' } });
      expect((await t.http.delete(`/api/v1/milestones/${milestone.ulid}`).set(owner.headers)).status).toBe(204);
      expectError(await postRun(owner, code, { caseUlids: [], milestoneId: milestone.ulid }), 404, 'not_found');
    });

    it('snapshots configuration values in group order with their comboKey', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const browser = await configurationValue(t.http, owner, code, 'Browser', 'Firefox');
      const os = await configurationValue(t.http, owner, code, 'OS', 'Linux');
      const run = await createRun(t.http, owner, code, { caseUlids: [], configurationUlids: [os, browser] });
      expect(run.comboKey).toBe([os, browser].sort().join(':'));
      expect(run.configurations).toEqual([
        { ulid: expect.stringMatching(ULID_PATTERN), configurationUlid: browser, groupName: 'Browser', valueName: 'Firefox' },
        { ulid: expect.stringMatching(ULID_PATTERN), configurationUlid: os, groupName: 'OS', valueName: 'Linux' },
      ]);
    });
  });

  describe('default assignee', () => {
    it('assigns every case to defaultAssigneeUlid; a non-member answers 404 and creates nothing', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const stranger = await signUp(t.http);
      const cases = await createCases(t.http, owner, code, 2);
      expectError(
        await postRun(owner, code, { caseUlids: cases.map((each) => each.ulid), defaultAssigneeUlid: stranger.userId }),
        404,
        'not_found',
      );
      expect(await runTotal(owner, code)).toBe(0);
      const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid), defaultAssigneeUlid: owner.userId });
      expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([owner.userId, owner.userId]);
    });

    it("falls back to the project's defaultAssigneeUserId setting while that user is a member; explicit null opts out", async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const member = await joinAs(t.http, owner, 'member');
      const settings = await t.http
        .patch(`/api/v1/projects/${code}/run-settings`)
        .set(owner.headers)
        .send({ defaultAssigneeUserId: member.userId });
      expect(settings.status, JSON.stringify(settings.body)).toBe(200);
      const [only] = await createCases(t.http, owner, code, 1);

      const seeded = await createRun(t.http, owner, code, { caseUlids: [only!.ulid] });
      expect(seeded.defaultAssigneeUlid).toBe(member.userId);
      expect((await runCasesOf(t.http, owner, seeded.ulid))[0]!.assigneeUlid).toBe(member.userId);
      const optedOut = await createRun(t.http, owner, code, { caseUlids: [only!.ulid], defaultAssigneeUlid: null });
      expect(optedOut.defaultAssigneeUlid).toBeNull();

      await prisma().membership.deleteMany({ where: { orgId: owner.orgId, userId: member.userId } });
      const afterLeaving = await createRun(t.http, owner, code, { caseUlids: [only!.ulid] });
      expect(afterLeaving.defaultAssigneeUlid).toBeNull();
      expect((await runCasesOf(t.http, owner, afterLeaving.ulid))[0]!.assigneeUlid).toBeNull();
    });
  });

  describe('custom field values', () => {
    it('materializes required fields from their defaultValue and stores nothing for omitted optional ones', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const required = await createRunField(t.http, owner, {
        valueType: 'checkbox',
        title: 'Signed off',
        isRequired: true,
        defaultValue: true,
      });
      const optional = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
      const run = await createRun(t.http, owner, code, { caseUlids: [] });
      const read = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
      expect(read.body.customFieldValues).toEqual([
        { fieldUlid: required.ulid, value: true, systemKey: null, optionName: null },
        { fieldUlid: optional.ulid, value: null, systemKey: null, optionName: null },
      ]);
      // Only stored rows match `cf`: the required default was stored, the optional field was not.
      const stored = await t.http.get(`/api/v1/projects/${code}/runs?cf=${required.ulid}:true`).set(owner.headers);
      expect(stored.body.total).toBe(1);
      const [event] = await auditEvents(t.http, owner, { action: 'run.created' });
      expect(event!.metadata.customFieldChanges).toEqual([{ fieldUlid: required.ulid, fieldLabel: 'Signed off', from: null, to: true }]);
    });

    it('rejects the whole create (422) for an invalid value and writes nothing, not even a legacy environment', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const field = await createRunField(t.http, owner, { valueType: 'select_single', title: 'Tier', options: [{ name: 'Gold' }] });
      const [only] = await createCases(t.http, owner, code, 1);
      const response = await postRun(owner, code, {
        caseUlids: [only!.ulid],
        environment: 'Brand new',
        customFieldValues: [{ fieldUlid: field.ulid, value: 'not an option' }],
      });
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(['customFieldValues', 0, 'value']);
      expect(await runTotal(owner, code)).toBe(0);
      expect((await t.http.get(`/api/v1/projects/${code}/environments`).set(owner.headers)).body.total).toBe(0);
      expect(await auditEvents(t.http, owner, { actionPrefix: 'run.' })).toEqual([]);
      expect(await auditEvents(t.http, owner, { actionPrefix: 'environment.' })).toEqual([]);
    });
  });

  describe('validation and references', () => {
    it.each([
      ['a missing name', { name: undefined, caseUlids: [] }, ['name']],
      ['a 201-character name', { name: 'x'.repeat(201), caseUlids: [] }, ['name']],
      ['neither caseUlids nor planUlid', {}, ['caseUlids']],
      ['a repeated case', { caseUlids: ['01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D'] }, ['caseUlids']],
      ['a malformed case ULID', { caseUlids: ['nope'] }, ['caseUlids', 0]],
      ['an unknown key', { caseUlids: [], color: 'red' }, ['color']],
    ])('answers 422 for %s', async (_label, body, path) => {
      const { owner, code } = await ownerWithProject(t.http);
      const response = await postRun(owner, code, body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    });

    it('answers 404 for a case of another project, an archived case, an unknown project and another organization', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const other = await createProject(t.http, owner);
      const foreign = await createCase(t.http, owner, other.id);
      const archived = await createCase(t.http, owner, code);
      expect((await t.http.post(`/api/v1/test-cases/${archived.ulid}/archive`).set(owner.headers)).status).toBe(200);
      expectError(await postRun(owner, code, { caseUlids: [foreign.ulid] }), 404, 'not_found');
      expectError(await postRun(owner, code, { caseUlids: [archived.ulid] }), 404, 'not_found');
      expectError(await postRun(owner, 'NOPE', { caseUlids: [] }), 404, 'not_found');
      const stranger = await signUp(t.http);
      expectError(await postRun(stranger, code, { caseUlids: [] }), 404, 'not_found');
      expect(await runTotal(owner, code)).toBe(0);
    });
  });
});

describe('GET /api/v1/runs/{runUlid}', () => {
  it('answers any member, viewers included, and 404 for an unknown run or another organization', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await t.http.get(`/api/v1/runs/${run.ulid}`).set(viewer.headers)).status).toBe(200);
    expectError(await t.http.get('/api/v1/runs/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D').set(owner.headers), 404, 'not_found');
    expectError(await t.http.get('/api/v1/runs/not-a-ulid').set(owner.headers), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}`).set(stranger.headers), 404, 'not_found');
  });
});
