import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import {
  createWebhookBodySchema,
  deliveryListQuerySchema,
  deliveryPathSchema,
  updateWebhookBodySchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookListQuerySchema,
  webhookPageSchema,
  webhookPathSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../src/webhooks/webhooks.schemas.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  resolveWebhook,
  rotateWebhookSecret,
  toDelivery,
  toWebhook,
  updateWebhook,
  type WebhookRow,
} from '../../src/webhooks/webhooks.service.ts';
import { defineRoute, Reply } from '../route.ts';

const tag = 'Webhooks';
const common = { tag, auth: 'org', orgParam: 'orgUlid' } as const;

/** The answer of a create or a rotation: the only ones that show the secret. */
const withSecret = ({ webhook, secret }: { webhook: WebhookRow; secret: string }) => ({ ...toWebhook(webhook), secret });

export const webhookRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    path: '/orgs/{orgUlid}/webhooks',
    operationId: 'createWebhook',
    summary: 'Subscribe a receiver to audit events; the answer is the only one that shows its secret (owner/admin)',
    params: orgPathSchema,
    body: createWebhookBodySchema,
    success: { status: 201, description: 'The webhook with its secret', schema: webhookWithSecretSchema },
    errors: [403, 404],
    handle: async ({ ctx, body }) => new Reply(201, withSecret(await createWebhook(ctx, body))),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/orgs/{orgUlid}/webhooks',
    operationId: 'listWebhooks',
    summary: 'Webhooks of the organization, oldest first (owner/admin)',
    params: orgPathSchema,
    query: webhookListQuerySchema,
    success: { status: 200, description: 'A page of webhooks', schema: webhookPageSchema },
    errors: [403, 404],
    handle: ({ ctx, query }) => listWebhooks(ctx, query),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}',
    operationId: 'getWebhook',
    summary: 'One webhook (owner/admin)',
    params: webhookPathSchema,
    success: { status: 200, description: 'The webhook', schema: webhookSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toWebhook(await resolveWebhook(ctx, params.webhookUlid)),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}',
    operationId: 'updateWebhook',
    summary: 'Change a webhook; reactivating it resets its failure count (owner/admin)',
    params: webhookPathSchema,
    body: updateWebhookBodySchema,
    success: { status: 200, description: 'The webhook', schema: webhookSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toWebhook(await updateWebhook(ctx, params.webhookUlid, body)),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook with its deliveries (owner/admin)',
    params: webhookPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteWebhook(ctx, params.webhookUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret; the previous one keeps signing next to it for 24 hours (owner/admin)',
    params: webhookPathSchema,
    success: { status: 200, description: 'The webhook with its new secret', schema: webhookWithSecretSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => withSecret(await rotateWebhookSecret(ctx, params.webhookUlid)),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'Deliveries of a webhook, newest first (owner/admin)',
    params: webhookPathSchema,
    query: deliveryListQuerySchema,
    success: { status: 200, description: 'A page of deliveries', schema: webhookDeliveryPageSchema },
    errors: [403, 404],
    handle: ({ ctx, params, query }) => listDeliveries(ctx, params.webhookUlid, query),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/orgs/{orgUlid}/webhooks/{webhookUlid}/deliveries/{deliveryUlid}/redeliver',
    operationId: 'redeliverWebhookDelivery',
    summary: "Queue a delivery's event again as a new delivery (owner/admin)",
    params: deliveryPathSchema,
    success: { status: 202, description: 'The new delivery, pending', schema: webhookDeliverySchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => new Reply(202, toDelivery(await redeliver(ctx, params.webhookUlid, params.deliveryUlid))),
  }),
];
