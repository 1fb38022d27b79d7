import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, graphql, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';
import { createCases, createPlan, createRun, runCasesOf, runWithCases } from '../support/runs.ts';

const t = useTestApp();

const BULK = {
  bulkMarkRunCases: 'BulkMarkRunCasesInput',
  bulkAssignRunCases: 'BulkAssignRunCasesInput',
  bulkRetryRunCases: 'BulkRunCasesInput',
  bulkRemoveRunCases: 'BulkRunCasesInput',
} as const;

function bulk(caller: Caller, mutation: keyof typeof BULK, runUlid: string, input: Record<string, unknown>) {
  const query = `mutation($run: String!, $input: ${BULK[mutation]}!) { ${mutation}(runUlid: $run, input: $input) { affected unchanged } }`;
  return graphql(t.http, caller, query, { run: runUlid, input });
}

const SUBMIT = `mutation($run: String!, $results: [RunResultInput!]!) {
  submitRunResults(runUlid: $run, results: $results) { affected unchanged resultUlids }
}`;

const ADD = `mutation($run: String!, $input: AddRunCasesInput!) {
  addRunCases(runUlid: $run, input: $input) { added items { ulid caseUlid displayId position status assigneeUlid steps { action status } } }
}`;

const RECONCILE = `mutation($run: String!) {
  reconcileRun(runUlid: $run) { added removed reassigned run { ulid total state counts { untested passed } } }
}`;

describe('GraphQL: bulk run case operations', () => {
  it('bulkMarkRunCases marks through the same rules as REST and records run.cases_bulk_marked', async () => {
    const { owner, run, runCases, cases } = await runWithCases(t.http, 3, 1);
    const marked = dataOf(
      await bulk(owner, 'bulkMarkRunCases', run.ulid, { caseUlids: [runCases[0]!.ulid, cases[1]!.ulid], status: 'failed' }),
    );
    expect(marked.bulkMarkRunCases).toEqual({ affected: 2, unchanged: 0 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.status)).toEqual(['failed', 'failed', 'untested']);
    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(event!.metadata.bulkCases).toMatchObject({ summary: { affected: 2, unchanged: 0, statusFrom: 'untested', statusTo: 'failed' } });

    const again = dataOf(await bulk(owner, 'bulkMarkRunCases', run.ulid, { caseUlids: [runCases[0]!.ulid], status: 'failed' }));
    expect(again.bulkMarkRunCases).toEqual({ affected: 0, unchanged: 1 });
    const invalid = await bulk(owner, 'bulkMarkRunCases', run.ulid, { caseUlids: [runCases[0]!.ulid], status: 'retested' });
    expect(codeOf(invalid)).toBe('validation_failed');
    expect(onlyError(invalid).extensions?.details?.path).toEqual(['status']);
    const repeated = await bulk(owner, 'bulkMarkRunCases', run.ulid, {
      caseUlids: [runCases[0]!.ulid, runCases[0]!.ulid],
      status: 'passed',
    });
    expect(onlyError(repeated).extensions?.details?.path).toEqual(['caseUlids']);
  });

  it('bulkAssignRunCases assigns and, with assigneeUlid absent or null, unassigns', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 1);
    const member = await joinAs(t.http, owner, 'member');
    const caseUlids = runCases.map((each) => each.ulid);
    expect(
      dataOf(await bulk(owner, 'bulkAssignRunCases', run.ulid, { caseUlids, assigneeUlid: member.userId })).bulkAssignRunCases,
    ).toEqual({ affected: 2, unchanged: 0 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([member.userId, member.userId]);
    expect(dataOf(await bulk(owner, 'bulkAssignRunCases', run.ulid, { caseUlids: [caseUlids[0]] })).bulkAssignRunCases).toEqual({
      affected: 1,
      unchanged: 0,
    });
    expect(dataOf(await bulk(owner, 'bulkAssignRunCases', run.ulid, { caseUlids, assigneeUlid: null })).bulkAssignRunCases).toEqual({
      affected: 1,
      unchanged: 1,
    });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => each.assigneeUlid)).toEqual([null, null]);
    const stranger = await bulk(owner, 'bulkAssignRunCases', run.ulid, { caseUlids, assigneeUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(codeOf(stranger)).toBe('not_found');
  });

  it('bulkRetryRunCases and bulkRemoveRunCases reset and remove cases', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 3, 1);
    await bulk(owner, 'bulkMarkRunCases', run.ulid, { caseUlids: [runCases[0]!.ulid, runCases[1]!.ulid], status: 'blocked' });
    const retried = dataOf(await bulk(owner, 'bulkRetryRunCases', run.ulid, { caseUlids: [runCases[0]!.ulid, runCases[2]!.ulid] }));
    expect(retried.bulkRetryRunCases).toEqual({ affected: 1, unchanged: 1 });
    const removed = dataOf(
      await bulk(owner, 'bulkRemoveRunCases', run.ulid, { caseUlids: [runCases[1]!.ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV'] }),
    );
    expect(removed.bulkRemoveRunCases).toEqual({ affected: 1, unchanged: 1 });
    expect((await runCasesOf(t.http, owner, run.ulid)).map((each) => [each.ulid, each.status])).toEqual([
      [runCases[0]!.ulid, 'untested'],
      [runCases[2]!.ulid, 'untested'],
    ]);
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_retried' })).toHaveLength(1);
    expect(await auditEvents(t.http, owner, { action: 'run.cases_bulk_removed' })).toHaveLength(1);
  });

  it('refuses a viewer with forbidden for every bulk mutation', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 1, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const caseUlids = [runCases[0]!.ulid];
    expect(codeOf(await bulk(viewer, 'bulkMarkRunCases', run.ulid, { caseUlids, status: 'passed' }))).toBe('forbidden');
    expect(codeOf(await bulk(viewer, 'bulkAssignRunCases', run.ulid, { caseUlids, assigneeUlid: null }))).toBe('forbidden');
    expect(codeOf(await bulk(viewer, 'bulkRetryRunCases', run.ulid, { caseUlids }))).toBe('forbidden');
    expect(codeOf(await bulk(viewer, 'bulkRemoveRunCases', run.ulid, { caseUlids }))).toBe('forbidden');
    expect(
      codeOf(await graphql(t.http, viewer, SUBMIT, { run: run.ulid, results: [{ runCaseUlid: runCases[0]!.ulid, status: 'passed' }] })),
    ).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, RECONCILE, { run: run.ulid }))).toBe('forbidden');
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(1);
  });
});

