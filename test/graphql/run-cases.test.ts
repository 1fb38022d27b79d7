import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, graphql, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';
import { type RunCaseBody, runWithCases } from '../support/runs.ts';

const t = useTestApp();

const RUN_CASE = `ulid runUlid caseUlid displayId title suiteName position status assigneeUlid elapsedMs
  steps { ulid position action expectedResult status actualResult } lastResultAt createdAt updatedAt`;

const MARK = `mutation($ulid: String!, $input: MarkRunCaseInput!) { markRunCase(ulid: $ulid, input: $input) { resultUlid runCase { ${RUN_CASE} } } }`;
const MARK_STEP = `mutation($runCase: String!, $step: String!, $input: MarkRunCaseStepInput!) {
  markRunCaseStep(runCaseUlid: $runCase, stepUlid: $step, input: $input) { ${RUN_CASE} } }`;
const OPEN = `mutation($ulid: String!) { openRunCase(ulid: $ulid) { ${RUN_CASE} } }`;

const markCase = (caller: Caller, ulid: string, input: Record<string, unknown>) => graphql(t.http, caller, MARK, { ulid, input });

describe('GraphQL: run cases', () => {
  it('reads Run.cases (filters, totalCount) and runCase exactly as REST answers them', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4, 2);
    const member = await joinAs(t.http, owner, 'member');
    await t.http
      .patch(`/api/v1/runs/${run.ulid}/cases/${runCases[1]!.ulid}`)
      .set(owner.headers)
      .send({ status: 'failed', assigneeUlid: member.userId });
    await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCases[2]!.ulid}`).set(owner.headers).send({ status: 'passed' });
    const rest = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items as RunCaseBody[];

    const listing = `query($run: String!, $status: [String!], $assignee: String, $q: String, $first: Int) {
      run(ulid: $run) { cases(status: $status, assigneeUlid: $assignee, q: $q, first: $first) { totalCount edges { node { ${RUN_CASE} } } } } }`;
    const all = dataOf(await graphql(t.http, owner, listing, { run: run.ulid })).run.cases;
    expect(all.totalCount).toBe(4);
    expect(all.edges.map((edge: { node: RunCaseBody }) => edge.node)).toEqual(rest);

    const titles = async (variables: Record<string, unknown>) => {
      const cases = dataOf(await graphql(t.http, owner, listing, { run: run.ulid, ...variables })).run.cases;
      return { total: cases.totalCount, titles: cases.edges.map((edge: { node: RunCaseBody }) => edge.node.title) };
    };
    expect(await titles({ status: ['failed', 'passed'] })).toEqual({ total: 2, titles: ['Case 2', 'Case 3'] });
    expect(await titles({ assignee: member.userId })).toEqual({ total: 1, titles: ['Case 2'] });
    expect(await titles({ assignee: '' })).toMatchObject({ total: 3 });
    expect(await titles({ q: runCases[3]!.displayId })).toEqual({ total: 1, titles: ['Case 4'] });
    expect(await titles({ first: 2 })).toEqual({ total: 4, titles: ['Case 1', 'Case 2'] });
    expect(codeOf(await graphql(t.http, owner, listing, { run: run.ulid, status: ['done'] }))).toBe('validation_failed');

    const one = `query($ulid: String!) { runCase(ulid: $ulid) { ${RUN_CASE} } }`;
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(dataOf(await graphql(t.http, viewer, one, { ulid: runCases[1]!.ulid })).runCase).toEqual(rest[1]);
    expect(codeOf(await graphql(t.http, await signUp(t.http), one, { ulid: runCases[1]!.ulid }))).toBe('not_found');
  });

  it('marks, assigns and times with markRunCase, answering the result ULID, with the REST events', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 2);
    const member = await joinAs(t.http, owner, 'member');
    const target = runCases[0]!;

    const marked = dataOf(
      await markCase(owner, target.ulid, { status: 'failed', elapsedMs: 250, assigneeUlid: member.userId }),
    ).markRunCase;
    expect(marked.resultUlid).toEqual(expect.any(String));
    expect(marked.runCase).toMatchObject({ ulid: target.ulid, status: 'failed', elapsedMs: 250, assigneeUlid: member.userId });
    expect(marked.runCase.steps.map((step: { status: string }) => step.status)).toEqual(['failed', 'failed']);
    const rest = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${target.ulid}`).set(owner.headers);
    expect({ ...marked.runCase, linkedDefects: [], attachments: [] }).toEqual(rest.body);

    const unassigned = dataOf(await markCase(owner, target.ulid, { assigneeUlid: null, elapsedMs: null })).markRunCase;
    expect(unassigned).toMatchObject({ resultUlid: null, runCase: { assigneeUlid: null, elapsedMs: null, status: 'failed' } });
    expect(dataOf(await markCase(owner, target.ulid, { status: 'failed' })).markRunCase.resultUlid).toBeNull();

    expect((await auditEvents(t.http, owner, { entityUlid: target.ulid })).map((event) => event.action).reverse()).toEqual([
      'run.case_assigned',
      'run.case_marked',
      'run.case_assigned',
      'run.case_updated',
    ]);

    const invalid = await markCase(owner, target.ulid, { status: 'done' });
    expect(codeOf(invalid)).toBe('validation_failed');
    expect(onlyError(invalid).extensions?.details?.path).toEqual(['status']);
    expect(codeOf(await markCase(owner, target.ulid, {}))).toBe('validation_failed');
    expect(codeOf(await markCase(await joinAs(t.http, owner, 'viewer'), target.ulid, { status: 'passed' }))).toBe('forbidden');
    expect(codeOf(await markCase(owner, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', { status: 'passed' }))).toBe('not_found');
  });

  it('lists Run.results in history order with authors and sources', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const token = await tokenFor(t.http, owner, { name: 'Pipeline' });
    await markCase(owner, runCases[0]!.ulid, { status: 'passed', elapsedMs: 3 });
    await markCase(token, runCases[1]!.ulid, { status: 'blocked' });
    await markCase(owner, runCases[1]!.ulid, { status: 'passed' });

    const query = `query($run: String!, $runCase: String) { run(ulid: $run) { results(runCaseUlid: $runCase) { totalCount edges { node {
      ulid runUlid runCaseUlid caseUlid status elapsedMs comment executedAt executedByUlid source author { kind ulid displayName name } } } } } }`;
    const listed = dataOf(await graphql(t.http, owner, query, { run: run.ulid })).run.results;
    expect(listed.totalCount).toBe(3);
    const nodes = listed.edges.map((edge: { node: Record<string, unknown> }) => edge.node);
    const rest = (await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers)).body.items as Array<Record<string, unknown>>;
    expect(nodes.map((node: Record<string, unknown>) => node.ulid)).toEqual(rest.map((row) => row.ulid));
    expect(nodes[1]).toMatchObject({
      status: 'blocked',
      source: 'api',
      executedByUlid: owner.userId,
      author: { kind: 'api_token', ulid: token.tokenUlid, name: 'Pipeline' },
    });
    expect(nodes[0]).toMatchObject({
      status: 'passed',
      elapsedMs: 3,
      source: 'manual',
      author: { kind: 'user', ulid: owner.userId, displayName: 'Test User' },
    });

    const ofSecond = dataOf(await graphql(t.http, owner, query, { run: run.ulid, runCase: runCases[1]!.ulid })).run.results;
    expect(ofSecond.totalCount).toBe(2);
  });

  it('marks steps with markRunCaseStep and opens cases with openRunCase', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 2);
    const member = await joinAs(t.http, owner, 'member');
    const target = runCases[0]!;
    const step = (index: number, input: Record<string, unknown>) =>
      graphql(t.http, owner, MARK_STEP, { runCase: target.ulid, step: target.steps[index]!.ulid, input });

    expect(dataOf(await step(0, { status: 'passed', actualResult: 'Fine' })).markRunCaseStep).toMatchObject({
      status: 'untested',
      steps: [{ status: 'passed', actualResult: 'Fine' }, { status: 'untested' }],
    });
    expect(dataOf(await step(1, { status: 'failed' })).markRunCaseStep.status).toBe('failed');
    expect(codeOf(await step(1, {}))).toBe('validation_failed');
    expect(
      codeOf(
        await graphql(t.http, owner, MARK_STEP, { runCase: target.ulid, step: runCases[1]!.steps[0]!.ulid, input: { status: 'passed' } }),
      ),
    ).toBe('not_found');
    const history = (await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers)).body.items;
    expect(history.map((row: { status: string }) => row.status)).toEqual(['failed']);

    const opened = dataOf(await graphql(t.http, member, OPEN, { ulid: runCases[1]!.ulid })).openRunCase;
    expect(opened.assigneeUlid).toBe(member.userId);
    expect(dataOf(await graphql(t.http, owner, OPEN, { ulid: runCases[1]!.ulid })).openRunCase.assigneeUlid).toBe(member.userId);
    const [assigned] = await auditEvents(t.http, owner, { action: 'run.case_assigned' });
    expect(assigned!.metadata.assigneeChange).toMatchObject({ from: null, to: { ulid: member.userId }, via: 'open' });
  });

  it('surfaces run_case_assignee_locked, elapsed_ms_required and api_result_limit_exceeded as error codes', async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 3, 1);
    const assignee = await joinAs(t.http, owner, 'member');
    const colleague = await joinAs(t.http, owner, 'member');
    await markCase(owner, runCases[0]!.ulid, { assigneeUlid: assignee.userId });
    const settings = await t.http
      .patch(`/api/v1/projects/${code}/run-settings`)
      .set(owner.headers)
      .send({ assigneeResultLock: true, timeTracking: 'required' });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    expect(codeOf(await markCase(colleague, runCases[0]!.ulid, { status: 'passed', elapsedMs: 1 }))).toBe('run_case_assignee_locked');
    const lockedStep = await graphql(t.http, colleague, MARK_STEP, {
      runCase: runCases[0]!.ulid,
      step: runCases[0]!.steps[0]!.ulid,
      input: { status: 'passed' },
    });
    expect(codeOf(lockedStep)).toBe('run_case_assignee_locked');

    const untimed = onlyError(await markCase(assignee, runCases[0]!.ulid, { status: 'passed' }));
    expect(untimed.extensions).toMatchObject({ code: 'validation_failed', details: { code: 'elapsed_ms_required', path: ['elapsedMs'] } });

    const token = await tokenFor(t.http, owner, { role: 'admin' });
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 1 });
    expect(dataOf(await markCase(token, runCases[1]!.ulid, { status: 'passed', elapsedMs: 1 })).markRunCase.resultUlid).toEqual(
      expect.any(String),
    );
    const overLimit = onlyError(await markCase(token, runCases[2]!.ulid, { status: 'passed', elapsedMs: 1 }));
    expect(overLimit.extensions?.code).toBe('api_result_limit_exceeded');
    expect(overLimit.message).not.toMatch(/\d/);
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers)).body.items).toHaveLength(1);
  });

  it('reads Organization.apiResultUsage for any member', async () => {
    const { owner, runCases } = await runWithCases(t.http, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const token = await tokenFor(t.http, owner);
    await markCase(token, runCases[0]!.ulid, { status: 'passed' });
    const query = '{ organization { apiResultUsage { periodKey used limit } } }';
    const expected = { periodKey: new Date().toISOString().slice(0, 7), used: 1, limit: 5000 };
    expect(dataOf(await graphql(t.http, viewer, query)).organization.apiResultUsage).toEqual(expected);
    expect(dataOf(await graphql(t.http, token, query)).organization.apiResultUsage).toEqual(expected);
  });
});
