import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change, changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { settings } from '../kernel/config.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { afterCommit, inTransaction } from '../kernel/database/transactions.ts';
import { fromValidationIssues, notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { wakeWebhookDispatchers } from './dispatch-signal.service.ts';
import { refusedAddressMessage, refusedAddressOf } from './receiver-address.ts';
import { newWebhookSecret } from './signature.ts';
import {
  type CreateWebhookInput,
  type DeliveryListQuery,
  type DeliveryStatus,
  type UpdateWebhookInput,
  WEBHOOKS_PER_ORGANIZATION,
} from './webhooks.schemas.ts';

/** How long a rotated-out secret keeps signing next to the new one. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export type WebhookRow = Awaited<ReturnType<Db['webhook']['findFirstOrThrow']>>;
type DeliveryRow = Awaited<ReturnType<Db['webhookDelivery']['findFirstOrThrow']>>;

/** A webhook as answered; its secrets never are, except the new one of a create or a rotation. */
export const toWebhook = (row: WebhookRow) => ({
  ulid: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  active: row.active,
  consecutiveFailures: row.consecutiveFailures,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

/** When a delivery's next attempt is due: only a pending delivery has one. */
export const nextAttemptOf = (row: DeliveryRow) => (row.status === 'pending' ? row.nextAttemptAt : null);

export const toDelivery = (row: DeliveryRow) => ({
  ulid: row.id,
  eventUlid: row.eventId,
  action: row.action,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: nextAttemptOf(row)?.getTime() ?? null,
  deliveredAt: row.deliveredAt?.getTime() ?? null,
  createdAt: row.createdAt.getTime(),
});

const WEBHOOK_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.WebhookOrderByWithRelationInput[];
const DELIVERY_ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.WebhookDeliveryOrderByWithRelationInput[];

const webhookEvent = (webhook: { id: string; url: string }) => ({
  entityType: 'webhook',
  entityUlid: webhook.id,
  entityLabel: webhook.url,
});

/**
 * Refuses a receiver whose host resolves to a loopback, link-local or private address (unless
 * TCMS_WEBHOOKS_ALLOW_PRIVATE), and one whose host does not resolve: 422 on `url`.
 */
async function assertReachableReceiver(url: string): Promise<void> {
  const parsed = new URL(url);
  const refused = await refusedAddressOf(parsed, settings().webhooks.allowPrivate).catch(() => {
    throw fromValidationIssues([{ path: ['url'], message: `${parsed.hostname} does not resolve to an address` }]);
  });
  if (refused) throw fromValidationIssues([{ path: ['url'], message: refusedAddressMessage(parsed.hostname, refused) }]);
}

/** A webhook of the active organization (owner/admin), or 404. */
export async function resolveWebhook(ctx: RequestContext, webhookUlid: string): Promise<WebhookRow> {
  authorize(ctx, 'webhook.manage');
  const webhook = await ctx.db.webhook.findFirst({ where: { id: webhookUlid } });
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

/** The webhook locked until `tx` ends (its changes and rotations go one at a time), or 404. */
async function lockWebhook(tx: Db, ctx: RequestContext, webhookUlid: string): Promise<WebhookRow> {
  if (!(await lockRow(tx, 'webhooks', webhookUlid, { orgId: ctx.org.id }))) throw notFound('Webhook');
  return tx.webhook.findFirstOrThrow({ where: { id: webhookUlid } });
}

/**
 * POST /orgs/{orgUlid}/webhooks (owner/admin): at most WEBHOOKS_PER_ORGANIZATION per
 * organization, counted under the organization's row lock. Answers the webhook and its secret.
 */
export async function createWebhook(ctx: RequestContext, input: CreateWebhookInput): Promise<{ webhook: WebhookRow; secret: string }> {
  authorize(ctx, 'webhook.manage');
  await assertReachableReceiver(input.url);
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    if ((await tx.webhook.count()) >= WEBHOOKS_PER_ORGANIZATION) {
      throw validationFailed(`An organization has at most ${WEBHOOKS_PER_ORGANIZATION} webhooks; delete one first`, {
        limit: WEBHOOKS_PER_ORGANIZATION,
      });
    }
    const secret = newWebhookSecret();
    const webhook = await tx.webhook.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        active: input.active ?? true,
        secret,
      },
    });
    await emitAudit(tx, ctx, {
      action: 'webhook.created',
      ...webhookEvent(webhook),
      metadata: { url: webhook.url, events: webhook.events, description: webhook.description, active: webhook.active },
    });
    return { webhook, secret };
  });
}

/** GET /orgs/{orgUlid}/webhooks (owner/admin): oldest first. */
export async function listWebhooks(ctx: RequestContext, query: PageQuery) {
  authorize(ctx, 'webhook.manage');
  const [rows, total] = await Promise.all([
    ctx.db.webhook.findMany({ orderBy: WEBHOOK_ORDER, ...pageWindow(query) }),
    ctx.db.webhook.count(),
  ]);
  return pageOf(rows.map(toWebhook), query, total);
}

/** Webhooks for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findWebhooks(ctx: RequestContext, window: Prisma.WebhookFindManyArgs) {
  authorize(ctx, 'webhook.manage');
  return ctx.db.webhook.findMany({ ...window, orderBy: WEBHOOK_ORDER });
}

export async function countWebhooks(ctx: RequestContext) {
  authorize(ctx, 'webhook.manage');
  return ctx.db.webhook.count();
}

const sameEvents = (a: string[], b: string[]) => a.length === b.length && a.every((pattern, index) => pattern === b[index]);

/** The `changes` of a PATCH: the scalars as they are, the events as one comma-separated text. */
function webhookChanges(before: WebhookRow, input: UpdateWebhookInput): Change[] {
  const changes = changesBetween(
    { url: before.url, description: before.description, active: before.active },
    {
      url: input.url,
      description: input.description,
      active: input.active,
    },
  );
  if (input.events && !sameEvents(before.events, input.events))
    changes.push(change('events', before.events.join(', '), input.events.join(', ')));
  return changes;
}

