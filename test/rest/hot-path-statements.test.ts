import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { auditEvents, type Caller, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { createPlan, createRun, type RunBody, type RunCaseBody } from '../support/runs.ts';
import { recordStatements } from '../support/statements.ts';

/*
 * Issue 13: a run created from a plan and a replaced plan selection are written set-based, in a
 * number of SQL statements that does not grow with the number of cases; a single mark costs a
 * fixed, small number of statements whatever the size of its run and case.
 */

const t = useTestApp();

/** A project with `size` cases of `steps` (at least two) steps each (one CSV import) and an empty plan. */
async function seeded(size: number, steps = 2) {
  const { owner, code } = await ownerWithProject(t.http);
  const numbered = (lines: string[]) => `"${lines.map((line, at) => `${at + 1}. ${line}`).join('\n')}"`;
  const more = (text: string) => Array.from({ length: steps - 2 }, () => text);
  const rows = Array.from(
    { length: size },
    (_, index) =>
      `Case ${index},${numbered([`Open ${index}`, `Check ${index}`, ...more('Go on')])},${numbered(['Opened', 'Checked', ...more('Done')])}`,
  );
  const imported = await t.http
    .post(`/api/v1/projects/${code}/test-case-imports`)
    .set(owner.headers)
    .set('Content-Type', 'text/csv')
    .send(`title,steps,expected_results\n${rows.join('\n')}\n`);
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const cases = await prisma().testCase.findMany({ where: { orgId: owner.orgId }, orderBy: { caseNumber: 'asc' }, select: { id: true } });
  expect(cases).toHaveLength(size);
  const plan = await createPlan(t.http, owner, code);
  return { owner, code, plan, caseIds: cases.map((each) => each.id) };
}

type Seeded = Awaited<ReturnType<typeof seeded>>;

const putSelection = (caller: Caller, planUlid: string, caseUlids: string[]) =>
  recordStatements(async () => {
    const response = await t.http.put(`/api/v1/plans/${planUlid}/cases`).set(caller.headers).send({ caseUlids });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body as { items: Array<{ caseUlid: string; position: number }> }).items;
  });

const runFromPlan = ({ owner, code, plan }: Seeded) =>
  recordStatements(async () => {
    const response = await t.http.post(`/api/v1/projects/${code}/runs`).set(owner.headers).send({ name: 'Nightly', planUlid: plan.ulid });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as RunBody;
  });

describe('run creation and plan selection cost a fixed number of SQL statements', () => {
  it('replaces a selection of 5,000 cases and creates a run from it in as many statements as for 50', async () => {
    const small = await seeded(50);
    const large = await seeded(5_000);

    // The whole selection in reverse order, then one that keeps, moves, drops and adds cases.
    const reversed = (each: Seeded) => [...each.caseIds].reverse();
    const fewPut = await putSelection(small.owner, small.plan.ulid, reversed(small));
    const manyPut = await putSelection(large.owner, large.plan.ulid, reversed(large));
    expect(manyPut.result.map((item) => item.caseUlid)).toEqual(reversed(large));
    expect(manyPut.result.map((item) => item.position)).toEqual(large.caseIds.map((_, index) => index));
    expect(manyPut.statements.length, manyPut.statements.join('\n')).toBe(fewPut.statements.length);

    const reshuffled = (each: Seeded) => [...each.caseIds.slice(10).reverse(), ...each.caseIds.slice(0, 5)];
    const fewReplace = await putSelection(small.owner, small.plan.ulid, reshuffled(small));
    const manyReplace = await putSelection(large.owner, large.plan.ulid, reshuffled(large));
    expect(manyReplace.result.map((item) => item.caseUlid)).toEqual(reshuffled(large));
    expect(manyReplace.statements.length, manyReplace.statements.join('\n')).toBe(fewReplace.statements.length);
    const [replaced] = await auditEvents(t.http, large.owner, { action: 'plan.cases_replaced' });
    expect(replaced!.metadata).toEqual({ added: 0, removed: 5, reassigned: 0, reordered: true, total: 4_995 });

    const fewRun = await runFromPlan(small);
    const manyRun = await runFromPlan(large);
    expect(manyRun.result).toMatchObject({ total: 4_995, counts: { untested: 4_995 } });
    expect(manyRun.statements.length, manyRun.statements.join('\n')).toBe(fewRun.statements.length);
    const [created] = await auditEvents(t.http, large.owner, { action: 'run.created' });
    expect(created!.metadata).toMatchObject({ caseCount: 4_995 });

    // Every case and step is snapshotted, in the plan's order.
    const runCases = await prisma().testRunCase.findMany({
      where: { runId: manyRun.result.ulid },
      orderBy: { position: 'asc' },
      select: {
        caseId: true,
        position: true,
        title: true,
        steps: { orderBy: { position: 'asc' }, select: { action: true, expectedResult: true } },
      },
    });
    expect(runCases.map((each) => each.caseId)).toEqual(reshuffled(large));
    expect(runCases.map((each) => each.position)).toEqual(reshuffled(large).map((_, index) => index));
    expect(runCases[0]).toEqual({
      caseId: large.caseIds.at(-1),
      position: 0,
      title: 'Case 4999',
      steps: [
        { action: 'Open 4999', expectedResult: 'Opened' },
        { action: 'Check 4999', expectedResult: 'Checked' },
      ],
    });
    expect(runCases.every((each) => each.steps.length === 2)).toBe(true);
  }, 300_000);
});

