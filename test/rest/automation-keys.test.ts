import { describe, expect, it } from 'vitest';
import { auditEvents, createProject, expectError, graphql, ownerWithProject, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { createCase } from '../support/runs.ts';

/** `automationKey` of test cases: set, cleared, filtered, unique in the project, exact. */

const t = useTestApp();

const listByKey = (headers: Record<string, string>, code: string, key: string, archived = false) =>
  t.http
    .get(`/api/v1/projects/${code}/test-cases`)
    .query({ automationKey: key, ...(archived ? { archived: 'true' } : {}) })
    .set(headers);

describe('automationKey on test cases', () => {
  it('is set on create, read back, changed and cleared by PATCH, and audited as a change', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const created = await createCase(t.http, owner, code, { automationKey: 'checkout.CardTest.pays by card' });
    expect((created as unknown as { automationKey: string }).automationKey).toBe('checkout.CardTest.pays by card');
    const plain = await createCase(t.http, owner, code, { title: 'Manual' });
    expect((plain as unknown as { automationKey: unknown }).automationKey).toBeNull();

    const read = await t.http.get(`/api/v1/test-cases/${created.ulid}`).set(owner.headers);
    expect(read.body.automationKey).toBe('checkout.CardTest.pays by card');

    const renamed = await t.http
      .patch(`/api/v1/test-cases/${created.ulid}`)
      .set(owner.headers)
      .send({ patch: { automationKey: 'checkout.CardTest.pays with a card' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.automationKey).toBe('checkout.CardTest.pays with a card');
    const [updated] = await auditEvents(t.http, owner, { action: 'test_case.updated', entityUlid: created.ulid });
    expect(updated!.metadata.changes).toEqual([
      { field: 'automationKey', from: 'checkout.CardTest.pays by card', to: 'checkout.CardTest.pays with a card' },
    ]);

    const cleared = await t.http
      .patch(`/api/v1/test-cases/${created.ulid}`)
      .set(owner.headers)
      .send({ patch: { automationKey: null } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.automationKey).toBeNull();
    // The same key again changes nothing and records nothing.
    const before = await auditEvents(t.http, owner, { entityUlid: created.ulid });
    const same = await t.http
      .patch(`/api/v1/test-cases/${created.ulid}`)
      .set(owner.headers)
      .send({ patch: { automationKey: null } });
    expect(same.status).toBe(200);
    expect(await auditEvents(t.http, owner, { entityUlid: created.ulid })).toHaveLength(before.length);
  });

  it('filters the case list by the exact, case-sensitive key, active or archived', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const lower = await createCase(t.http, owner, code, { automationKey: 'suite.login' });
    const upper = await createCase(t.http, owner, code, { automationKey: 'suite.Login' });
    await createCase(t.http, owner, code, { automationKey: 'suite.login.extra' });

    const exact = await listByKey(owner.headers, code, 'suite.login');
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([lower.ulid]);
    expect((await listByKey(owner.headers, code, 'suite.Login')).body.items.map((item: { ulid: string }) => item.ulid)).toEqual([
      upper.ulid,
    ]);
    expect((await listByKey(owner.headers, code, 'suite')).body.items).toEqual([]);

    await t.http.post(`/api/v1/test-cases/${upper.ulid}/archive`).set(owner.headers).expect(200);
    expect((await listByKey(owner.headers, code, 'suite.Login')).body.items).toEqual([]);
    expect((await listByKey(owner.headers, code, 'suite.Login', true)).body.items.map((item: { ulid: string }) => item.ulid)).toEqual([
      upper.ulid,
    ]);
  });

  it("is unique among the project's cases, archived ones included, and free across projects", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const holder = await createCase(t.http, owner, code, { automationKey: 'a.b' });
    const other = await createCase(t.http, owner, code, { automationKey: 'a.c' });

    const duplicate = await t.http
      .post(`/api/v1/projects/${code}/test-cases`)
      .set(owner.headers)
      .send({ title: 'Twin', automationKey: 'a.b' });
    expectError(duplicate, 409, 'conflict');
    expect(duplicate.body.error.details.path).toEqual(['automationKey']);
    const patched = await t.http
      .patch(`/api/v1/test-cases/${other.ulid}`)
      .set(owner.headers)
      .send({ patch: { automationKey: 'a.b', title: 'Renamed' } });
    expectError(patched, 409, 'conflict');
    // Nothing of the refused PATCH was written.
    const unchanged = await t.http.get(`/api/v1/test-cases/${other.ulid}`).set(owner.headers);
    expect(unchanged.body).toMatchObject({ title: 'Login works', automationKey: 'a.c' });

    await t.http.post(`/api/v1/test-cases/${holder.ulid}/archive`).set(owner.headers).expect(200);
    expectError(
      await t.http.post(`/api/v1/projects/${code}/test-cases`).set(owner.headers).send({ title: 'Twin', automationKey: 'a.b' }),
      409,
      'conflict',
    );

    // Keys differing only in case are different keys.
    await createCase(t.http, owner, code, { automationKey: 'A.B' });
    const elsewhere = await createProject(t.http, owner);
    await createCase(t.http, owner, elsewhere.id, { automationKey: 'a.b' });
  });

  it('is taken exactly as given: 1..1000 characters, no whitespace at either end, no control characters', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const longest = 'k'.repeat(1000);
    expect((await createCase(t.http, owner, code, { automationKey: longest })) as unknown as { automationKey: string }).toMatchObject({
      automationKey: longest,
    });
    const inner = await createCase(t.http, owner, code, { automationKey: 'tests/test_cart.py::test_add[2 items]' });
    expect((inner as unknown as { automationKey: string }).automationKey).toBe('tests/test_cart.py::test_add[2 items]');
    for (const automationKey of ['', ' a.b', 'a.b ', 'a\nb', 'a\tb', 'k'.repeat(1001)]) {
      const response = await t.http.post(`/api/v1/projects/${code}/test-cases`).set(owner.headers).send({ title: 'Bad', automationKey });
      expectError(response, 422, 'validation_failed');
    }
    expectError(await listByKey(owner.headers, code, ' a.b'), 422, 'validation_failed');
  });
});

