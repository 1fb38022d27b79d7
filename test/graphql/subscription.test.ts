import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { applyDueSubscriptions } from '../../src/subscription/subscription.service.ts';
import { auditEvents, type Caller, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';

const t = useTestApp();

const FIELDS = 'plan seats status currentPeriodStart currentPeriodEnd pendingChange { seats effectiveAt } provider';
const READ = `query { organization { subscription { ${FIELDS} } } }`;
const CHECKOUT = `mutation($seats: Int!) { checkoutSubscription(seats: $seats) { ${FIELDS} } }`;
const CHANGE = `mutation($seats: Int!, $at: SeatChangeTiming) { changeSubscriptionSeats(seats: $seats, at: $at) { ${FIELDS} } }`;
const CANCEL = `mutation { cancelSubscriptionPendingChange { ${FIELDS} } }`;

const read = async (caller: Caller) => dataOf(await graphql(t.http, caller, READ)).organization.subscription;

describe('GraphQL: subscription', () => {
  it('reads, checks out, increases, schedules and cancels a decrease through the same rules as REST', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(await read(viewer)).toEqual({
      plan: 'free',
      seats: null,
      status: 'none',
      currentPeriodStart: null,
      currentPeriodEnd: null,
      pendingChange: null,
      provider: 'local',
    });
    expect(codeOf(await graphql(t.http, owner, CHANGE, { seats: 2 }))).toBe('conflict');

    const active = dataOf(await graphql(t.http, owner, CHECKOUT, { seats: 3 })).checkoutSubscription;
    expect(active).toMatchObject({ seats: 3, status: 'active', pendingChange: null, provider: 'local' });
    const rest = await t.http.get(`/api/v1/orgs/${owner.orgId}/subscription`).set(owner.headers);
    expect(rest.body).toEqual(active);
    expect(codeOf(await graphql(t.http, owner, CHECKOUT, { seats: 3 }))).toBe('conflict');

    expect(dataOf(await graphql(t.http, owner, CHANGE, { seats: 7 })).changeSubscriptionSeats).toEqual({ ...active, seats: 7 });
    const scheduled = dataOf(await graphql(t.http, owner, CHANGE, { seats: 4, at: 'period_end' })).changeSubscriptionSeats;
    expect(scheduled).toEqual({ ...active, seats: 7, pendingChange: { seats: 4, effectiveAt: active.currentPeriodEnd } });
    expect(await read(viewer)).toEqual(scheduled);
    expect(dataOf(await graphql(t.http, owner, CANCEL)).cancelSubscriptionPendingChange).toEqual({ ...active, seats: 7 });
    expect(codeOf(await graphql(t.http, owner, CANCEL))).toBe('conflict');

    expect((await auditEvents(t.http, owner, { actionPrefix: 'subscription.' })).map((event) => event.action).reverse()).toEqual([
      'subscription.checked_out',
      'subscription.seats_changed',
      'subscription.pending_change_scheduled',
      'subscription.pending_change_cancelled',
    ]);
  });

  it('demotes the newest non-owner member on a decrease with at now, and the job applies a scheduled one at period end', async () => {
    const owner = await signUp(t.http);
    const older = await joinAs(t.http, owner, 'member');
    const newer = await joinAs(t.http, owner, 'admin');
    const active = dataOf(await graphql(t.http, owner, CHECKOUT, { seats: 3 })).checkoutSubscription;
    const role = async (person: Caller) =>
      (await prisma().membership.findUniqueOrThrow({ where: { orgId_userId: { orgId: owner.orgId, userId: person.userId } } })).role;

    dataOf(await graphql(t.http, owner, CHANGE, { seats: 2, at: 'now' }));
    expect(await role(newer)).toBe('viewer');
    expect(await role(older)).toBe('member');

    dataOf(await graphql(t.http, owner, CHANGE, { seats: 1 }));
    expect(await role(older)).toBe('member');
    expect(await applyDueSubscriptions(prisma(), new Date(active.currentPeriodEnd + 1), owner.orgId)).toBe(1);
    expect(await role(older)).toBe('viewer');
    expect((await read(owner)).seats).toBe(1);

    const demotions = await auditEvents(t.http, owner, { action: 'member.role_changed' });
    expect(demotions.map((event) => [event.entityUlid, event.actor])).toEqual([
      [older.userId, { kind: 'system' }],
      [newer.userId, { kind: 'system' }],
    ]);
  });

  it('refuses viewers and members (forbidden) and seats that are not a positive integer (validation_failed)', async () => {
    const owner = await signUp(t.http);
    for (const role of ['viewer', 'member'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expect(codeOf(await graphql(t.http, caller, CHECKOUT, { seats: 2 }))).toBe('forbidden');
      expect(codeOf(await graphql(t.http, caller, CHANGE, { seats: 2, at: 'now' }))).toBe('forbidden');
      expect(codeOf(await graphql(t.http, caller, CANCEL))).toBe('forbidden');
    }
    expect(codeOf(await graphql(t.http, owner, CHECKOUT, { seats: 0 }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, CHECKOUT, { seats: 2_000_000 }))).toBe('validation_failed');
    // A variable that is no Int is refused before execution (HTTP 400), with the contract's code.
    const fraction = await graphql(t.http, owner, CHECKOUT, { seats: 1.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual(['validation_failed']);
    expect((await read(owner)).status).toBe('none');
  });
});
