import { billingProvider, type Commitment } from '../billing/billing.service.ts';
import { emitAudit, SYSTEM_ACTOR } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import { displayName, type RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict } from '../kernel/errors.ts';
import { logger } from '../kernel/logger.ts';
import { SEAT_ROLES, seatLimit, seatsInUse } from '../seats/seats.service.ts';
import type { ChangeSeatsInput, CheckoutInput, SubscriptionReadout } from './subscription.schemas.ts';

type SubscriptionRow = Awaited<ReturnType<Db['subscription']['findUniqueOrThrow']>>;

function readout(plan: string, row: SubscriptionRow | null): SubscriptionReadout {
  if (!row) {
    return {
      plan,
      seats: null,
      status: 'none',
      currentPeriodStart: null,
      currentPeriodEnd: null,
      pendingChange: null,
      provider: billingProvider().name,
    };
  }
  return {
    plan,
    seats: row.seats,
    status: 'active',
    currentPeriodStart: row.currentPeriodStart.getTime(),
    currentPeriodEnd: row.currentPeriodEnd.getTime(),
    pendingChange:
      row.pendingSeats !== null && row.pendingEffectiveAt !== null
        ? { seats: row.pendingSeats, effectiveAt: row.pendingEffectiveAt.getTime() }
        : null,
    provider: row.provider,
  };
}

const commitmentOf = (row: SubscriptionRow): Commitment => ({
  seats: row.seats,
  currentPeriodStart: row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
  pendingChange:
    row.pendingSeats !== null && row.pendingEffectiveAt !== null ? { seats: row.pendingSeats, effectiveAt: row.pendingEffectiveAt } : null,
});

const columnsOf = (commitment: Commitment, now: Date) => ({
  seats: commitment.seats,
  currentPeriodStart: commitment.currentPeriodStart,
  currentPeriodEnd: commitment.currentPeriodEnd,
  pendingSeats: commitment.pendingChange?.seats ?? null,
  pendingEffectiveAt: commitment.pendingChange?.effectiveAt ?? null,
  updatedAt: now,
});

const pendingOut = (pending: Commitment['pendingChange']) =>
  pending ? { seats: pending.seats, effectiveAt: pending.effectiveAt.getTime() } : null;

/** GET /orgs/{orgUlid}/subscription: any member reads it. */
export async function getSubscription(ctx: RequestContext): Promise<SubscriptionReadout> {
  authorize(ctx, 'organization.read');
  const row = await ctx.db.subscription.findUnique({ where: { orgId: ctx.org.id } });
  return readout(ctx.org.plan, row);
}

type Change = {
  tx: Db;
  org: { id: string; name: string };
  current: SubscriptionRow | null;
  now: Date;
  /** Stores the commitment the provider answered. */
  store(commitment: Commitment): Promise<void>;
  audit(action: string, metadata: Record<string, unknown>): Promise<void>;
};

/**
 * A subscription mutation: owner/admin, under the organization's row lock (which every change of
 * seats in use or of the seat limit takes first), answering the readout after the change.
 */
async function changeSubscription(ctx: RequestContext, work: (change: Change) => Promise<void>): Promise<SubscriptionReadout> {
  authorize(ctx, 'settings.manage');
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const org = await tx.organization.findUniqueOrThrow({ where: { id: ctx.org.id }, select: { id: true, name: true, plan: true } });
    const current = await tx.subscription.findUnique({ where: { orgId: org.id } });
    const now = new Date();
    await work({
      tx,
      org,
      current,
      now,
      store: (commitment) => storeCommitment(tx, org.id, commitment, now),
      audit: (action, metadata) => emitAudit(tx, ctx, { action, ...subscriptionEntity(org), metadata }),
    });
    return readout(org.plan, await tx.subscription.findUnique({ where: { orgId: org.id } }));
  });
}

async function storeCommitment(tx: Db, orgId: string, commitment: Commitment, now: Date): Promise<void> {
  const columns = columnsOf(commitment, now);
  await tx.subscription.upsert({
    where: { orgId },
    create: { orgId, provider: billingProvider().name, ...columns },
    update: columns,
  });
}

const subscriptionEntity = (org: { id: string; name: string }) => ({
  entityType: 'subscription',
  entityUlid: org.id,
  entityLabel: org.name,
});

