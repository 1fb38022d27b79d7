import http from 'node:http';
import https from 'node:https';
import { emitAudit, SYSTEM_ACTOR, toAuditEventOut } from '../foundation/audit/audit.service.ts';
import { startOutboxWorker } from '../foundation/outbox/outbox-worker.ts';
import { backoffDelayMs } from '../kernel/backoff.ts';
import type { WebhookSettings } from '../kernel/config.ts';
import type { PrismaClient } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { logger } from '../kernel/logger.ts';
import { onWebhookDeliveriesQueued } from './dispatch-signal.service.ts';
import { guardedLookup, isReachableAddress, literalAddressOf, refusedAddressMessage } from './receiver-address.ts';
import { signatureHeader } from './signature.ts';

/** Attempts of one delivery in all: after the last failure it is `failed`. */
export const MAX_ATTEMPTS = 8;

/** Consecutive failed attempts after which a webhook is deactivated (`webhook.disabled`). */
export const DEACTIVATION_THRESHOLD = 20;

/** How long the log of a settled delivery (delivered or failed) is kept; the maintenance sweep deletes it then. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Each later retry waits this many times longer than the one before (8 attempts span about a day). */
const BACKOFF_GROWTH = 4;

/** Sends one process runs side by side. */
const PROCESS_CONCURRENCY = 16;

/** Of a process's sends, those one organization may hold at once: the other organizations always find slots free. */
export const ORGANIZATION_SLOTS = 4;

/** Sends one webhook may have under way across all processes: a slow receiver holds no more than this. */
export const WEBHOOK_CONCURRENCY = 2;

/** Consecutive failed attempts that open a webhook's circuit breaker: its deliveries are held back for a cool-down. */
export const BREAKER_THRESHOLD = 3;

/** The longest cool-down of a breaker, as a multiple of the first (TCMS_WEBHOOK_COOLDOWN_MS). */
const LONGEST_COOLDOWN = 32;

/** How much of a receiver's answer is read (and dropped) before the connection is let go. */
const ANSWER_BYTES = 64 * 1024;

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export type WebhookDispatcher = { stop(): Promise<void> };

type Claimed = {
  id: string;
  attempts: number;
  url: string;
  secrets: string[];
  orgId: string;
  event: Parameters<typeof toAuditEventOut>[0];
};

type Attempt = { statusCode: number | null; error: string | null };

/**
 * Starts the webhook dispatcher of this process; every server process runs one on the
 * `webhook_deliveries` outbox they share (an outbox worker). A due delivery is claimed (FOR UPDATE
 * SKIP LOCKED: one attempt more and a lease) before it is sent, outside any transaction, and its
 * outcome is recorded only while the claim is still this dispatcher's; a delivery whose process
 * died while sending is claimed again once its lease has run out. Up to PROCESS_CONCURRENCY sends
 * run at once, an organization holds at most ORGANIZATION_SLOTS of them, and no webhook gets more
 * than WEBHOOK_CONCURRENCY across processes (one while its breaker probes), so receivers that
 * hang cannot hold the others back. The dispatcher looks for work when this process commits
 * deliveries, when a send finishes, and every `pollMs` (retries that fell due, deliveries other
 * processes queued, cool-downs that ended). `stop` waits for the sends under way and claims
 * nothing more.
 */
