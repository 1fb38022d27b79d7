/**
 * The live measures of `npm run bench` (`BENCH_ONLY=live`), service side; bench/raw-live.ts is
 * their floor. Both run against the same fixture (one organization, a project of RUN_CASES cases,
 * runs of them for each side) and the same receivers in this process.
 *
 * - webhooks: a webhook of the organization subscribed to run.cases_bulk_marked, pointing at an
 *   HTTP receiver in a worker thread of this process (bench/webhook-receiver.ts; 127.0.0.1, so the
 *   service runs with TCMS_WEBHOOKS_ALLOW_PRIVATE).
 *   WEBHOOK_CLIENTS clients each bulk-mark all RUN_CASES cases of a run of their own, alternating
 *   passed and failed so that every call changes every case: one audit event, one delivery per
 *   call. Figures: events per second from the first call's start to the last delivery received,
 *   and the delivery latency (receipt time minus the body's `timestamp`, the event's time in
 *   epoch ms) p50/p99. The receiver checks every signature and counts each webhook-id once.
 * - progress: LIVE_STREAMS Server-Sent Events streams open on one run (GET /api/v1/runs/{run}/events);
 *   then single marks (PATCH run case) one at a time, MARK_GAP_MS apart (more than the streams'
 *   250 ms coalescing window, so each mark gives each stream one event). The latency of a mark on
 *   a stream is the arrival of the first event that counts it minus the moment its request was
 *   sent; p50/p99 over all streams × marks.
 */
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ServiceProcess } from './child.ts';
import { type BenchRun, elapsedOf, newRun, RUN_CASES, type RunsProject, runsProject, send } from './runs.ts';
import { bearer, type Integrator } from './setup.ts';
import { percentile } from './stats.ts';
import type { Counts } from './test-design.ts';
import type { Collected, ReceiverAnswer, ReceiverRequest } from './webhook-receiver.ts';

export const WEBHOOK_EVENT = 'run.cases_bulk_marked';
/** Concurrent bulk-mark clients, each on a run of its own. */
export const WEBHOOK_CLIENTS = 4;
export const LIVE_STREAMS = 200;
/** The pause between two marks: more than the 250 ms during which a stream coalesces changes. */
export const MARK_GAP_MS = 300;
/** How long the deliveries (or stream events) of a phase may trail its last call. */
const SETTLE_MS = 30_000;
/** How long a stream may take to send its first event (the current counts). */
const FIRST_EVENT_MS = 30_000;

/** Bulk-mark calls (each one event) and paced marks, per engine; BENCH_SCALE multiplies the measured counts. */
export type LivePlan = { webhookCalls: Counts; marks: Counts };
const LIVE_PLANS: Record<'pglite' | 'postgres', LivePlan> = {
  pglite: { webhookCalls: { warmup: 8, measured: 40 }, marks: { warmup: 3, measured: 40 } },
  postgres: { webhookCalls: { warmup: 8, measured: 80 }, marks: { warmup: 3, measured: 40 } },
};
export function livePlan(engine: 'pglite' | 'postgres', scale: number): LivePlan {
  const plan = LIVE_PLANS[engine];
  const measured = (counts: Counts, atLeast: number) => ({ ...counts, measured: Math.max(atLeast, Math.ceil(counts.measured * scale)) });
  const scaled = { webhookCalls: measured(plan.webhookCalls, WEBHOOK_CLIENTS), marks: measured(plan.marks, 1) };
  // Every mark moves a case of the run from untested: the run must have enough of them.
  if (scaled.marks.warmup + scaled.marks.measured > RUN_CASES) throw new Error(`at most ${RUN_CASES} marks in a progress run`);
  return scaled;
}

// ---- fixture --------------------------------------------------------------------------------------

/** The runs one side works in: one per webhook client, one whose progress the streams follow. */
export type LiveRuns = { bulk: BenchRun[]; progress: BenchRun };
/** `secret`: the webhook's signing secret, which the receiver checks and the raw floor signs with. */
export type LiveFixture = { project: RunsProject; secret: string; service: LiveRuns; raw: LiveRuns };

