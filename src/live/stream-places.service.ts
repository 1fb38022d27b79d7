import type { Identity } from '../foundation/context.ts';
import { settings } from '../kernel/config.ts';
import { AppError } from '../kernel/errors.ts';

/**
 * How long a refused client is told to wait. A place frees whenever one of the holder's streams
 * closes, which nothing here can foresee; this only keeps a client from retrying in a tight loop.
 */
export const STREAM_RETRY_AFTER_SECONDS = 10;

/** Who opens a stream: the caller (none on the public share stream) and the client's address. */
export type StreamHolder = { identity: Identity | undefined; address: string };

/** An event stream as the transports read it: `return()` when the client goes away. */
export type ClosableStream<T> = AsyncIterator<T> & { return(): Promise<IteratorResult<T>> };

/**
 * Open streams per credential and per address, of this process only: what the limits protect is a
 * process's sockets and memory, and a count shared through the database would be a statement per
 * open and close, and wrong after a process dies. With N processes a holder may keep N times the
 * limits open in all. A key without streams is absent.
 */
const openStreams = new Map<string, number>();

/**
 * The credential a stream counts against: an API token, an OAuth grant (every token of one
 * consent, so that refreshing gains nothing), a signed-in user (all their sessions).
 */
const credentialOf = (identity: Identity) =>
  identity.kind === 'session' ? `user:${identity.user.id}` : `${identity.kind}:${identity.token.id}`;

function countedKeys(holder: StreamHolder): Array<{ key: string; limit: number; what: string }> {
  const limits = settings().sseStreamLimits;
  const address = { key: `address:${holder.address}`, limit: limits.perAddress, what: 'client address' };
  if (!holder.identity) return [address];
  return [{ key: `credential:${credentialOf(holder.identity)}`, limit: limits.perCredential, what: 'credential' }, address];
}

/**
 * Takes a place for one open stream of `holder`, or refuses with too_many_requests when its
 * credential or its address already holds as many streams in this process as allowed. Answers the
 * function that gives the place back (once, however often it is called).
 */
function takePlace(holder: StreamHolder): () => void {
  const keys = countedKeys(holder);
  const full = keys.find(({ key, limit }) => (openStreams.get(key) ?? 0) >= limit);
  if (full) {
    throw new AppError('too_many_requests', `At most ${full.limit} event streams may be open at once per ${full.what}; close one first`, {
      code: 'too_many_streams',
      limit: full.limit,
      retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
    });
  }
  for (const { key } of keys) openStreams.set(key, (openStreams.get(key) ?? 0) + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    for (const { key } of keys) {
      const left = openStreams.get(key)! - 1;
      if (left === 0) openStreams.delete(key);
      else openStreams.set(key, left);
    }
  };
}

/**
 * The stream `open` answers, holding a place of `holder` (decisions: "Open event streams") from
 * before it opens until it ends: its last event, the client going away (`return()`), or a failure
 * to open. Refused when no place is left, before `open` runs.
 */
export async function heldStream<T>(
  holder: StreamHolder,
  open: () => Promise<ClosableStream<T>>,
): Promise<ClosableStream<T> & AsyncIterable<T>> {
  const release = takePlace(holder);
  let stream: ClosableStream<T>;
  try {
    stream = await open();
  } catch (error) {
    release();
    throw error;
  }
  const held = {
    async next() {
      const result = await stream.next();
      if (result.done) release();
      return result;
    },
    return() {
      release();
      return stream.return();
    },
    [Symbol.asyncIterator]: () => held,
  };
  return held;
}
