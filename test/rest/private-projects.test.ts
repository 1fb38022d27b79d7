import type request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { v1Routes } from '../../rest/v1/index.ts';
import { tenantClient } from '../../src/kernel/database/tenant.ts';
import { newId } from '../../src/kernel/ids.ts';
import {
  type Caller,
  createMilestone,
  createSuite,
  graphql,
  joinAs,
  ownerWithProject,
  projectCode,
  tokenFor,
  useTestApp,
} from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { configurationGroup, createCase, createEnvironment, createPlan, createRun, runCasesOf } from '../support/runs.ts';

/**
 * A private project is invisible to a member who is not on its allowlist: every route that
 * reaches it, by its code or through the ULID of anything in it, answers exactly what it answers
 * for something that does not exist, and lists, counts and GraphQL leave it out. The walk goes
 * over every /api/v1 route (rest/v1/index.ts), so a route added later is walked too.
 */

const t = useTestApp();

/** Path parameters that lead to a project, directly or through one of its entities. */
const PROJECT_PARAMS = [
  'projectId',
  'suiteUlid',
  'caseUlid',
  'milestoneUlid',
  'environmentUlid',
  'groupUlid',
  'configurationUlid',
  'planUlid',
  'runUlid',
  'defectUlid',
] as const;

type Fixture = Record<string, string>;

/** A valid body for each write route that reaches a project, so refusals are about access, not input. */
function bodyFor(operationId: string, f: Fixture): Record<string, unknown> | undefined {
  const bodies: Record<string, Record<string, unknown>> = {
    updateProject: { name: 'Renamed' },
    createSuite: { name: 'Another suite' },
    updateSuite: { name: 'Renamed suite' },
    createTestCase: { title: 'Another case' },
    updateTestCase: { patch: { title: 'Renamed case' } },
    mergeTestCases: { targetUlid: f.caseUlid, sourceUlids: [newId()] },
    replaceTestCaseSteps: { steps: [{ action: 'Open', expectedResult: 'Opens' }] },
    createTestCaseComment: { body: 'A comment' },
    updateTestCaseComment: { body: 'Edited' },
    replaceTestCaseCustomFieldValues: { values: [] },
    setTestCaseCustomFieldValue: { value: null },
    createDefect: { title: 'Another defect' },
    updateDefect: { title: 'Renamed defect' },
    linkDefectResult: { resultUlid: f.resultUlid },
    createDefectComment: { body: 'A comment' },
    updateDefectComment: { body: 'Edited' },
    createMilestone: { name: 'Another milestone' },
    updateMilestone: { name: 'Renamed milestone' },
    createEnvironment: { name: 'Another environment' },
    updateEnvironment: { name: 'Renamed environment' },
    createConfigurationGroup: { name: 'Another group' },
    updateConfigurationGroup: { name: 'Renamed group' },
    createConfiguration: { name: 'Another value' },
    updateConfiguration: { name: 'Renamed value' },
    createPlan: { name: 'Another plan' },
    updatePlan: { name: 'Renamed plan' },
    replacePlanCases: { caseUlids: [f.caseUlid] },
    assignPlanCase: { assigneeUlid: null },
    replacePlanConfigurations: { configurationUlids: [f.configurationUlid] },
    replacePlanExcludedCombinations: { comboKeys: [] },
    createRun: { name: 'Another run', caseUlids: [f.caseUlid] },
    updateRun: { name: 'Renamed run' },
    cloneRun: { title: 'Clone' },
    replaceRunCustomFieldValues: { values: [] },
    markRunCase: { status: 'passed' },
    markRunCaseStep: { status: 'passed' },
    commitResultAttachments: { attachments: [{ key: `staging/${f.projectUlid}/${newId()}` }] },
    addRunCases: { caseUlids: [f.caseUlid] },
    bulkMarkRunCases: { caseUlids: [f.runCaseUlid], status: 'passed' },
    bulkAssignRunCases: { caseUlids: [f.runCaseUlid], assigneeUlid: null },
    bulkRetryRunCases: { caseUlids: [f.runCaseUlid] },
    bulkRemoveRunCases: { caseUlids: [f.runCaseUlid] },
    submitRunResults: { results: [{ runCaseUlid: f.runCaseUlid, status: 'passed' }] },
    updateProjectRunSettings: { timeTracking: 'off' },
    updateProjectAccess: { mode: 'private' },
    grantProjectAccess: { userUlid: f.userUlid },
    assignProjectAccessGroup: { userGroupUlid: f.userGroupUlid },
    createUserGroup: { name: `Walk ${newId()}`, projectUlids: [f.projectUlid] },
    assignUserGroupProjects: { projectUlids: [f.projectUlid] },
    createShareLink: {},
  };
  return bodies[operationId];
}