export function startWebhookDispatcher(
  settings: WebhookSettings,
  db: PrismaClient,
  onOutcome: (outcome: DeliveryOutcome) => void = () => {},
): WebhookDispatcher {
  const leaseMs = 2 * settings.timeoutMs + 1_000;

  const deliver = async (delivery: Claimed) => {
    const attempt = await post(delivery, settings).catch((error: Error): Attempt => ({ statusCode: null, error: error.message }));
    const outcome: DeliveryOutcome = attempt.error === null ? 'delivered' : delivery.attempts >= MAX_ATTEMPTS ? 'failed' : 'retry';
    const delayMs = outcome === 'retry' ? backoffDelayMs(settings.retryBaseMs, BACKOFF_GROWTH, delivery.attempts) : 0;
    try {
      await record(db, delivery, outcome, attempt, delayMs, settings.cooldownMs);
    } catch (error) {
      // Its lease runs out and it is claimed again: at worst the receiver hears it twice, under one webhook-id.
      logger.error({ err: error, deliveryId: delivery.id }, 'the outcome of a webhook delivery could not be recorded');
      return;
    }
    onOutcome(outcome);
    const fields = { deliveryId: delivery.id, attempt: delivery.attempts, outcome, statusCode: attempt.statusCode, reason: attempt.error };
    if (outcome === 'delivered') logger.debug(fields, 'webhook delivered');
    else
      logger.warn(
        fields,
        outcome === 'retry' ? 'webhook delivery failed: it is tried again later' : 'webhook delivery failed: it is not tried again',
      );
  };

  const worker = startOutboxWorker({
    name: 'webhook',
    concurrency: PROCESS_CONCURRENCY,
    pollMs: settings.pollMs,
    tenantOf: (delivery) => delivery.orgId,
    claim: (limit, held) => claim(db, limit, held, leaseMs),
    process: deliver,
  });
  const unregister = onWebhookDeliveriesQueued(worker.wake);
  return {
    stop: async () => {
      unregister();
      await worker.stop();
    },
  };
}

/**
 * Claims up to `limit` due deliveries in one statement and returns each with what its send needs:
 * the receiver, the secrets that sign (the previous one while it still counts), the event. Only
 * webhooks that are active, whose breaker holds nothing back, and that have fewer sends under way
 * than they may (WEBHOOK_CONCURRENCY, one while probing) are served, and an organization gets no
 * more than ORGANIZATION_SLOTS less the slots it `held` in this process already; the oldest due
 * come first. A last attempt whose process died while sending is settled as failed on the way.
 */
