import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import {
  type ConfigurationValueBody,
  configurationGroup,
  createCase,
  createPlan,
  createRun,
  putPlanCases,
  runCasesOf,
} from '../support/runs.ts';

const t = useTestApp();

const postRun = (caller: Caller, code: string, body: object) =>
  t.http
    .post(`/api/v1/projects/${code}/runs`)
    .set(caller.headers)
    .send({ name: 'From plan', ...body });

const planRunsTotal = async (caller: Caller, planUlid: string) =>
  (await t.http.get(`/api/v1/plans/${planUlid}/runs`).set(caller.headers)).body.total as number;

describe('POST /api/v1/projects/{projectId}/runs with planUlid', () => {
  it("seeds the cases from the plan's live selection in position order, with the assignee precedence", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const [alice, bob, carol] = [
      await joinAs(t.http, owner, 'member'),
      await joinAs(t.http, owner, 'member'),
      await joinAs(t.http, owner, 'member'),
    ];
    const cases = [];
    for (const title of ['One', 'Two', 'Three', 'Four', 'Archived']) cases.push(await createCase(t.http, owner, code, { title }));
    const [one, two, three, four, archived] = cases as [
      (typeof cases)[0],
      (typeof cases)[0],
      (typeof cases)[0],
      (typeof cases)[0],
      (typeof cases)[0],
    ];
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, {
      caseUlids: [four.ulid, archived.ulid, two.ulid, one.ulid, three.ulid],
      caseAssignees: [
        { caseUlid: four.ulid, assigneeUlid: alice.userId },
        { caseUlid: two.ulid, assigneeUlid: alice.userId },
        { caseUlid: one.ulid, assigneeUlid: bob.userId },
      ],
    });
    await t.http.post(`/api/v1/test-cases/${archived.ulid}/archive`).set(owner.headers);

    const response = await postRun(owner, code, {
      planUlid: plan.ulid,
      defaultAssigneeUlid: carol.userId,
      caseAssignees: [
        // The request's entries win over the plan's, an explicit null included.
        { caseUlid: four.ulid, assigneeUlid: bob.userId },
        { caseUlid: two.ulid, assigneeUlid: null },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ planUlid: plan.ulid, total: 4, configurations: [], comboKey: '' });
    expect((await runCasesOf(t.http, owner, response.body.ulid)).map((item) => [item.title, item.position, item.assigneeUlid])).toEqual([
      ['Four', 0, bob.userId], // request caseAssignees
      ['Two', 1, null], // request caseAssignees (null)
      ['One', 2, bob.userId], // the plan's stored assignee
      ['Three', 3, carol.userId], // defaultAssigneeUlid
    ]);

    // Without a default, a case with no other assignee is unassigned.
    const bare = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    expect((await runCasesOf(t.http, owner, bare.ulid)).map((item) => item.assigneeUlid)).toEqual([
      alice.userId,
      alice.userId,
      bob.userId,
      null,
    ]);
    const [created] = await auditEvents(t.http, owner, { action: 'run.created', entityUlid: bare.ulid });
    expect(created!.metadata).toMatchObject({ caseCount: 4 });
  });

  it('seeds null for a plan assignee who left the organization, without failing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const leaver = await joinAs(t.http, owner, 'member');
    const testCase = await createCase(t.http, owner, code);
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, {
      caseUlids: [testCase.ulid],
      caseAssignees: [{ caseUlid: testCase.ulid, assigneeUlid: leaver.userId }],
    });
    // Leaving is not part of the API yet: the membership row goes, as a scenario fixture.
    await prisma().membership.deleteMany({ where: { orgId: owner.orgId, userId: leaver.userId } });

    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((item) => item.assigneeUlid)).toEqual([null]);
    // The plan's entry matched first, so the request's default assignee does not fill in.
    const withDefault = await createRun(t.http, owner, code, { planUlid: plan.ulid, defaultAssigneeUlid: owner.userId });
    expect((await runCasesOf(t.http, owner, withDefault.ulid)).map((item) => item.assigneeUlid)).toEqual([null]);
  });

  it('takes caseUlids over the selection when both are given; an empty plan makes an empty run', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const [a, b] = [await createCase(t.http, owner, code, { title: 'A' }), await createCase(t.http, owner, code, { title: 'B' })];
    const plan = await createPlan(t.http, owner, code);
    expect((await createRun(t.http, owner, code, { planUlid: plan.ulid })).total).toBe(0);
    await putPlanCases(t.http, owner, plan.ulid, { caseUlids: [a.ulid] });
    const explicit = await createRun(t.http, owner, code, { planUlid: plan.ulid, caseUlids: [b.ulid, a.ulid] });
    expect((await runCasesOf(t.http, owner, explicit.ulid)).map((item) => item.title)).toEqual(['B', 'A']);
  });

  it('creates exactly one run per request and the plan progress reflects it', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = [await createCase(t.http, owner, code), await createCase(t.http, owner, code)];
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, { caseUlids: cases.map((each) => each.ulid) });
    expect(await planRunsTotal(owner, plan.ulid)).toBe(0);
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    expect(await planRunsTotal(owner, plan.ulid)).toBe(1);
    const detail = (await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body;
    expect(detail.progress).toEqual({
      totalRuns: 1,
      closedRuns: 0,
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 2 },
      byConfiguration: [
        { comboKey: '', values: [], totalRuns: 1, closedRuns: 0, counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 2 } },
      ],
    });
    expect(
      (await t.http.get(`/api/v1/plans/${plan.ulid}/runs`).set(owner.headers)).body.items.map((each: { ulid: string }) => each.ulid),
    ).toEqual([run.ulid]);
  });

  it('answers 404 for a plan of another project, an unknown or a deleted plan', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const foreign = await createPlan(t.http, owner, other.id);
    const deleted = await createPlan(t.http, owner, code, { name: 'Deleted' });
    await t.http.delete(`/api/v1/plans/${deleted.ulid}`).set(owner.headers);
    for (const planUlid of [foreign.ulid, newId(), deleted.ulid]) expectError(await postRun(owner, code, { planUlid }), 404, 'not_found');
    expect(await planRunsTotal(owner, foreign.ulid)).toBe(0);
  });
});

