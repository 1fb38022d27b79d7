import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { PLAN_TIERS, type PlanName } from '../kernel/billing-tiers.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { AppError } from '../kernel/errors.ts';

/** Roles that occupy a seat (contract §8): everyone but viewers. */
export const SEAT_ROLES = ['owner', 'admin', 'member'] as const;
export const occupiesSeat = (role: string) => role !== 'viewer';

export type SeatUsage = { used: number; limit: number | null };

/**
 * The seat limit in force: an operator override wins, then the subscription's committed seats,
 * then the plan's (contract §9). null means unlimited.
 */
export async function seatLimit(db: Db, orgId: string): Promise<number | null> {
  const org = await db.organization.findUniqueOrThrow({
    where: { id: orgId },
    select: { plan: true, maxSeatsOverride: true, subscription: { select: { seats: true } } },
  });
  const tier = PLAN_TIERS[org.plan as PlanName] ?? PLAN_TIERS.free;
  return org.maxSeatsOverride ?? org.subscription?.seats ?? tier.maxSeats;
}

/**
 * Seats in use: non-viewer members (a staff-suspended one too) and pending, unexpired
 * non-viewer invitations, which reserve one each.
 */
export async function seatsInUse(db: Db, orgId: string, now = new Date()): Promise<number> {
  const [members, invitations] = await Promise.all([
    db.membership.count({ where: { orgId, role: { in: [...SEAT_ROLES] } } }),
    db.invitation.count({ where: { orgId, status: 'pending', role: { in: [...SEAT_ROLES] }, expiresAt: { gt: now } } }),
  ]);
  return members + invitations;
}

export async function seatUsage(db: Db, orgId: string): Promise<SeatUsage> {
  const [used, limit] = await Promise.all([seatsInUse(db, orgId), seatLimit(db, orgId)]);
  return { used, limit };
}

/** GET /orgs/{orgUlid}/seat-usage: a pure read for any member. */
export async function readSeatUsage(ctx: RequestContext): Promise<SeatUsage> {
  authorize(ctx, 'usage.read');
  return seatUsage(prisma(), ctx.org.id);
}

export const seatLimitExceeded = () =>
  new AppError('seat_limit_exceeded', 'The organization has no free seat for another member, admin or owner');

/**
 * Inside a transaction: takes the organization's row lock (every change of seats in use or of
 * the limit takes it first, so the check holds under concurrency), then refuses with 409
 * seat_limit_exceeded unless `additional` more seats fit.
 */
export async function reserveSeats(tx: Db, orgId: string, additional: number): Promise<void> {
  await lockRow(tx, 'organizations', orgId);
  if (additional <= 0) return;
  const { used, limit } = await seatUsage(tx, orgId);
  if (limit !== null && used + additional > limit) throw seatLimitExceeded();
}
