import { validate } from '../../src/kernel/validation.ts';
import {
  changeSeatsBodySchema,
  checkoutBodySchema,
  SEAT_CHANGE_TIMINGS,
  type SubscriptionReadout,
} from '../../src/subscription/subscription.schemas.ts';
import {
  cancelPendingSeatsChange,
  changeSubscriptionSeats,
  checkoutSubscription,
  getSubscription,
} from '../../src/subscription/subscription.service.ts';
import { builder } from '../builder.ts';
import { organizationReaderOf, requestOf } from '../context.ts';

const SubscriptionStatus = builder.enumType('SubscriptionStatus', { values: ['active', 'none'] as const });
const SeatChangeTiming = builder.enumType('SeatChangeTiming', { values: SEAT_CHANGE_TIMINGS });

const PendingSeatChange = builder.objectRef<NonNullable<SubscriptionReadout['pendingChange']>>('PendingSeatChange').implement({
  fields: (t) => ({
    seats: t.exposeInt('seats'),
    effectiveAt: t.field({ type: 'Timestamp', resolve: (change) => new Date(change.effectiveAt) }),
  }),
});

const instant = (ms: number | null) => (ms === null ? null : new Date(ms));

const OrganizationSubscription = builder.objectRef<SubscriptionReadout>('OrganizationSubscription').implement({
  description: 'The seat commitment with the billing provider (status none before any checkout)',
  fields: (t) => ({
    plan: t.exposeString('plan'),
    seats: t.exposeInt('seats', { nullable: true }),
    status: t.expose('status', { type: SubscriptionStatus }),
    currentPeriodStart: t.field({ type: 'Timestamp', nullable: true, resolve: (s) => instant(s.currentPeriodStart) }),
    currentPeriodEnd: t.field({ type: 'Timestamp', nullable: true, resolve: (s) => instant(s.currentPeriodEnd) }),
    pendingChange: t.expose('pendingChange', { type: PendingSeatChange, nullable: true }),
    provider: t.exposeString('provider'),
  }),
});

builder.prismaObjectField('Organization', 'subscription', (t) =>
  t.field({
    type: OrganizationSubscription,
    description: 'The seat commitment, its period and a scheduled change; any member reads it',
    authScopes: { organizationReader: true },
    resolve: (_org, _args, context) => getSubscription(organizationReaderOf(context)),
  }),
);

builder.mutationFields((t) => ({
  checkoutSubscription: t.field({
    type: OrganizationSubscription,
    description: 'Starts a monthly period committing that many seats at once (owner/admin)',
    authScopes: { member: true },
    args: { seats: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => checkoutSubscription(requestOf(context), validate(checkoutBodySchema, args)),
  }),
  changeSubscriptionSeats: t.field({
    type: OrganizationSubscription,
    description: 'An increase applies now; a decrease at period end unless at is now (owner/admin)',
    authScopes: { member: true },
    args: { seats: t.arg.int({ required: true }), at: t.arg({ type: SeatChangeTiming }) },
    resolve: (_root, { seats, at }, context) =>
      changeSubscriptionSeats(requestOf(context), validate(changeSeatsBodySchema, { seats, at: at ?? undefined })),
  }),
  cancelSubscriptionPendingChange: t.field({
    type: OrganizationSubscription,
    description: 'Discards the seat change scheduled for period end (owner/admin)',
    authScopes: { member: true },
    resolve: (_root, _args, context) => cancelPendingSeatsChange(requestOf(context)),
  }),
}));
