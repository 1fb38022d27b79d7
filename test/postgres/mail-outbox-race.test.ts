import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueMail } from '../../src/foundation/mail/mail.service.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { type OpenDatabase, openDatabase, prisma } from '../../src/kernel/database/client.ts';
import { inTransaction } from '../../src/kernel/database/transactions.ts';
import { aMail } from '../support/mail-outbox.ts';
import { type ServerProcess, useServerProcess } from '../support/processes.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * Two server processes on one PostgreSQL database compete for the same mail. It is queued here,
 * by a process without an outbox (as by one that stopped before sending it), so it is theirs to
 * take over. Their claims are made to run at the same moment: the test holds the outbox table
 * until both processes wait for it. Every mail must reach the SMTP server exactly once.
 */

const MAILS = 40;

/** Names the two servers' database sessions, to see them wait. */
const APPLICATION_NAME = 'tcms-mail-race';
const databaseUrl = new URL(process.env.DATABASE_URL!);
databaseUrl.searchParams.set('application_name', APPLICATION_NAME);

const smtp = await startSmtpServer();
// Polling every 50 ms, they take over mail due for half a second.
const env = { DATABASE_URL: databaseUrl.toString(), TCMS_SMTP_URL: smtp.url, TCMS_MAIL_POLL_MS: '50' };

/** The ids of the mail a server logged as sent. */
const sentBy = (server: ServerProcess) =>
  server
    .stdout()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; mailId?: string };
        return entry.msg === 'mail sent' && entry.mailId ? [entry.mailId] : [];
      } catch {
        return [];
      }
    });

describe('mail sent by two processes', { timeout: 240_000 }, () => {
  const servers = [useServerProcess(env), useServerProcess(env)];
  let database: OpenDatabase;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-mail-race-'));
    database = await openDatabase(loadConfig({ ...process.env, TCMS_DATA_DIR: dataDir }));
  });

  afterAll(async () => {
    await database?.close();
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every mail exactly once, each by one of the processes, when both claim at the same moment', async () => {
    const mails = Array.from({ length: MAILS }, () => aMail());
    await inTransaction(prisma(), async (tx) => {
      // Writers wait until commit: the servers' next claims queue behind this lock.
      await tx.$executeRaw`LOCK TABLE mail_outbox IN SHARE MODE`;
      for (const mail of mails) await queueMail(tx, mail);
      // Due for two seconds: the servers take it over at once, processes that poll less often not yet.
      await tx.$executeRaw`
        UPDATE mail_outbox SET next_attempt_at = now() - interval '2 seconds'
        WHERE subject_type = 'test' AND subject_id = ANY(${mails.map((mail) => mail.about.id)}::text[])`;
      const waitingClaims = async () => {
        const [row] = await prisma().$queryRaw<{ waiting: number }[]>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ${APPLICATION_NAME} AND wait_event_type = 'Lock'`;
        return row!.waiting;
      };
      await expect.poll(waitingClaims, { timeout: 20_000, interval: 10 }).toBe(2);
    });

    const rows = await prisma().mailOutbox.findMany({
      where: { subjectType: 'test', subjectId: { in: mails.map((mail) => mail.about.id) } },
    });
    expect(rows).toHaveLength(MAILS);
    const ids = rows.map((row) => row.id);
    await expect
      .poll(() => prisma().mailOutbox.count({ where: { id: { in: ids }, status: 'sent' } }), { timeout: 60_000, interval: 50 })
      .toBe(MAILS);

    // Each process logs a mail once it has recorded it as sent: the lines may still be on their way.
    const loggedAsSent = () => servers.flatMap((server) => sentBy(server.current)).sort();
    await expect.poll(loggedAsSent, { timeout: 10_000, interval: 20 }).toEqual(ids.sort());
    const context = servers.map((server) => server.current.output().slice(-3000)).join('\n---\n');
    for (const mail of mails) expect(smtp.messagesTo(mail.to), `${mail.to}\n${context}`).toHaveLength(1);
    const [a, b] = servers.map((server) => sentBy(server.current));
    // Both claimed at once, and neither took what the other had claimed.
    expect(a!.length, context).toBeGreaterThan(0);
    expect(b!.length, context).toBeGreaterThan(0);
    expect(await prisma().mailOutbox.count({ where: { id: { in: ids }, attempts: { not: 1 } } })).toBe(0);
  });
});
