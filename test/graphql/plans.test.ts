import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { onQuery } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createMilestone, graphql, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';
import { type ConfigurationValueBody, configurationGroup, createCase, createPlan, createRun } from '../support/runs.ts';

const t = useTestApp();

const COUNTS = 'counts { passed failed blocked skipped untested }';
const PROGRESS = `progress { totalRuns closedRuns ${COUNTS} byConfiguration { comboKey values { groupName valueName } totalRuns closedRuns ${COUNTS} } }`;
const PLAN_FIELDS = `ulid projectUlid planNumber name description author { kind ulid displayName name avatarKey } caseCount status
  milestoneUlid milestone { ulid name } createdAt updatedAt`;

const CREATE = `mutation($code: String!, $input: CreatePlanInput!) { createPlan(projectCode: $code, input: $input) { ${PLAN_FIELDS} } }`;
const READ = `query($ulid: String!) { plan(ulid: $ulid) { ${PLAN_FIELDS} ${PROGRESS} } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdatePlanInput!) { updatePlan(ulid: $ulid, input: $input) { ${PLAN_FIELDS} ${PROGRESS} } }`;
const DELETE = 'mutation($ulid: String!) { deletePlan(ulid: $ulid) }';
const LIST = `query($code: String!, $q: String, $first: Int) {
  project(code: $code) { plans(q: $q, first: $first) { totalCount edges { node { planNumber name } } } }
}`;

/** The REST plan object without `progress` (the GraphQL `milestone` has the same `{ ulid, name }`). */
const restPlan = async (caller: Caller, ulid: string) => (await t.http.get(`/api/v1/plans/${ulid}`).set(caller.headers)).body;

