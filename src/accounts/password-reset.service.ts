import { auditInEachOrganization } from '../foundation/audit/audit.service.ts';
import { queueAccountMail } from '../foundation/auth/account-mails.ts';
import { normalizeEmail } from '../foundation/auth/auth.schemas.ts';
import { userSnapshot } from '../foundation/auth/authenticate.ts';
import { markEmailVerified } from '../foundation/auth/email-verification.ts';
import { unblockSignIn } from '../foundation/auth/sign-in-throttle.ts';
import { budgetSpent, consumeCall, digestKey } from '../foundation/rate-limit/rate-limit.service.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import { hashPassword, newSecret, sha256 } from '../kernel/secrets.ts';
import { toUser } from './accounts.service.ts';

/**
 * Password reset (contract §19): a mail with a token that sets a new password once, within an
 * hour. One live token per user, stored hashed; a new request replaces it. Transport-free: the
 * REST routes and the pages for people call the same two functions.
 */

/** A password reset token works for 1 hour after it was requested. */
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;
/** Requests an hour naming one address, whether an account has it or not. */
export const PASSWORD_RESETS_PER_ADDRESS = 5;
/** Requests an hour from one client address, whichever addresses they name. */
export const PASSWORD_RESETS_PER_CLIENT = 20;

type Account = { id: string; email: string; firstName: string };

/**
 * Counts the request against the budget of the address it names and of the client that sends it,
 * inside the request's transaction: a refused request counts nothing. The address's budget is kept
 * for every address, so that a 429 tells nothing about whether an account has it.
 */
async function chargeResetRequest(tx: Db, email: string, ip: string, now: number): Promise<void> {
  const states = [
    await consumeCall(digestKey('password_reset_to_address', email), 'password_reset_to_address', PASSWORD_RESETS_PER_ADDRESS, now, tx),
    await consumeCall(digestKey('password_reset_from_client', ip), 'password_reset_from_client', PASSWORD_RESETS_PER_CLIENT, now, tx),
  ];
  const spent = states.find((state) => !state.allowed);
  if (spent) throw budgetSpent(spent, 'Too many password reset requests; try again later');
}

/**
 * Replaces the reset token of the account with `email`, if there is one, and answers that account.
 * One statement, which finds the account and writes its token: a request for an unknown address
 * sends the database the same work.
 */
async function replaceResetToken(tx: Db, email: string, tokenHash: string, now: number): Promise<Account | undefined> {
  const [account] = await queryRaw<Account[]>(
    tx,
    sql`
    WITH account AS (
      SELECT id, email, first_name AS "firstName" FROM users WHERE email = ${email}
    ), token AS (
      INSERT INTO password_reset_tokens (user_id, token_hash, expires_at, created_at)
      SELECT id, ${tokenHash}, ${new Date(now + PASSWORD_RESET_LIFETIME_MS)}, ${new Date(now)} FROM account
      ON CONFLICT (user_id) DO UPDATE
        SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
    )
    SELECT id, email, "firstName" FROM account`,
  );
  return account;
}

/**
 * POST /auth/password-reset: mails the account with `email` a new token, in `locale` (users keep
 * no language of their own: the request's). Whether an account has the address or not, the caller
 * learns nothing: the same answer after the same work — the budgets, a token made and hashed, the
 * statement that writes it — up to the mail, queued only for an account. 5 requests an hour per
 * address and 20 per client address, then 429.
 */
export async function requestPasswordReset(email: string, client: { ip: string }, locale: Locale): Promise<void> {
  const address = normalizeEmail(email);
  const now = Date.now();
  const { secret, hash } = newSecret();
  await inTransaction(prisma(), async (tx) => {
    await chargeResetRequest(tx, address, client.ip, now);
    const account = await replaceResetToken(tx, address, hash, now);
    if (account) await queueAccountMail(tx, 'password_reset', account, secret, locale);
  });
}

const unusableToken = () => notFound('Password reset token');

/**
 * Takes the live token out of use, inside the confirmation's transaction; 404 when it is gone or
 * has expired. The hash in the condition: of two confirmations at once, the second finds it gone.
 */
async function spendResetToken(tx: Db, tokenHash: string, now: number): Promise<string> {
  const [spent] = await queryRaw<Array<{ userId: string }>>(
    tx,
    sql`DELETE FROM password_reset_tokens WHERE token_hash = ${tokenHash} AND expires_at > ${new Date(now)} RETURNING user_id AS "userId"`,
  );
  if (!spent) throw unusableToken();
  return spent.userId;
}

/**
 * POST /auth/password-reset/confirm: sets `password` (already checked against signup's rules) for
 * the user of the live `token`, in one transaction: the token is spent, every session of the user
 * ends (API tokens stay: they belong to organizations), the address counts as verified (the mail
 * proved it) and each organization of the user audits it. An unknown, used, replaced or expired
 * token answers 404.
 */
export async function confirmPasswordReset(token: string, password: string) {
  const tokenHash = sha256(token);
  // Looked up first so that a token that cannot work costs no password hash.
  const live = await prisma().passwordResetToken.findUnique({ where: { tokenHash } });
  if (!live || live.expiresAt.getTime() <= Date.now()) throw unusableToken();
  const passwordHash = await hashPassword(password);
  const user = await inTransaction(prisma(), async (tx) => {
    const userId = await spendResetToken(tx, tokenHash, Date.now());
    await markEmailVerified(tx, userId);
    const updated = userSnapshot(await tx.user.update({ where: { id: userId }, data: { passwordHash, updatedAt: new Date() } }));
    const { count: sessionsRevoked } = await tx.session.deleteMany({ where: { userId } });
    await auditInEachOrganization(
      tx,
      { kind: 'session', user: updated, sessionId: '' },
      { action: 'user.password_reset', entityLabel: updated.email, metadata: { sessionsRevoked } },
    );
    return updated;
  });
  // The mail proved the address: whoever had blocked its sign-ins, its owner may sign in now.
  await unblockSignIn({ email: user.email });
  return { user: toUser(user) };
}