describe('GraphQL: submitRunResults', () => {
  it('appends one result per entry and answers their ULIDs; a foreign entry fails the whole call', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2, 1);
    const submitted = dataOf(
      await graphql(t.http, owner, SUBMIT, {
        run: run.ulid,
        results: [
          { runCaseUlid: runCases[0]!.ulid, status: 'passed', elapsedMs: 40, comment: 'ok' },
          { caseUlid: runCases[1]!.caseUlid, status: 'failed', runCaseUlid: null },
        ],
      }),
    ).submitRunResults;
    expect(submitted).toMatchObject({ affected: 2, unchanged: 0 });
    expect(submitted.resultUlids).toHaveLength(2);
    const results = await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers);
    expect(results.body.items.map((result: { ulid: string }) => result.ulid).sort()).toEqual([...submitted.resultUlids].sort());

    const missing = await graphql(t.http, owner, SUBMIT, {
      run: run.ulid,
      results: [
        { runCaseUlid: runCases[0]!.ulid, status: 'passed' },
        { runCaseUlid: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 'passed' },
      ],
    });
    expect(codeOf(missing)).toBe('not_found');
    const both = await graphql(t.http, owner, SUBMIT, {
      run: run.ulid,
      results: [{ runCaseUlid: runCases[0]!.ulid, caseUlid: runCases[0]!.caseUlid, status: 'passed' }],
    });
    expect(onlyError(both).extensions?.details?.path).toEqual(['results', 0, 'runCaseUlid']);
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers)).body.items).toHaveLength(2);
  });
});

describe('GraphQL: addRunCases and reconcileRun', () => {
  it('addRunCases answers the RunCase items and how many were added', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 3, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: [cases[0]!.ulid] });
    const added = dataOf(
      await graphql(t.http, owner, ADD, {
        run: run.ulid,
        input: { caseUlids: [cases[1]!.ulid, cases[0]!.ulid, cases[2]!.ulid], assigneeUlid: owner.userId },
      }),
    ).addRunCases;
    expect(added.added).toBe(2);
    expect(added.items).toMatchObject([
      {
        caseUlid: cases[1]!.ulid,
        displayId: cases[1]!.displayId,
        position: 1,
        status: 'untested',
        assigneeUlid: owner.userId,
        steps: [{ action: 'Step 1', status: 'untested' }],
      },
      { caseUlid: cases[0]!.ulid, position: 0, assigneeUlid: null },
      { caseUlid: cases[2]!.ulid, position: 2, assigneeUlid: owner.userId },
    ]);
    const other = await createCases(t.http, owner, code, 1);
    expect(
      codeOf(await graphql(t.http, owner, ADD, { run: run.ulid, input: { caseUlids: [other[0]!.ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV'] } })),
    ).toBe('not_found');
    expect(await runCasesOf(t.http, owner, run.ulid)).toHaveLength(3);
  });

  it('reconcileRun brings a plan run in line with its plan and answers the Run', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 3);
    const plan = await createPlan(t.http, owner, code);
    const select = async (caseUlids: string[]) => {
      const response = await t.http.put(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers).send({ caseUlids });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };
    await select([cases[0]!.ulid, cases[1]!.ulid]);
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    await select([cases[0]!.ulid, cases[2]!.ulid]);
    const reconciled = dataOf(await graphql(t.http, owner, RECONCILE, { run: run.ulid })).reconcileRun;
    expect(reconciled).toEqual({
      added: 1,
      removed: 1,
      reassigned: 0,
      run: { ulid: run.ulid, total: 2, state: 'open', counts: { untested: 2, passed: 0 } },
    });

    const manual = await createRun(t.http, owner, code, { caseUlids: [cases[0]!.ulid] });
    expect(codeOf(await graphql(t.http, owner, RECONCILE, { run: manual.ulid }))).toBe('conflict');
  });
});
