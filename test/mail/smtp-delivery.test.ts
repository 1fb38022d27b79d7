import { afterAll, describe, expect, it } from 'vitest';
import { deliveryStatuses, queueMail } from '../../src/foundation/mail/mail.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { inTransaction } from '../../src/kernel/database/transactions.ts';
import { uniqueEmail, useTestApp } from '../support/app.ts';
import { aMail, outboxRowOf, queue, statusOf } from '../support/mail-outbox.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * Mail queued in a transaction leaves after commit through a real SMTP server in this process,
 * which accepts, defers or refuses as each test tells it.
 */

const smtp = await startSmtpServer();
afterAll(() => smtp.close());

const FROM = 'tcms tests <no-reply@tcms.example>';
const t = useTestApp({ TCMS_SMTP_URL: smtp.url, TCMS_MAIL_FROM: FROM, TCMS_RETRY_BASE_MS: '5' });

const settled = { timeout: 10_000, interval: 20 };

describe('mail through SMTP', () => {
  it('delivers a queued mail once, with its headers and body', async () => {
    const mail = await queue(aMail({ subject: 'Join Acme on tcms', html: '<p>Join <b>Acme</b></p>' }));
    const message = await smtp.waitForMessage(mail.to);

    expect(message.from).toBe('no-reply@tcms.example');
    expect(message.to).toEqual([mail.to]);
    expect(message.parsed.subject).toBe('Join Acme on tcms');
    expect(message.parsed.from?.value).toEqual([{ address: 'no-reply@tcms.example', name: 'tcms tests' }]);
    expect(message.parsed.to).toMatchObject({ value: [{ address: mail.to }] });
    expect(message.parsed.text).toBe(mail.text);
    expect(message.parsed.html).toBe('<p>Join <b>Acme</b></p>');
    expect(message.parsed.date).toBeInstanceOf(Date);

    await expect.poll(() => statusOf(mail), settled).toBe('sent');
    const row = await outboxRowOf(mail);
    expect(message.parsed.messageId).toBe(`<${row.id.toLowerCase()}@tcms.example>`);
    expect(row).toMatchObject({ attempts: 1, lastError: null, leaseUntil: null, textBody: '', htmlBody: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(smtp.attempts(mail.to)).toBe(1);
    expect(smtp.messagesTo(mail.to)).toHaveLength(1);
    expect((await deliveryStatuses(prisma(), mail.about.type, [mail.about.id]))(mail.about.id)).toBeNull();
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const rolledBack = aMail();
    const committed = aMail();
    await expect(
      inTransaction(prisma(), async (tx) => {
        await queueMail(tx, rolledBack);
        throw new Error('the service failed after queueing');
      }),
    ).rejects.toThrow('the service failed after queueing');
    // Mail queued later is sent, so the worker has been at work since the rollback.
    await queue(committed);
    await smtp.waitForMessage(committed.to);
    await expect.poll(() => statusOf(committed), settled).toBe('sent');

    expect(await prisma().mailOutbox.count({ where: { subjectId: rolledBack.about.id } })).toBe(0);
    expect(smtp.attempts(rolledBack.to)).toBe(0);
  });

  it('retries a deferred recipient with growing delays until it is accepted', async () => {
    const mail = aMail();
    smtp.behaviour(mail.to, 'defer', 'defer', 'accept');
    await queue(mail);
    await smtp.waitForMessage(mail.to);

    await expect.poll(() => statusOf(mail), settled).toBe('sent');
    expect(await outboxRowOf(mail)).toMatchObject({ attempts: 3, lastError: null });
    expect(smtp.attempts(mail.to)).toBe(3);
    expect(smtp.messagesTo(mail.to)).toHaveLength(1);
  });

  it('gives up after 5 deferred attempts: failed, with the last reply', async () => {
    const mail = aMail();
    smtp.behaviour(mail.to, 'defer');
    await queue(mail);

    await expect.poll(() => statusOf(mail), settled).toBe('failed');
    const row = await outboxRowOf(mail);
    expect(row.attempts).toBe(5);
    expect(row.lastError).toMatch(/451/);
    expect(row.textBody).toBe('');
    expect(smtp.attempts(mail.to)).toBe(5);
    expect(smtp.messagesTo(mail.to)).toHaveLength(0);
    expect((await deliveryStatuses(prisma(), mail.about.type, [mail.about.id]))(mail.about.id)).toBe('failed');
  });

  it('suppresses an address whose recipient is refused (5xx to RCPT TO) and never tries it again', async () => {
    const address = uniqueEmail('gone');
    smtp.behaviour(address, 'reject', 'accept');
    const first = await queue(aMail({ to: address }));

    await expect.poll(() => statusOf(first), settled).toBe('suppressed');
    expect(await outboxRowOf(first)).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/550/) });
    expect(await prisma().mailSuppression.findUnique({ where: { email: address } })).toMatchObject({
      reason: expect.stringMatching(/550/),
    });

    // Written differently, the address is still the suppressed one; the server would accept it now.
    const second = await queue(aMail({ to: ` ${address.toUpperCase()}` }));
    expect(await statusOf(second)).toBe('suppressed');
    expect((await deliveryStatuses(prisma(), second.about.type, [second.about.id]))(second.about.id)).toBe('suppressed');
    expect(smtp.attempts(address)).toBe(1);
  });

  it('settles as suppressed a mail whose address was suppressed after it was queued, without an attempt', async () => {
    const address = uniqueEmail('late');
    const mail = aMail({ to: address });
    // Queued while the address was fine, but not yet claimed when it is suppressed.
    await inTransaction(prisma(), async (tx) => {
      await queueMail(tx, mail);
      await tx.mailSuppression.create({ data: { email: address, reason: 'refused for another mail' } });
    });

    await expect.poll(() => statusOf(mail), settled).toBe('suppressed');
    expect(await outboxRowOf(mail)).toMatchObject({ attempts: 0, textBody: '' });
    expect(smtp.attempts(address)).toBe(0);
  });

  it('fails at once, without suppressing the address, when the server refuses the message itself (5xx after DATA)', async () => {
    const mail = aMail();
    smtp.behaviour(mail.to, 'refuse-message');
    await queue(mail);

    await expect.poll(() => statusOf(mail), settled).toBe('failed');
    expect(await outboxRowOf(mail)).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/554/) });
    expect(await prisma().mailSuppression.findUnique({ where: { email: mail.to } })).toBeNull();
  });

  it('counts deliveries by outcome in the metrics', async () => {
    const metrics = await t.http.get('/metrics');
    expect(metrics.status).toBe(200);
    for (const outcome of ['sent', 'retry', 'failed', 'suppressed']) {
      expect(metrics.text).toMatch(new RegExp(`^tcms_mail_deliveries_total\\{outcome="${outcome}"\\} [1-9]`, 'm'));
    }
  });
});
