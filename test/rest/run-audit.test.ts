import { describe, expect, it } from 'vitest';
import { type AuditEventBody, type Caller, expectError, joinAs, ownerWithProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCases, createRun } from '../support/runs.ts';

const t = useTestApp();

const feed = (caller: Caller, runUlid: string, query = '') =>
  t.http.get(`/api/v1/runs/${runUlid}/audit-events${query}`).set(caller.headers);

const rename = async (caller: Caller, runUlid: string, name: string) => {
  const response = await t.http.patch(`/api/v1/runs/${runUlid}`).set(caller.headers).send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
};

describe('GET /api/v1/runs/{runUlid}/audit-events', () => {
  it("lists only the run's events, newest first, to any member including viewers", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const [only] = await createCases(t.http, owner, code, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: [only!.ulid] });
    const other = await createRun(t.http, owner, code, { caseUlids: [] });
    await rename(owner, run.ulid, 'Renamed');
    await rename(owner, other.ulid, 'Other renamed');
    const [runCase] = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items;
    expect(
      (await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(owner.headers).send({ status: 'passed' })).status,
    ).toBe(200);

    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(viewer.headers), 403, 'forbidden');
    const response = await feed(viewer, run.ulid);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['events', 'nextCursor']);
    expect(response.body.nextCursor).toBeNull();
    const events = response.body.events as AuditEventBody[];
    expect(events.map((event) => event.action)).toEqual(['run.closed', 'run.case_marked', 'run.updated', 'run.created']);
    expect(events.every((event) => event.runUlid === run.ulid)).toBe(true);
    expect(events[3]).toMatchObject({
      entityType: 'test_run',
      entityUlid: run.ulid,
      entityLabel: 'Nightly',
      actor: { kind: 'user', ulid: owner.userId },
    });
    const ulids = events.map((event) => event.ulid);
    expect([...ulids].sort().reverse()).toEqual(ulids);

    const member = await joinAs(t.http, owner, 'member');
    expect((await feed(member, other.ulid)).body.events.map((event: AuditEventBody) => event.action)).toEqual([
      'run.updated',
      'run.created',
    ]);
    const token = await tokenFor(t.http, owner, { role: 'viewer' });
    expect((await feed(token, run.ulid)).body.events).toHaveLength(4);
  });

  it('pages with limit (default 50, above 100 capped to 100) and cursor like the organization feed', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    for (let index = 1; index <= 105; index++) await rename(owner, run.ulid, `Name ${index}`);
    const byDefault = await feed(owner, run.ulid);
    expect(byDefault.body.events).toHaveLength(50);
    expect(byDefault.body.nextCursor).toBe(byDefault.body.events[49].ulid);

    const capped = await feed(owner, run.ulid, '?limit=1000');
    expect(capped.status).toBe(200);
    expect(capped.body.events).toHaveLength(100);
    expect(capped.body.events[0].entityLabel).toBe('Name 105');
    const rest = await feed(owner, run.ulid, `?limit=100&cursor=${capped.body.nextCursor}`);
    expect(rest.body.events.map((event: AuditEventBody) => event.entityLabel)).toEqual([
      'Name 5',
      'Name 4',
      'Name 3',
      'Name 2',
      'Name 1',
      'Nightly',
    ]);
    expect(rest.body.events.at(-1).action).toBe('run.created');
    expect(rest.body.nextCursor).toBeNull();
    const all = [...capped.body.events, ...rest.body.events].map((event: AuditEventBody) => event.ulid);
    expect(new Set(all).size).toBe(106);

    const small = await feed(owner, run.ulid, '?limit=2');
    const next = await feed(owner, run.ulid, `?limit=2&cursor=${small.body.nextCursor}`);
    expect(next.body.events.map((event: AuditEventBody) => event.entityLabel)).toEqual(['Name 103', 'Name 102']);

    for (const query of ['?limit=0', '?limit=abc', '?cursor=nope']) {
      expectError(await feed(owner, run.ulid, query), 422, 'validation_failed');
    }
  });

  it('answers 404 for an unknown run, a run of another organization and a deleted run', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    const stranger = await signUp(t.http);
    expectError(await feed(stranger, run.ulid), 404, 'not_found');
    expectError(await feed(owner, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D'), 404, 'not_found');
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers)).status).toBe(204);
    expectError(await feed(owner, run.ulid), 404, 'not_found');
  });
});