/** The project, the runs of both sides and the webhook, all through the API. */
export async function seedLive(service: ServiceProcess, who: Integrator, code: string, receiverUrl: string): Promise<LiveFixture> {
  const project = await runsProject(service, who, code);
  const runs = async (side: string): Promise<LiveRuns> => {
    const bulk: BenchRun[] = [];
    for (let client = 0; client < WEBHOOK_CLIENTS; client++) bulk.push(await newRun(service, project, `${side} webhooks ${client}`));
    return { bulk, progress: await newRun(service, project, `${side} progress`) };
  };
  const webhook = (await send(service, who, 'POST', `/api/v1/orgs/${who.orgId}/webhooks`, {
    url: receiverUrl,
    events: [WEBHOOK_EVENT],
  })) as { secret: string };
  return { project, secret: webhook.secret, service: await runs('service'), raw: await runs('raw') };
}

// ---- the webhook receiver -------------------------------------------------------------------------

/** Epoch milliseconds with a fraction, comparable with the receiver thread's receipt times. */
const epochNow = () => performance.timeOrigin + performance.now();

/** Collects the deliveries that arrive from now on, until `expected` have arrived or `withinMs` passed. */
type Collection = { until(expected: number, withinMs: number): Promise<Collected> };

export type Receiver = { url: string; collect(secret: string): Collection; close(): Promise<void> };

