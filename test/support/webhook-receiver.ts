import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One request a receiver heard. */
export type Received = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** When it was heard (epoch ms). */
  at: number;
};

/** How the receiver answers a request: a status code, or never (the request hangs until released). */
export type Answer = number | 'hang';

export type Receiver = {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  received: Received[];
  /** Sets how each next request is answered (200 until told otherwise); `index` counts from 0. */
  answerWith(answer: (request: Received, index: number) => Answer): void;
  /** The most requests that were open at once. */
  maxOpen(): number;
  open(): number;
  /** Answers every hanging request with `status`. */
  release(status?: number): void;
  /** Resolves once `predicate` holds for what was received; rejects after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
};

/** A real HTTP receiver in the test process, recording every webhook request it hears. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  let answer: (request: Received, index: number) => Answer = () => 200;
  let open = 0;
  let maxOpen = 0;
  const server = http.createServer((req, res) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    res.once('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        at: Date.now(),
      };
      const decision = answer(request, received.length);
      received.push(request);
      for (const wake of [...waiters]) wake();
      if (decision === 'hang') hanging.add(res);
      else res.writeHead(decision).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answerWith: (next) => {
      answer = next;
    },
    maxOpen: () => maxOpen,
    open: () => open,
    release: (status = 200) => {
      for (const res of hanging) if (!res.destroyed) res.writeHead(status).end();
      hanging.clear();
    },
    until: (predicate, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver did not hear what was awaited within ${timeoutMs} ms (heard ${received.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A receiver for the whole test file. */
export function useReceiver(): { readonly current: Receiver } {
  const handle = {} as { current: Receiver };
  beforeAll(async () => {
    handle.current = await startReceiver();
  });
  afterAll(async () => {
    await handle.current?.close();
  });
  return handle;
}
