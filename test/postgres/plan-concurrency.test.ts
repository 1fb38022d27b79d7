import { describe, expect, it } from 'vitest';
import { type Caller, ownerWithProject, useTestApp } from '../support/app.ts';
import { createCase, createPlan } from '../support/runs.ts';

/**
 * Plans under real concurrency (a PostgreSQL server, several pooled connections): planNumber
 * allocation, the live-name unique index, and selection replaces on one plan.
 */

const t = useTestApp();

const postPlan = (caller: Caller, code: string, name: string) =>
  t.http.post(`/api/v1/projects/${code}/plans`).set(caller.headers).send({ name });

describe('plans under concurrency', { timeout: 120_000 }, () => {
  it('numbers 50 parallel creates 1..50, unique and gapless', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => postPlan(owner, code, `Plan ${index}`)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    const numbers = responses.map((response) => response.body.planNumber as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    const listed = await t.http.get(`/api/v1/projects/${code}/plans?pageSize=200`).set(owner.headers);
    expect(listed.body.items.map((item: { planNumber: number }) => item.planNumber)).toEqual(numbers);
  });

  it('lets exactly one of 10 parallel creates with one name through; the others are 409 and use no number', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const responses = await Promise.all(Array.from({ length: 10 }, () => postPlan(owner, code, 'Same name')));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const response of responses.filter((each) => each.status === 409)) expect(response.body.error.code).toBe('conflict');
    expect(responses.find((response) => response.status === 201)!.body.planNumber).toBe(1);
    expect((await createPlan(t.http, owner, code, { name: 'Next' })).planNumber).toBe(2);
  });

  it('lets one of two parallel renames to one name through', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plans = [await createPlan(t.http, owner, code, { name: 'A' }), await createPlan(t.http, owner, code, { name: 'B' })];
    const responses = await Promise.all(
      plans.map((plan) => t.http.patch(`/api/v1/plans/${plan.ulid}`).set(owner.headers).send({ name: 'Final' })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const listed = await t.http.get(`/api/v1/projects/${code}/plans`).set(owner.headers);
    expect(listed.body.items.filter((item: { name: string }) => item.name === 'Final')).toHaveLength(1);
  });

  it('applies parallel selection replaces on one plan one after the other: the result is one whole request', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await Promise.all(Array.from({ length: 12 }, (_, index) => createCase(t.http, owner, code, { title: `Case ${index}` })));
    const plan = await createPlan(t.http, owner, code);
    const selections = Array.from({ length: 8 }, (_, round) =>
      cases.filter((_, index) => (index + round) % 3 !== 0).map((each) => each.ulid),
    );
    const responses = await Promise.all(
      selections.map((caseUlids) => t.http.put(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers).send({ caseUlids })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    const final = await t.http.get(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers);
    const finalIds = final.body.items.map((item: { caseUlid: string }) => item.caseUlid);
    expect(selections).toContainEqual(finalIds);
    expect(final.body.items.map((item: { position: number }) => item.position)).toEqual(finalIds.map((_: string, index: number) => index));
  });
});
