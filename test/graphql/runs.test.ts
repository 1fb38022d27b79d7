import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, createMilestone, createProject, graphql, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';
import { createCases, createRun, createRunField } from '../support/runs.ts';

const t = useTestApp();

const RUN = `ulid projectUlid planUlid name description state status closedAt abortedAt defaultAssigneeUlid milestoneUlid
  environmentId environmentName comboKey total executed passRate counts { passed failed blocked skipped untested }
  firstResultAt lastResultAt totalDurationMs author { kind ulid } createdAt updatedAt`;

const CREATE = `mutation($code: String!, $input: CreateRunInput!) { createRun(projectCode: $code, input: $input) { ${RUN} customFieldValues { fieldUlid value optionName } } }`;

describe('GraphQL: runs', () => {
  it('creates a run through the REST rules and reads it back with its custom field values', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 2);
    const tier = await createRunField(t.http, owner, { valueType: 'select_single', title: 'Tier', options: [{ name: 'Gold' }] });
    const input = {
      name: 'GraphQL run',
      caseUlids: cases.map((each) => each.ulid),
      environment: 'Staging',
      environmentId: null,
      customFieldValues: [{ fieldUlid: tier.ulid, value: tier.options[0]!.ulid }],
    };
    const created = dataOf(await graphql(t.http, owner, CREATE, { code, input })).createRun;
    expect(created).toMatchObject({
      projectUlid: project.ulid,
      name: 'GraphQL run',
      state: 'open',
      status: 'in_progress',
      environmentId: null,
      environmentName: 'Staging',
      total: 2,
      counts: { untested: 2, passed: 0 },
      totalDurationMs: 0,
      author: { kind: 'user', ulid: owner.userId },
      customFieldValues: [{ fieldUlid: tier.ulid, value: tier.options[0]!.ulid, optionName: 'Gold' }],
    });
    const rest = await t.http.get(`/api/v1/runs/${created.ulid}`).set(owner.headers);
    expect(rest.body).toMatchObject({ name: 'GraphQL run', createdAt: created.createdAt, total: 2 });
    const [event] = await auditEvents(t.http, owner, { action: 'run.created' });
    expect(event).toMatchObject({ entityUlid: created.ulid, metadata: { caseCount: 2 } });

    const invalid = await graphql(t.http, owner, CREATE, {
      code,
      input: { ...input, customFieldValues: [{ fieldUlid: tier.ulid, value: 'x' }] },
    });
    expect(codeOf(invalid)).toBe('validation_failed');
    expect(onlyError(invalid).extensions?.details?.path).toEqual(['customFieldValues', 0, 'value']);
    const noCases = await graphql(t.http, owner, CREATE, { code, input: { name: 'No cases' } });
    expect(onlyError(noCases).extensions?.details?.path).toEqual(['caseUlids']);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(codeOf(await graphql(t.http, viewer, CREATE, { code, input: { name: 'V', caseUlids: [] } }))).toBe('forbidden');
  });

  it('lists Project.runs most recent first with the REST filters, totalCount and custom field values batched', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const smoke = await createRunField(t.http, owner, { valueType: 'checkbox', title: 'Smoke' });
    const [only] = await createCases(t.http, owner, code, 1);
    const first = await createRun(t.http, owner, code, {
      name: 'Alpha',
      caseUlids: [only!.ulid],
      customFieldValues: [{ fieldUlid: smoke.ulid, value: true }],
    });
    expect((await t.http.post(`/api/v1/runs/${first.ulid}/close`).set(owner.headers)).status).toBe(200);
    await createRun(t.http, owner, code, { name: 'Beta', caseUlids: [], defaultAssigneeUlid: member.userId, environment: 'QA, Berlin' });
    await createRun(t.http, owner, code, { name: 'Gamma', caseUlids: [], customFieldValues: [{ fieldUlid: smoke.ulid, value: false }] });

    const query = `query($code: String!, $q: String, $status: [String!], $env: [String!], $assigneeUlid: String, $cf: [String!]) {
      project(code: $code) { runs(q: $q, status: $status, env: $env, assigneeUlid: $assigneeUlid, cf: $cf) {
        totalCount edges { node { name customFieldValues { fieldUlid value } } } } } }`;
    const list = async (variables: Record<string, unknown>) =>
      dataOf(await graphql(t.http, owner, query, { code, ...variables })).project.runs;
    const all = await list({});
    expect(all.totalCount).toBe(3);
    expect(all.edges.map((edge: { node: { name: string } }) => edge.node.name)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(
      all.edges.map((edge: { node: { customFieldValues: Array<{ value: unknown }> } }) => edge.node.customFieldValues[0]!.value),
    ).toEqual([false, null, true]);
    const names = async (variables: Record<string, unknown>) =>
      (await list(variables)).edges.map((edge: { node: { name: string } }) => edge.node.name);
    expect(await names({ status: ['passed'] })).toEqual(['Alpha']);
    expect(await names({ q: 'berlin' })).toEqual(['Beta']);
    expect(await names({ env: ['QA, Berlin'] })).toEqual(['Beta']);
    expect(await names({ assigneeUlid: member.userId })).toEqual(['Beta']);
    expect(await names({ assigneeUlid: '' })).toEqual(['Gamma', 'Alpha']);
    expect(await names({ cf: [`${smoke.ulid}:true,empty`] })).toEqual(['Beta', 'Alpha']);
    expect((await list({ cf: [`${smoke.ulid}:false`] })).totalCount).toBe(1);
    const malformed = await graphql(t.http, owner, query, { code, cf: ['nonsense'] });
    expect(codeOf(malformed)).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, query, { code, status: ['aborted'] }))).toBe('validation_failed');
  });

  it('updates, closes, aborts, clones and deletes runs with the REST rules', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const cases = await createCases(t.http, owner, code, 2);
    const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid), description: 'Old' });

    const update = `mutation($ulid: String!, $input: UpdateRunInput!) { updateRun(ulid: $ulid, input: $input) { name description } }`;
    const updated = dataOf(
      await graphql(t.http, member, update, { ulid: run.ulid, input: { name: 'Renamed', description: null } }),
    ).updateRun;
    expect(updated).toEqual({ name: 'Renamed', description: null });
    expect(codeOf(await graphql(t.http, member, update, { ulid: run.ulid, input: {} }))).toBe('validation_failed');
    const [event] = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(event!.metadata.changes).toEqual([
      { field: 'name', from: 'Nightly', to: 'Renamed' },
      { field: 'description', from: 'Old', to: null },
    ]);

    const clone = `mutation($code: String!, $ulid: String!, $input: CloneRunInput!) { cloneRun(projectCode: $code, ulid: $ulid, input: $input) { ulid name state total } }`;
    const cloned = dataOf(
      await graphql(t.http, member, clone, { code, ulid: run.ulid, input: { title: 'Copy', statusFilter: ['untested'] } }),
    ).cloneRun;
    expect(cloned).toMatchObject({ name: 'Copy', state: 'open', total: 2 });
    expect(codeOf(await graphql(t.http, member, clone, { code, ulid: run.ulid, input: { title: '' } }))).toBe('validation_failed');

    const close = 'mutation($ulid: String!) { closeRun(ulid: $ulid) { state status closedAt } }';
    expect(dataOf(await graphql(t.http, member, close, { ulid: run.ulid })).closeRun).toMatchObject({ state: 'closed', status: 'passed' });
    expect(codeOf(await graphql(t.http, member, close, { ulid: run.ulid }))).toBe('conflict');

    const abort = 'mutation($ulid: String!) { abortRun(ulid: $ulid) { state status abortedAt } }';
    expect(codeOf(await graphql(t.http, member, abort, { ulid: run.ulid }))).toBe('conflict');
    const aborted = dataOf(await graphql(t.http, member, abort, { ulid: cloned.ulid })).abortRun;
    expect(aborted).toMatchObject({ state: 'closed', status: 'aborted' });
    expect(typeof aborted.abortedAt).toBe('number');
    expect(codeOf(await graphql(t.http, member, update, { ulid: cloned.ulid, input: { name: 'Frozen' } }))).toBe('conflict');

    const remove = 'mutation($ulid: String!) { deleteRun(ulid: $ulid) }';
    expect(codeOf(await graphql(t.http, member, remove, { ulid: run.ulid }))).toBe('forbidden');
    expect(dataOf(await graphql(t.http, owner, remove, { ulid: cloned.ulid })).deleteRun).toBe(true);
    expect(codeOf(await graphql(t.http, owner, 'query($u: String!) { run(ulid: $u) { ulid } }', { u: cloned.ulid }))).toBe('not_found');
    const [deleted] = await auditEvents(t.http, owner, { action: 'run.deleted' });
    expect(deleted).toMatchObject({ entityUlid: cloned.ulid, runUlid: null, metadata: { wasState: 'closed' } });
  });

  it('replaces custom field values with setRunCustomFieldValues (viewer forbidden)', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const notes = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    const mutation = `mutation($ulid: String!, $values: [RunFieldValueInput!]!) { setRunCustomFieldValues(ulid: $ulid, values: $values) { fieldUlid value } }`;
    const values = [{ fieldUlid: notes.ulid, value: 'From GraphQL' }];
    expect(dataOf(await graphql(t.http, owner, mutation, { ulid: run.ulid, values })).setRunCustomFieldValues).toEqual(values);
    const [event] = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(event!.metadata).toEqual({
      customFieldChanges: [{ fieldUlid: notes.ulid, fieldLabel: 'Notes', from: null, to: 'From GraphQL' }],
    });
    expect(codeOf(await graphql(t.http, viewer, mutation, { ulid: run.ulid, values: [] }))).toBe('forbidden');
    const invalid = await graphql(t.http, owner, mutation, { ulid: run.ulid, values: [{ fieldUlid: notes.ulid, value: 5 }] });
    expect(onlyError(invalid).extensions?.details?.path).toEqual(['values', 0, 'value']);
  });

  it('reads and updates run settings of projects and the organization', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const SETTINGS = `allowResultsInClosedRuns { value source } assigneeResultLock { value source } timeTracking { value source }
      defaultAssigneeUserId { value source } requireCommentOnNegativeResult { value source }`;
    const read = `query($code: String!) { project(code: $code) { runSettings { ${SETTINGS} } } organization { runSettings { ${SETTINGS} } } }`;
    const initial = dataOf(await graphql(t.http, member, read, { code }));
    expect(initial.project.runSettings).toEqual({
      allowResultsInClosedRuns: { value: true, source: 'default' },
      assigneeResultLock: { value: false, source: 'default' },
      timeTracking: { value: 'optional', source: 'default' },
      defaultAssigneeUserId: { value: null, source: 'default' },
      requireCommentOnNegativeResult: { value: false, source: 'default' },
    });
    expect(initial.organization.runSettings.defaultAssigneeUserId).toBeNull();

    const update = `mutation($code: String, $input: RunSettingsInput!) { updateRunSettings(projectCode: $code, input: $input) { ${SETTINGS} } }`;
    const org = dataOf(await graphql(t.http, owner, update, { input: { timeTracking: 'required' } })).updateRunSettings;
    expect(org.timeTracking).toEqual({ value: 'required', source: 'organization' });
    const project = dataOf(
      await graphql(t.http, owner, update, { code, input: { defaultAssigneeUserId: member.userId, timeTracking: null } }),
    ).updateRunSettings;
    expect(project.defaultAssigneeUserId).toEqual({ value: member.userId, source: 'project' });
    expect(project.timeTracking).toEqual({ value: 'required', source: 'organization' });
    expect(codeOf(await graphql(t.http, owner, update, { input: { defaultAssigneeUserId: member.userId } }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, update, { code, input: { timeTracking: 'sometimes' } }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, member, update, { code, input: { assigneeResultLock: true } }))).toBe('forbidden');
    const rest = await t.http.get(`/api/v1/projects/${code}/run-settings`).set(owner.headers);
    expect(rest.body.settings.timeTracking).toEqual({ value: 'required', source: 'organization' });
  });

  it("answers any selection of the run's milestone and environment, from queries and mutations", async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    const milestone = await createMilestone(t.http, owner, code);
    const [only] = await createCases(t.http, owner, code, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: [only!.ulid], environment: 'Staging', milestoneId: milestone.ulid });
    const selection = 'milestone { ulid name projectUlid createdAt } environment { ulid slug projectUlid createdAt }';
    const expected = {
      milestone: { ulid: milestone.ulid, name: milestone.name, projectUlid: project.ulid, createdAt: milestone.createdAt },
      environment: { slug: 'staging', projectUlid: project.ulid },
    };
    const read = dataOf(
      await graphql(t.http, owner, `query($ulid: String!) { run(ulid: $ulid) { ${selection} } }`, { ulid: run.ulid }),
    ).run;
    expect(read).toMatchObject(expected);
    expect(typeof read.environment.createdAt).toBe('number');
    const closed = dataOf(
      await graphql(t.http, owner, `mutation($ulid: String!) { closeRun(ulid: $ulid) { ${selection} } }`, { ulid: run.ulid }),
    ).closeRun;
    expect(closed).toMatchObject(expected);
  });

  it('refuses the runs and plans of a locked project with project_locked, as REST does', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    await createProject(t.http, owner, { name: 'Newer' });
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    for (const field of ['runs', 'plans']) {
      const answer = await graphql(t.http, owner, `{ projects { edges { node { code ${field} { totalCount } } } } }`);
      expect(onlyError(answer)).toMatchObject({
        extensions: { code: 'project_locked' },
        path: ['projects', 'edges', 0, 'node', field, 'totalCount'],
      });
      expect((await t.http.get(`/api/v1/projects/${code}/${field}`).set(owner.headers)).body.error.code).toBe('project_locked');
    }
  });
});