/** POST …/subscription/checkout: starts a monthly period committing `seats`; 409 when one is active. */
export async function checkoutSubscription(ctx: RequestContext, input: CheckoutInput): Promise<SubscriptionReadout> {
  return changeSubscription(ctx, async ({ tx, org, current, now, store, audit }) => {
    if (current) throw conflict('The organization already has an active subscription: change its seats instead');
    const commitment = await billingProvider().checkout({ orgId: org.id, seats: input.seats, now });
    await store(commitment);
    await audit('subscription.checked_out', {
      seats: commitment.seats,
      currentPeriodStart: commitment.currentPeriodStart.getTime(),
      currentPeriodEnd: commitment.currentPeriodEnd.getTime(),
      provider: billingProvider().name,
    });
    await fitSeatsToCommitment(tx, org.id, now);
  });
}

/**
 * PATCH …/subscription/seats: an increase applies now; a decrease is scheduled for the period's
 * end unless `at` is `now`. The current count again drops a scheduled change.
 */
export async function changeSubscriptionSeats(ctx: RequestContext, input: ChangeSeatsInput): Promise<SubscriptionReadout> {
  return changeSubscription(ctx, async ({ tx, org, current, now, store, audit }) => {
    if (!current) throw conflict('The organization has no subscription yet: check out first');
    const provider = billingProvider();
    const before = commitmentOf(current);
    if (input.seats === before.seats) {
      if (!before.pendingChange) return;
      await store(await provider.cancelPendingChange({ orgId: org.id, current: before }));
      await audit('subscription.pending_change_cancelled', { pendingChange: pendingOut(before.pendingChange) });
      return;
    }
    if (input.seats < before.seats && input.at !== 'now') {
      const after = await provider.scheduleSeatsChange({ orgId: org.id, current: before, seats: input.seats });
      await store(after);
      await audit('subscription.pending_change_scheduled', {
        seats: before.seats,
        pendingChange: pendingOut(after.pendingChange),
        replacedPendingChange: pendingOut(before.pendingChange),
      });
      return;
    }
    const after = await provider.changeSeatsNow({ orgId: org.id, current: before, seats: input.seats, now });
    await store(after);
    await audit('subscription.seats_changed', {
      changes: [{ field: 'seats', from: before.seats, to: after.seats }],
      droppedPendingChange: pendingOut(before.pendingChange),
    });
    if (after.seats < before.seats) await fitSeatsToCommitment(tx, org.id, now);
  });
}

/** DELETE …/subscription/pending-change: keeps the current commitment; 409 when nothing is scheduled. */
export async function cancelPendingSeatsChange(ctx: RequestContext): Promise<SubscriptionReadout> {
  return changeSubscription(ctx, async ({ org, current, store, audit }) => {
    const before = current && commitmentOf(current);
    if (!before?.pendingChange) throw conflict('No seat change is scheduled');
    await store(await billingProvider().cancelPendingChange({ orgId: org.id, current: before }));
    await audit('subscription.pending_change_cancelled', { pendingChange: pendingOut(before.pendingChange) });
  });
}

const demotion = (from: string) => ({ changes: [{ field: 'role', from, to: 'viewer' }], reason: 'seat_commitment' });

/**
 * The commitment rule (contract §9): while seats in use exceed the seat limit in force, pending
 * non-viewer invitations become viewer invitations (newest first), then the newest non-owner
 * members become viewers. Owners are never demoted, so owners alone may still exceed the limit.
 * Every demotion is audited with the system as its actor. Runs under the organization's row lock.
 */
