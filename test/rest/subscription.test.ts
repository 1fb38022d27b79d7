import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oneMonthAfter } from '../../src/billing/local-provider.ts';
import { ConfigurationError, loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { inTransaction } from '../../src/kernel/database/transactions.ts';
import { newId } from '../../src/kernel/ids.ts';
import { reserveSeats, seatUsage } from '../../src/seats/seats.service.ts';
import { applyDueSubscriptions } from '../../src/subscription/subscription.service.ts';
import { auditEvents, type Caller, expectError, joinAs, signUp, uniqueEmail, useTestApp } from '../support/app.ts';

const t = useTestApp();

const subscriptionPath = (caller: Caller) => `/api/v1/orgs/${caller.orgId}/subscription`;
const read = (caller: Caller) => t.http.get(subscriptionPath(caller)).set(caller.headers);
const checkout = (caller: Caller, body: unknown) =>
  t.http
    .post(`${subscriptionPath(caller)}/checkout`)
    .set(caller.headers)
    .send(body as object);
const changeSeats = (caller: Caller, body: unknown) =>
  t.http
    .patch(`${subscriptionPath(caller)}/seats`)
    .set(caller.headers)
    .send(body as object);
const cancelPending = (caller: Caller) => t.http.delete(`${subscriptionPath(caller)}/pending-change`).set(caller.headers);

async function ok(response: Awaited<ReturnType<typeof read>>) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as {
    plan: string;
    seats: number | null;
    status: string;
    currentPeriodStart: number | null;
    currentPeriodEnd: number | null;
    pendingChange: { seats: number; effectiveAt: number } | null;
    provider: string;
  };
}

/** An owner whose organization has checked out `seats`. */
async function subscribedOwner(seats: number) {
  const owner = await signUp(t.http);
  const subscription = await ok(await checkout(owner, { seats }));
  return { owner, subscription };
}

/** A pending invitation written directly (the invitation endpoints are not part of this module). */
async function pendingInvitation(org: Caller, role: 'admin' | 'member' | 'viewer', expiresInMs = 7 * 24 * 3600 * 1000) {
  return prisma().invitation.create({
    data: {
      id: newId(),
      orgId: org.orgId,
      email: uniqueEmail('invitee'),
      role,
      tokenHash: randomBytes(32).toString('hex'),
      invitedByUserId: org.userId,
      invitedByName: 'Test User',
      expiresAt: new Date(Date.now() + expiresInMs),
    },
  });
}

/** A second owner, written directly like joinAs does for the other roles. */
async function joinAsOwner(org: Caller): Promise<Caller> {
  const person = await signUp(t.http);
  await prisma().membership.create({ data: { id: newId(), orgId: org.orgId, userId: person.userId, role: 'owner' } });
  return { ...person, orgId: org.orgId, headers: { ...person.headers, 'X-Organization-Id': org.orgId } };
}

const roleOf = async (org: Caller, person: Caller) =>
  (await prisma().membership.findUniqueOrThrow({ where: { orgId_userId: { orgId: org.orgId, userId: person.userId } } })).role;
const invitationRole = async (id: string) => (await prisma().invitation.findUniqueOrThrow({ where: { id } })).role;

/** Whether one more seat fits, as invitations and promotions ask it. */
const oneMoreSeat = (org: Caller) =>
  inTransaction(prisma(), (tx) => reserveSeats(tx, org.orgId, 1)).then(
    () => 'fits',
    (error: { code?: string }) => error.code,
  );

