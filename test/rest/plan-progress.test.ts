import { describe, expect, it } from 'vitest';
import { type Caller, ownerWithProject, useTestApp } from '../support/app.ts';
import {
  type ConfigurationValueBody,
  comboKeyOf,
  configurationGroup,
  createCase,
  createPlan,
  createRun,
  type RunBody,
} from '../support/runs.ts';
import { recordStatements } from '../support/statements.ts';

const t = useTestApp();

type Counts = { passed: number; failed: number; blocked: number; skipped: number; untested: number };
type Progress = {
  totalRuns: number;
  closedRuns: number;
  counts: Counts;
  byConfiguration: Array<{
    comboKey: string;
    values: Array<{ groupName: string; valueName: string }>;
    totalRuns: number;
    closedRuns: number;
    counts: Counts;
  }>;
};

const counts = (partial: Partial<Counts>): Counts => ({ passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 0, ...partial });

const progressOf = async (caller: Caller, planUlid: string): Promise<Progress> => {
  const response = await t.http.get(`/api/v1/plans/${planUlid}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.progress;
};

/** Marks the run's cases, in position order, with the given statuses. */
async function mark(caller: Caller, run: RunBody, statuses: string[]) {
  const cases = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(caller.headers);
  for (const [index, status] of statuses.entries()) {
    const response = await t.http
      .patch(`/api/v1/runs/${run.ulid}/cases/${cases.body.items[index].ulid}`)
      .set(caller.headers)
      .send({ status });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
}

describe('plan progress', () => {
  it('is empty without runs', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plan = await createPlan(t.http, owner, code);
    expect(await progressOf(owner, plan.ulid)).toEqual({ totalRuns: 0, closedRuns: 0, counts: counts({}), byConfiguration: [] });
  });

  it("sums the counters of the plan's runs, per comboKey bucket, counting closed and aborted runs as closed", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows']);
    const browser = await configurationGroup(t.http, owner, code, 'Browser', ['Chrome']);
    const [linux, windows] = os.values as [ConfigurationValueBody, ConfigurationValueBody];
    const [chrome] = browser.values as [ConfigurationValueBody];
    const cases = [];
    for (const title of ['A', 'B', 'C']) cases.push(await createCase(t.http, owner, code, { title }));
    const plan = await createPlan(t.http, owner, code);
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .send({ caseUlids: cases.map((each) => each.ulid) });
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/configurations`)
      .set(owner.headers)
      .send({ configurationUlids: [linux.ulid, windows.ulid, chrome.ulid] });

    const linuxRuns = [
      await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [linux.ulid, chrome.ulid] }),
      await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [chrome.ulid, linux.ulid] }),
    ];
    const windowsRun = await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [windows.ulid, chrome.ulid] });
    // Runs of other plans and runs without a plan do not count.
    const other = await createPlan(t.http, owner, code, { name: 'Other' });
    await createRun(t.http, owner, code, { name: 'Other run', planUlid: other.ulid, caseUlids: [cases[0]!.ulid] });
    await createRun(t.http, owner, code, { name: 'Planless', caseUlids: [cases[0]!.ulid] });

    // Linux run 1: every case has an outcome, so it closes by itself.
    await mark(owner, linuxRuns[0]!, ['passed', 'failed', 'blocked']);
    // Linux run 2: one passed, then set to be retested (counts as untested), one skipped.
    await mark(owner, linuxRuns[1]!, ['passed', 'skipped']);
    await mark(owner, linuxRuns[1]!, ['retested']);
    // Windows run: aborted with one pass.
    await mark(owner, windowsRun, ['passed']);
    expect((await t.http.post(`/api/v1/runs/${windowsRun.ulid}/abort`).set(owner.headers)).status).toBe(200);

    const progress = await progressOf(owner, plan.ulid);
    const linuxBucket = {
      comboKey: comboKeyOf(linux, chrome),
      values: [
        { groupName: 'OS', valueName: 'Linux' },
        { groupName: 'Browser', valueName: 'Chrome' },
      ],
      totalRuns: 2,
      closedRuns: 1,
      counts: counts({ passed: 1, failed: 1, blocked: 1, skipped: 1, untested: 2 }),
    };
    const windowsBucket = {
      comboKey: comboKeyOf(windows, chrome),
      values: [
        { groupName: 'OS', valueName: 'Windows' },
        { groupName: 'Browser', valueName: 'Chrome' },
      ],
      totalRuns: 1,
      closedRuns: 1,
      counts: counts({ passed: 1, untested: 2 }),
    };
    expect(progress).toEqual({
      totalRuns: 3,
      closedRuns: 2,
      counts: counts({ passed: 2, failed: 1, blocked: 1, skipped: 1, untested: 4 }),
      byConfiguration: [linuxBucket, windowsBucket].sort((a, b) => (a.comboKey < b.comboKey ? -1 : 1)),
    });
    // The buckets add up to the top level.
    const summed = counts({});
    for (const bucket of progress.byConfiguration)
      for (const status of Object.keys(summed) as Array<keyof Counts>) summed[status] += bucket.counts[status];
    expect(summed).toEqual(progress.counts);
    // The plan list carries no progress.
    const listed = await t.http.get(`/api/v1/projects/${code}/plans`).set(owner.headers);
    expect(listed.body.items[0]).not.toHaveProperty('progress');
  });

  it('puts runs without configurations in the unconfigured bucket, first, and names buckets from run snapshots', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux']);
    const [linux] = os.values as [ConfigurationValueBody];
    const testCase = await createCase(t.http, owner, code);
    const plan = await createPlan(t.http, owner, code);
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .send({ caseUlids: [testCase.ulid] });

    const unconfigured = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    await mark(owner, unconfigured, ['passed']);
    await t.http
      .put(`/api/v1/plans/${plan.ulid}/configurations`)
      .set(owner.headers)
      .send({ configurationUlids: [linux.ulid] });
    const configured = await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [linux.ulid] });
    expect((await t.http.post(`/api/v1/runs/${configured.ulid}/close`).set(owner.headers)).status).toBe(200);
    // Renaming the value later does not rename the snapshot.
    await t.http.patch(`/api/v1/configurations/${linux.ulid}`).set(owner.headers).send({ name: 'Ubuntu' });

    const patched = await t.http.patch(`/api/v1/plans/${plan.ulid}`).set(owner.headers).send({ status: 'active' });
    expect(patched.body.progress).toEqual({
      totalRuns: 2,
      closedRuns: 2,
      counts: counts({ passed: 1, untested: 1 }),
      byConfiguration: [
        { comboKey: '', values: [], totalRuns: 1, closedRuns: 1, counts: counts({ passed: 1 }) },
        {
          comboKey: linux.ulid,
          values: [{ groupName: 'OS', valueName: 'Linux' }],
          totalRuns: 1,
          closedRuns: 1,
          counts: counts({ untested: 1 }),
        },
      ],
    });
    // The plan's status is manual: finished runs never change it.
    expect(patched.body.status).toBe('active');
    expect(await progressOf(owner, plan.ulid)).toEqual(patched.body.progress);
  });

  it('reads the progress of one plan, or of a page of plans through GraphQL, in one statement over their runs', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'macOS']);
    const testCase = await createCase(t.http, owner, code);
    const plans = [await createPlan(t.http, owner, code, { name: 'First' }), await createPlan(t.http, owner, code, { name: 'Second' })];
    for (const plan of plans) {
      await t.http
        .put(`/api/v1/plans/${plan.ulid}/cases`)
        .set(owner.headers)
        .send({ caseUlids: [testCase.ulid] });
      await createRun(t.http, owner, code, { planUlid: plan.ulid });
      await t.http
        .put(`/api/v1/plans/${plan.ulid}/configurations`)
        .set(owner.headers)
        .send({ configurationUlids: os.values.map((value) => value.ulid) });
      for (const value of os.values) await createRun(t.http, owner, code, { planUlid: plan.ulid, configurationUlids: [value.ulid] });
    }
    const overRuns = (statements: string[]) => statements.filter((statement) => /test_runs/.test(statement));

    const detail = await recordStatements(() => progressOf(owner, plans[0]!.ulid));
    const named = [...os.values]
      .sort((a, b) => (a.ulid < b.ulid ? -1 : 1))
      .map((value) => ({ comboKey: value.ulid, values: [{ groupName: 'OS', valueName: value.name }] }));
    expect(detail.result.byConfiguration.map(({ comboKey, values }) => ({ comboKey, values }))).toEqual([
      { comboKey: '', values: [] },
      ...named,
    ]);
    expect(overRuns(detail.statements)).toHaveLength(1);

    const query = `query($code: String!) { project(code: $code) { plans(first: 10) { edges { node { progress {
      totalRuns byConfiguration { comboKey values { groupName valueName } totalRuns } } } } } } }`;
    const page = await recordStatements(() => t.http.post('/graphql').set(owner.headers).send({ query, variables: { code } }));
    const nodes = page.result.body.data.project.plans.edges.map((edge: { node: { progress: Progress } }) => edge.node.progress);
    expect(nodes.map((progress: Progress) => progress.totalRuns)).toEqual([3, 3]);
    expect(nodes[1].byConfiguration).toHaveLength(3);
    expect(overRuns(page.statements)).toHaveLength(1);
  });
});
