/**
 * The webhook receiver of the live measures (bench/live.ts), run in a worker thread of its own so
 * that nothing else in the bench process delays a receipt: PGlite, which the raw floor runs in
 * the bench process, holds its thread for the whole of each statement.
 *
 * An HTTP server on 127.0.0.1 that answers 204 to every POST. While a collection is open it
 * records each new webhook-id (receipt time in epoch ms, and its latency from the body's
 * `timestamp`) whose signature verifies with the collection's secret; others are counted as
 * refused. Messages: `collect` opens a collection, `until` answers `collected` once `expected`
 * deliveries arrived or `withinMs` passed.
 */
import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import { signatureHeader } from '../src/webhooks/signature.ts';

export type ReceiverRequest = { type: 'collect'; secret: string; event: string } | { type: 'until'; expected: number; withinMs: number };
export type Delivery = { receivedAt: number; latencyMs: number };
export type Collected = { deliveries: Delivery[]; refused: number; truncated: boolean };
export type ReceiverAnswer = { type: 'ready'; port: number } | ({ type: 'collected' } & Collected);

if (!parentPort) throw new Error('bench/webhook-receiver.ts runs as a worker thread of bench/live.ts');
const port = parentPort;

/** Epoch milliseconds with a fraction, comparable across the threads of this process. */
const epochNow = () => performance.timeOrigin + performance.now();

function parsedBody(body: string): { type?: unknown; timestamp?: unknown } | undefined {
  try {
    return JSON.parse(body) as { type?: unknown; timestamp?: unknown };
  } catch {
    return undefined;
  }
}

const seen = new Set<string>();
let current: { secret: string; event: string; deliveries: Delivery[]; refused: number; check(): void } | undefined;

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const receivedAt = epochNow();
    const receivedEpochMs = Date.now();
    response.writeHead(204).end();
    const collection = current;
    if (!collection) return;
    const body = Buffer.concat(chunks).toString('utf8');
    const id = String(request.headers['webhook-id']);
    const expected = signatureHeader([collection.secret], id, Number(request.headers['webhook-timestamp']), body);
    const signatures = String(request.headers['webhook-signature'] ?? '').split(' ');
    const payload = parsedBody(body);
    if (!signatures.includes(expected) || payload?.type !== collection.event || typeof payload.timestamp !== 'number') {
      collection.refused++;
    } else if (!seen.has(id)) {
      seen.add(id);
      collection.deliveries.push({ receivedAt, latencyMs: receivedEpochMs - payload.timestamp });
    }
    collection.check();
  });
});

port.on('message', (message: ReceiverRequest) => {
  if (message.type === 'collect') {
    current = { secret: message.secret, event: message.event, deliveries: [], refused: 0, check: () => {} };
    return;
  }
  const collection = current;
  if (!collection) throw new Error('`until` without an open collection');
  const settle = (truncated: boolean) => {
    clearTimeout(timer);
    collection.check = () => {};
    current = undefined;
    port.postMessage({
      type: 'collected',
      deliveries: collection.deliveries,
      refused: collection.refused,
      truncated,
    } satisfies ReceiverAnswer);
  };
  const timer = setTimeout(() => settle(true), message.withinMs);
  collection.check = () => {
    if (collection.deliveries.length >= message.expected) settle(false);
  };
  collection.check();
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the receiver has no address');
  port.postMessage({ type: 'ready', port: address.port } satisfies ReceiverAnswer);
});