describe('local provider periods', () => {
  it('ends a period one calendar month later, keeping the time of day and clamping to the shorter month', () => {
    expect(oneMonthAfter(new Date('2031-01-15T10:20:30.400Z')).toISOString()).toBe('2031-02-15T10:20:30.400Z');
    expect(oneMonthAfter(new Date('2031-01-31T08:00:00.000Z')).toISOString()).toBe('2031-02-28T08:00:00.000Z');
    expect(oneMonthAfter(new Date('2032-01-31T08:00:00.000Z')).toISOString()).toBe('2032-02-29T08:00:00.000Z');
    expect(oneMonthAfter(new Date('2031-12-31T23:59:59.999Z')).toISOString()).toBe('2032-01-31T23:59:59.999Z');
  });

  it('refuses to start with a billing provider this build does not know', () => {
    expect(() => loadConfig({ TCMS_BILLING_PROVIDER: 'stripe' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ TCMS_BILLING_PROVIDER: 'stripe' })).toThrow(
      /^TCMS_BILLING_PROVIDER=stripe: must be a billing provider this build has: local/,
    );
  });
});

describe('GET /orgs/{orgUlid}/subscription and checkout', () => {
  it('reads status none before any checkout, then the active commitment and its monthly period; a second checkout is 409', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(await ok(await read(viewer))).toEqual({
      plan: 'free',
      seats: null,
      status: 'none',
      currentPeriodStart: null,
      currentPeriodEnd: null,
      pendingChange: null,
      provider: 'local',
    });

    const before = Date.now();
    const active = await ok(await checkout(owner, { seats: 5 }));
    expect(active).toMatchObject({ plan: 'free', seats: 5, status: 'active', pendingChange: null, provider: 'local' });
    expect(active.currentPeriodStart).toBeGreaterThanOrEqual(before);
    expect(active.currentPeriodStart).toBeLessThanOrEqual(Date.now());
    expect(active.currentPeriodEnd).toBe(oneMonthAfter(new Date(active.currentPeriodStart!)).getTime());
    expect(await ok(await read(viewer))).toEqual(active);
    // With a subscription the seat limit is the commitment, above the free plan's 3.
    expect(await seatUsage(prisma(), owner.orgId)).toEqual({ used: 1, limit: 5 });

    expectError(await checkout(owner, { seats: 9 }), 409, 'conflict');
    expect((await ok(await read(owner))).seats).toBe(5);

    const [event] = await auditEvents(t.http, owner, { action: 'subscription.checked_out' });
    expect(event).toMatchObject({
      actor: { kind: 'user', ulid: owner.userId },
      entityType: 'subscription',
      entityUlid: owner.orgId,
      metadata: { seats: 5, currentPeriodStart: active.currentPeriodStart, currentPeriodEnd: active.currentPeriodEnd, provider: 'local' },
    });
  });

  it('lets an admin check out; viewers and members get 403 on every mutation, strangers 404', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const stranger = await signUp(t.http);
    for (const role of ['viewer', 'member'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expectError(await checkout(caller, { seats: 4 }), 403, 'forbidden');
      expectError(await changeSeats(caller, { seats: 4 }), 403, 'forbidden');
      expectError(await cancelPending(caller), 403, 'forbidden');
    }
    expect((await ok(await read(owner))).status).toBe('none');
    expect((await ok(await checkout(admin, { seats: 4 }))).seats).toBe(4);

    expectError(await t.http.get(subscriptionPath(owner)).set(stranger.headers), 404, 'not_found');
    expectError(
      await t.http
        .patch(`${subscriptionPath(owner)}/seats`)
        .set(stranger.headers)
        .send({ seats: 1, at: 'now' }),
      404,
      'not_found',
    );
    expect((await ok(await read(owner))).seats).toBe(4);
  });

  it('answers 422 for seats that are not a positive integer, unknown keys and an unknown timing', async () => {
    const { owner } = await subscribedOwner(3);
    const fresh = await signUp(t.http);
    for (const body of [
      { seats: 0 },
      { seats: -1 },
      { seats: 1.5 },
      { seats: '2' },
      {},
      { seats: 2, plan: 'team' },
      { seats: 10_000_000 },
    ]) {
      expectError(await checkout(fresh, body), 422, 'validation_failed');
      expectError(await changeSeats(owner, body), 422, 'validation_failed');
    }
    expectError(await changeSeats(owner, { seats: 2, at: 'later' }), 422, 'validation_failed');
    expect((await ok(await read(fresh))).status).toBe('none');
    expect((await ok(await read(owner))).seats).toBe(3);
  });
});

