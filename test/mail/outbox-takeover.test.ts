import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { TEST_DEFAULTS, uniqueEmail } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';
import { aMail, outboxRowOf, queue, statusOf } from '../support/mail-outbox.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * Mail whose process stopped is taken over by another: what it left queued, and what it left
 * `sending` (its lease ran out). Closing the app waits for the sends in flight and sends nothing
 * more. The app here polls every 100 ms, so it takes over mail due for a second.
 */

const first = await startSmtpServer({ answerDelayMs: 200 });
const second = await startSmtpServer();
let dataDir: string;
let app: App;

const openApp = (smtpUrl: string) =>
  createApp(
    loadConfig({
      ...process.env,
      TCMS_DATA_DIR: dataDir,
      NODE_ENV: 'test',
      ...TEST_DEFAULTS,
      TCMS_SMTP_URL: smtpUrl,
      TCMS_MAIL_POLL_MS: '100',
    }),
  );

beforeAll(async () => {
  dataDir = await newDataDir('tcms-mail-');
  app = await openApp(first.url);
});

afterAll(async () => {
  await app?.close();
  await Promise.all([first.close(), second.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

/** A mail another process claimed for attempt `attempts`, whose lease ran out two seconds ago. */
async function leftSending(attempts: number) {
  const to = uniqueEmail('orphan');
  const row = await prisma().mailOutbox.create({
    data: {
      id: newId(),
      orgId: null,
      subjectType: 'test',
      subjectId: newId(),
      recipient: to,
      subject: 'Left behind',
      textBody: 'Invitation token: orphaned\n',
      status: 'sending',
      attempts,
      leaseUntil: new Date(Date.now() - 2_000),
    },
  });
  return { to, about: { type: row.subjectType, id: row.subjectId } };
}

const settled = { timeout: 15_000, interval: 20 };

describe('mail of a process that stopped', () => {
  it('is sent by another process once the lease of its claim has run out', async () => {
    const mail = await leftSending(1);
    const message = await first.waitForMessage(mail.to);
    expect(message.parsed.text).toBe('Invitation token: orphaned\n');
    await expect.poll(() => statusOf(mail), settled).toBe('sent');
    expect((await outboxRowOf(mail)).attempts).toBe(2);
    expect(first.messagesTo(mail.to)).toHaveLength(1);
  });

  it('is failed, not sent, when the lease that ran out was its last attempt', async () => {
    const mail = await leftSending(5);
    await expect.poll(() => statusOf(mail), settled).toBe('failed');
    expect(await outboxRowOf(mail)).toMatchObject({ attempts: 5, lastError: expect.stringMatching(/process stopped/), textBody: '' });
    expect(first.attempts(mail.to)).toBe(0);
  });

  it('closing the app finishes the sends in flight and sends nothing more; the next process sends the rest, each once', async () => {
    const mails = await Promise.all(Array.from({ length: 20 }, () => queue(aMail())));
    await app.close();
    const sentBeforeClose = first.messages.length;

    app = await openApp(second.url);
    await expect.poll(async () => (await Promise.all(mails.map(statusOf))).every((status) => status === 'sent'), settled).toBe(true);
    for (const mail of mails) {
      expect([...first.messagesTo(mail.to), ...second.messagesTo(mail.to)], mail.to).toHaveLength(1);
    }
    expect(first.messages.length).toBe(sentBeforeClose);
    // Some were in flight at close (the first server answers slowly), the rest were left queued.
    expect(mails.filter((mail) => first.messagesTo(mail.to).length === 1).length).toBeGreaterThan(0);
    expect(mails.filter((mail) => second.messagesTo(mail.to).length === 1).length).toBeGreaterThan(0);
  });
});