describe('GraphQL: plans', () => {
  it('creates, reads, lists, updates and deletes plans through the REST rules', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const milestone = await createMilestone(t.http, owner, code, { name: 'GA' });
    const created = dataOf(await graphql(t.http, owner, CREATE, { code, input: { name: 'Release', description: 'All of it' } })).createPlan;
    expect(created).toMatchObject({
      planNumber: 1,
      name: 'Release',
      description: 'All of it',
      author: { kind: 'user', ulid: owner.userId, displayName: 'Test User', name: null, avatarKey: null },
      caseCount: 0,
      status: 'draft',
      milestoneUlid: null,
      milestone: null,
    });
    const rest = await restPlan(owner, created.ulid);
    const read = dataOf(await graphql(t.http, owner, READ, { ulid: created.ulid })).plan;
    expect(read).toEqual({ ...created, author: { ...rest.author, name: null }, progress: rest.progress });
    expect({ ...read, author: rest.author }).toEqual(rest);

    dataOf(await graphql(t.http, owner, CREATE, { code, input: { name: 'Hotfix', status: 'active' } }));
    const all = dataOf(await graphql(t.http, owner, LIST, { code })).project.plans;
    expect(all.totalCount).toBe(2);
    expect(all.edges.map((edge: { node: { planNumber: number } }) => edge.node.planNumber)).toEqual([1, 2]);
    expect(dataOf(await graphql(t.http, owner, LIST, { code, q: 'HOT' })).project.plans.totalCount).toBe(1);

    const updated = dataOf(
      await graphql(t.http, owner, UPDATE, {
        ulid: created.ulid,
        input: { status: 'completed', milestoneId: milestone.ulid, description: null },
      }),
    ).updatePlan;
    expect(updated).toMatchObject({
      status: 'completed',
      description: null,
      milestone: { ulid: milestone.ulid, name: 'GA' },
      progress: rest.progress,
    });
    // A status equal to the current one: a no-op with no event.
    dataOf(await graphql(t.http, owner, UPDATE, { ulid: created.ulid, input: { status: 'completed' } }));
    expect(await auditEvents(t.http, owner, { action: 'plan.updated' })).toHaveLength(1);

    expect(dataOf(await graphql(t.http, owner, DELETE, { ulid: created.ulid })).deletePlan).toBe(true);
    expect(codeOf(await graphql(t.http, owner, READ, { ulid: created.ulid }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, owner, DELETE, { ulid: created.ulid }))).toBe('not_found');
    expect((await auditEvents(t.http, owner, { entityUlid: created.ulid })).map((event) => event.action).reverse()).toEqual([
      'plan.created',
      'plan.updated',
      'plan.deleted',
    ]);
  });

  it('validates with the REST schemas, refuses viewers and hides other organizations', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const empty = onlyError(await graphql(t.http, owner, CREATE, { code, input: { name: '' } }));
    expect(empty.extensions).toMatchObject({ code: 'validation_failed', details: { path: ['name'] } });
    expect(codeOf(await graphql(t.http, owner, CREATE, { code, input: { name: 'P', status: 'archived' } }))).toBe('validation_failed');
    // planNumber is no input field: the request fails before execution.
    const withNumber = await graphql(t.http, owner, CREATE, { code, input: { name: 'P', planNumber: 3 } });
    expect(withNumber.body.errors[0].extensions.code).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, viewer, CREATE, { code, input: { name: 'P' } }))).toBe('forbidden');

    const plan = await createPlan(t.http, owner, code, { name: 'Taken' });
    await createPlan(t.http, owner, code, { name: 'Other' });
    expect(codeOf(await graphql(t.http, owner, UPDATE, { ulid: plan.ulid, input: {} }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, UPDATE, { ulid: plan.ulid, input: { name: 'Other' } }))).toBe('conflict');
    expect(codeOf(await graphql(t.http, owner, UPDATE, { ulid: plan.ulid, input: { milestoneId: newId() } }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, owner, CREATE, { code, input: { name: 'Taken' } }))).toBe('conflict');
    expect(codeOf(await graphql(t.http, viewer, UPDATE, { ulid: plan.ulid, input: { name: 'X' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, DELETE, { ulid: plan.ulid }))).toBe('forbidden');
    expect(dataOf(await graphql(t.http, viewer, READ, { ulid: plan.ulid })).plan.name).toBe('Taken');
    expect(codeOf(await graphql(t.http, stranger, READ, { ulid: plan.ulid }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, stranger, DELETE, { ulid: plan.ulid }))).toBe('not_found');
  });

  it('sets and reads the selection, assignees, configurations, exclusions, combinations and runs', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const [a, b] = [await createCase(t.http, owner, code, { title: 'A' }), await createCase(t.http, owner, code, { title: 'B' })];
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows']);
    const [linux, windows] = os.values as [ConfigurationValueBody, ConfigurationValueBody];
    const plan = await createPlan(t.http, owner, code);

    const setCases = `mutation($ulid: String!, $input: SetPlanCasesInput!) {
      setPlanCases(ulid: $ulid, input: $input) { ulid caseUlid displayId title suiteName position assigneeUlid } }`;
    const items = dataOf(
      await graphql(t.http, owner, setCases, {
        ulid: plan.ulid,
        input: { caseUlids: [b.ulid, a.ulid], caseAssignees: [{ caseUlid: a.ulid, assigneeUlid: member.userId }] },
      }),
    ).setPlanCases;
    const rest = (await t.http.get(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers)).body.items;
    expect(items).toEqual(rest);
    expect(items.map((item: { title: string; assigneeUlid: string | null }) => [item.title, item.assigneeUlid])).toEqual([
      ['B', null],
      ['A', member.userId],
    ]);
    const duplicate = onlyError(await graphql(t.http, owner, setCases, { ulid: plan.ulid, input: { caseUlids: [a.ulid, a.ulid] } }));
    expect(duplicate.extensions).toMatchObject({ code: 'validation_failed', details: { path: ['caseUlids'] } });
    expect(codeOf(await graphql(t.http, viewer, setCases, { ulid: plan.ulid, input: { caseUlids: [] } }))).toBe('forbidden');

    const assign = `mutation($plan: String!, $row: String!, $input: AssignPlanCaseInput!) {
      assignPlanCase(planUlid: $plan, planCaseUlid: $row, input: $input) { ulid assigneeUlid } }`;
    expect(
      dataOf(await graphql(t.http, owner, assign, { plan: plan.ulid, row: items[0].ulid, input: { assigneeUlid: member.userId } }))
        .assignPlanCase,
    ).toEqual({
      ulid: items[0].ulid,
      assigneeUlid: member.userId,
    });
    expect(codeOf(await graphql(t.http, owner, assign, { plan: plan.ulid, row: items[0].ulid, input: {} }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, assign, { plan: plan.ulid, row: newId(), input: { assigneeUlid: null } }))).toBe(
      'not_found',
    );

    const setConfigurations = `mutation($ulid: String!, $ids: [String!]!) {
      setPlanConfigurations(ulid: $ulid, configurationUlids: $ids) { configurationUlid groupUlid groupName valueName } }`;
    const configurations = dataOf(
      await graphql(t.http, owner, setConfigurations, { ulid: plan.ulid, ids: [windows.ulid, linux.ulid] }),
    ).setPlanConfigurations;
    expect(configurations).toEqual((await t.http.get(`/api/v1/plans/${plan.ulid}/configurations`).set(owner.headers)).body.items);
    expect(codeOf(await graphql(t.http, owner, setConfigurations, { ulid: plan.ulid, ids: [newId()] }))).toBe('not_found');

    const exclude = 'mutation($ulid: String!, $keys: [String!]!) { setPlanExcludedCombinations(ulid: $ulid, comboKeys: $keys) }';
    expect(dataOf(await graphql(t.http, owner, exclude, { ulid: plan.ulid, keys: [windows.ulid] })).setPlanExcludedCombinations).toEqual([
      windows.ulid,
    ]);
    expect(codeOf(await graphql(t.http, owner, exclude, { ulid: plan.ulid, keys: ['x', 'x'] }))).toBe('validation_failed');

    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [linux.ulid] });
    const later = await createRun(t.http, owner, code, { name: 'Later', planUlid: plan.ulid, configurationUlids: [linux.ulid] });
    const everything = `query($ulid: String!) { plan(ulid: $ulid) {
      caseCount excludedComboKeys
      cases { ulid caseUlid displayId title suiteName position assigneeUlid }
      configurations { configurationUlid groupUlid groupName valueName }
      combinations { totalCount includedCount items { comboKey included values { groupUlid groupName configurationUlid valueName } } }
      runs { ulid name planUlid comboKey configurations { groupName valueName } }
    } }`;
    const read = dataOf(await graphql(t.http, owner, everything, { ulid: plan.ulid })).plan;
    expect(read.caseCount).toBe(2);
    expect(read.excludedComboKeys).toEqual([windows.ulid]);
    expect(read.cases).toEqual((await t.http.get(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers)).body.items);
    expect(read.configurations).toEqual(configurations);
    expect(read.combinations).toEqual((await t.http.get(`/api/v1/plans/${plan.ulid}/combinations`).set(owner.headers)).body);
    expect(read.combinations.includedCount).toBe(1);
    expect(read.runs).toEqual([
      {
        ulid: later.ulid,
        name: 'Later',
        planUlid: plan.ulid,
        comboKey: linux.ulid,
        configurations: [{ groupName: 'OS', valueName: 'Linux' }],
      },
      {
        ulid: run.ulid,
        name: 'Nightly',
        planUlid: plan.ulid,
        comboKey: linux.ulid,
        configurations: [{ groupName: 'OS', valueName: 'Linux' }],
      },
    ]);
  });
});