describe('POST /api/v1/projects/{projectId}/runs for a configured plan', () => {
  async function configuredPlan() {
    const { owner, code } = await ownerWithProject(t.http);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows', 'macOS']);
    const browser = await configurationGroup(t.http, owner, code, 'Browser', ['Chrome', 'Firefox']);
    const testCase = await createCase(t.http, owner, code);
    const plan = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, plan.ulid, { caseUlids: [testCase.ulid] });
    const [linux, windows, macos] = os.values as [ConfigurationValueBody, ConfigurationValueBody, ConfigurationValueBody];
    const [chrome, firefox] = browser.values as [ConfigurationValueBody, ConfigurationValueBody];
    const selected = await t.http
      .put(`/api/v1/plans/${plan.ulid}/configurations`)
      .set(owner.headers)
      .send({ configurationUlids: [linux.ulid, windows.ulid, chrome.ulid, firefox.ulid] });
    expect(selected.status).toBe(200);
    return { owner, code, plan, linux, windows, macos, chrome, firefox };
  }

  it("snapshots the combination's values in group order and stores its comboKey", async () => {
    const { owner, code, plan, windows, firefox } = await configuredPlan();
    const response = await postRun(owner, code, { planUlid: plan.ulid, configurationUlids: [firefox.ulid, windows.ulid] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.planUlid).toBe(plan.ulid);
    expect(response.body.comboKey).toBe([firefox.ulid, windows.ulid].sort().join(':'));
    expect(response.body.configurations.map(({ ulid: _ulid, ...rest }: { ulid: string }) => rest)).toEqual([
      { configurationUlid: windows.ulid, groupName: 'OS', valueName: 'Windows' },
      { configurationUlid: firefox.ulid, groupName: 'Browser', valueName: 'Firefox' },
    ]);
    const progress = (await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body.progress;
    expect(progress.byConfiguration).toEqual([
      {
        comboKey: response.body.comboKey,
        values: [
          { groupName: 'OS', valueName: 'Windows' },
          { groupName: 'Browser', valueName: 'Firefox' },
        ],
        totalRuns: 1,
        closedRuns: 0,
        counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 1 },
      },
    ]);
  });

  it('answers 422 unless the values are one of each group of the selection, 422 for an excluded combination, 404 for an unknown value', async () => {
    const { owner, code, plan, linux, windows, macos, chrome, firefox } = await configuredPlan();
    const excludedKey = [linux.ulid, firefox.ulid].sort().join(':');
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/excluded-combinations`)
      .set(owner.headers)
      .send({ comboKeys: [excludedKey] });
    for (const configurationUlids of [
      undefined, // a configured plan needs a combination
      [linux.ulid], // a group is missing
      [linux.ulid, windows.ulid], // two values of one group
      [macos.ulid, chrome.ulid], // macOS is not selected
      [linux.ulid, firefox.ulid], // excluded
    ]) {
      const response = await postRun(owner, code, { planUlid: plan.ulid, ...(configurationUlids ? { configurationUlids } : {}) });
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(['configurationUlids']);
    }
    expectError(await postRun(owner, code, { planUlid: plan.ulid, configurationUlids: [linux.ulid, newId()] }), 404, 'not_found');
    expect(await planRunsTotal(owner, plan.ulid)).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'run.created' })).toEqual([]);

    // Every included combination is accepted.
    for (const configurationUlids of [
      [linux.ulid, chrome.ulid],
      [windows.ulid, chrome.ulid],
      [windows.ulid, firefox.ulid],
    ]) {
      expect((await postRun(owner, code, { planUlid: plan.ulid, configurationUlids })).status).toBe(201);
    }
    expect(await planRunsTotal(owner, plan.ulid)).toBe(3);
  });

  it('answers 422 for configurations on a plan without a configuration selection', async () => {
    const { owner, code, linux } = await configuredPlan();
    const bare = await createPlan(t.http, owner, code, { name: 'Bare' });
    const response = await postRun(owner, code, { planUlid: bare.ulid, configurationUlids: [linux.ulid] });
    expectError(response, 422, 'validation_failed');
  });
});

describe('a configured plan after a selected value is deleted', () => {
  it('accepts the combinations that GET combinations still lists', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows']);
    const browser = await configurationGroup(t.http, owner, code, 'Browser', ['Chrome']);
    const plan = await createPlan(t.http, owner, code);
    const [linux, windows] = os.values as [ConfigurationValueBody, ConfigurationValueBody];
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/configurations`)
      .set(owner.headers)
      .send({ configurationUlids: [linux.ulid, windows.ulid, browser.values[0]!.ulid] });
    await t.http.delete(`/api/v1/configuration-groups/${browser.ulid}`).set(owner.headers);
    const combinations = (await t.http.get(`/api/v1/plans/${plan.ulid}/combinations`).set(owner.headers)).body;
    expect(combinations.items.map((item: { comboKey: string }) => item.comboKey)).toEqual([linux.ulid, windows.ulid]);
    const response = await postRun(owner, code, { planUlid: plan.ulid, configurationUlids: [linux.ulid] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  });
});