describe('PATCH /orgs/{orgUlid}/subscription/seats and DELETE …/pending-change', () => {
  it('answers 409 without a subscription, for a seat change and for a cancel alike', async () => {
    const owner = await signUp(t.http);
    expectError(await changeSeats(owner, { seats: 4 }), 409, 'conflict');
    expectError(await cancelPending(owner), 409, 'conflict');
    expect((await ok(await read(owner))).status).toBe('none');
  });

  it('applies an increase now, even when asked for period end', async () => {
    const { owner, subscription } = await subscribedOwner(3);
    const increased = await ok(await changeSeats(owner, { seats: 6, at: 'period_end' }));
    expect(increased).toEqual({ ...subscription, seats: 6 });
    expect((await seatUsage(prisma(), owner.orgId)).limit).toBe(6);
    const [event] = await auditEvents(t.http, owner, { action: 'subscription.seats_changed' });
    expect(event?.metadata).toMatchObject({ changes: [{ field: 'seats', from: 3, to: 6 }] });
  });

  it('schedules a decrease for period end, which DELETE discards; a second DELETE is 409', async () => {
    const { owner, subscription } = await subscribedOwner(8);
    const scheduled = await ok(await changeSeats(owner, { seats: 4 }));
    expect(scheduled).toEqual({ ...subscription, pendingChange: { seats: 4, effectiveAt: subscription.currentPeriodEnd } });
    expect(await ok(await read(owner))).toEqual(scheduled);
    // The commitment in force is still the current one until the period ends.
    expect((await seatUsage(prisma(), owner.orgId)).limit).toBe(8);

    expect(await ok(await cancelPending(owner))).toEqual(subscription);
    expectError(await cancelPending(owner), 409, 'conflict');
    expect(await ok(await read(owner))).toEqual(subscription);

    expect((await auditEvents(t.http, owner, { actionPrefix: 'subscription.' })).map((event) => event.action).reverse()).toEqual([
      'subscription.checked_out',
      'subscription.pending_change_scheduled',
      'subscription.pending_change_cancelled',
    ]);
    const [scheduledEvent] = await auditEvents(t.http, owner, { action: 'subscription.pending_change_scheduled' });
    expect(scheduledEvent?.metadata).toMatchObject({ seats: 8, pendingChange: { seats: 4, effectiveAt: subscription.currentPeriodEnd } });
  });

  it('lets a later change replace or drop a scheduled one (the current count drops it, an increase supersedes it)', async () => {
    const { owner, subscription } = await subscribedOwner(8);
    await ok(await changeSeats(owner, { seats: 4 }));
    expect((await ok(await changeSeats(owner, { seats: 5, at: 'period_end' }))).pendingChange).toEqual({
      seats: 5,
      effectiveAt: subscription.currentPeriodEnd,
    });
    expect(await ok(await changeSeats(owner, { seats: 8 }))).toEqual(subscription);
    await ok(await changeSeats(owner, { seats: 4 }));
    expect(await ok(await changeSeats(owner, { seats: 10 }))).toEqual({ ...subscription, seats: 10 });
    expectError(await cancelPending(owner), 409, 'conflict');
  });

  it('applies a decrease with at now: pending invitations first (newest first), then the newest non-owner members, each audited with actor system', async () => {
    const { owner } = await subscribedOwner(10);
    const admin = await joinAs(t.http, owner, 'admin');
    const olderMember = await joinAs(t.http, owner, 'member');
    const newerMember = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const secondOwner = await joinAsOwner(owner);
    const olderInvitation = await pendingInvitation(owner, 'member');
    const newerInvitation = await pendingInvitation(owner, 'admin');
    const viewerInvitation = await pendingInvitation(owner, 'viewer');
    const expiredInvitation = await pendingInvitation(owner, 'member', -1000);
    // 2 owners, an admin, 2 members, 2 pending unexpired non-viewer invitations.
    expect(await seatUsage(prisma(), owner.orgId)).toEqual({ used: 7, limit: 10 });

    expect((await ok(await changeSeats(owner, { seats: 3, at: 'now' }))).seats).toBe(3);

    expect(await invitationRole(newerInvitation.id)).toBe('viewer');
    expect(await invitationRole(olderInvitation.id)).toBe('viewer');
    expect(await invitationRole(viewerInvitation.id)).toBe('viewer');
    expect(await invitationRole(expiredInvitation.id)).toBe('member');
    expect(await roleOf(owner, newerMember)).toBe('viewer');
    expect(await roleOf(owner, olderMember)).toBe('viewer');
    expect(await roleOf(owner, admin)).toBe('admin');
    expect(await roleOf(owner, viewer)).toBe('viewer');
    expect(await roleOf(owner, secondOwner)).toBe('owner');
    expect(await roleOf(owner, owner)).toBe('owner');
    expect(await seatUsage(prisma(), owner.orgId)).toEqual({ used: 3, limit: 3 });
    expect(await oneMoreSeat(owner)).toBe('seat_limit_exceeded');

    const demotions = (await auditEvents(t.http, owner)).filter((event) => event.action.endsWith('.role_changed')).reverse();
    expect(demotions.map((event) => [event.action, event.entityUlid])).toEqual([
      ['invitation.role_changed', newerInvitation.id],
      ['invitation.role_changed', olderInvitation.id],
      ['member.role_changed', newerMember.userId],
      ['member.role_changed', olderMember.userId],
    ]);
    for (const event of demotions) expect(event.actor).toEqual({ kind: 'system' });
    expect(demotions[0]).toMatchObject({
      entityType: 'invitation',
      entityLabel: newerInvitation.email,
      metadata: { changes: [{ field: 'role', from: 'admin', to: 'viewer' }] },
    });
    expect(demotions[2]).toMatchObject({
      entityType: 'member',
      entityLabel: 'Test User',
      metadata: { email: newerMember.email, changes: [{ field: 'role', from: 'member', to: 'viewer' }] },
    });
    const [change] = await auditEvents(t.http, owner, { action: 'subscription.seats_changed' });
    expect(change?.actor).toMatchObject({ kind: 'user', ulid: owner.userId });
  });

  it('never demotes owners: a commitment below the owners is accepted and leaves no seat free', async () => {
    const { owner } = await subscribedOwner(5);
    const secondOwner = await joinAsOwner(owner);
    const member = await joinAs(t.http, owner, 'member');
    expect((await ok(await changeSeats(owner, { seats: 1, at: 'now' }))).seats).toBe(1);
    expect(await roleOf(owner, member)).toBe('viewer');
    expect(await roleOf(owner, secondOwner)).toBe('owner');
    expect(await seatUsage(prisma(), owner.orgId)).toEqual({ used: 2, limit: 1 });
    expect(await oneMoreSeat(owner)).toBe('seat_limit_exceeded');
  });

  it('demotes at checkout too when the commitment is below the seats in use', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const invitation = await pendingInvitation(owner, 'member');
    await ok(await checkout(owner, { seats: 2 }));
    expect(await invitationRole(invitation.id)).toBe('viewer');
    expect(await roleOf(owner, member)).toBe('member');
    expect(await oneMoreSeat(owner)).toBe('seat_limit_exceeded');
    expect((await auditEvents(t.http, owner, { action: 'invitation.role_changed' }))[0]?.actor).toEqual({ kind: 'system' });
  });

  it('demotes nobody while an operator override sets the limit, which stays in force', async () => {
    const owner = await signUp(t.http);
    await prisma().organization.update({ where: { id: owner.orgId }, data: { maxSeatsOverride: 4 } });
    const member = await joinAs(t.http, owner, 'member');
    const admin = await joinAs(t.http, owner, 'admin');
    await ok(await checkout(owner, { seats: 10 }));
    expect((await ok(await changeSeats(owner, { seats: 1, at: 'now' }))).seats).toBe(1);
    expect(await roleOf(owner, member)).toBe('member');
    expect(await roleOf(owner, admin)).toBe('admin');
    expect(await seatUsage(prisma(), owner.orgId)).toEqual({ used: 3, limit: 4 });
    expect(await oneMoreSeat(owner)).toBe('fits');
    expect(await auditEvents(t.http, owner, { action: 'member.role_changed' })).toEqual([]);
  });
});