async function claim(db: PrismaClient, limit: number, held: ReadonlyMap<string, number>, leaseMs: number): Promise<Claimed[]> {
  const rows = await queryRaw<
    Array<Omit<Claimed, 'event' | 'secrets'> & { secret: string; previousSecret: string | null; event: Record<string, unknown> }>
  >(
    db,
    sql`
    WITH abandoned AS (
      UPDATE webhook_deliveries
      SET status = 'failed', lease_until = NULL, last_error = 'the last attempt did not finish: its process stopped'
      WHERE status = 'pending' AND attempts >= ${MAX_ATTEMPTS} AND lease_until <= now()
    ), sending AS (
      SELECT sending.webhook_id, count(*) AS sends FROM webhook_deliveries AS sending
      WHERE sending.lease_until > now()
      GROUP BY sending.webhook_id
    ), held AS (
      SELECT * FROM unnest(${[...held.keys()]}::text[], ${[...held.values()]}::int[]) AS held (org_id, slots)
    ), due AS (
      SELECT candidate.id, candidate.webhook_id, candidate.org_id, candidate.next_attempt_at, room.webhook_room, room.organization_room
      FROM webhook_deliveries AS candidate
      JOIN webhooks AS webhook ON webhook.id = candidate.webhook_id
      LEFT JOIN sending ON sending.webhook_id = candidate.webhook_id
      LEFT JOIN held ON held.org_id = candidate.org_id
      CROSS JOIN LATERAL (
        SELECT CASE WHEN webhook.breaker_cooldown_ms IS NULL THEN ${WEBHOOK_CONCURRENCY} ELSE 1 END - coalesce(sending.sends, 0) AS webhook_room,
               ${ORGANIZATION_SLOTS} - coalesce(held.slots, 0) AS organization_room
      ) AS room
      WHERE candidate.status = 'pending' AND candidate.next_attempt_at <= now() AND candidate.attempts < ${MAX_ATTEMPTS}
        AND (candidate.lease_until IS NULL OR candidate.lease_until <= now())
        AND webhook.active AND (webhook.breaker_held_until IS NULL OR webhook.breaker_held_until <= now())
        AND room.webhook_room > 0 AND room.organization_room > 0
      ORDER BY candidate.next_attempt_at, candidate.id
      LIMIT ${limit}
      FOR UPDATE OF candidate SKIP LOCKED
    ), within_webhook AS (
      SELECT due.id, due.org_id, due.next_attempt_at, due.organization_room FROM (
        SELECT due.*, row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.next_attempt_at, due.id) AS place FROM due
      ) AS due
      WHERE due.place <= due.webhook_room
    ), admitted AS (
      SELECT admitted.id FROM (
        SELECT within_webhook.*, row_number() OVER (PARTITION BY within_webhook.org_id ORDER BY within_webhook.next_attempt_at, within_webhook.id) AS place
        FROM within_webhook
      ) AS admitted
      WHERE admitted.place <= admitted.organization_room
    )
    UPDATE webhook_deliveries AS delivery
    SET attempts = delivery.attempts + 1,
        lease_until = now() + ${leaseMs}::double precision * interval '1 millisecond'
    FROM admitted, webhooks AS webhook, audit_events AS event
    WHERE delivery.id = admitted.id AND webhook.id = delivery.webhook_id AND event.id = delivery.event_id
    RETURNING delivery.id, delivery.attempts, delivery.org_id AS "orgId", webhook.url, webhook.secret,
              CASE WHEN webhook.previous_secret_until > now() THEN webhook.previous_secret END AS "previousSecret",
              json_build_object(
                'id', event.id, 'action', event.action, 'actorKind', event.actor_kind, 'actorUserId', event.actor_user_id,
                'actorTokenId', event.actor_token_id, 'actorEmail', event.actor_email, 'actorName', event.actor_name,
                'entityType', event.entity_type, 'entityUlid', event.entity_ulid, 'entityLabel', event.entity_label,
                'runId', event.run_id, 'metadata', event.metadata, 'createdAt', event.created_at) AS event`,
  );
  return rows.map(({ secret, previousSecret, event, ...delivery }) => ({
    ...delivery,
    secrets: previousSecret ? [secret, previousSecret] : [secret],
    event: { ...event, createdAt: new Date(event.createdAt as string) } as Claimed['event'],
  }));
}

/**
 * Posts the delivery's body to its receiver, signed, and waits at most `timeoutMs` for the whole
 * answer; a 2xx is a delivery. The receiver's address is checked on the addresses the connection
 * uses (after DNS resolution), so it is refused even if its name was pointed inward after saving.
 */
async function post(delivery: Claimed, settings: WebhookSettings): Promise<Attempt> {
  const url = new URL(delivery.url);
  const literal = literalAddressOf(url);
  if (literal && !isReachableAddress(literal, settings.allowPrivate)) {
    return { statusCode: null, error: refusedAddressMessage(url.hostname, literal) };
  }
  const event = toAuditEventOut(delivery.event);
  const body = JSON.stringify({ type: event.action, timestamp: event.createdAt, organizationUlid: delivery.orgId, data: event });
  const timestamp = Math.floor(Date.now() / 1000);
  const request = (url.protocol === 'https:' ? https : http).request(url, {
    method: 'POST',
    lookup: guardedLookup(settings.allowPrivate),
    signal: AbortSignal.timeout(settings.timeoutMs),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'tcms-webhooks',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(delivery.secrets, delivery.id, timestamp, body),
    },
  });
  return new Promise<Attempt>((resolve) => {
    request.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? `no answer within ${settings.timeoutMs} ms`
          : error.name === 'RefusedAddressError'
            ? error.message
            : `${error.code ?? error.name}: ${error.message}`;
      resolve({ statusCode: null, error: reason });
    });
    request.once('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_BYTES) response.destroy();
      });
      const settle = () => {
        const statusCode = response.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({ statusCode, error: ok ? null : `the receiver answered ${statusCode}` });
      };
      response.once('end', settle);
      response.once('close', settle);
    });
    request.end(body);
  });
}

