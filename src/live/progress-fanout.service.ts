import pg from 'pg';
import { logger } from '../kernel/logger.ts';
import { hearRunChange, type RunChange, sendRunChangesThrough } from './progress-signals.service.ts';

/** The one PostgreSQL channel every process LISTENs on and NOTIFYs to. */
const RUN_CHANGES_CHANNEL = 'tcms_run_changes';

/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_APPLICATION_NAME = 'tcms live progress';

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_DELAYS_MS = [100, 500, 1_000, 2_000, 5_000];

export type ProgressFanOut = { stop(): Promise<void> };

const isRunChange = (value: unknown): value is RunChange => {
  const change = value as Partial<RunChange> | null;
  return (
    typeof change?.orgId === 'string' && typeof change.runId === 'string' && (change.planId === null || typeof change.planId === 'string')
  );
};

/**
 * Run changes across the server processes of one PostgreSQL database: one dedicated connection
 * per process LISTENs on one channel and also sends this process's changes as NOTIFYs (the change
 * as JSON), so every process — this one included — hears each change once it has committed.
 * Changes published in the same tick are sent as one statement, each run once; the connection runs
 * one statement at a time (pg 9 refuses a query sent while another waits), so those published
 * while a NOTIFY is on its way go out together in the next. A lost connection is reported once
 * and opened again (then `onReconnected` lets the streams read what they missed); while it is
 * down, changes are still heard by this process.
 */
export async function startProgressFanOut(databaseUrl: string, onReconnected: () => void): Promise<ProgressFanOut> {
  let client: pg.Client | undefined;
  let stopped = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let queued = new Map<string, RunChange>();
  let sending: Promise<void> | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: LISTENER_APPLICATION_NAME });
    next.on('notification', (message) => {
      if (message.channel !== RUN_CHANGES_CHANNEL || !message.payload) return;
      try {
        const change: unknown = JSON.parse(message.payload);
        if (isRunChange(change)) hearRunChange(change);
      } catch {
        logger.warn({ payload: message.payload }, 'live progress: ignored a malformed run change notification');
      }
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners('end');
      next.on('error', () => {});
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };

  const lost = (which: pg.Client) => {
    if (stopped || client !== which) return;
    client = undefined;
    which.removeAllListeners('end');
    which.on('error', () => {});
    logger.warn('live progress: the LISTEN connection to the database was lost; listening again as soon as it is back');
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (stopped) return;
      connect().then(
        () => {
          attempt = 0;
          logger.info('live progress: listening for run changes again');
          onReconnected();
        },
        () => scheduleReconnect(),
      );
    }, delay);
  };

  const notify = async (changes: RunChange[]) => {
    const sender = client;
    if (!sender) {
      // Other processes miss these until the connection is back; this one's streams still hear them.
      for (const change of changes) hearRunChange(change);
      return;
    }
    const payloads = changes.map((change) => JSON.stringify(change));
    try {
      await sender.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [RUN_CHANGES_CHANNEL, payloads]);
    } catch {
      for (const change of changes) hearRunChange(change);
    }
  };

  const flush = () => {
    if (sending || queued.size === 0) return;
    const changes = [...queued.values()];
    queued = new Map();
    sending = notify(changes).finally(() => {
      sending = undefined;
      flush();
    });
  };

  await connect();
  sendRunChangesThrough((change) => {
    if (queued.size === 0) setImmediate(flush);
    queued.set(change.runId, change);
  });

  return {
    stop: async () => {
      stopped = true;
      sendRunChangesThrough(undefined);
      clearTimeout(reconnectTimer);
      flush();
      while (sending) await sending;
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
