import { describe, expect, it } from 'vitest';
import { newId, ULID_PATTERN } from '../../src/kernel/ids.ts';
import {
  auditEvents,
  type Caller,
  createProject,
  createSuite,
  expectError,
  joinAs,
  ownerWithProject,
  signUp,
  useTestApp,
} from '../support/app.ts';
import { createCase, createPlan, createRun } from '../support/runs.ts';

const t = useTestApp();

type PlanCaseItem = {
  ulid: string;
  caseUlid: string;
  displayId: string;
  title: string;
  suiteName: string | null;
  position: number;
  assigneeUlid: string | null;
};

const putCases = (caller: Caller, planUlid: string, body: unknown) =>
  t.http
    .put(`/api/v1/plans/${planUlid}/cases`)
    .set(caller.headers)
    .send(body as object);

const getCases = async (caller: Caller, planUlid: string): Promise<PlanCaseItem[]> => {
  const response = await t.http.get(`/api/v1/plans/${planUlid}/cases`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items;
};

const assign = (caller: Caller, planUlid: string, planCaseUlid: string, body: unknown) =>
  t.http
    .patch(`/api/v1/plans/${planUlid}/cases/${planCaseUlid}`)
    .set(caller.headers)
    .send(body as object);

/** An owner, a project with three cases (one in a suite), a member and a plan. */
async function scenario() {
  const { owner, code } = await ownerWithProject(t.http);
  const suite = await createSuite(t.http, owner, code, { name: 'Checkout' });
  const member = await joinAs(t.http, owner, 'member');
  const a = await createCase(t.http, owner, code, { title: 'Pay by card', suiteUlid: suite.ulid });
  const b = await createCase(t.http, owner, code, { title: 'Pay by wire' });
  const c = await createCase(t.http, owner, code, { title: 'Refund' });
  const plan = await createPlan(t.http, owner, code);
  return { owner, code, member, a, b, c, plan };
}

describe('PUT /api/v1/plans/{planUlid}/cases', () => {
  it('replaces the selection in the given order with per-case assignees and records plan.cases_replaced', async () => {
    const { owner, code, member, a, b, c, plan } = await scenario();
    const response = await putCases(owner, plan.ulid, {
      caseUlids: [c.ulid, a.ulid, b.ulid],
      caseAssignees: [
        { caseUlid: a.ulid, assigneeUlid: member.userId },
        { caseUlid: c.ulid, assigneeUlid: null },
        // Not listed in caseUlids: ignored, even though it names nobody in the organization.
        { caseUlid: newId(), assigneeUlid: newId() },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const items = response.body.items as PlanCaseItem[];
    expect(items.map((item) => Object.keys(item).sort())).toEqual(
      Array(3).fill(['assigneeUlid', 'caseUlid', 'displayId', 'position', 'suiteName', 'title', 'ulid']),
    );
    expect(items.map(({ ulid: _ulid, ...rest }) => rest)).toEqual([
      { caseUlid: c.ulid, displayId: `${code}-3`, title: 'Refund', suiteName: null, position: 0, assigneeUlid: null },
      { caseUlid: a.ulid, displayId: `${code}-1`, title: 'Pay by card', suiteName: 'Checkout', position: 1, assigneeUlid: member.userId },
      { caseUlid: b.ulid, displayId: `${code}-2`, title: 'Pay by wire', suiteName: null, position: 2, assigneeUlid: null },
    ]);
    for (const item of items) expect(item.ulid).toMatch(ULID_PATTERN);
    expect(await getCases(owner, plan.ulid)).toEqual(items);
    expect((await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body.caseCount).toBe(3);

    const [event] = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    expect(event).toMatchObject({
      entityType: 'test_plan',
      entityUlid: plan.ulid,
      entityLabel: plan.name,
      metadata: { added: 3, removed: 0, reassigned: 0, reordered: false, total: 3 },
    });
  });

  it('keeps the selection row ULID of a case that stays, updating its position and assignee; removes the others', async () => {
    const { owner, code, member, a, b, c, plan } = await scenario();
    const first = (await putCases(owner, plan.ulid, { caseUlids: [a.ulid, b.ulid, c.ulid] })).body.items as PlanCaseItem[];
    const rowOf = (items: PlanCaseItem[], caseUlid: string) => items.find((item) => item.caseUlid === caseUlid)!;
    const d = await createCase(t.http, owner, code, { title: 'New' });

    const second = await putCases(owner, plan.ulid, {
      caseUlids: [d.ulid, c.ulid, a.ulid],
      caseAssignees: [{ caseUlid: a.ulid, assigneeUlid: member.userId }],
    });
    const items = second.body.items as PlanCaseItem[];
    expect(items.map((item) => [item.caseUlid, item.position, item.assigneeUlid])).toEqual([
      [d.ulid, 0, null],
      [c.ulid, 1, null],
      [a.ulid, 2, member.userId],
    ]);
    expect(rowOf(items, a.ulid).ulid).toBe(rowOf(first, a.ulid).ulid);
    expect(rowOf(items, c.ulid).ulid).toBe(rowOf(first, c.ulid).ulid);
    expect(first.map((item) => item.ulid)).not.toContain(rowOf(items, d.ulid).ulid);

    const [event] = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    expect(event!.metadata).toEqual({ added: 1, removed: 1, reassigned: 1, reordered: true, total: 3 });
  });

  it('records nothing for a replace that changes nothing, and clears with an empty array', async () => {
    const { owner, member, a, b, plan } = await scenario();
    const body = { caseUlids: [a.ulid, b.ulid], caseAssignees: [{ caseUlid: b.ulid, assigneeUlid: member.userId }] };
    const first = await putCases(owner, plan.ulid, body);
    const planBefore = (await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body;
    const again = await putCases(owner, plan.ulid, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body.updatedAt).toBe(planBefore.updatedAt);
    expect(await auditEvents(t.http, owner, { action: 'plan.cases_replaced' })).toHaveLength(1);

    // Only an assignee changes: still a change.
    await putCases(owner, plan.ulid, { caseUlids: [a.ulid, b.ulid] });
    const [reassigned] = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    expect(reassigned!.metadata).toEqual({ added: 0, removed: 0, reassigned: 1, reordered: false, total: 2 });

    const cleared = await putCases(owner, plan.ulid, { caseUlids: [] });
    expect(cleared.body).toEqual({ items: [] });
    expect((await t.http.get(`/api/v1/plans/${plan.ulid}`).set(owner.headers)).body.caseCount).toBe(0);
    const [clearing] = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    expect(clearing!.metadata).toEqual({ added: 0, removed: 2, reassigned: 0, reordered: false, total: 0 });
  });

  it.each([
    ['a duplicate case', (ids: string[]) => ({ caseUlids: [ids[0], ids[1], ids[0]] }), ['caseUlids']],
    ['a malformed case ULID', (ids: string[]) => ({ caseUlids: [ids[0], 'case-1'] }), ['caseUlids', 1]],
    ['a missing caseUlids', () => ({ caseAssignees: [] }), ['caseUlids']],
    [
      'a case named twice in caseAssignees',
      (ids: string[]) => ({
        caseUlids: [ids[0]],
        caseAssignees: [
          { caseUlid: ids[0], assigneeUlid: null },
          { caseUlid: ids[0], assigneeUlid: null },
        ],
      }),
      ['caseAssignees'],
    ],
    [
      'an assignee entry without assigneeUlid',
      (ids: string[]) => ({ caseUlids: [ids[0]], caseAssignees: [{ caseUlid: ids[0] }] }),
      ['caseAssignees', 0, 'assigneeUlid'],
    ],
    ['an unknown key', (ids: string[]) => ({ caseUlids: [ids[0]], positions: [0] }), ['positions']],
  ])('answers 422 for %s and leaves the selection unchanged', async (_label, bodyOf, path) => {
    const { owner, a, b, c, plan } = await scenario();
    const before = (await putCases(owner, plan.ulid, { caseUlids: [c.ulid] })).body.items;
    const response = await putCases(owner, plan.ulid, bodyOf([a.ulid, b.ulid]));
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    expect(await getCases(owner, plan.ulid)).toEqual(before);
  });

  it('answers 422 above 5000 cases (5000 pass validation) and leaves the plan unchanged', async () => {
    const { owner, a, plan } = await scenario();
    const before = (await putCases(owner, plan.ulid, { caseUlids: [a.ulid] })).body.items;
    const tooMany = Array.from({ length: 5001 }, () => newId());
    const response = await putCases(owner, plan.ulid, { caseUlids: tooMany });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(['caseUlids']);
    // 5000 passes validation (these cases do not exist: 404).
    expectError(await putCases(owner, plan.ulid, { caseUlids: tooMany.slice(1) }), 404, 'not_found');
    expect(await getCases(owner, plan.ulid)).toEqual(before);
  });

  it('answers 404 when a case is not live in the project or an assignee is no member, and changes nothing', async () => {
    const { owner, code, member, a, b, c, plan } = await scenario();
    const other = await createProject(t.http, owner);
    const foreignCase = await createCase(t.http, owner, other.id);
    const archived = await createCase(t.http, owner, code, { title: 'Old' });
    await t.http.post(`/api/v1/test-cases/${archived.ulid}/archive`).set(owner.headers);
    const stranger = await signUp(t.http);
    const before = (
      await putCases(owner, plan.ulid, { caseUlids: [a.ulid, b.ulid], caseAssignees: [{ caseUlid: a.ulid, assigneeUlid: member.userId }] })
    ).body.items;

    for (const body of [
      { caseUlids: [c.ulid, foreignCase.ulid] },
      { caseUlids: [c.ulid, archived.ulid] },
      { caseUlids: [c.ulid, newId()] },
      { caseUlids: [c.ulid], caseAssignees: [{ caseUlid: c.ulid, assigneeUlid: stranger.userId }] },
      { caseUlids: [c.ulid], caseAssignees: [{ caseUlid: c.ulid, assigneeUlid: newId() }] },
    ]) {
      expectError(await putCases(owner, plan.ulid, body), 404, 'not_found');
      expect(await getCases(owner, plan.ulid)).toEqual(before);
    }
    expect(await auditEvents(t.http, owner, { action: 'plan.cases_replaced' })).toHaveLength(1);
  });

  it('answers 403 to a viewer and 404 for an unknown or foreign plan', async () => {
    const { owner, a, plan } = await scenario();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    expectError(await putCases(viewer, plan.ulid, { caseUlids: [a.ulid] }), 403, 'forbidden');
    expectError(await putCases(stranger, plan.ulid, { caseUlids: [] }), 404, 'not_found');
    expectError(await putCases(owner, newId(), { caseUlids: [] }), 404, 'not_found');
    // A viewer reads the selection.
    expect(await getCases(viewer, plan.ulid)).toEqual([]);
  });

  it('takes a 500-case selection in one request', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = [];
    for (let batch = 0; batch < 10; batch++) {
      cases.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, index) => createCase(t.http, owner, code, { title: `Case ${batch * 50 + index}` })),
        )),
      );
    }
    const plan = await createPlan(t.http, owner, code);
    const ids = cases.map((each) => each.ulid);
    expect((await putCases(owner, plan.ulid, { caseUlids: ids })).status).toBe(200);
    const reversed = (await putCases(owner, plan.ulid, { caseUlids: [...ids].reverse() })).body.items as PlanCaseItem[];
    expect(reversed.map((item) => item.caseUlid)).toEqual([...ids].reverse());
    expect(reversed.map((item) => item.position)).toEqual(ids.map((_, index) => index));
  }, 60_000);
});

