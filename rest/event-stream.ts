import { Readable } from 'node:stream';
import { settings } from '../src/kernel/config.ts';
import type { ProgressEvent } from '../src/live/progress-streams.service.ts';
import { type ClosableStream, heldStream, type StreamHolder } from '../src/live/stream-places.service.ts';
import { Reply } from './route.ts';

/** A stream of progress events; `return()` ends it at once, even while a `next()` waits. */
export type EventSource<T> = ClosableStream<ProgressEvent<T>>;

const frameOf = (event: { id: string; data: unknown }) => `id: ${event.id}\nevent: progress\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * The progress stream `open` answers, as Server-Sent Events: each event a `progress` frame, a
 * comment line every `keepAliveMs`. It holds one of `holder`'s places (src/live/stream-places.service.ts):
 * none left is 429 before anything opens. The route pipeline destroys the body when the client
 * goes away, which ends the stream (and with it its place in the topic, its holder's place) and
 * the keep-alive timer.
 */
export async function eventStreamReply<T>(holder: StreamHolder, open: () => Promise<EventSource<T>>): Promise<Reply> {
  const stream = await heldStream(holder, open);
  const body = new Readable({
    read() {},
    destroy(error, callback) {
      clearInterval(keepAlive);
      void stream.return().then(() => callback(error));
    },
  });
  const keepAlive = setInterval(() => body.push(': keep-alive\n\n'), settings().sseKeepAliveMs);
  void (async () => {
    for (let next = await stream.next(); !next.done; next = await stream.next()) body.push(frameOf(next.value));
    clearInterval(keepAlive);
    body.push(null);
  })();
  return new Reply(200, body, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
}

export const EVENTS_DESCRIPTION = (what: string, payload: string) =>
  `Server-Sent Events: at once one \`progress\` event with the ${what}'s current ${payload}, then one after each change ` +
  '(at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: ' +
  'a stream always starts with the current state. Each server process keeps at most 20 streams open per credential and 50 ' +
  'per client address by default (TCMS_SSE_STREAMS_PER_CREDENTIAL, TCMS_SSE_STREAMS_PER_ADDRESS); one more answers 429 with Retry-After.';