describe('GraphQL: plan reporting in a bounded number of statements', () => {
  /** A project with `count` plans; every 10th has three configured runs, every 10th + 1 one unconfigured run. */
  async function plansOf(count: number) {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(t.http, owner, code);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows']);
    const [linux, windows] = os.values as [ConfigurationValueBody, ConfigurationValueBody];
    const plans: Array<{ ulid: string; planNumber: number }> = [];
    for (let start = 0; start < count; start += 25) {
      const batch = Array.from({ length: Math.min(25, count - start) }, (_, index) =>
        createPlan(t.http, owner, code, { name: `Plan ${start + index}` }),
      );
      plans.push(...(await Promise.all(batch)));
    }
    plans.sort((x, y) => x.planNumber - y.planNumber);
    const withRuns = async (plan: { ulid: string }, index: number) => {
      if (index % 10 === 1) await createRun(t.http, owner, code, { planUlid: plan.ulid, caseUlids: [testCase.ulid] });
      if (index % 10 !== 0) return;
      await t.http
        .put(`/api/v1/plans/${plan.ulid}/cases`)
        .set(owner.headers)
        .send({ caseUlids: [testCase.ulid] });
      await t.http
        .put(`/api/v1/plans/${plan.ulid}/configurations`)
        .set(owner.headers)
        .send({ configurationUlids: [linux.ulid, windows.ulid] });
      for (const value of [linux, windows, linux])
        await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [value.ulid] });
    };
    for (let start = 0; start < count; start += 20)
      await Promise.all(plans.slice(start, start + 20).map((plan, index) => withRuns(plan, start + index)));
    return { owner, code, linux, windows };
  }

  const REPORT = `query($code: String!) { project(code: $code) { plans(first: 200) { totalCount edges { node {
    ulid planNumber ${PROGRESS} runs { ulid status ${COUNTS} }
  } } } } }`;

  async function report(caller: Caller, code: string) {
    const statements: string[] = [];
    const stop = onQuery((event) => statements.push(event.query));
    let response: Response;
    try {
      response = await graphql(t.http, caller, REPORT, { code });
    } finally {
      stop();
    }
    return { statements, plans: dataOf(response).project.plans };
  }

  it('reads progress and runs of 20 and of 200 plans in the same small number of SQL statements', async () => {
    const small = await plansOf(20);
    const large = await plansOf(200);
    const few = await report(small.owner, small.code);
    const many = await report(large.owner, large.code);

    expect(few.plans.totalCount).toBe(20);
    expect(many.plans.edges).toHaveLength(200);
    type Node = {
      planNumber: number;
      progress: { totalRuns: number; byConfiguration: Array<{ comboKey: string; totalRuns: number; values: unknown[] }> };
      runs: unknown[];
    };
    const nodes = many.plans.edges.map((edge: { node: Node }) => edge.node) as Node[];
    expect(nodes.map((node) => node.planNumber)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    // Plan 1 (index 0): three configured runs in two buckets, named from the run snapshots.
    expect(nodes[0]!.runs).toHaveLength(3);
    expect(nodes[0]!.progress.totalRuns).toBe(3);
    expect(
      nodes[0]!.progress.byConfiguration
        .map((bucket) => [bucket.comboKey, bucket.totalRuns, bucket.values])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    ).toEqual(
      [
        [large.linux.ulid, 2, [{ groupName: 'OS', valueName: 'Linux' }]],
        [large.windows.ulid, 1, [{ groupName: 'OS', valueName: 'Windows' }]],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(nodes[1]!.progress).toMatchObject({ totalRuns: 1, byConfiguration: [{ comboKey: '', values: [], totalRuns: 1 }] });
    expect(nodes[2]!.progress).toEqual({
      totalRuns: 0,
      closedRuns: 0,
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 0 },
      byConfiguration: [],
    });
    expect(nodes.reduce((sum, node) => sum + node.runs.length, 0)).toBe(20 * 3 + 20);

    expect(many.statements.length, many.statements.join('\n')).toBe(few.statements.length);
    expect(many.statements.length, many.statements.join('\n')).toBeLessThanOrEqual(10);
    // The progress of all 200 plans comes from one aggregate over test_runs.
    const aggregates = many.statements.filter((sql) => /group by/i.test(sql) && /test_runs/i.test(sql));
    expect(aggregates, aggregates.join('\n')).toHaveLength(1);
  }, 240_000);
});
