import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { changeSeatsBodySchema, checkoutBodySchema, subscriptionSchema } from '../../src/subscription/subscription.schemas.ts';
import {
  cancelPendingSeatsChange,
  changeSubscriptionSeats,
  checkoutSubscription,
  getSubscription,
} from '../../src/subscription/subscription.service.ts';
import { defineRoute } from '../route.ts';

const readout = { status: 200, description: 'The subscription readout', schema: subscriptionSchema };

export const subscriptionRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/subscription',
    operationId: 'getSubscription',
    summary: "The organization's seat commitment, period and scheduled change (status none before any checkout)",
    tag: 'Subscription',
    auth: 'org',
    orgParam: 'orgUlid',
    openWhileSuspended: true,
    params: orgPathSchema,
    success: readout,
    errors: [403, 404],
    handle: ({ ctx }) => getSubscription(ctx),
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/subscription/checkout',
    operationId: 'checkoutSubscription',
    summary: 'Start a monthly period committing that many seats at once (owner/admin); 409 when a subscription is active',
    tag: 'Subscription',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    body: checkoutBodySchema,
    success: readout,
    errors: [403, 404, 409],
    handle: ({ ctx, body }) => checkoutSubscription(ctx, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{orgUlid}/subscription/seats',
    operationId: 'changeSubscriptionSeats',
    summary: 'Change the committed seats: an increase now, a decrease at period end unless at is now (owner/admin)',
    tag: 'Subscription',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    body: changeSeatsBodySchema,
    success: readout,
    errors: [403, 404, 409],
    handle: ({ ctx, body }) => changeSubscriptionSeats(ctx, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{orgUlid}/subscription/pending-change',
    operationId: 'cancelSubscriptionPendingChange',
    summary: 'Discard the seat change scheduled for period end (owner/admin); 409 when nothing is scheduled',
    tag: 'Subscription',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    success: readout,
    errors: [403, 404, 409],
    handle: ({ ctx }) => cancelPendingSeatsChange(ctx),
  }),
];