describe('GET /api/v1/plans/{planUlid}/cases', () => {
  it('lists live cases by position; an archived case drops out and comes back when restored', async () => {
    const { owner, a, b, c, plan } = await scenario();
    await putCases(owner, plan.ulid, { caseUlids: [b.ulid, c.ulid, a.ulid] });
    await t.http.post(`/api/v1/test-cases/${c.ulid}/archive`).set(owner.headers);
    expect((await getCases(owner, plan.ulid)).map((item) => [item.caseUlid, item.position])).toEqual([
      [b.ulid, 0],
      [a.ulid, 2],
    ]);
    await t.http.post(`/api/v1/test-cases/${c.ulid}/restore`).set(owner.headers);
    expect((await getCases(owner, plan.ulid)).map((item) => item.caseUlid)).toEqual([b.ulid, c.ulid, a.ulid]);
    // A replace while a case is archived leaves its row alone: sending back what is visible changes nothing.
    await t.http.post(`/api/v1/test-cases/${c.ulid}/archive`).set(owner.headers);
    const before = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    await putCases(owner, plan.ulid, { caseUlids: [b.ulid, a.ulid] });
    expect(await auditEvents(t.http, owner, { action: 'plan.cases_replaced' })).toHaveLength(before.length + 1);
    const [replaced] = await auditEvents(t.http, owner, { action: 'plan.cases_replaced' });
    expect(replaced!.metadata).toMatchObject({ added: 0, removed: 0 });
    await t.http.post(`/api/v1/test-cases/${c.ulid}/restore`).set(owner.headers);
    expect((await getCases(owner, plan.ulid)).map((item) => item.caseUlid).sort()).toEqual([a.ulid, b.ulid, c.ulid].sort());
    // Titles are the live case's.
    await t.http
      .patch(`/api/v1/test-cases/${b.ulid}`)
      .set(owner.headers)
      .send({ patch: { title: 'Pay by SEPA' } });
    expect((await getCases(owner, plan.ulid))[0]!.title).toBe('Pay by SEPA');
  });
});

