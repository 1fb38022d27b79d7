import { RateLimiterPrisma } from 'rate-limiter-flexible';
import { prisma, type PrismaClient } from '../database/client.ts';
import { AppError } from '../errors.ts';

/** Failed sign-ins allowed per address and per client IP within the window. */
export const SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** Where a sign-in attempt comes from and which account it names. */
export type SignInAttempt = { email: string; ip: string };

let limiter: { client: PrismaClient; failures: RateLimiterPrisma } | undefined;

/**
 * The failure counters (rate-limiter-flexible on the `login_throttle` table), so they hold across
 * every process on one database; re-created when the process's database is reopened.
 */
function failures(): RateLimiterPrisma {
  const client = prisma();
  if (limiter?.client !== client) {
    limiter = {
      client,
      failures: new RateLimiterPrisma({
        storeClient: client,
        tableName: 'loginThrottle',
        keyPrefix: 'sign-in',
        points: SIGN_IN_FAILURES,
        duration: SIGN_IN_WINDOW_SECONDS,
        // Expired rows go with the maintenance sweep, not with a timer of the library's own.
        clearExpiredByTimeout: false,
      }),
    };
  }
  return limiter.failures;
}

const keysOf = (attempt: SignInAttempt) => [`email:${attempt.email}`, `ip:${attempt.ip}`];

/**
 * Refuses a sign-in (login, or signup of an existing address) after 10 failures within 15 minutes
 * for its address or its IP: 429 with Retry-After, checked before the password is, and the same
 * whether the account exists or not.
 */
export async function assertSignInAllowed(attempt: SignInAttempt): Promise<void> {
  const counters = await Promise.all(keysOf(attempt).map((key) => failures().get(key)));
  const blocked = counters.filter((counter) => counter !== null && counter.consumedPoints >= SIGN_IN_FAILURES);
  if (blocked.length === 0) return;
  const waitMs = Math.max(...blocked.map((counter) => counter!.msBeforeNext));
  throw new AppError('too_many_requests', 'Too many failed sign-in attempts; try again later', {
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}

/** Counts a failed sign-in against its address and its IP. */
export async function recordSignInFailure(attempt: SignInAttempt): Promise<void> {
  await Promise.all(keysOf(attempt).map((key) => failures().penalty(key, 1)));
}

/** A successful sign-in clears its address's failures (the IP keeps its count). */
export async function clearSignInFailures(attempt: SignInAttempt): Promise<void> {
  await failures().delete(keysOf(attempt)[0]!);
}
