import { isIPv6 } from 'node:net';
import { prisma } from '../../kernel/database/client.ts';
import {
  BUCKETS,
  type Bucket,
  budgetSpent,
  consumeCall,
  digestKey,
  digestPairKey,
  forgetOwners,
  forgetPairsWith,
  type RateLimitState,
  refundCalls,
} from '../rate-limit/rate-limit.service.ts';
import { normalizeEmail } from './auth.schemas.ts';

/** Failed sign-ins allowed for one account address from one client address within the window. */
export const SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_SECONDS = BUCKETS.sign_in.windowMs / 1000;
/** Failed sign-ins allowed from one client address, for all account addresses together, within its window. */
export const SIGN_IN_FAILURES_PER_IP = 100;
export const SIGN_IN_IP_WINDOW_SECONDS = BUCKETS.sign_in_ip.windowMs / 1000;

/** Where a sign-in attempt comes from and which account it names. */
export type SignInAttempt = { email: string; ip: string };

/** Whose sign-in blocks an operator clears: an account address's or a client address's. */
export type SignInBlocker = { email: string } | { ip: string };

type Budget = { owner: string; bucket: Bucket; limit: number };

/**
 * One spelling per client address, so that an operator's `203.0.113.5` names the attempts a
 * dual-stack socket reported as `::ffff:203.0.113.5`: IPv4-mapped IPv6 as IPv4, other IPv6
 * compressed and lower-cased (as URLs write it).
 */
function canonicalIp(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const [address] = ip.split('%');
  const compressed = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([\da-f]{1,4}):([\da-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

const ipBudgetKey = (ip: string) => digestKey('sign_in_ip', canonicalIp(ip));

/** The attempt's two budgets: its account address from its client address, and its client address alone. */
const budgetsOf = (attempt: SignInAttempt): [pair: Budget, ip: Budget] => [
  { owner: digestPairKey('sign_in', normalizeEmail(attempt.email), canonicalIp(attempt.ip)), bucket: 'sign_in', limit: SIGN_IN_FAILURES },
  { owner: ipBudgetKey(attempt.ip), bucket: 'sign_in_ip', limit: SIGN_IN_FAILURES_PER_IP },
];

const take = (budget: Budget, now: number) => consumeCall(budget.owner, budget.bucket, budget.limit, now);
const giveBack = (budget: Budget, now: number, options: { forget?: boolean } = {}) =>
  refundCalls(prisma(), [budget.owner], budget.bucket, now, options);

/** Of the budgets found spent, the one that opens last: retrying before it opens is refused again. */
const lastToOpen = (spent: RateLimitState[]) => spent.reduce((last, state) => (state.resetAt > last.resetAt ? state : last));

/**
 * Runs `signIn`, the password check of a login or of a signup (which a new address passes),
 * within two budgets of failures kept in the database's fixed windows, keyed by digests so that
 * neither address is stored: 10 per 15 minutes for the account address from the client address
 * (bucket `sign_in`), and 100 per hour from the client address for all accounts together (bucket
 * `sign_in_ip`). There is no budget of the account address alone: failures from elsewhere never
 * block an account's owner. One failure is taken from both budgets, each an atomic increment,
 * before anything is checked: of attempts made at once, no more than a budget get their check.
 * Once either is spent the attempt is refused with 429 and Retry-After, the same whether the
 * account exists or not, and gives back what it took. `signIn` answers what signed in, or
 * undefined for a failure, which keeps its place in both budgets. A success clears the pair and
 * gives the client address its place back (it keeps its earlier failures); a check that throws
 * gives both back.
 */
export async function throttleSignIn<T>(attempt: SignInAttempt, signIn: () => Promise<T | undefined>): Promise<T | undefined> {
  const now = Date.now();
  const [pair, ip] = budgetsOf(attempt);
  const giveBothBack = () => Promise.all([giveBack(pair, now), giveBack(ip, now)]);
  const spent = (await Promise.all([take(pair, now), take(ip, now)])).filter((state) => !state.allowed);
  if (spent.length > 0) {
    await giveBothBack();
    throw budgetSpent(lastToOpen(spent), 'Too many failed sign-in attempts; try again later');
  }
  const signedIn = await signIn().catch(async (error: unknown) => {
    await giveBothBack();
    throw error;
  });
  if (signedIn !== undefined) await Promise.all([giveBack(pair, now, { forget: true }), giveBack(ip, now)]);
  return signedIn;
}

/**
 * Clears the failures of an account address from every client address, or those of a client
 * address (its own budget and its pairs with every account); answers how many counters holding
 * failures (one per budget and window) it dropped.
 */
export async function unblockSignIn(blocker: SignInBlocker): Promise<number> {
  if ('email' in blocker) return forgetPairsWith(prisma(), 'sign_in', 'first', normalizeEmail(blocker.email));
  const [pairs, own] = await Promise.all([
    forgetPairsWith(prisma(), 'sign_in', 'second', canonicalIp(blocker.ip)),
    forgetOwners(prisma(), [ipBudgetKey(blocker.ip)], 'sign_in_ip'),
  ]);
  return pairs + own;
}
