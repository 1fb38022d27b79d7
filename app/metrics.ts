import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { MailOutcome } from '../src/foundation/mail/mail-outbox.service.ts';
import type { OpenDatabase } from '../src/kernel/database/client.ts';
import { openStreamCount } from '../src/live/progress-streams.service.ts';
import type { DeliveryOutcome } from '../src/webhooks/webhook-dispatcher.service.ts';

/**
 * Prometheus metrics (prom-client) of one process: requests by route and status with their
 * latency, requests in progress, and the database pool (its waiting requests are the queue in
 * front of the database), mail and webhook deliveries by outcome, open live progress streams,
 * plus Node's own process metrics.
 */
export function createMetrics(database: Pick<OpenDatabase, 'poolUsage'>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tcms_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'tcms_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'tcms_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'tcms_http_requests_in_flight', help: 'HTTP requests being answered', registers: [registry] });
  new Gauge({
    name: 'tcms_db_pool_connections',
    help: 'Connections of the PostgreSQL pool by state (absent on the embedded database)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const usage = database.poolUsage();
      if (!usage) return;
      this.set({ state: 'open' }, usage.total);
      this.set({ state: 'idle' }, usage.idle);
    },
  });
  new Gauge({
    name: 'tcms_db_pool_waiting_requests',
    help: 'Queries queued for a free database connection',
    registers: [registry],
    collect() {
      const usage = database.poolUsage();
      if (usage) this.set(usage.waiting);
    },
  });

  new Gauge({
    name: 'tcms_live_streams',
    help: 'Open live progress streams (Server-Sent Events and GraphQL subscriptions)',
    registers: [registry],
    collect() {
      this.set(openStreamCount());
    },
  });

  const mails = new Counter({
    name: 'tcms_mail_deliveries_total',
    help: 'Mail delivery attempts by outcome: sent, retry (a temporary failure), failed, suppressed',
    labelNames: ['outcome'],
    registers: [registry],
  });

  const webhookDeliveries = new Counter({
    name: 'tcms_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (a failed attempt tried again later), failed',
    labelNames: ['outcome'],
    registers: [registry],
  });

  /**
   * Counts every request under its route's template (`/api/v1/projects/{projectId}`), never its
   * concrete path, so that the number of series stays bounded.
   */
  const measure: RequestHandler = (req, res, next) => {
    const stop = duration.startTimer();
    inFlight.inc();
    res.once('close', () => {
      inFlight.dec();
      const labels = { method: req.method, route: (res.locals.route as string | undefined) ?? 'unmatched', status: String(res.statusCode) };
      requests.inc(labels);
      stop(labels);
    });
    next();
  };

  return {
    registry,
    measure,
    countMail: (outcome: MailOutcome) => mails.inc({ outcome }),
    countWebhookDelivery: (outcome: DeliveryOutcome) => webhookDeliveries.inc({ outcome }),
  };
}