describe('automationKey in GraphQL', () => {
  it('is created, filtered on the testCases connection, and cleared through updateTestCase', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const created = dataOf(
      await graphql(
        t.http,
        owner,
        `mutation($code: String!) { createTestCase(projectCode: $code, input: { title: "Keyed", automationKey: "pkg.Key" }) { ulid automationKey } }`,
        { code },
      ),
    ).createTestCase;
    expect(created.automationKey).toBe('pkg.Key');
    await createCase(t.http, owner, code, { automationKey: 'pkg.key' });

    const listed = dataOf(
      await graphql(
        t.http,
        owner,
        `query($code: String!) { project(code: $code) { testCases(automationKey: "pkg.Key") { totalCount edges { node { ulid automationKey } } } } }`,
        { code },
      ),
    ).project.testCases;
    expect(listed.totalCount).toBe(1);
    expect(listed.edges[0].node).toEqual({ ulid: created.ulid, automationKey: 'pkg.Key' });

    const duplicate = await graphql(
      t.http,
      owner,
      `mutation($ulid: String!) { updateTestCase(ulid: $ulid, input: { patch: { automationKey: "pkg.key" } }) { ulid } }`,
      { ulid: created.ulid },
    );
    expect(duplicate.body.errors[0].extensions.code).toBe('conflict');

    const cleared = dataOf(
      await graphql(
        t.http,
        owner,
        `mutation($ulid: String!) { updateTestCase(ulid: $ulid, input: { patch: { automationKey: null } }) { automationKey } }`,
        { ulid: created.ulid },
      ),
    ).updateTestCase;
    expect(cleared.automationKey).toBeNull();
  });
});
