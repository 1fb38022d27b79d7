/**
 * The raw floor of the live measures (bench/live.ts), straight to the database (a pg Pool or
 * PGlite in this process; no HTTP server, no Prisma):
 *
 * - webhooks: the bulk-mark transaction of bench/raw-runs.ts, whose event is written the way
 *   emitAudit writes it, the event and its delivery rows in one statement (one active webhook:
 *   one row); after commit, a POST of the same body ({ type, timestamp, organizationUlid, data })
 *   signed as the dispatcher signs it (Standard Webhooks: HMAC-SHA256 over `id.timestamp.body`)
 *   to the same receiver, then the delivery row UPDATEd as delivered. Each client does its calls
 *   one after the other, as the service's clients do.
 * - progress: the mark statements of bench/raw-runs.ts, then NOTIFY (pg_notify, after commit, as
 *   the service publishes a run's change) heard by one LISTEN session — a pg client on
 *   PostgreSQL, PGlite's own listen() in this process — and handed to LIVE_STREAMS listeners.
 *
 * What the floor leaves out is the service's own work: HTTP, validation, authorization, the
 * dispatcher's claim and lease, its outcome bookkeeping, the progress read and SSE framing of
 * each stream.
 */
import http from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { signatureHeader } from '../src/webhooks/signature.ts';
import {
  type Arrival,
  alternatingStatus,
  LIVE_STREAMS,
  type LiveFixture,
  measureProgress,
  measureWebhooks,
  type ProgressFigures,
  type Receiver,
  type WebhookFigures,
} from './live.ts';
import type { Sql } from './raw.ts';
import { bulkMarkRun, markRunCase, type RunsActor, type WriteEvent } from './raw-runs.ts';
import { type BenchRun, elapsedOf } from './runs.ts';
import type { Counts } from './test-design.ts';

/** emitAudit's statement: the event, one delivery per matching active webhook, and the run's plan. */
const EVENT_WITH_DELIVERIES = `WITH event AS (
    INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                              entity_type, entity_ulid, entity_label, run_id, origin_run_id, metadata, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13::jsonb, $14)
    RETURNING id, org_id, action
  ), deliveries AS (
    INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_id, action)
    SELECT tcms_ulid(), event.org_id, webhook.id, event.id, event.action
    FROM event JOIN webhooks AS webhook ON webhook.org_id = event.org_id AND webhook.active
    WHERE EXISTS (SELECT 1 FROM unnest(webhook.events) AS pattern WHERE pattern = '*' OR pattern = event.action
      OR (right(pattern, 2) = '.*' AND starts_with(event.action, left(pattern, -1))))
    RETURNING id
  )
  SELECT (SELECT array_agg(id) FROM deliveries) AS "deliveryIds",
         (SELECT plan_id FROM test_runs WHERE id = $12) AS "planId"`;

const MARK_DELIVERED = `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, lease_until = NULL,
  last_status_code = $2, last_error = NULL, delivered_at = now() WHERE id = $1`;

const POST_TIMEOUT_MS = 10_000;

/** The event's parameters (raw-runs' auditRow order) as AuditEventOut, the body's `data`. */
function eventOut(event: unknown[]) {
  const [ulid, , action, , , actorTokenId, , actorName, entityType, entityUlid, entityLabel, runUlid, metadata, createdAt] = event as [
    string,
    string,
    string,
    string,
    null,
    string,
    null,
    string,
    string,
    string,
    string,
    string,
    string,
    Date,
  ];
  return {
    ulid,
    action,
    actor: { kind: 'api_token' as const, ulid: actorTokenId, name: actorName },
    entityType,
    entityUlid,
    entityLabel,
    runUlid,
    metadata: JSON.parse(metadata) as unknown,
    createdAt: createdAt.getTime(),
  };
}

/** POSTs `body` signed with `secret` under the delivery's id; resolves with the 2xx status code, else rejects. */
function postSigned(url: string, secret: string, deliveryId: string, body: string): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'tcms-webhooks',
        'webhook-id': deliveryId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], deliveryId, timestamp, body),
      },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(status);
        else reject(new Error(`the receiver answered ${status}`));
      });
    });
    request.end(body);
  });
}

export async function rawWebhooks(
  sql: Sql,
  actor: RunsActor,
  fixture: LiveFixture,
  receiver: Receiver,
  counts: Counts,
  maxMs: number,
): Promise<WebhookFigures> {
  const { secret } = fixture;
  return measureWebhooks(receiver, secret, fixture.raw.bulk, counts, maxMs, async (run: BenchRun, status: string) => {
    let written: { event: unknown[]; deliveryIds: string[] } | undefined;
    const writeEvent: WriteEvent = async (query, event) => {
      const { rows } = (await query(EVENT_WITH_DELIVERIES, event)) as { rows: Array<{ deliveryIds: string[] | null }> };
      written = { event, deliveryIds: rows[0]?.deliveryIds ?? [] };
    };
    await bulkMarkRun(sql, actor, run, status, false, writeEvent);
    if (written?.deliveryIds.length !== 1)
      throw new Error(`raw bulk-mark: ${written?.deliveryIds.length ?? 0} deliveries written, not one`);
    const data = eventOut(written.event);
    const body = JSON.stringify({ type: data.action, timestamp: data.createdAt, organizationUlid: actor.orgId, data });
    const deliveryId = written.deliveryIds[0]!;
    const statusCode = await postSigned(receiver.url, secret, deliveryId, body);
    await sql.query(MARK_DELIVERED, [deliveryId, statusCode]);
  });
}

/** Listens on `channel`: `hear` gets each notification's payload; resolves with the function that stops listening. */
export type Listen = (channel: string, hear: (payload: string) => void) => Promise<() => Promise<void>>;

/** LISTEN on a pg client of its own (a session kept for it, as the service keeps one). */
export function pgListen(client: pg.Client): Listen {
  return async (channel, hear) => {
    const onNotification = (message: pg.Notification) => {
      if (message.channel === channel) hear(message.payload ?? '');
    };
    client.on('notification', onNotification);
    await client.query(`LISTEN "${channel}"`);
    return async () => {
      await client.query(`UNLISTEN "${channel}"`);
      client.off('notification', onNotification);
    };
  };
}

export const pgliteListen =
  (db: PGlite): Listen =>
  async (channel, hear) => {
    const unlisten = await db.listen(channel, hear);
    return () => unlisten();
  };

const CHANNEL = 'bench_live_progress';

export async function rawProgressLatency(
  sql: Sql,
  listen: Listen,
  actor: RunsActor,
  run: BenchRun,
  counts: Counts,
): Promise<ProgressFigures> {
  const listeners: Arrival[][] = Array.from({ length: LIVE_STREAMS }, () => []);
  const hearers = listeners.map((arrivals) => (payload: string) => {
    const at = performance.now();
    arrivals.push({ at, marked: (JSON.parse(payload) as { marked: number }).marked });
  });
  const unlisten = await listen(CHANNEL, (payload) => {
    for (const hear of hearers) hear(payload);
  });
  try {
    return await measureProgress(listeners, 0, counts, async (index) => {
      await markRunCase(sql, actor, run.ulid, run.runCaseUlids[index]!, alternatingStatus(index), elapsedOf(index));
      await sql.query('SELECT pg_notify($1, $2)', [
        CHANNEL,
        JSON.stringify({ orgId: actor.orgId, runId: run.ulid, planId: null, marked: index + 1 }),
      ]);
    });
  } finally {
    await unlisten();
  }
}
