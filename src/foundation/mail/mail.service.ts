import type { Db } from '../../kernel/database/client.ts';
import { afterCommit } from '../../kernel/database/transactions.ts';
import { newId } from '../../kernel/ids.ts';
import { SUPPRESSED_REASON, suppressionKey, wakeMailOutbox } from './mail-outbox.service.ts';

/** One message to one recipient; `about` names what caused it, so readouts can find its delivery. */
export type OutgoingMail = {
  orgId: string | null;
  about: { type: string; id: string };
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/** What became of the latest mail about a subject: null while queued, retried or once delivered. */
export type DeliveryStatus = 'failed' | 'suppressed' | null;

/**
 * Queues a mail in the caller's transaction: it leaves only if the transaction commits, and is
 * sent after commit by the outbox worker of any server process (mail-outbox.service.ts), this
 * one's woken at once. Mail to a suppressed address is recorded as `suppressed` and never tried.
 */
export async function queueMail(tx: Db, mail: OutgoingMail): Promise<void> {
  const suppressed = await tx.mailSuppression.findUnique({ where: { email: suppressionKey(mail.to) }, select: { email: true } });
  const id = newId();
  await tx.mailOutbox.create({
    data: {
      id,
      orgId: mail.orgId,
      subjectType: mail.about.type,
      subjectId: mail.about.id,
      recipient: mail.to,
      subject: mail.subject,
      // Mail that is never sent keeps no body (the tokens it carries are stored hashed elsewhere).
      ...(suppressed
        ? { textBody: '', htmlBody: null, status: 'suppressed', lastError: SUPPRESSED_REASON }
        : { textBody: mail.text, htmlBody: mail.html ?? null }),
    },
  });
  if (!suppressed) afterCommit(tx, () => wakeMailOutbox(id));
}

/** The delivery status of the newest mail about each subject, in one query. */
export async function deliveryStatuses(db: Db, type: string, ids: string[]): Promise<(id: string) => DeliveryStatus> {
  const rows =
    ids.length === 0
      ? []
      : await db.mailOutbox.findMany({
          where: { subjectType: type, subjectId: { in: ids } },
          orderBy: [{ subjectId: 'asc' }, { id: 'desc' }],
          distinct: ['subjectId'],
          select: { subjectId: true, status: true },
        });
  const byId = new Map(rows.map((row) => [row.subjectId, row.status]));
  return (id) => {
    const status = byId.get(id);
    return status === 'failed' || status === 'suppressed' ? status : null;
  };
}
