import { describe, expect, it } from 'vitest';
import { runCli } from '../../app/tcms.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, createProject, expectError, graphql, joinAs, projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';

const t = useTestApp();

async function tcms(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err };
}

type Shown = { organization: { ulid: string }; suspension: { suspendedAt: number; reason: string | null } | null };

async function tcmsJson(...argv: string[]): Promise<Shown> {
  const result = await tcms(...argv);
  expect(result.err).toEqual([]);
  expect(result.code).toBe(0);
  return JSON.parse(result.out) as Shown;
}

const READ_ORGANIZATION = '{ organization { ulid name subscription { status } } }';

describe('tcms org suspend / unsuspend', () => {
  it('refuses every request of the organization with 403 organization_suspended but the organization and its subscription, in REST and GraphQL, until unsuspended', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const bot = await tokenFor(t.http, owner);
    const project = await createProject(t.http, owner);
    const bystander = await signUp(t.http);

    const shown = await tcmsJson('org', 'suspend', owner.orgId.toLowerCase(), '--reason', '  unpaid invoices ');
    expect(shown.suspension).toEqual({ suspendedAt: expect.any(Number), reason: 'unpaid invoices' });

    for (const caller of [owner, member, bot]) {
      expectError(await t.http.get('/api/v1/projects').set(caller.headers), 403, 'organization_suspended');
      expectError(await t.http.get(`/api/v1/projects/${project.id}`).set(caller.headers), 403, 'organization_suspended');
      expectError(
        await t.http.post('/api/v1/projects').set(caller.headers).send({ name: 'New', id: projectCode() }),
        403,
        'organization_suspended',
      );
      expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/members`).set(caller.headers), 403, 'organization_suspended');
      expect((await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(caller.headers)).body).toMatchObject({ ulid: owner.orgId });
      const subscription = await t.http.get(`/api/v1/orgs/${owner.orgId}/subscription`).set(caller.headers);
      expect(subscription.status, JSON.stringify(subscription.body)).toBe(200);

      expect(dataOf(await graphql(t.http, caller, READ_ORGANIZATION)).organization).toMatchObject({
        ulid: owner.orgId,
        subscription: { status: expect.any(String) },
      });
      expect(codeOf(await graphql(t.http, caller, '{ projects { totalCount } }'))).toBe('organization_suspended');
      expect(codeOf(await graphql(t.http, caller, '{ organization { members { totalCount } } }'))).toBe('organization_suspended');
      expect(codeOf(await graphql(t.http, caller, 'mutation { createProject(input: { name: "New", code: "NEWONE" }) { code } }'))).toBe(
        'organization_suspended',
      );
    }
    // Other organizations are untouched.
    expect((await t.http.get('/api/v1/projects').set(bystander.headers)).status).toBe(200);

    // Suspending again changes nothing: the first time and reason stay.
    expect((await tcmsJson('org', 'suspend', owner.orgId, '--reason', 'another')).suspension).toEqual(shown.suspension);

    expect((await tcmsJson('org', 'unsuspend', owner.orgId)).suspension).toBeNull();
    for (const caller of [owner, member, bot]) {
      expect((await t.http.get('/api/v1/projects').set(caller.headers)).status).toBe(200);
    }
    expect(dataOf(await graphql(t.http, owner, '{ projects { totalCount } }')).projects.totalCount).toBe(1);

    const events = await auditEvents(t.http, owner, { actionPrefix: 'organization.', entityUlid: owner.orgId });
    expect(events.map((event) => event.action)).toEqual(['organization.unsuspended', 'organization.suspended', 'organization.created']);
    expect(events[0]).toMatchObject({ actor: { kind: 'system' }, metadata: { reason: 'unpaid invoices' } });
    expect(events[1]).toMatchObject({ actor: { kind: 'system' }, metadata: { reason: 'unpaid invoices' } });
  });

  it('suspends without a reason; unsuspending an active organization records nothing', async () => {
    const owner = await signUp(t.http);
    expect((await tcmsJson('org', 'unsuspend', owner.orgId)).suspension).toBeNull();
    expect((await tcmsJson('org', 'suspend', owner.orgId)).suspension).toEqual({ suspendedAt: expect.any(Number), reason: null });
    await tcmsJson('org', 'unsuspend', owner.orgId);
    const events = await auditEvents(t.http, owner, { actionPrefix: 'organization.' });
    expect(events.map((event) => event.action)).toEqual(['organization.unsuspended', 'organization.suspended', 'organization.created']);
  });

  it('answers exit 2 to malformed command lines and exit 1 to bad values or an unknown organization', async () => {
    const owner = await signUp(t.http);
    for (const argv of [
      ['org', 'suspend'],
      ['org', 'suspend', owner.orgId, 'extra'],
      ['org', 'unsuspend', owner.orgId, '--reason', 'why'],
      ['org', 'show', owner.orgId, '--reason', 'why'],
      ['org', 'suspend', owner.orgId, '--seats', '3'],
    ]) {
      const result = await tcms(...argv);
      expect(result.code, JSON.stringify({ argv, result })).toBe(2);
      expect(result.out).toBe('');
    }
    for (const argv of [
      ['org', 'suspend', newId()],
      ['org', 'unsuspend', newId()],
      ['org', 'suspend', 'not-a-ulid'],
      ['org', 'suspend', owner.orgId, '--reason', '   '],
      ['org', 'suspend', owner.orgId, '--reason', 'x'.repeat(501)],
    ]) {
      const result = await tcms(...argv);
      expect(result.code, JSON.stringify({ argv, result })).toBe(1);
      expect(result.err).toHaveLength(1);
    }
    expect((await t.http.get('/api/v1/projects').set(owner.headers)).status).toBe(200);
  });
});
