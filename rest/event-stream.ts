import { Readable } from 'node:stream';
import type { ProgressEvent } from '../src/live/progress-streams.service.ts';
import { Reply } from './route.ts';

/** How often an open stream sends a comment line, so that proxies do not close it as idle. */
let keepAliveMs = 15_000;

export function configureEventStreams(settings: { keepAliveMs: number }): void {
  keepAliveMs = settings.keepAliveMs;
}

/** A stream of progress events; `return()` ends it at once, even while a `next()` waits. */
export type EventSource<T> = AsyncIterator<ProgressEvent<T>> & { return(): Promise<unknown> };

const frameOf = (event: { id: string; data: unknown }) => `id: ${event.id}\nevent: progress\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * A progress stream as Server-Sent Events: each event a `progress` frame, a comment line every
 * `keepAliveMs`. The route pipeline destroys the body when the client goes away, which ends the
 * stream (and with it its place in the topic) and the keep-alive timer.
 */
export function eventStreamReply<T>(stream: EventSource<T>): Reply {
  const body = new Readable({
    read() {},
    destroy(error, callback) {
      clearInterval(keepAlive);
      void stream.return().then(() => callback(error));
    },
  });
  const keepAlive = setInterval(() => body.push(': keep-alive\n\n'), keepAliveMs);
  void (async () => {
    for (let next = await stream.next(); !next.done; next = await stream.next()) body.push(frameOf(next.value));
    clearInterval(keepAlive);
    body.push(null);
  })();
  return new Reply(200, body, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
}

export const EVENTS_DESCRIPTION = (what: string, payload: string) =>
  `Server-Sent Events: at once one \`progress\` event with the ${what}'s current ${payload}, then one after each change ` +
  '(at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: ' +
  'a stream always starts with the current state.';
