import { prisma } from '../../kernel/database/client.ts';
import { BUCKETS, budgetSpent, consumeCalls, digestKey, refundCalls } from '../rate-limit/rate-limit.service.ts';

/** Failed sign-ins allowed per account address and per client IP within the window. */
export const SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_SECONDS = BUCKETS.sign_in.windowMs / 1000;

/** Where a sign-in attempt comes from and which account it names. */
export type SignInAttempt = { email: string; ip: string };

/**
 * Runs `signIn`, the password check of a login or of a signup (which a new address passes),
 * within the sign-in budget, in the database's fixed windows (the `sign_in` bucket, keyed by
 * digests of the account address and of the IP, so that neither is stored). One failure is taken
 * from both budgets, each an atomic increment, before anything is checked: of attempts made at
 * once, no more than the budget get their check. After 10 failures within 15 minutes for the
 * address or the IP the attempt is refused with 429 and Retry-After, the same whether the account
 * exists or not, and gives back what it took. `signIn` answers what signed in, or undefined for a
 * failure, which keeps its place in both budgets. A success clears its address's failures and
 * gives the IP its place back (the IP keeps its earlier failures); a check that throws gives both
 * back.
 */
export async function throttleSignIn<T>(attempt: SignInAttempt, signIn: () => Promise<T | undefined>): Promise<T | undefined> {
  const now = Date.now();
  const address = digestKey('sign_in', 'email', attempt.email);
  const ip = digestKey('sign_in', 'ip', attempt.ip);
  const states = await consumeCalls(prisma(), [address, ip], 'sign_in', SIGN_IN_FAILURES, now);
  const spent = states.find((state) => !state.allowed);
  if (spent) {
    await refundCalls(prisma(), [address, ip], 'sign_in', now);
    throw budgetSpent(spent, 'Too many failed sign-in attempts; try again later');
  }
  const signedIn = await signIn().catch(async (error: unknown) => {
    await refundCalls(prisma(), [address, ip], 'sign_in', now);
    throw error;
  });
  if (signedIn !== undefined) {
    await Promise.all([refundCalls(prisma(), [address], 'sign_in', now, { forget: true }), refundCalls(prisma(), [ip], 'sign_in', now)]);
  }
  return signedIn;
}