describe('the job that applies due subscription changes', () => {
  it('applies a due pending change with its demotions and renews the period, once, with actor system', async () => {
    const { owner, subscription } = await subscribedOwner(4);
    const member = await joinAs(t.http, owner, 'member');
    const newestAdmin = await joinAs(t.http, owner, 'admin');
    await ok(await changeSeats(owner, { seats: 2 }));
    const periodEnd = subscription.currentPeriodEnd!;

    // Not due yet: nothing happens.
    expect(await applyDueSubscriptions(prisma(), new Date(periodEnd - 1), owner.orgId)).toBe(0);
    expect((await ok(await read(owner))).pendingChange).toEqual({ seats: 2, effectiveAt: periodEnd });

    const due = new Date(periodEnd + 1000);
    const runs = await Promise.all([applyDueSubscriptions(prisma(), due, owner.orgId), applyDueSubscriptions(prisma(), due, owner.orgId)]);
    expect(runs[0]! + runs[1]!).toBe(1);
    expect(await applyDueSubscriptions(prisma(), due, owner.orgId)).toBe(0);

    expect(await ok(await read(owner))).toEqual({
      ...subscription,
      seats: 2,
      currentPeriodStart: periodEnd,
      currentPeriodEnd: oneMonthAfter(new Date(periodEnd)).getTime(),
      pendingChange: null,
    });
    expect(await roleOf(owner, newestAdmin)).toBe('viewer');
    expect(await roleOf(owner, member)).toBe('member');

    const events = (await auditEvents(t.http, owner)).reverse();
    const applied = events.filter((event) => event.action === 'subscription.pending_change_applied');
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      actor: { kind: 'system' },
      metadata: { changes: [{ field: 'seats', from: 4, to: 2 }], effectiveAt: periodEnd },
    });
    const renewed = events.filter((event) => event.action === 'subscription.renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0]).toMatchObject({ actor: { kind: 'system' }, metadata: { seats: 2, currentPeriodStart: periodEnd } });
    expect(events.filter((event) => event.action === 'member.role_changed').map((event) => [event.entityUlid, event.actor.kind])).toEqual([
      [newestAdmin.userId, 'system'],
    ]);
  });

  it('renews every period that has passed, keeping the commitment', async () => {
    const { owner, subscription } = await subscribedOwner(3);
    const later = new Date(subscription.currentPeriodStart! + 100 * 24 * 3600 * 1000);
    expect(await applyDueSubscriptions(prisma(), later, owner.orgId)).toBe(1);
    const renewed = await ok(await read(owner));
    expect(renewed.seats).toBe(3);
    expect(renewed.currentPeriodStart).toBeLessThanOrEqual(later.getTime());
    expect(renewed.currentPeriodEnd).toBeGreaterThan(later.getTime());
    expect(renewed.currentPeriodEnd).toBe(oneMonthAfter(new Date(renewed.currentPeriodStart!)).getTime());
    expect(renewed.currentPeriodStart! - subscription.currentPeriodStart!).toBeGreaterThan(80 * 24 * 3600 * 1000);
    expect(await auditEvents(t.http, owner, { action: 'subscription.pending_change_applied' })).toEqual([]);
    expect(await auditEvents(t.http, owner, { action: 'subscription.renewed' })).toHaveLength(1);
  });
});