async function fitSeatsToCommitment(tx: Db, orgId: string, now: Date): Promise<void> {
  const limit = await seatLimit(tx, orgId);
  if (limit === null) return;
  let excess = (await seatsInUse(tx, orgId, now)) - limit;
  if (excess <= 0) return;
  const system = { identity: SYSTEM_ACTOR, org: { id: orgId } };

  const invitations = await tx.invitation.findMany({
    where: { orgId, status: 'pending', role: { in: [...SEAT_ROLES] }, expiresAt: { gt: now } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: excess,
  });
  for (const invitation of invitations) {
    await tx.invitation.update({ where: { id: invitation.id }, data: { role: 'viewer', updatedAt: now } });
    await emitAudit(tx, system, {
      action: 'invitation.role_changed',
      entityType: 'invitation',
      entityUlid: invitation.id,
      entityLabel: invitation.email,
      metadata: { email: invitation.email, ...demotion(invitation.role) },
    });
  }
  excess -= invitations.length;
  if (excess <= 0) return;

  const members = await tx.membership.findMany({
    where: { orgId, role: { in: SEAT_ROLES.filter((role) => role !== 'owner') } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: excess,
    include: { user: { select: { email: true, firstName: true, lastName: true } } },
  });
  for (const member of members) {
    await tx.membership.update({ where: { id: member.id }, data: { role: 'viewer' } });
    await emitAudit(tx, system, {
      action: 'member.role_changed',
      entityType: 'member',
      entityUlid: member.userId,
      entityLabel: displayName(member.user),
      metadata: { userUlid: member.userId, email: member.user.email, ...demotion(member.role) },
    });
  }
}

const isDue = (row: SubscriptionRow, now: Date) =>
  row.currentPeriodEnd <= now || (row.pendingEffectiveAt !== null && row.pendingEffectiveAt <= now);

/**
 * Claims one organization whose subscription is due at `now` by locking its row, skipping rows
 * another process (or a request) holds: each due subscription is handled by one process at a time.
 */
async function claimDueOrganization(tx: Db, now: Date, skip: string[], only: string | undefined): Promise<string | undefined> {
  const rows = await queryRaw<Array<{ id: string }>>(
    tx,
    sql`
    SELECT o.id FROM organizations o JOIN subscriptions s ON s.org_id = o.id
    WHERE (s.current_period_end <= ${now} OR s.pending_effective_at <= ${now})
      AND o.id <> ALL(${skip}::char(26)[]) AND (${only ?? null}::char(26) IS NULL OR o.id = ${only ?? null})
    ORDER BY s.current_period_end, o.id
    LIMIT 1
    FOR UPDATE OF o SKIP LOCKED`,
  );
  return rows[0]?.id;
}

/** Brings one claimed subscription up to `now`: the scheduled change, the next period, the demotions. */
async function renewSubscription(tx: Db, orgId: string, now: Date): Promise<void> {
  const current = await tx.subscription.findUnique({ where: { orgId } });
  if (!current || !isDue(current, now)) return;
  const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { id: true, name: true } });
  const before = commitmentOf(current);
  const after = await billingProvider().renew({ orgId, current: before, now });
  await storeCommitment(tx, orgId, after, now);
  const system = { identity: SYSTEM_ACTOR, org };
  if (before.pendingChange && !after.pendingChange) {
    await emitAudit(tx, system, {
      action: 'subscription.pending_change_applied',
      ...subscriptionEntity(org),
      metadata: {
        changes: [{ field: 'seats', from: before.seats, to: after.seats }],
        effectiveAt: before.pendingChange.effectiveAt.getTime(),
      },
    });
  }
  if (after.currentPeriodStart.getTime() !== before.currentPeriodStart.getTime()) {
    await emitAudit(tx, system, {
      action: 'subscription.renewed',
      ...subscriptionEntity(org),
      metadata: {
        seats: after.seats,
        currentPeriodStart: after.currentPeriodStart.getTime(),
        currentPeriodEnd: after.currentPeriodEnd.getTime(),
      },
    });
  }
  if (after.seats < before.seats) await fitSeatsToCommitment(tx, orgId, now);
}

/**
 * The periodic job of every server process (app/maintenance.ts): applies each seat change whose
 * time has come and renews each period that has ended, one organization per transaction. An
 * organization that fails is logged and left for the next run. `onlyOrgId` confines a run to one
 * organization. Answers how many subscriptions it brought up to date.
 */
export async function applyDueSubscriptions(client: Db, now = new Date(), onlyOrgId?: string): Promise<number> {
  const failed: string[] = [];
  let renewed = 0;
  for (;;) {
    let claimed: string | undefined;
    try {
      const found = await inTransaction(client, async (tx) => {
        claimed = await claimDueOrganization(tx, now, failed, onlyOrgId);
        if (claimed === undefined) return false;
        await renewSubscription(tx, claimed, now);
        return true;
      });
      if (!found) return renewed;
      renewed += 1;
    } catch (error) {
      if (claimed === undefined) throw error;
      logger.error({ err: error, orgId: claimed }, 'bringing a subscription up to date failed');
      failed.push(claimed);
    }
  }
}
