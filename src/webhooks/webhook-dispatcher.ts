import http from 'node:http';
import https from 'node:https';
import { emitAudit, SYSTEM_ACTOR, toAuditEventOut } from '../audit/audit.service.ts';
import { backoffDelayMs } from '../backoff.ts';
import type { WebhookSettings } from '../config.ts';
import type { PrismaClient } from '../database/client.ts';
import { inTransaction } from '../database/transactions.ts';
import { logger } from '../logger.ts';
import { startOutboxWorker } from '../outbox/outbox-worker.ts';
import { onWebhookDeliveriesQueued } from './dispatch-signal.ts';
import { guardedLookup, isReachableAddress, literalAddressOf, refusedAddressMessage } from './receiver-address.ts';
import { signatureHeader } from './signature.ts';
import { queryRaw, sql } from '../database/raw-sql.ts';

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

/** Sends one webhook may have under way across all processes: a slow receiver holds no more than this. */
const WEBHOOK_CONCURRENCY = 4;

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
 * run at once, and no webhook gets more than WEBHOOK_CONCURRENCY of them across processes, so one
 * slow receiver cannot hold the others back. The dispatcher looks for work when this process
 * commits deliveries, when a send finishes, and every `pollMs` (retries that fell due, deliveries
 * other processes queued). `stop` waits for the sends under way and claims nothing more.
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
      await record(db, delivery, outcome, attempt, delayMs);
    } catch (error) {
      // Its lease runs out and it is claimed again: at worst the receiver hears it twice, under one webhook-id.
      logger.error({ err: error, deliveryId: delivery.id }, 'the outcome of a webhook delivery could not be recorded');
      return;
    }
    onOutcome(outcome);
    const fields = { deliveryId: delivery.id, attempt: delivery.attempts, outcome, statusCode: attempt.statusCode, reason: attempt.error };
    if (outcome === 'delivered') logger.debug(fields, 'webhook delivered');
    else logger.warn(fields, outcome === 'retry' ? 'webhook delivery failed: it is tried again later' : 'webhook delivery failed: it is not tried again');
  };

  const worker = startOutboxWorker({
    name: 'webhook',
    concurrency: PROCESS_CONCURRENCY,
    pollMs: settings.pollMs,
    claim: (limit) => claim(db, limit, leaseMs),
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
 * Claims up to `limit` due deliveries of active webhooks in one statement, leaving out webhooks
 * that already have WEBHOOK_CONCURRENCY sends under way, and returns each with what its send
 * needs: the receiver, the secrets that sign (the previous one while it still counts), the event.
 * A last attempt whose process died while sending is settled as failed on the way.
 */
async function claim(db: PrismaClient, limit: number, leaseMs: number): Promise<Claimed[]> {
  const rows = await queryRaw<Array<Omit<Claimed, 'event' | 'secrets'> & { secret: string; previousSecret: string | null; event: Record<string, unknown> }>>(db, sql`
    WITH abandoned AS (
      UPDATE webhook_deliveries
      SET status = 'failed', lease_until = NULL, last_error = 'the last attempt did not finish: its process stopped'
      WHERE status = 'pending' AND attempts >= ${MAX_ATTEMPTS} AND lease_until <= now()
    ), due AS (
      SELECT candidate.id, candidate.webhook_id
      FROM webhook_deliveries AS candidate
      JOIN webhooks AS webhook ON webhook.id = candidate.webhook_id AND webhook.active
      WHERE candidate.status = 'pending' AND candidate.next_attempt_at <= now() AND candidate.attempts < ${MAX_ATTEMPTS}
        AND (candidate.lease_until IS NULL OR candidate.lease_until <= now())
        AND (SELECT count(*) FROM webhook_deliveries AS sending
             WHERE sending.webhook_id = candidate.webhook_id AND sending.lease_until > now()) < ${WEBHOOK_CONCURRENCY}
      ORDER BY candidate.next_attempt_at, candidate.id
      LIMIT ${limit}
      FOR UPDATE OF candidate SKIP LOCKED
    ), admitted AS (
      SELECT due.id FROM (
        SELECT due.id, row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.id) AS place, due.webhook_id FROM due
      ) AS due
      WHERE due.place + (SELECT count(*) FROM webhook_deliveries AS sending
                         WHERE sending.webhook_id = due.webhook_id AND sending.lease_until > now()) <= ${WEBHOOK_CONCURRENCY}
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
                'runId', event.run_id, 'metadata', event.metadata, 'createdAt', event.created_at) AS event`);
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
 * and moves the webhook's run of consecutive failures; in the same transaction, the failure that
 * reaches DEACTIVATION_THRESHOLD deactivates the webhook and audits `webhook.disabled` as the
 * system. That event reaches the organization's other webhooks like any other.
 */
async function record(db: PrismaClient, delivery: Claimed, outcome: DeliveryOutcome, attempt: Attempt, delayMs: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [webhook] = await queryRaw<Array<{ id: string; url: string; disabled: boolean; consecutiveFailures: number }>>(tx, sql`
      WITH settled AS (
        UPDATE webhook_deliveries
        SET status = ${outcome === 'retry' ? 'pending' : outcome}, lease_until = NULL,
            last_status_code = ${attempt.statusCode}, last_error = ${attempt.error},
            delivered_at = CASE WHEN ${outcome === 'delivered'} THEN now() END,
            next_attempt_at = now() + ${delayMs}::double precision * interval '1 millisecond'
        WHERE id = ${delivery.id} AND attempts = ${delivery.attempts} AND lease_until IS NOT NULL
        RETURNING webhook_id
      )
      UPDATE webhooks AS webhook
      SET consecutive_failures = CASE WHEN ${outcome === 'delivered'} THEN 0 ELSE webhook.consecutive_failures + 1 END,
          active = webhook.active AND (${outcome === 'delivered'} OR webhook.consecutive_failures + 1 < ${DEACTIVATION_THRESHOLD})
      FROM settled, webhooks AS before
      WHERE webhook.id = settled.webhook_id AND before.id = webhook.id
      RETURNING webhook.id, webhook.url, webhook.consecutive_failures AS "consecutiveFailures",
                (before.active AND NOT webhook.active) AS disabled`);
    if (!webhook?.disabled) return;
    await emitAudit(tx, { identity: SYSTEM_ACTOR, org: { id: delivery.orgId } }, {
      action: 'webhook.disabled',
      entityType: 'webhook',
      entityUlid: webhook.id,
      entityLabel: webhook.url,
      metadata: { consecutiveFailures: webhook.consecutiveFailures, lastError: attempt.error },
    });
  });
}
