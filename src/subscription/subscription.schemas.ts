import { z } from 'zod';

/** The largest seat commitment accepted (the column is a 32-bit integer; no organization is near it). */
export const MAX_COMMITTED_SEATS = 1_000_000;

const seats = z.int().min(1).max(MAX_COMMITTED_SEATS).meta({ description: 'Committed seats', example: 10 });

export const SEAT_CHANGE_TIMINGS = ['now', 'period_end'] as const;
export type SeatChangeTiming = (typeof SEAT_CHANGE_TIMINGS)[number];

export const checkoutBodySchema = z.strictObject({ seats }).meta({ id: 'SubscriptionCheckoutRequest' });
export type CheckoutInput = z.output<typeof checkoutBodySchema>;

export const changeSeatsBodySchema = z
  .strictObject({
    seats,
    at: z.enum(SEAT_CHANGE_TIMINGS).optional().meta({
      description: 'For a decrease: `period_end` (the default) schedules it, `now` applies it at once. An increase always applies now.',
    }),
  })
  .meta({ id: 'ChangeSubscriptionSeatsRequest' });
export type ChangeSeatsInput = z.output<typeof changeSeatsBodySchema>;

const epochMs = z.number().int();

export const subscriptionSchema = z
  .object({
    plan: z.string(),
    seats: z.int().nullable().meta({ description: 'Committed seats; null before any checkout' }),
    status: z.enum(['active', 'none']),
    currentPeriodStart: epochMs.nullable(),
    currentPeriodEnd: epochMs.nullable(),
    pendingChange: z.object({ seats: z.int(), effectiveAt: epochMs }).nullable(),
    provider: z.string(),
  })
  .meta({ id: 'Subscription' });
export type SubscriptionReadout = z.output<typeof subscriptionSchema>;