/** Routes that name a project in their body rather than in their path. */
const PROJECTS_IN_BODY = ['createUserGroup', 'assignUserGroupProjects'];

type Route = (typeof v1Routes)[number];

const reachesProject = (route: Route) =>
  PROJECT_PARAMS.some((param) => route.path.includes(`{${param}}`)) || PROJECTS_IN_BODY.includes(route.operationId);

function call(caller: Caller, route: Route, params: Fixture): request.Test {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'displayId') return route.path.includes('/suites/') ? params.suiteDisplayId! : params.caseDisplayId!;
    const value = params[name];
    if (value === undefined) throw new Error(`The walk has no value for {${name}} of ${route.operationId}`);
    return value;
  });
  const method = route.method as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const pending = t.http[method](`/api/v1${path}`).set(caller.headers);
  if (route.upload) return pending.attach('file', Buffer.from('not an image'), 'file.png');
  if (route.method === 'get' || route.method === 'delete' || !('body' in route && route.body)) return pending;
  const body = bodyFor(route.operationId, params);
  if (!body) throw new Error(`The walk has no body for ${route.operationId}`);
  return pending.send(body);
}

/** Everything a project can hold, created by its owner; its ULIDs by path parameter name. */
async function populatedProject(owner: Caller, code: string, projectUlid: string): Promise<Fixture> {
  const suite = await createSuite(t.http, owner, code);
  const testCase = await createCase(t.http, owner, code, { suiteUlid: suite.ulid, steps: [{ action: 'Open', expectedResult: 'Opens' }] });
  const comment = await t.http.post(`/api/v1/test-cases/${testCase.ulid}/comments`).set(owner.headers).send({ body: 'First' });
  expect(comment.status, JSON.stringify(comment.body)).toBe(201);
  const milestone = await createMilestone(t.http, owner, code);
  const environment = await createEnvironment(t.http, owner, code, 'Staging');
  const group = await configurationGroup(t.http, owner, code, 'Browser', ['Firefox']);
  const plan = await createPlan(t.http, owner, code);
  const planCases = await t.http
    .put(`/api/v1/plans/${plan.ulid}/cases`)
    .set(owner.headers)
    .send({ caseUlids: [testCase.ulid] });
  expect(planCases.status, JSON.stringify(planCases.body)).toBe(200);
  const planCase = await t.http.get(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers);
  const run = await createRun(t.http, owner, code, { caseUlids: [testCase.ulid] });
  const [runCase] = await runCasesOf(t.http, owner, run.ulid);
  // A result of the case, which is untested again afterwards.
  const marks = [];
  for (const status of ['failed', 'untested']) {
    const marked = await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase!.ulid}`).set(owner.headers).send({ status });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    marks.push(marked.body.resultUlid as string);
  }
  const resultFiles = `/api/v1/runs/${run.ulid}/cases/${runCase!.ulid}/results/${marks[0]}/attachments`;
  const staged = await t.http.post(`${resultFiles}:stage`).set(owner.headers).attach('file', Buffer.from('log'), 'run.log');
  expect(staged.status, JSON.stringify(staged.body)).toBe(201);
  const resultFile = await t.http
    .post(resultFiles)
    .set(owner.headers)
    .send({ attachments: [{ key: staged.body.items[0].key }] });
  expect(resultFile.status, JSON.stringify(resultFile.body)).toBe(201);
  const defect = await t.http.post(`/api/v1/projects/${code}/defects`).set(owner.headers).send({ title: 'Broken' });
  expect(defect.status, JSON.stringify(defect.body)).toBe(201);
  const shareLink = await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send({});
  expect(shareLink.status, JSON.stringify(shareLink.body)).toBe(201);
  return {
    projectId: code,
    projectUlid,
    suiteUlid: suite.ulid,
    suiteDisplayId: (suite as { displayId?: string }).displayId ?? `${code}-S1`,
    caseUlid: testCase.ulid,
    caseDisplayId: testCase.displayId,
    commentUlid: comment.body.ulid,
    // A result's attachment: the step attachment routes find no such ULID (their download is not walked).
    attachmentUlid: resultFile.body.items[0].ulid,
    fieldUlid: newId(),
    milestoneUlid: milestone.ulid,
    environmentUlid: environment.ulid,
    groupUlid: group.ulid,
    configurationUlid: group.values[0]!.ulid,
    planUlid: plan.ulid,
    planCaseUlid: planCase.body.items[0].ulid,
    runUlid: run.ulid,
    runCaseUlid: runCase!.ulid,
    stepUlid: runCase!.steps[0]!.ulid,
    defectUlid: defect.body.ulid,
    resultUlid: marks[0]!,
    shareLinkUlid: shareLink.body.ulid,
  };
}

/** The same parameters naming nothing that exists. */
function missing(fixture: Fixture): Fixture {
  const code = projectCode();
  return Object.fromEntries(
    Object.entries(fixture).map(([name, value]) => {
      if (name === 'projectId') return [name, code];
      if (name.endsWith('DisplayId')) return [name, value.replace(/^[A-Z0-9]+-/, `${code}-`)];
      return [name, newId()];
    }),
  );
}

async function setMode(owner: Caller, code: string, mode: 'public' | 'private') {
  const response = await t.http.patch(`/api/v1/projects/${code}/access`).set(owner.headers).send({ mode });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}
async function setAccess(owner: Caller, code: string, userId: string, state: 'granted' | 'revoked') {
  const response =
    state === 'granted'
      ? await t.http.post(`/api/v1/projects/${code}/access/members`).set(owner.headers).send({ userUlid: userId })
      : await t.http.delete(`/api/v1/projects/${code}/access/members/${userId}`).set(owner.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(state === 'granted' ? 201 : 204);
}
async function groupWith(owner: Caller, projectUlid: string, userId: string) {
  const response = await t.http
    .post('/api/v1/groups')
    .set(owner.headers)
    .send({ name: `Group ${newId()}`, memberUserUlids: [userId], projectUlids: [projectUlid] });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

describe('a private project', () => {
  let owner: Caller;
  let fixture: Fixture;
  let outsider: Caller;
  let granted: Caller;
  let viaGroup: Caller;
  let revokedInGroup: Caller;
  let admin: Caller;

  beforeAll(async () => {
    const setup = await ownerWithProject(t.http);
    owner = setup.owner;
    fixture = await populatedProject(owner, setup.code, setup.project.ulid);
    [outsider, granted, viaGroup, revokedInGroup, admin] = await Promise.all([
      joinAs(t.http, owner, 'member'),
      joinAs(t.http, owner, 'viewer'),
      joinAs(t.http, owner, 'member'),
      joinAs(t.http, owner, 'member'),
      joinAs(t.http, owner, 'admin'),
    ]);
    await setMode(owner, setup.code, 'private');
    await setAccess(owner, setup.code, granted.userId, 'granted');
    await groupWith(owner, setup.project.ulid, viaGroup.userId);
    await groupWith(owner, setup.project.ulid, revokedInGroup.userId);
    await setAccess(owner, setup.code, revokedInGroup.userId, 'revoked');
    const group = await t.http.post('/api/v1/groups').set(owner.headers).send({ name: 'Walkers' });
    Object.assign(fixture, { userUlid: granted.userId, userGroupUlid: group.body.ulid });
  });

  it('answers every route that reaches it, for a member off its allowlist, as if it did not exist', async () => {
    const walked = v1Routes.filter(reachesProject);
    expect(walked.length).toBeGreaterThan(80);
    const absent = missing(fixture);
    const leaks: string[] = [];
    for (const caller of [outsider, revokedInGroup]) {
      for (const route of walked) {
        const hidden = await call(caller, route, fixture);
        const nothing = await call(caller, route, absent);
        const answer = (response: request.Response) => `${response.status} ${response.body.error?.code}`;
        // Refused for lack of access (404) or, identically for a missing project, of role (403).
        if (answer(hidden) !== answer(nothing) || ![404, 403].includes(hidden.status)) {
          leaks.push(
            `${route.method.toUpperCase()} ${route.path}: ${answer(hidden)} vs ${answer(nothing)} ${JSON.stringify(hidden.body).slice(0, 300)}`,
          );
        }
      }
    }
    expect(leaks).toEqual([]);
    // Nothing was written by the walk.
    const run = await t.http.get(`/api/v1/runs/${fixture.runUlid}`).set(owner.headers);
    expect(run.body).toMatchObject({ name: 'Nightly', counts: { untested: 1 } });
  });

  it('is absent from the lists, counts and GraphQL of a member off its allowlist', async () => {
    const list = await t.http.get('/api/v1/projects?include=stats').set(outsider.headers);
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { ulid: string }) => item.ulid)).not.toContain(fixture.projectUlid);
    expect(list.body.total).toBe(0);

    const data = dataOf(await graphql(t.http, outsider, `{ projects { totalCount edges { node { ulid } } } }`));
    expect(data.projects).toEqual({ totalCount: 0, edges: [] });
    for (const [field, value] of [
      ['project(code: $value) { ulid }', fixture.projectId],
      ['suite(ulid: $value) { ulid }', fixture.suiteUlid],
      ['testCase(ulid: $value) { ulid }', fixture.caseUlid],
      ['milestone(ulid: $value) { ulid }', fixture.milestoneUlid],
      ['environment(ulid: $value) { ulid }', fixture.environmentUlid],
      ['configurationGroup(ulid: $value) { ulid }', fixture.groupUlid],
      ['plan(ulid: $value) { ulid }', fixture.planUlid],
      ['run(ulid: $value) { ulid }', fixture.runUlid],
      ['runCase(ulid: $value) { ulid }', fixture.runCaseUlid],
    ] as const) {
      const response = await graphql(t.http, outsider, `query ($value: String!) { ${field} }`, { value });
      expect(response.body.errors?.[0]?.extensions?.code, `${field}: ${JSON.stringify(response.body)}`).toBe('not_found');
    }
  });

  it('is open to a granted member, a member of an assigned group, admins and API tokens', async () => {
    const token = await tokenFor(t.http, outsider);
    // Event streams never end by themselves (test/rest/live-progress.test.ts reads them as they come).
    const endless = (route: (typeof v1Routes)[number]) => route.success.media?.['text/event-stream'] !== undefined;
    const reads = v1Routes.filter(
      (route) => reachesProject(route) && route.method === 'get' && route.operationId !== 'downloadStepAttachment' && !endless(route),
    );
    for (const caller of [granted, viaGroup, admin, token]) {
      for (const route of reads) {
        const response = await call(caller, route, fixture);
        // The allowlist itself is read only by those who may change it.
        const expected = route.operationId === 'listProjectAccessMembers' && caller !== admin ? 403 : 200;
        expect(response.status, `${route.operationId}: ${JSON.stringify(response.body)}`).toBe(expected);
      }
      const list = await t.http.get('/api/v1/projects').set(caller.headers);
      expect(list.body.items.map((item: { ulid: string }) => item.ulid)).toContain(fixture.projectUlid);
      const data = dataOf(await graphql(t.http, caller, `query ($ulid: String!) { run(ulid: $ulid) { ulid } }`, { ulid: fixture.runUlid }));
      expect(data.run).toEqual({ ulid: fixture.runUlid });
    }
    // A member of an assigned group writes like any member.
    const suite = await t.http.post(`/api/v1/projects/${fixture.projectId}/suites`).set(viaGroup.headers).send({ name: 'By the group' });
    expect(suite.status).toBe(201);
  });

  it('hides its rows, and the rows of its runs and cases, from the tenant client of a hidden caller', async () => {
    const db = tenantClient(owner.orgId, [fixture.projectUlid!]);
    const byId = { where: { id: fixture.runCaseUlid } };
    expect(await db.project.findUnique({ where: { id: fixture.projectUlid } })).toBeNull();
    expect(await db.testRun.count({ where: { id: fixture.runUlid } })).toBe(0);
    expect(await db.testRunCase.findFirst(byId)).toBeNull();
    expect(await db.testRunCaseStep.count({ where: { runCaseId: fixture.runCaseUlid } })).toBe(0);
    expect(await db.testRunResult.count({ where: { runId: fixture.runUlid } })).toBe(0);
    expect(await db.testCaseStep.count({ where: { caseId: fixture.caseUlid } })).toBe(0);
    expect(await db.testPlanCase.count({ where: { planId: fixture.planUlid } })).toBe(0);
    expect(await db.testRunCase.updateMany({ ...byId, data: { assigneeId: null } })).toEqual({ count: 0 });
    // The same rows through the owner's client.
    const visible = tenantClient(owner.orgId);
    expect(await visible.testRunCase.findFirst(byId)).not.toBeNull();
    expect(await visible.testCaseStep.count({ where: { caseId: fixture.caseUlid } })).toBe(1);
  });

  it('becomes visible to everyone again when it is public', async () => {
    const { owner: otherOwner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, otherOwner, 'member');
    await setMode(otherOwner, code, 'private');
    expect((await t.http.get(`/api/v1/projects/${code}`).set(member.headers)).status).toBe(404);
    await setMode(otherOwner, code, 'public');
    expect((await t.http.get(`/api/v1/projects/${code}`).set(member.headers)).status).toBe(200);
    // A revoked row on a public project takes the member off the team, not off the project.
    await setAccess(otherOwner, code, member.userId, 'revoked');
    expect((await t.http.get(`/api/v1/projects/${code}`).set(member.headers)).status).toBe(200);
  });

  it('is seen by its project owner, even one holding a revoked row, who may change its access', async () => {
    const { owner: orgOwner, project, code } = await ownerWithProject(t.http);
    const lead = await joinAs(t.http, orgOwner, 'member');
    await setMode(orgOwner, code, 'private');
    await setAccess(orgOwner, code, lead.userId, 'revoked');
    expect((await t.http.get(`/api/v1/projects/${code}`).set(lead.headers)).status).toBe(404);
    const handOver = await t.http.patch(`/api/v1/projects/${code}/access`).set(orgOwner.headers).send({ ownerUlid: lead.userId });
    expect(handOver.status, JSON.stringify(handOver.body)).toBe(200);
    expect((await t.http.get(`/api/v1/projects/${code}`).set(lead.headers)).body).toMatchObject({ ulid: project.ulid });
    const grant = await t.http.post(`/api/v1/projects/${code}/access/members`).set(lead.headers).send({ userUlid: lead.userId });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
  });
});
