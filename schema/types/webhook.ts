import { validate } from '../../src/kernel/validation.ts';
import { createWebhookBodySchema, DELIVERY_STATUSES, updateWebhookBodySchema } from '../../src/webhooks/webhooks.schemas.ts';
import {
  countDeliveries,
  countWebhooks,
  createWebhook,
  deleteWebhook,
  findDeliveries,
  findWebhooks,
  nextAttemptOf,
  redeliver,
  resolveWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookRow,
} from '../../src/webhooks/webhooks.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', { values: DELIVERY_STATUSES });

builder.prismaObject('WebhookDelivery', {
  description: 'One delivery of an audit event to a webhook (its ulid is the webhook-id header)',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    eventUlid: t.exposeString('eventId'),
    action: t.exposeString('action'),
    status: t.field({ type: WebhookDeliveryStatus, resolve: (delivery) => delivery.status as (typeof DELIVERY_STATUSES)[number] }),
    attempts: t.exposeInt('attempts'),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.field({ type: 'Timestamp', nullable: true, description: 'Null unless pending', resolve: nextAttemptOf }),
    deliveredAt: t.expose('deliveredAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
  }),
});

const Webhook = builder.prismaObject('Webhook', {
  description: 'A subscription of a receiver to audit events; its secret is shown only by createWebhook and rotateWebhookSecret',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events'),
    description: t.exposeString('description', { nullable: true }),
    active: t.exposeBoolean('active'),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    deliveries: t.prismaConnection(
      {
        type: 'WebhookDelivery',
        cursor: 'id',
        description: 'Deliveries, newest first',
        authScopes: { member: true },
        args: { status: t.arg({ type: WebhookDeliveryStatus, description: 'Only deliveries in this status' }) },
        resolve: (query, webhook, args, context) => findDeliveries(requestOf(context), webhook, orUndefined(args.status), query),
        totalCount: (webhook, args, context) => countDeliveries(requestOf(context), webhook, orUndefined(args.status)),
      },
      {},
      {},
    ),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

const WebhookWithSecret = builder.objectRef<{ webhook: WebhookRow; secret: string }>('WebhookWithSecret').implement({
  description: 'A webhook and its new signing secret, shown only here',
  fields: (t) => ({
    webhook: t.field({ type: Webhook, resolve: (payload) => payload.webhook }),
    secret: t.exposeString('secret'),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  webhooks: t.prismaConnection(
    {
      type: 'Webhook',
      cursor: 'id',
      description: 'Webhooks of the organization, oldest first (owner, admin)',
      authScopes: { member: true },
      resolve: (query, _org, _args, context) => findWebhooks(requestOf(context), query),
      totalCount: (_org, _args, context) => countWebhooks(requestOf(context)),
    },
    {},
    {},
  ),
}));

builder.queryFields((t) => ({
  webhook: t.prismaField({
    type: 'Webhook',
    nullable: true,
    description: 'A webhook by ULID (owner, admin); an unknown one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveWebhook(requestOf(context), args.ulid),
  }),
}));

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    events: t.stringList({ required: true, description: '`*`, actions, or prefixes such as `run.*`' }),
    description: t.string(),
    active: t.boolean(),
  }),
});

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  description:
    'At least one field; description takes null to clear; active: true also resets consecutiveFailures and sends one delivery at a time until one succeeds',
  fields: (t) => ({ url: t.string(), events: t.stringList(), description: t.string(), active: t.boolean() }),
});

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookWithSecret,
    description: 'Subscribe a receiver to audit events (owner/admin)',
    authScopes: { member: true },
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, { input }, context) =>
      createWebhook(
        requestOf(context),
        validate(createWebhookBodySchema, {
          url: input.url,
          events: input.events,
          description: input.description,
          active: orUndefined(input.active),
        }),
      ),
  }),
  updateWebhook: t.prismaField({
    type: 'Webhook',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateWebhook(
        requestOf(context),
        ulid,
        validate(updateWebhookBodySchema, {
          url: orUndefined(input.url),
          events: orUndefined(input.events),
          description: input.description,
          active: orUndefined(input.active),
        }),
      ),
  }),
  deleteWebhook: t.boolean({
    description: 'Deletes the webhook with its deliveries (owner/admin)',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteWebhook(requestOf(context), ulid);
      return true;
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookWithSecret,
    description: 'A new signing secret; the previous one keeps signing next to it for 24 hours (owner/admin)',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_root, { ulid }, context) => rotateWebhookSecret(requestOf(context), ulid),
  }),
  redeliverWebhookDelivery: t.prismaField({
    type: 'WebhookDelivery',
    description: "Queues a delivery's event again as a new pending delivery (owner/admin)",
    authScopes: { member: true },
    args: { webhookUlid: t.arg.string({ required: true }), deliveryUlid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { webhookUlid, deliveryUlid }, context) => redeliver(requestOf(context), webhookUlid, deliveryUlid),
  }),
}));