describe('PATCH /api/v1/plans/{planUlid}/cases/{planCaseUlid}', () => {
  it('sets or clears the assignee, records plan.case_assigned and leaves runs already generated alone', async () => {
    const { owner, code, member, a, b, plan } = await scenario();
    const [first] = (await putCases(owner, plan.ulid, { caseUlids: [a.ulid, b.ulid] })).body.items as PlanCaseItem[];
    const run = await createRun(t.http, owner, code, { planUlid: plan.ulid });

    const assigned = await assign(owner, plan.ulid, first!.ulid, { assigneeUlid: member.userId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toEqual({ ...first, assigneeUlid: member.userId });
    expect((await getCases(owner, plan.ulid))[0]).toEqual(assigned.body);

    const [event] = await auditEvents(t.http, owner, { action: 'plan.case_assigned' });
    expect(event).toMatchObject({
      entityType: 'test_plan',
      entityUlid: plan.ulid,
      metadata: {
        planCaseUlid: first!.ulid,
        caseUlid: a.ulid,
        caseDisplayId: `${code}-1`,
        assigneeChange: { from: null, to: { ulid: member.userId, name: 'Test User' } },
      },
    });

    // The same assignee again: 200, no event.
    expect((await assign(owner, plan.ulid, first!.ulid, { assigneeUlid: member.userId })).body).toEqual(assigned.body);
    expect(await auditEvents(t.http, owner, { action: 'plan.case_assigned' })).toHaveLength(1);

    const cleared = await assign(member, plan.ulid, first!.ulid, { assigneeUlid: null });
    expect(cleared.body.assigneeUlid).toBeNull();
    const [clearing] = await auditEvents(t.http, owner, { action: 'plan.case_assigned' });
    expect(clearing!.metadata.assigneeChange).toEqual({ from: { ulid: member.userId, name: 'Test User' }, to: null });

    const runCases = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
    expect(runCases.body.items.map((item: { assigneeUlid: string | null }) => item.assigneeUlid)).toEqual([null, null]);
    // The next run starts with the plan's assignee.
    await assign(owner, plan.ulid, first!.ulid, { assigneeUlid: member.userId });
    const next = await createRun(t.http, owner, code, { planUlid: plan.ulid });
    const nextCases = await t.http.get(`/api/v1/runs/${next.ulid}/cases`).set(owner.headers);
    expect(nextCases.body.items.map((item: { assigneeUlid: string | null }) => item.assigneeUlid)).toEqual([member.userId, null]);
  });

  it('answers 403 to a viewer, 404 for an unknown plan, plan case or assignee, 422 for a bad body', async () => {
    const { owner, code, member, a, plan } = await scenario();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const other = await createPlan(t.http, owner, code, { name: 'Other' });
    const [row] = (await putCases(owner, plan.ulid, { caseUlids: [a.ulid] })).body.items as PlanCaseItem[];

    expectError(await assign(viewer, plan.ulid, row!.ulid, { assigneeUlid: member.userId }), 403, 'forbidden');
    expectError(await assign(owner, newId(), row!.ulid, { assigneeUlid: member.userId }), 404, 'not_found');
    expectError(await assign(owner, other.ulid, row!.ulid, { assigneeUlid: member.userId }), 404, 'not_found');
    expectError(await assign(owner, plan.ulid, newId(), { assigneeUlid: member.userId }), 404, 'not_found');
    expectError(await assign(owner, plan.ulid, row!.ulid, { assigneeUlid: stranger.userId }), 404, 'not_found');
    expectError(await assign(stranger, plan.ulid, row!.ulid, { assigneeUlid: null }), 404, 'not_found');
    for (const [body, path] of [
      [{}, ['assigneeUlid']],
      [{ assigneeUlid: 'someone' }, ['assigneeUlid']],
      [{ assigneeUlid: null, position: 3 }, ['position']],
    ] as const) {
      const response = await assign(owner, plan.ulid, row!.ulid, body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    }
    expect(await getCases(owner, plan.ulid)).toEqual([row]);
    expect(await auditEvents(t.http, owner, { action: 'plan.case_assigned' })).toEqual([]);
  });
});
