import { Readable } from 'node:stream';
import { z } from 'zod';
import { subscribeToPlanProgress, subscribeToRunProgress, type ProgressStream } from '../../src/live/progress-streams.service.ts';
import { planPathSchema } from '../../src/plans/plans.schemas.ts';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

/** How often an open stream sends a comment line, so that proxies do not close it as idle. */
let keepAliveMs = 15_000;

export function configureEventStreams(settings: { keepAliveMs: number }): void {
  keepAliveMs = settings.keepAliveMs;
}

const frameOf = (event: { id: string; data: unknown }) => `id: ${event.id}\nevent: progress\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * A progress stream as Server-Sent Events: each event a `progress` frame, a comment line every
 * `keepAliveMs`. The route pipeline destroys the body when the client goes away, which ends the
 * stream (and with it its place in the topic) and the keep-alive timer.
 */
function eventStreamReply<T>(stream: ProgressStream<T>): Reply {
  const body = new Readable({
    read() {},
    destroy(error, callback) {
      clearInterval(keepAlive);
      void stream.return().then(() => callback(error));
    },
  });
  const keepAlive = setInterval(() => body.push(': keep-alive\n\n'), keepAliveMs);
  void (async () => {
    for await (const event of stream) body.push(frameOf(event));
    clearInterval(keepAlive);
    body.push(null);
  })();
  return new Reply(200, body, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
}

const EVENTS = (what: string, payload: string) =>
  `Server-Sent Events: at once one \`progress\` event with the ${what}'s current ${payload}, then one after each change ` +
  '(at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: ' +
  'a stream always starts with the current state.';

export const liveProgressRoutes = [
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/events',
    operationId: 'streamRunProgress',
    summary: "The run's progress as it changes (Server-Sent Events)",
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: {
      status: 200,
      description: EVENTS('run', '`{ runUlid, state, counts, total, passRate, lastResultAt }`'),
      media: { 'text/event-stream': z.string() },
    },
    errors: [403, 404],
    handle: async ({ ctx, params }) => eventStreamReply(await subscribeToRunProgress(ctx, params.runUlid)),
  }),
  defineRoute({
    method: 'get',
    path: '/plans/{planUlid}/events',
    operationId: 'streamPlanProgress',
    summary: "The plan's progress as its runs change (Server-Sent Events)",
    tag: 'Plans',
    auth: 'org',
    params: planPathSchema,
    success: { status: 200, description: EVENTS('plan', '`progress` object (as the plan detail shows it)'), media: { 'text/event-stream': z.string() } },
    errors: [403, 404],
    handle: async ({ ctx, params }) => eventStreamReply(await subscribeToPlanProgress(ctx, params.planUlid)),
  }),
];
