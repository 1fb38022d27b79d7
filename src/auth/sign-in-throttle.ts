import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible';
import { prisma, type PrismaClient } from '../database/client.ts';
import { AppError } from '../errors.ts';

/** Failed sign-ins allowed per address and per client IP within the window. */
export const SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
const WINDOW_MS = SIGN_IN_WINDOW_SECONDS * 1000;

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

/**
 * The counters an attempt is charged to: its address's and its IP's, in the 15-minute window of
 * `now`. The window is part of each key and its row expires when the window ends, so a refund
 * always reaches the counter it was reserved on: given back after the window rolled, it can never
 * open the next window below zero (the library's `reward` alone would).
 */
function countersOf(attempt: SignInAttempt, now: number) {
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return {
    address: `email:${attempt.email}:${windowStart}`,
    ip: `ip:${attempt.ip}:${windowStart}`,
    options: { customDuration: (windowStart + WINDOW_MS - now) / 1000 },
  };
}
type Counters = ReturnType<typeof countersOf>;

const isSpent = (reason: unknown): reason is RateLimiterRes => reason instanceof RateLimiterRes;

const refund = (counters: Counters, keys: string[]) =>
  Promise.all(keys.map((key) => failures().reward(key, 1, counters.options)));

/**
 * Takes one failure from the budget of the address and of the IP, in one atomic increment each
 * (`consume`), before the password is checked: of attempts made at once, no more than the budget
 * get their check. A refused attempt gives back what it took and counts nowhere.
 */
async function reserve(counters: Counters): Promise<void> {
  const keys = [counters.address, counters.ip];
  const outcomes = await Promise.allSettled(keys.map((key) => failures().consume(key, 1, counters.options)));
  const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (refusals.length === 0) return;
  // A spent budget was counted all the same; a store error was not.
  const counted = outcomes.map((outcome) => outcome.status === 'fulfilled' || isSpent(outcome.reason));
  await refund(counters, keys.filter((_, index) => counted[index]));
  const failure = refusals.find((reason) => !isSpent(reason));
  if (failure) throw failure;
  const waitMs = Math.max(...refusals.filter(isSpent).map((spent) => spent.msBeforeNext));
  throw new AppError('too_many_requests', 'Too many failed sign-in attempts; try again later', {
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}

/**
 * Runs `signIn`, the password check of a login or of a signup (which a new address passes), within
 * the sign-in budget: after 10 failures within 15 minutes for its address or its IP the attempt
 * is refused with 429 and Retry-After before anything is checked, the same whether the account
 * exists or not. `signIn` answers what signed in, or undefined for a failure, which keeps its
 * place in both budgets. A success clears its address's failures and gives the IP its place back
 * (the IP keeps its earlier failures); a check that throws gives both back.
 */
export async function throttleSignIn<T>(attempt: SignInAttempt, signIn: () => Promise<T | undefined>): Promise<T | undefined> {
  const counters = countersOf(attempt, Date.now());
  await reserve(counters);
  const signedIn = await signIn().catch(async (error: unknown) => {
    await refund(counters, [counters.address, counters.ip]);
    throw error;
  });
  if (signedIn !== undefined) await Promise.all([failures().delete(counters.address), refund(counters, [counters.ip])]);
  return signedIn;
}