describe('a single mark costs a fixed number of SQL statements', () => {
  /** A run of all the seeded cases, marked once through PATCH by an API token or in the owner's session; the statements of that mark. */
  async function markOnce(each: Seeded, by: 'token' | 'session') {
    const token = await tokenFor(t.http, each.owner);
    const caller = by === 'token' ? token : each.owner;
    const run = await createRun(t.http, each.owner, each.code, { caseUlids: each.caseIds });
    const [runCase] = (await t.http.get(`/api/v1/runs/${run.ulid}/cases?pageSize=1`).set(token.headers)).body.items as RunCaseBody[];
    const marked = await recordStatements(() =>
      t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase!.ulid}`).set(caller.headers).send({ status: 'failed', elapsedMs: 1200 }),
    );
    expect(marked.result.status, JSON.stringify(marked.result.body)).toBe(200);
    return { run, runCase: runCase!, token, ...marked };
  }

  it('sends three statements for a mark by a token, in a run of 2 cases of 2 steps as in one of 300 cases of 12 steps', async () => {
    const small = await markOnce(await seeded(2), 'token');
    const large = await markOnce(await seeded(300, 12), 'token');
    // Token with the request counter; the case read (run, settings, case and steps); one
    // statement that commits alone: the case + steps + result writes with the run's counters,
    // run.case_marked and the monthly result charge. No BEGIN, no COMMIT.
    expect(small.statements, small.statements.join('\n')).toHaveLength(3);
    expect(large.statements, large.statements.join('\n')).toHaveLength(3);
    expect(large.statements.some((statement) => /^\s*(BEGIN|COMMIT)/i.test(statement))).toBe(false);
    expect(large.statements[2]).toContain('tcms_require(');

    // The answer is built from the read and the steps the statement wrote: it equals the case as stored.
    const { resultUlid, ...answered } = large.result.body as RunCaseBody & { resultUlid: string };
    const listed = await t.http.get(`/api/v1/runs/${large.run.ulid}/cases?pageSize=1`).set(large.token.headers);
    expect(answered).toEqual(listed.body.items[0]);
    expect(answered).toMatchObject({ status: 'failed', elapsedMs: 1200 });
    expect(answered.steps).toHaveLength(12);
    expect(answered.steps.every((step) => step.status === 'failed')).toBe(true);
    const results = await t.http.get(`/api/v1/runs/${large.run.ulid}/results`).set(large.token.headers);
    expect(results.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([resultUlid]);
  }, 120_000);

  it('sends three statements for a mark in a session too: the session, its membership and hidden projects are one', async () => {
    const marked = await markOnce(await seeded(2), 'session');
    expect(marked.statements, marked.statements.join('\n')).toHaveLength(3);
    expect(marked.statements[0]).toContain('FROM sessions');
    expect(marked.statements[0]).toContain('FROM memberships');
  });
});

describe('a bulk submit costs a fixed number of SQL statements', () => {
  it('sends five statements for 2 results as for 300, its event riding on the writes', async () => {
    const submit = async (each: Seeded) => {
      const token = await tokenFor(t.http, each.owner);
      const run = await createRun(t.http, each.owner, each.code, { caseUlids: each.caseIds });
      // One case stays untested, so that the run does not close (which would add run.closed).
      const results = each.caseIds.slice(1).map((caseUlid) => ({ caseUlid, status: 'passed', elapsedMs: 10 }));
      const submitted = await recordStatements(() =>
        t.http.post(`/api/v1/runs/${run.ulid}/results/bulk`).set(token.headers).send({ results }),
      );
      expect(submitted.result.status, JSON.stringify(submitted.result.body)).toBe(200);
      return submitted.statements;
    };
    const few = await submit(await seeded(3));
    const many = await submit(await seeded(301));
    // Token with the request counter, the run locked with its settings, its cases by ULID, the
    // case + step + result writes with the counters, the charge and run.cases_bulk_marked, COMMIT.
    expect(few, few.join('\n')).toHaveLength(5);
    expect(many, many.join('\n')).toHaveLength(5);
  }, 120_000);
});

describe("a plan's detail costs a fixed number of SQL statements", () => {
  it('reads a plan with its milestone, case count and progress in one statement after the token, with 1 run as with 6', async () => {
    const seed = await seeded(3);
    const token = await tokenFor(t.http, seed.owner);
    const milestone = await t.http.post(`/api/v1/projects/${seed.code}/milestones`).set(seed.owner.headers).send({ name: 'Beta' });
    expect(milestone.status, JSON.stringify(milestone.body)).toBe(201);
    const patched = await t.http
      .patch(`/api/v1/plans/${seed.plan.ulid}`)
      .set(seed.owner.headers)
      .send({ milestoneId: milestone.body.ulid });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await putSelection(seed.owner, seed.plan.ulid, seed.caseIds);

    const detail = () =>
      recordStatements(async () => {
        const response = await t.http.get(`/api/v1/plans/${seed.plan.ulid}`).set(token.headers);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body;
      });
    await createRun(t.http, seed.owner, seed.code, { planUlid: seed.plan.ulid });
    const one = await detail();
    expect(one.statements, one.statements.join('\n')).toHaveLength(2);
    for (let run = 0; run < 5; run += 1) await createRun(t.http, seed.owner, seed.code, { planUlid: seed.plan.ulid });
    const six = await detail();
    expect(six.statements, six.statements.join('\n')).toHaveLength(2);
    expect(six.result).toMatchObject({
      ulid: seed.plan.ulid,
      caseCount: 3,
      milestone: { ulid: milestone.body.ulid, name: 'Beta' },
      progress: { totalRuns: 6, closedRuns: 0, counts: { untested: 18, passed: 0 } },
    });
    expect(six.result.progress.byConfiguration).toEqual([
      { comboKey: '', values: [], totalRuns: 6, closedRuns: 0, counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 18 } },
    ]);
  }, 120_000);
});
