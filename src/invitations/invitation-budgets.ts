import { type Bucket, budgetSpent, consumeCalls, digestKey, type RateLimitState } from '../foundation/rate-limit/rate-limit.service.ts';
import type { Db } from '../kernel/database/client.ts';

/**
 * Invitation mails one organization may send to one address an hour, whichever way: inviting,
 * resending, or revoking and inviting again (which a budget of the invitation's own ULID would not
 * follow). Five is the invitation and four resends; nobody needs more within the hour.
 */
export const INVITATION_MAILS_PER_ORGANIZATION = 5;

/**
 * Invitation mails one address may receive an hour from every organization together: what stops
 * someone with several organizations of their own from flooding a mailbox.
 */
export const INVITATION_MAILS_PER_ADDRESS = 10;

const latest = (states: RateLimitState[]) => states.reduce((a, b) => (a.retryAfterSeconds >= b.retryAfterSeconds ? a : b));

/**
 * Inside the transaction that queues an invitation mail to each of `emails` (distinct, normalized):
 * counts those mails against the organization's budget for each address and each address's own,
 * and refuses with 429 and Retry-After, naming the addresses, when any budget is spent. The counts
 * are the transaction's, so a request refused (for this or any reason) counts and writes nothing.
 */
export async function chargeInvitationMails(tx: Db, orgId: string, emails: string[], now = Date.now()): Promise<void> {
  const charge = (bucket: Bucket, limit: number, ...scope: string[]) =>
    consumeCalls(
      tx,
      emails.map((email) => digestKey(bucket, ...scope, email)),
      bucket,
      limit,
      now,
    );
  const fromOrganization = await charge('invitation_mail_from_org', INVITATION_MAILS_PER_ORGANIZATION, orgId);
  const toAddress = await charge('invitation_mail_to_address', INVITATION_MAILS_PER_ADDRESS);
  const spent = [...fromOrganization, ...toAddress].filter((state) => !state.allowed);
  if (spent.length === 0) return;
  const refused = emails.filter((_, index) => !fromOrganization[index]!.allowed || !toAddress[index]!.allowed);
  throw budgetSpent(latest(spent), `Too many invitation mails within the hour to ${refused.join(', ')}`, { emails: refused });
}
