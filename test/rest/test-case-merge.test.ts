import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, expectError, graphql, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { createCase, createPlan, createRun, patchRunCase, putPlanCases, runCasesOf } from '../support/runs.ts';

/** POST /projects/{code}/test-cases/merge: duplicates folded into one case, in one transaction. */

const t = useTestApp();

const merge = (caller: Caller, code: string, body: Record<string, unknown>) =>
  t.http.post(`/api/v1/projects/${code}/test-cases/merge`).set(caller.headers).send(body);

/** A run of `cases`, each marked with its status, in order. */
async function markedRun(owner: Caller, code: string, marks: Array<[caseUlid: string, status: string]>) {
  const run = await createRun(t.http, owner, code, { caseUlids: marks.map(([caseUlid]) => caseUlid) });
  const runCases = await runCasesOf(t.http, owner, run.ulid);
  for (const [caseUlid, status] of marks) {
    const runCase = runCases.find((each) => each.caseUlid === caseUlid)!;
    const marked = await patchRunCase(t.http, owner, run.ulid, runCase.ulid, { status });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  }
  return run;
}

const planCaseUlids = async (owner: Caller, planUlid: string) =>
  ((await t.http.get(`/api/v1/plans/${planUlid}/cases`).set(owner.headers)).body.items as Array<{ caseUlid: string }>).map(
    (item) => item.caseUlid,
  );