/**
 * Records the outcome of an attempt while the claim is still ours (same attempt, still leased),
 * and moves the webhook's run of consecutive failures and its circuit breaker: a success closes
 * the breaker; a failure that makes BREAKER_THRESHOLD in a row opens a closed one, holding the
 * deliveries back for `cooldownMs`; a failed probe (a send once the hold had passed, or the first
 * after a re-activation) holds them back again for twice the last cool-down, up to
 * LONGEST_COOLDOWN times the first; a failure while they are held back is of a send that was
 * under way when the breaker opened, and changes nothing. In the same transaction, the failure
 * that reaches DEACTIVATION_THRESHOLD deactivates the webhook and audits `webhook.disabled` as
 * the system. That event reaches the organization's other webhooks like any other.
 */
async function record(
  db: PrismaClient,
  delivery: Claimed,
  outcome: DeliveryOutcome,
  attempt: Attempt,
  delayMs: number,
  cooldownMs: number,
): Promise<void> {
  const delivered = outcome === 'delivered';
  await inTransaction(db, async (tx) => {
    const [webhook] = await queryRaw<Array<{ id: string; url: string; disabled: boolean; consecutiveFailures: number }>>(
      tx,
      sql`
      WITH settled AS (
        UPDATE webhook_deliveries
        SET status = ${outcome === 'retry' ? 'pending' : outcome}, lease_until = NULL,
            last_status_code = ${attempt.statusCode}, last_error = ${attempt.error},
            delivered_at = CASE WHEN ${delivered} THEN now() END,
            next_attempt_at = now() + ${delayMs}::double precision * interval '1 millisecond'
        WHERE id = ${delivery.id} AND attempts = ${delivery.attempts} AND lease_until IS NOT NULL
        RETURNING webhook_id
      )
      UPDATE webhooks AS webhook
      SET consecutive_failures = CASE WHEN ${delivered} THEN 0 ELSE webhook.consecutive_failures + 1 END,
          active = webhook.active AND (${delivered} OR webhook.consecutive_failures + 1 < ${DEACTIVATION_THRESHOLD}),
          breaker_cooldown_ms = CASE WHEN breaker.held_back THEN before.breaker_cooldown_ms ELSE breaker.cooldown_ms END,
          breaker_held_until = CASE WHEN breaker.held_back THEN before.breaker_held_until
                                    ELSE now() + breaker.cooldown_ms * interval '1 millisecond' END
      FROM settled, webhooks AS before, LATERAL (
        SELECT NOT ${delivered} AND before.breaker_held_until > now() AS held_back, CASE
          WHEN ${delivered} THEN NULL
          WHEN before.breaker_cooldown_ms IS NOT NULL
            THEN least(greatest(2 * before.breaker_cooldown_ms, ${cooldownMs}::int), ${cooldownMs * LONGEST_COOLDOWN}::int)
          WHEN before.consecutive_failures + 1 >= ${BREAKER_THRESHOLD} THEN ${cooldownMs}::int
        END AS cooldown_ms
      ) AS breaker
      WHERE webhook.id = settled.webhook_id AND before.id = webhook.id
      RETURNING webhook.id, webhook.url, webhook.consecutive_failures AS "consecutiveFailures",
                (before.active AND NOT webhook.active) AS disabled`,
    );
    if (!webhook?.disabled) return;
    await emitAudit(
      tx,
      { identity: SYSTEM_ACTOR, org: { id: delivery.orgId } },
      {
        action: 'webhook.disabled',
        entityType: 'webhook',
        entityUlid: webhook.id,
        entityLabel: webhook.url,
        metadata: { consecutiveFailures: webhook.consecutiveFailures, lastError: attempt.error },
      },
    );
  });
}