/**
 * PATCH /orgs/{orgUlid}/webhooks/{ulid} (owner/admin): a new url is checked like on create;
 * reactivating (`active: true` on an inactive webhook) starts its failure count again from 0 and
 * its circuit breaker probing: one delivery at a time until one succeeds (the dispatcher's
 * `record`). Unchanged values record nothing.
 */
export async function updateWebhook(ctx: RequestContext, webhookUlid: string, input: UpdateWebhookInput): Promise<WebhookRow> {
  authorize(ctx, 'webhook.manage');
  if (input.url !== undefined) await assertReachableReceiver(input.url);
  return inTransaction(ctx.db, async (tx) => {
    const before = await lockWebhook(tx, ctx, webhookUlid);
    const changes = webhookChanges(before, input);
    if (changes.length === 0) return before;
    const reactivated = input.active === true && !before.active;
    const updated = await tx.webhook.update({
      where: { id: before.id },
      data: {
        url: input.url,
        events: input.events,
        description: input.description,
        active: input.active,
        ...(reactivated ? { consecutiveFailures: 0, breakerCooldownMs: 0, breakerHeldUntil: null } : {}),
        updatedAt: new Date(),
      },
    });
    await emitAudit(tx, ctx, { action: 'webhook.updated', ...webhookEvent(updated), metadata: { changes } });
    return updated;
  });
}

/**
 * POST /orgs/{orgUlid}/webhooks/{ulid}/rotate-secret (owner/admin): a new secret; the one it
 * replaces keeps signing next to it for 24 hours (a secret rotated out before is dropped).
 */
export async function rotateWebhookSecret(ctx: RequestContext, webhookUlid: string): Promise<{ webhook: WebhookRow; secret: string }> {
  authorize(ctx, 'webhook.manage');
  return inTransaction(ctx.db, async (tx) => {
    const before = await lockWebhook(tx, ctx, webhookUlid);
    const secret = newWebhookSecret();
    const now = new Date();
    const webhook = await tx.webhook.update({
      where: { id: before.id },
      data: {
        secret,
        previousSecret: before.secret,
        previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        updatedAt: now,
      },
    });
    await emitAudit(tx, ctx, { action: 'webhook.updated', ...webhookEvent(webhook), metadata: { secretRotated: true } });
    return { webhook, secret };
  });
}

/** DELETE /orgs/{orgUlid}/webhooks/{ulid} (owner/admin): its deliveries, sent or not, go with it. */
export async function deleteWebhook(ctx: RequestContext, webhookUlid: string): Promise<void> {
  authorize(ctx, 'webhook.manage');
  await inTransaction(ctx.db, async (tx) => {
    const webhook = await lockWebhook(tx, ctx, webhookUlid);
    await tx.webhook.delete({ where: { id: webhook.id } });
    await emitAudit(tx, ctx, {
      action: 'webhook.deleted',
      ...webhookEvent(webhook),
      metadata: { url: webhook.url, events: webhook.events, description: webhook.description },
    });
  });
}

const deliveriesWhere = (webhook: { id: string }, status: DeliveryStatus | undefined): Prisma.WebhookDeliveryWhereInput => ({
  webhookId: webhook.id,
  ...(status ? { status } : {}),
});

/** GET /orgs/{orgUlid}/webhooks/{ulid}/deliveries (owner/admin): newest first, optionally of one status. */
export async function listDeliveries(ctx: RequestContext, webhookUlid: string, query: DeliveryListQuery) {
  const webhook = await resolveWebhook(ctx, webhookUlid);
  const where = deliveriesWhere(webhook, query.status);
  const [rows, total] = await Promise.all([
    ctx.db.webhookDelivery.findMany({ where, orderBy: DELIVERY_ORDER, ...pageWindow(query) }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  return pageOf(rows.map(toDelivery), query, total);
}

/** Deliveries of a webhook for a GraphQL connection. */
export async function findDeliveries(
  ctx: RequestContext,
  webhook: { id: string },
  status: DeliveryStatus | undefined,
  window: Prisma.WebhookDeliveryFindManyArgs,
) {
  authorize(ctx, 'webhook.manage');
  return ctx.db.webhookDelivery.findMany({ ...window, where: deliveriesWhere(webhook, status), orderBy: DELIVERY_ORDER });
}

export async function countDeliveries(ctx: RequestContext, webhook: { id: string }, status: DeliveryStatus | undefined) {
  authorize(ctx, 'webhook.manage');
  return ctx.db.webhookDelivery.count({ where: deliveriesWhere(webhook, status) });
}

/**
 * POST …/deliveries/{deliveryUlid}/redeliver (owner/admin): a new pending delivery (a new
 * webhook-id) of the same event, due at once; the dispatchers are woken after commit. Not audited.
 */
export async function redeliver(ctx: RequestContext, webhookUlid: string, deliveryUlid: string): Promise<DeliveryRow> {
  const webhook = await resolveWebhook(ctx, webhookUlid);
  return inTransaction(ctx.db, async (tx) => {
    const original = await tx.webhookDelivery.findFirst({ where: { id: deliveryUlid, webhookId: webhook.id } });
    if (!original) throw notFound('Webhook delivery');
    const delivery = await tx.webhookDelivery.create({
      data: { id: newId(), orgId: ctx.org.id, webhookId: original.webhookId, eventId: original.eventId, action: original.action },
    });
    afterCommit(tx, wakeWebhookDispatchers);
    return delivery;
  });
}
