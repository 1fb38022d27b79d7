import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createHttpServer } from '../../app/http-server.ts';
import type { TestApp } from './app.ts';

/** One message of a Server-Sent Events stream: an event (`id`, `event`, `data`) or a comment line. */
export type StreamMessage = { id?: string; event?: string; data?: string; comment?: string /** Date.now() when it arrived. */; at: number };

export type EventStream = {
  status: number;
  headers: Headers;
  /** The next event (comments skipped) that `accept` takes; fails after `timeoutMs`. */
  nextEvent(accept?: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>;
  /** The next comment line; fails after `timeoutMs`. */
  nextComment(timeoutMs?: number): Promise<StreamMessage>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** Every message received so far. */
  received: StreamMessage[];
  close(): void;
};

function parseMessage(block: string): StreamMessage {
  const message: StreamMessage = { at: Date.now() };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim();
    const [, field, value] = /^(\w+): ?(.*)$/.exec(line) ?? [];
    if (field === 'id' || field === 'event') message[field] = value;
    if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
  }
  return message;
}

/**
 * Opens `url` with fetch and reads its body as Server-Sent Events as they arrive (no buffering of
 * the whole answer). A non-200 answer is read whole: `errorBody` is its JSON.
 */
export async function openEventStream(url: string, init: RequestInit = {}): Promise<EventStream & { errorBody?: unknown }> {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, headers: { Accept: 'text/event-stream', ...init.headers }, signal: abort.signal });
  const received: StreamMessage[] = [];
  let delivered = 0;
  const waiters = new Set<() => void>();
  let finished = false;
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const next = (wanted: (message: StreamMessage) => boolean, timeoutMs: number) =>
    new Promise<StreamMessage>((resolve, reject) => {
      const check = () => {
        while (delivered < received.length) {
          const message = received[delivered++]!;
          if (wanted(message)) {
            done();
            return resolve(message);
          }
        }
        if (finished) {
          done();
          reject(new Error(`the stream ended; received ${JSON.stringify(received)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`nothing within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  if (response.status !== 200) {
    const errorBody: unknown = await response.json();
    const ended = Promise.resolve();
    return {
      status: response.status,
      headers: response.headers,
      errorBody,
      received,
      ended,
      nextEvent: () => Promise.reject(new Error(`status ${response.status}`)),
      nextComment: () => Promise.reject(new Error(`status ${response.status}`)),
      close: () => abort.abort(),
    };
  }

  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffered += decoder.decode(chunk.value, { stream: true });
        for (let boundary = buffered.indexOf('\n\n'); boundary >= 0; boundary = buffered.indexOf('\n\n')) {
          received.push(parseMessage(buffered.slice(0, boundary)));
          buffered = buffered.slice(boundary + 2);
        }
        changed();
      }
    } catch {
      // Aborted by close().
    } finally {
      finished = true;
      changed();
    }
  })();

  return {
    status: response.status,
    headers: response.headers,
    received,
    ended,
    nextEvent: (accept = () => true, timeoutMs = 5_000) => next((message) => message.comment === undefined && accept(message), timeoutMs),
    nextComment: (timeoutMs = 5_000) => next((message) => message.comment !== undefined, timeoutMs),
    close: () => abort.abort(),
  };
}

/** The data of a `progress` event, parsed. */
export const progressOf = <T = Record<string, unknown>>(message: StreamMessage): T => {
  expect(message.event).toBe('progress');
  return JSON.parse(message.data!) as T;
};

/**
 * The test app listening on a port of its own (event streams are read with fetch as they come),
 * and every stream a test opened through `open` is closed after it.
 */
export function useListeningApp(t: TestApp) {
  const handle = { baseUrl: '', server: undefined as Server | undefined };
  const opened: EventStream[] = [];
  beforeAll(async () => {
    handle.server = createHttpServer(t.app);
    await new Promise<void>((resolve) => handle.server!.listen(0, '127.0.0.1', resolve));
    handle.baseUrl = `http://127.0.0.1:${(handle.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.close();
  });
  afterAll(async () => {
    handle.server?.closeAllConnections();
    await new Promise((resolve) => handle.server?.close(resolve));
  });
  return {
    get baseUrl() {
      return handle.baseUrl;
    },
    async open(path: string, init: RequestInit = {}) {
      const stream = await openEventStream(`${handle.baseUrl}${path}`, init);
      opened.push(stream);
      return stream;
    },
  };
}

/** The `tcms_live_streams` gauge of GET /metrics. */
export async function openStreamsGauge(t: TestApp): Promise<number> {
  const response = await t.http.get('/metrics');
  return Number(/^tcms_live_streams (\d+)$/m.exec(response.text)?.[1]);
}

/** Polls `read` every 20 ms until it answers `expected`; fails with the last answer after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, expected: T, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await read();
  }
  expect(last).toBe(expected);
}