/** Starts bench/webhook-receiver.ts in a worker thread (with the tsx loader) and resolves once it listens. */
export async function startReceiver(): Promise<Receiver> {
  const script = new URL('./webhook-receiver.ts', import.meta.url).href;
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script)}); })`, {
    eval: true,
  });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the webhook receiver stopped (code ${code})`)));
  });
  failed.catch(() => {});
  const answer = () => Promise.race([new Promise<ReceiverAnswer>((resolve) => worker.once('message', resolve)), failed]);
  const ready = await answer();
  if (ready.type !== 'ready') throw new Error(`unexpected first message from the webhook receiver: ${ready.type}`);
  const ask = (request: ReceiverRequest) => worker.postMessage(request);
  return {
    url: `http://127.0.0.1:${ready.port}/hooks`,
    collect(secret) {
      ask({ type: 'collect', secret, event: WEBHOOK_EVENT });
      return {
        async until(expected, withinMs) {
          const collected = answer();
          ask({ type: 'until', expected, withinMs });
          const result = await collected;
          if (result.type !== 'collected') throw new Error(`unexpected message from the webhook receiver: ${result.type}`);
          return result;
        },
      };
    },
    close: async () => {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}

// ---- webhook throughput, either side --------------------------------------------------------------

export type WebhookFigures = {
  calls: number;
  failedCalls: number;
  deliveries: number;
  /** Successful calls whose delivery did not arrive within SETTLE_MS of the last call. */
  missing: number;
  refused: number;
  /** True when the time bound stopped the calls before their fixed count. */
  truncated: boolean;
  elapsedMs: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
};

/** One bulk-mark of every case of `run` to `status`; resolves once its event is committed (and, raw, sent). */
export type BulkCall = (run: BenchRun, status: string) => Promise<void>;

export const alternatingStatus = (call: number) => (call % 2 === 0 ? 'passed' : 'failed');

/**
 * Warm-up, then the measured calls: WEBHOOK_CLIENTS clients, each on its own run with its own
 * alternation, share a fixed number of calls; then waits for their deliveries.
 */
export async function measureWebhooks(
  receiver: Receiver,
  secret: string,
  runs: BenchRun[],
  counts: Counts,
  maxMs: number,
  call: BulkCall,
): Promise<WebhookFigures> {
  const callsMade = runs.map(() => 0);
  const phase = async (calls: number): Promise<WebhookFigures> => {
    const collection = receiver.collect(secret);
    let issued = 0;
    let failedCalls = 0;
    let firstFailure: unknown;
    const started = epochNow();
    const deadline = performance.now() + maxMs;
    await Promise.all(
      runs.map(async (run, client) => {
        while (issued < calls && performance.now() < deadline) {
          issued++;
          try {
            await call(run, alternatingStatus(callsMade[client]!++));
          } catch (error) {
            failedCalls++;
            firstFailure ??= error;
            // A failed call may not have changed the cases: the next one must still change them all.
            callsMade[client]!--;
          }
        }
      }),
    );
    if (firstFailure) console.error(`  ! webhook calls: ${failedCalls} failed, first: ${String(firstFailure)}`);
    const succeeded = issued - failedCalls;
    const { deliveries, refused, truncated } = await collection.until(succeeded, SETTLE_MS);
    const latencies = deliveries.map((delivery) => delivery.latencyMs).sort((a, b) => a - b);
    const elapsedMs = deliveries.length > 0 ? Math.max(...deliveries.map((delivery) => delivery.receivedAt)) - started : Number.NaN;
    return {
      calls: issued,
      failedCalls,
      deliveries: deliveries.length,
      missing: truncated ? succeeded - deliveries.length : 0,
      refused,
      truncated: issued < calls,
      elapsedMs,
      eventsPerSecond: (deliveries.length * 1000) / elapsedMs,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  };
  await phase(counts.warmup);
  return phase(counts.measured);
}

/** The service side: POST /api/v1/runs/{run}/cases/bulk-mark, which must change every case. */
export function serviceBulkCall(service: ServiceProcess, who: Integrator): BulkCall {
  return async (run, status) => {
    const answer = (await send(service, who, 'POST', `/api/v1/runs/${run.ulid}/cases/bulk-mark`, {
      caseUlids: run.runCaseUlids,
      status,
    })) as { affected: number };
    if (answer.affected !== RUN_CASES) throw new Error(`bulk-mark changed ${answer.affected} cases, not ${RUN_CASES}`);
  };
}

export const serviceWebhooks = (service: ServiceProcess, fixture: LiveFixture, receiver: Receiver, counts: Counts, maxMs: number) =>
  measureWebhooks(receiver, fixture.secret, fixture.service.bulk, counts, maxMs, serviceBulkCall(service, fixture.project.who));

// ---- live progress latency, either side -----------------------------------------------------------

/** What a listener (a stream, or an in-process listener of the floor) heard: when, and how many cases were marked by then. */
export type Arrival = { at: number; marked: number };
export type ProgressFigures = { streams: number; marks: number; samples: number; missing: number; p50: number; p99: number };

/**
 * Sends `warmup + measured` marks one at a time, each MARK_GAP_MS after the previous one was
 * sent (or at once if it took longer); `mark(index)` marks a case that was untested, so after
 * mark i the run counts `base + i + 1` marked cases. Then waits until every listener heard the
 * last mark, and measures, for each listener and measured mark, the first arrival counting it
 * minus the moment it was sent.
 */
export async function measureProgress(
  listeners: Arrival[][],
  base: number,
  counts: Counts,
  mark: (index: number) => Promise<void>,
): Promise<ProgressFigures> {
  const total = counts.warmup + counts.measured;
  const sentAt: number[] = [];
  for (let index = 0; index < total; index++) {
    const at = performance.now();
    sentAt.push(at);
    await mark(index);
    await delay(Math.max(0, at + MARK_GAP_MS - performance.now()));
  }
  const heardAll = () => listeners.every((arrivals) => (arrivals.at(-1)?.marked ?? -1) >= base + total);
  for (const settleBy = performance.now() + SETTLE_MS; !heardAll() && performance.now() < settleBy; ) await delay(20);
  const latencies: number[] = [];
  let missing = 0;
  for (const arrivals of listeners) {
    for (let index = counts.warmup; index < total; index++) {
      const heard = arrivals.find((arrival) => arrival.marked >= base + index + 1);
      if (heard) latencies.push(heard.at - sentAt[index]!);
      else missing++;
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    streams: listeners.length,
    marks: counts.measured,
    samples: latencies.length,
    missing,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

type ProgressPayload = { counts?: { untested?: number }; total?: number };

/** One Server-Sent Events stream: every `progress` frame becomes an arrival (marked = total − untested). */
function openProgressStream(url: string, headers: Record<string, string>, agent: http.Agent) {
  const arrivals: Arrival[] = [];
  let request: http.ClientRequest | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get(url, { headers: { ...headers, accept: 'text/event-stream' }, agent }, (response) => {
      if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/event-stream')) {
        reject(new Error(`GET ${url}: HTTP ${response.statusCode} ${String(response.headers['content-type'])}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let buffered = '';
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffered += chunk;
        const frames = buffered.split(/\r?\n\r?\n/);
        buffered = frames.pop() ?? '';
        for (const frame of frames) {
          const lines = frame.split(/\r?\n/);
          const event =
            lines
              .find((line) => line.startsWith('event:'))
              ?.slice(6)
              .trim() ?? 'message';
          const data = lines
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (event !== 'progress' || !data) continue;
          const payload = JSON.parse(data) as ProgressPayload;
          if (typeof payload.total !== 'number' || typeof payload.counts?.untested !== 'number') {
            reject(new Error(`unexpected progress event: ${data.slice(0, 300)}`));
            continue;
          }
          arrivals.push({ at, marked: payload.total - payload.counts.untested });
          // Open: from now on the stream may stay quiet for as long as nothing changes.
          request?.setTimeout(0);
          resolve();
        }
      });
      response.once('error', reject);
    });
    request.once('error', reject);
    request.setTimeout(FIRST_EVENT_MS, () => request?.destroy(new Error(`GET ${url}: no first event within ${FIRST_EVENT_MS} ms`)));
  });
  return { arrivals, opened, close: () => request?.destroy() };
}

/** The service side: LIVE_STREAMS streams on the run, then paced PATCHes of its cases. */
export async function serviceProgressLatency(service: ServiceProcess, fixture: LiveFixture, counts: Counts): Promise<ProgressFigures> {
  const { who } = fixture.project;
  const run = fixture.service.progress;
  // A connection per stream, none reused: the streams never end.
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams = Array.from({ length: LIVE_STREAMS }, () =>
    openProgressStream(`${service.baseUrl}/api/v1/runs/${run.ulid}/events`, bearer(who), agent),
  );
  try {
    await Promise.all(streams.map((stream) => stream.opened));
    const base = streams[0]!.arrivals[0]!.marked;
    return await measureProgress(
      streams.map((stream) => stream.arrivals),
      base,
      counts,
      async (index) => {
        await send(service, who, 'PATCH', `/api/v1/runs/${run.ulid}/cases/${run.runCaseUlids[index]}`, {
          status: alternatingStatus(index),
          elapsedMs: elapsedOf(index),
        });
      },
    );
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
  }
}

// ---- report ---------------------------------------------------------------------------------------

export type LiveRow = {
  engine: string;
  webhooks: { service: WebhookFigures; raw: WebhookFigures };
  progress: { service: ProgressFigures; raw: ProgressFigures };
};

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** Whether a figure is short of what it should hold (failed calls, lost deliveries or events, bad signatures). */
export const liveShortfall = (row: LiveRow) =>
  [row.webhooks.service, row.webhooks.raw].some(
    (figures) => figures.failedCalls + figures.missing + figures.refused > 0 || figures.truncated,
  ) || [row.progress.service, row.progress.raw].some((figures) => figures.missing > 0);

export function liveReport(rows: LiveRow[], plans: Record<string, LivePlan>): string {
  const webhook = (figures: WebhookFigures) =>
    `${figures.eventsPerSecond.toFixed(1).padStart(6)} events/s  latency p50 ${ms(figures.p50).padStart(9)}  p99 ${ms(figures.p99).padStart(9)}`;
  const progress = (figures: ProgressFigures) => `latency p50 ${ms(figures.p50).padStart(9)}  p99 ${ms(figures.p99).padStart(9)}`;
  const notes = rows.flatMap((row) => [
    ...(['service', 'raw'] as const).flatMap((side) => {
      const figures = row.webhooks[side];
      const problems = [
        figures.failedCalls ? `${figures.failedCalls} calls failed` : '',
        figures.missing ? `${figures.missing} deliveries missing` : '',
        figures.refused ? `${figures.refused} deliveries with a bad signature or body` : '',
        figures.truncated ? `stopped at the time bound after ${figures.calls} calls` : '',
      ].filter(Boolean);
      return problems.length ? [`! ${row.engine} webhooks ${side}: ${problems.join(', ')} (${figures.deliveries} delivered)`] : [];
    }),
    ...(['service', 'raw'] as const).flatMap((side) => {
      const figures = row.progress[side];
      return figures.missing
        ? [`! ${row.engine} progress ${side}: ${figures.missing} of ${figures.streams * figures.marks} events missing`]
        : [];
    }),
  ]);
  return [
    '',
    `tcms bench, live: webhook throughput and live progress latency`,
    `  webhooks = a webhook on ${WEBHOOK_EVENT} to an HTTP receiver in a worker thread of the bench process (127.0.0.1, signatures checked); ${WEBHOOK_CLIENTS} clients bulk-mark ${RUN_CASES} cases`,
    `    of a run each (passed/failed alternating: one event, one delivery per call); events/s from the first call to the last delivery received;`,
    `    latency = receipt minus the body's timestamp (the event's time). raw = the bulk-mark statements of bench/raw-runs.ts with the event and its delivery row`,
    `    written in one statement as emitAudit does, then a signed POST of the same body to the same receiver and the delivery row UPDATEd as delivered`,
    `  progress = ${LIVE_STREAMS} SSE streams on one run (GET /api/v1/runs/{run}/events), single marks (PATCH run case) ${MARK_GAP_MS} ms apart; latency = first event counting`,
    `    the mark on a stream minus the mark's send time, over streams x marks. raw = the same mark statements, then NOTIFY heard by one LISTEN session`,
    `    (PostgreSQL: a pg client; PGlite: its listen() in this process) and handed to ${LIVE_STREAMS} in-process listeners`,
    `  counts: ${Object.entries(plans)
      .map(
        ([engine, plan]) =>
          `${engine}: webhook calls ${plan.webhookCalls.measured} after ${plan.webhookCalls.warmup}, marks ${plan.marks.measured} after ${plan.marks.warmup}`,
      )
      .join('; ')}`,
    `  ratio events/s = service / raw; ratio latency = service / raw`,
    '',
    ...rows.flatMap((row) => {
      const { service, raw } = row.webhooks;
      const streams = row.progress;
      return [
        [
          row.engine.padEnd(8),
          'webhooks'.padEnd(8),
          webhook(service),
          '|',
          'raw',
          webhook(raw),
          '|',
          `ratio events/s ${(service.eventsPerSecond / raw.eventsPerSecond).toFixed(2)}  p50 ${(service.p50 / raw.p50).toFixed(1)}x  p99 ${(service.p99 / raw.p99).toFixed(1)}x`,
        ].join('  '),
        [
          row.engine.padEnd(8),
          'progress'.padEnd(8),
          progress(streams.service),
          `(${streams.service.samples} samples)`,
          '|',
          'raw',
          progress(streams.raw),
          '|',
          `ratio p50 ${(streams.service.p50 / streams.raw.p50).toFixed(1)}x  p99 ${(streams.service.p99 / streams.raw.p99).toFixed(1)}x`,
        ].join('  '),
      ];
    }),
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
}
