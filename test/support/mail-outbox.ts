import { type OutgoingMail, queueMail } from '../../src/foundation/mail/mail.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { inTransaction } from '../../src/kernel/database/transactions.ts';
import { newId } from '../../src/kernel/ids.ts';
import { uniqueEmail } from './app.ts';

/** A mail about a subject of its own, to a fresh address unless told. */
export function aMail(fields: Partial<OutgoingMail> = {}): OutgoingMail {
  const to = fields.to ?? uniqueEmail('recipient');
  return {
    orgId: null,
    about: { type: 'test', id: newId() },
    to,
    subject: 'Your invitation',
    text: `Hello ${to}\nInvitation token: ${newId()}\n`,
    ...fields,
  };
}

/** Queues `mail` as a service does: in a transaction of its own, on the real database. */
export async function queue(mail: OutgoingMail): Promise<OutgoingMail> {
  await inTransaction(prisma(), (tx) => queueMail(tx, mail));
  return mail;
}

/** The outbox row of the mail about `mail.about`. */
export async function outboxRowOf(mail: Pick<OutgoingMail, 'about'>) {
  return prisma().mailOutbox.findFirstOrThrow({ where: { subjectType: mail.about.type, subjectId: mail.about.id } });
}

export const statusOf = async (mail: Pick<OutgoingMail, 'about'>) => (await outboxRowOf(mail)).status;
