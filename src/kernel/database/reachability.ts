import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigurationError } from '../config.ts';
import { logger } from '../logger.ts';

/** Failures that may pass: the server is starting, restarting, or its database is being created. */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '3D000', // invalid_catalog_name: the database does not exist (yet)
  '53300', // too_many_connections
]);

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** What went wrong, in words an operator reads at start-up. */
function describe(error: unknown): string {
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case '3D000':
      return 'the database does not exist';
    case '28P01':
    case '28000':
      return 'authentication failed';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Runs `connect` until it succeeds, retrying transient failures with exponential back-off (0.25 s
 * doubling to 5 s) for at most `timeoutMs`; then, or at once for a failure that will not pass (a
 * wrong password), a ConfigurationError naming `location` and the cause.
 */
export async function untilReachable<T>(connect: () => Promise<T>, location: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      return await connect();
    } catch (error) {
      const transient = TRANSIENT.has(String(codeOf(error)));
      if (!transient || Date.now() + delay > deadline) {
        const waited = transient ? ` (tried for ${Math.round(timeoutMs / 1000)} s)` : '';
        throw new ConfigurationError(`cannot use the database at ${location}: ${describe(error)}${waited}`);
      }
      logger.warn(`the database at ${location} is not reachable yet (${describe(error)}); retrying in ${delay} ms`);
      await sleep(delay);
    }
  }
}
