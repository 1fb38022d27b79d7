import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { aMail, outboxRowOf, queue } from '../support/mail-outbox.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { freePort } from '../support/tcp-proxy.ts';

/**
 * An SMTP server that refuses connections is a temporary failure: the mail is tried again with
 * growing delays, and leaves once the server is up — logging in with the user:password of
 * TCMS_SMTP_URL.
 */

const port = await freePort();
const credentials = { user: 'tcms', pass: 'p@ss word' };
let smtp: TestSmtpServer | undefined;
afterAll(() => smtp?.close());

useTestApp({
  TCMS_SMTP_URL: `smtp://${credentials.user}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`,
  TCMS_RETRY_BASE_MS: '300',
});

describe('an SMTP server that is not there yet', () => {
  it('retries after connection refused, then delivers once the server accepts', async () => {
    const mail = await queue(aMail());
    await expect
      .poll(
        async () => {
          const row = await outboxRowOf(mail);
          return row.attempts >= 2 && row.status === 'queued' ? row.lastError : null;
        },
        { timeout: 10_000, interval: 10 },
      )
      .toMatch(/ECONNREFUSED/);

    smtp = await startSmtpServer({ port, credentials });
    const message = await smtp.waitForMessage(mail.to);
    expect(message.parsed.text).toBe(mail.text);

    await expect.poll(async () => (await outboxRowOf(mail)).status, { timeout: 10_000, interval: 20 }).toBe('sent');
    const row = await outboxRowOf(mail);
    expect(row.attempts).toBeGreaterThanOrEqual(3);
    expect(row.attempts).toBeLessThanOrEqual(5);
    expect(smtp.messagesTo(mail.to)).toHaveLength(1);
  });
});