describe('merging test cases', () => {
  it('moves results, run cases and plan selections to the target, archives the sources, and audits it', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code, { title: 'Pays by card' });
    const first = await createCase(t.http, owner, code, { title: 'pays by card (old)', automationKey: 'CardTest.pays' });
    const second = await createCase(t.http, owner, code, { title: 'pays by card (older)', automationKey: 'CardTest.paysByCard' });
    const bystander = await createCase(t.http, owner, code, { title: 'Refunds' });

    const withTarget = await markedRun(owner, code, [
      [target.ulid, 'passed'],
      [first.ulid, 'failed'],
    ]);
    const bothSources = await markedRun(owner, code, [
      [first.ulid, 'passed'],
      [second.ulid, 'failed'],
      [bystander.ulid, 'passed'],
    ]);
    const secondOnly = await markedRun(owner, code, [[second.ulid, 'passed']]);
    const planWithTarget = await createPlan(t.http, owner, code);
    await putPlanCases(t.http, owner, planWithTarget.ulid, { caseUlids: [first.ulid, target.ulid] });
    const planOfSources = await createPlan(t.http, owner, code, { name: 'Sources' });
    await putPlanCases(t.http, owner, planOfSources.ulid, { caseUlids: [bystander.ulid, first.ulid, second.ulid] });

    const merged = await merge(owner, code, { targetUlid: target.ulid, sourceUlids: [first.ulid, second.ulid] });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // The target had no key: it takes the first source's; the sources release theirs.
    expect(merged.body).toMatchObject({ ulid: target.ulid, automationKey: 'CardTest.pays', archivedAt: null });
    for (const source of [first, second]) {
      const read = await t.http.get(`/api/v1/test-cases/${source.ulid}`).set(owner.headers);
      expect(read.body.archivedAt).not.toBeNull();
      expect(read.body.automationKey).toBeNull();
    }

    // Every result of the sources is the target's now; the bystander's stays.
    const results = await prisma().testRunResult.findMany({
      where: { runId: { in: [withTarget.ulid, bothSources.ulid, secondOnly.ulid] } },
    });
    expect(results).toHaveLength(6);
    expect(results.filter((result) => result.caseId === target.ulid)).toHaveLength(5);
    expect(results.filter((result) => result.caseId === bystander.ulid)).toHaveLength(1);

    // One run case per run names the target; a run that held it already keeps the source's row on the source.
    const caseUlidsOf = async (runUlid: string) => (await runCasesOf(t.http, owner, runUlid)).map((runCase) => runCase.caseUlid).sort();
    expect(await caseUlidsOf(withTarget.ulid)).toEqual([target.ulid, first.ulid].sort());
    const both = await caseUlidsOf(bothSources.ulid);
    expect(both.filter((ulid) => ulid === target.ulid)).toHaveLength(1);
    expect(both).toContain(bystander.ulid);
    expect(await caseUlidsOf(secondOnly.ulid)).toEqual([target.ulid]);

    // A plan holding the target drops the source's row; another plan holds the target once.
    expect(await planCaseUlids(owner, planWithTarget.ulid)).toEqual([target.ulid]);
    expect(await planCaseUlids(owner, planOfSources.ulid)).toEqual([bystander.ulid, target.ulid]);

    const [event] = await auditEvents(t.http, owner, { action: 'test_case.merged' });
    expect(event).toMatchObject({
      entityType: 'test_case',
      entityUlid: target.ulid,
      metadata: {
        sourceUlids: [first.ulid, second.ulid],
        sourceDisplayIds: [first.displayId, second.displayId],
        movedResults: 4,
        movedRunCases: 2,
        movedPlanCases: 1,
        droppedPlanCases: 2,
        changes: [{ field: 'automationKey', from: null, to: 'CardTest.pays' }],
      },
    });
    const archived = await auditEvents(t.http, owner, { action: 'test_case.archived' });
    expect(archived.map((each) => each.entityUlid).sort()).toEqual([first.ulid, second.ulid].sort());
  });

  it('keeps the key of a target that has one, and archives no source twice', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code, { automationKey: 'keep.me' });
    const source = await createCase(t.http, owner, code, { automationKey: 'drop.me' });
    const archivedSource = await createCase(t.http, owner, code);
    await t.http.post(`/api/v1/test-cases/${archivedSource.ulid}/archive`).set(owner.headers).expect(200);

    const merged = await merge(owner, code, { targetUlid: target.ulid, sourceUlids: [archivedSource.ulid, source.ulid] });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.automationKey).toBe('keep.me');
    const [event] = await auditEvents(t.http, owner, { action: 'test_case.merged' });
    expect(event!.metadata).not.toHaveProperty('changes');
    expect((await auditEvents(t.http, owner, { action: 'test_case.archived' })).map((each) => each.entityUlid).sort()).toEqual(
      [archivedSource.ulid, source.ulid].sort(),
    );
    // The released key is free for another case (or for the target, by PATCH).
    const renamed = await t.http
      .patch(`/api/v1/test-cases/${target.ulid}`)
      .set(owner.headers)
      .send({ patch: { automationKey: 'drop.me' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });

  it('refuses a malformed body (422), an unknown or foreign case (404), an archived target (409), a viewer (403), writing nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code);
    const source = await createCase(t.http, owner, code, { automationKey: 'x.y' });
    const otherProject = await createProject(t.http, owner);
    const elsewhere = await createCase(t.http, owner, otherProject.id);
    const stranger = await ownerWithProject(t.http);
    const foreign = await createCase(t.http, stranger.owner, stranger.code);

    for (const body of [
      { targetUlid: target.ulid, sourceUlids: [] },
      { targetUlid: target.ulid, sourceUlids: [target.ulid] },
      { targetUlid: target.ulid, sourceUlids: [source.ulid, source.ulid] },
      { targetUlid: target.ulid, sourceUlids: Array.from({ length: 101 }, () => newId()) },
      { targetUlid: 'nope', sourceUlids: [source.ulid] },
    ]) {
      expectError(await merge(owner, code, body), 422, 'validation_failed');
    }
    for (const sourceUlids of [[newId()], [elsewhere.ulid], [foreign.ulid], [source.ulid, newId()]]) {
      expectError(await merge(owner, code, { targetUlid: target.ulid, sourceUlids }), 404, 'not_found');
    }
    expectError(await merge(owner, code, { targetUlid: elsewhere.ulid, sourceUlids: [source.ulid] }), 404, 'not_found');
    expectError(await merge(owner, newId().slice(-6), { targetUlid: target.ulid, sourceUlids: [source.ulid] }), 404, 'not_found');

    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await merge(viewer, code, { targetUlid: target.ulid, sourceUlids: [source.ulid] }), 403, 'forbidden');

    await t.http.post(`/api/v1/test-cases/${target.ulid}/archive`).set(owner.headers).expect(200);
    expectError(await merge(owner, code, { targetUlid: target.ulid, sourceUlids: [source.ulid] }), 409, 'conflict');

    const untouched = await t.http.get(`/api/v1/test-cases/${source.ulid}`).set(owner.headers);
    expect(untouched.body).toMatchObject({ archivedAt: null, automationKey: 'x.y' });
    expect(await auditEvents(t.http, owner, { action: 'test_case.merged' })).toEqual([]);
  });
});

describe('mergeTestCases in GraphQL', () => {
  it('merges and answers the target; refuses the target among the sources', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const target = await createCase(t.http, owner, code);
    const source = await createCase(t.http, owner, code, { automationKey: 'gql.key' });
    const MERGE = `mutation($code: String!, $target: String!, $sources: [String!]!) {
      mergeTestCases(projectCode: $code, targetUlid: $target, sourceUlids: $sources) { ulid automationKey }
    }`;
    const refused = await graphql(t.http, owner, MERGE, { code, target: target.ulid, sources: [target.ulid] });
    expect(refused.body.errors[0].extensions.code).toBe('validation_failed');
    const merged = dataOf(await graphql(t.http, owner, MERGE, { code, target: target.ulid, sources: [source.ulid] })).mergeTestCases;
    expect(merged).toEqual({ ulid: target.ulid, automationKey: 'gql.key' });
    const read = await t.http.get(`/api/v1/test-cases/${source.ulid}`).set(owner.headers);
    expect(read.body.archivedAt).not.toBeNull();
  });
});
