import { settings } from '../../kernel/config.ts';
import { type Db, prisma } from '../../kernel/database/client.ts';
import { inTransaction } from '../../kernel/database/transactions.ts';
import { AppError, conflict, notFound } from '../../kernel/errors.ts';
import { newSecret, sha256 } from '../../kernel/secrets.ts';
import { budgetSpent, consumeCall } from '../rate-limit/rate-limit.service.ts';
import { queueAccountMail } from './account-mails.ts';

/**
 * Email verification (contract §18): one live token per user, stored hashed on the user row; a
 * new mail replaces it, so the earlier token stops working. With TCMS_REQUIRE_EMAIL_VERIFICATION
 * an unverified user cannot invite, create API tokens or accept invitations.
 */

/** A verification token works for 7 days after its mail was queued. */
export const VERIFICATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Inside the caller's transaction: a new token for `user`, and the mail that carries it. */
export async function queueVerificationMail(tx: Db, user: { id: string; email: string; firstName: string }): Promise<void> {
  const { secret, hash } = newSecret();
  await tx.user.update({ where: { id: user.id }, data: { emailVerificationTokenHash: hash, emailVerificationSentAt: new Date() } });
  await queueAccountMail(tx, 'email_verification', user, secret);
}

const VERIFIED = () => ({ emailVerifiedAt: new Date(), emailVerificationTokenHash: null, emailVerificationSentAt: null });

/** Marks the user's address as proven (an invitation token or a password reset did); a no-op when it already is. */
export async function markEmailVerified(tx: Db, userId: string): Promise<void> {
  await tx.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: VERIFIED() });
}

/**
 * Inside the caller's transaction: proves the address of the user whose live token this is.
 * Unknown, replaced, used or expired tokens answer 404.
 */
export async function verifyByToken(tx: Db, token: string) {
  const tokenHash = sha256(token);
  const user = await tx.user.findUnique({ where: { emailVerificationTokenHash: tokenHash } });
  const sentAt = user?.emailVerificationSentAt?.getTime() ?? 0;
  if (!user || user.emailVerifiedAt || sentAt + VERIFICATION_LIFETIME_MS <= Date.now()) throw notFound('Verification token');
  // The token in the condition: of two verifications at once, the second finds it gone (404).
  return tx.user.update({ where: { id: user.id, emailVerificationTokenHash: tokenHash }, data: VERIFIED() });
}

/** Verification mails a user may have sent again per hour. */
export const RESENDS_PER_HOUR = 5;

/**
 * POST /auth/verify-email/resend: a new token replaces the live one. Refused for a verified
 * address (409), and past 5 an hour (429).
 */
export async function resendVerification(userId: string, db: Db = prisma()): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (user.emailVerifiedAt) throw conflict('This email address is already verified');
  // Counted before the mail's transaction, so that a refused resend still counts; on the request's
  // own transaction when it runs in one (an Idempotency-Key), which holds the only embedded connection.
  const budget = await consumeCall(user.id, 'verification_mail', RESENDS_PER_HOUR, Date.now(), db);
  if (!budget.allowed) throw budgetSpent(budget, `At most ${RESENDS_PER_HOUR} verification mails an hour`);
  await inTransaction(db, (tx) => queueVerificationMail(tx, user));
}

/** The gate of inviting, creating API tokens and accepting invitations when verification is required. */
export function assertEmailVerified(user: { emailVerified: boolean }): void {
  if (settings().requireEmailVerification && !user.emailVerified) {
    throw new AppError(
      'email_not_verified',
      'Verify your email address first: use the token of the verification mail, or have it sent again',
    );
  }
}
