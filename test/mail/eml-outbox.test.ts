import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { aMail, outboxRowOf, queue, statusOf } from '../support/mail-outbox.ts';

/** Without TCMS_SMTP_URL, mail is written as RFC 822 files to TCMS_DATA_DIR/outbox/<ulid>.eml. */

const t = useTestApp({ TCMS_SMTP_URL: undefined });

describe('the local outbox', () => {
  it('writes a queued mail to <data dir>/outbox/<ulid>.eml, once, as a parseable message', async () => {
    const mail = await queue(aMail({ subject: 'Únete a Acme', html: '<p>Hola</p>' }));
    await expect.poll(() => statusOf(mail), { timeout: 10_000, interval: 20 }).toBe('sent');
    const row = await outboxRowOf(mail);

    const outbox = path.join(t.dataDir, 'outbox');
    expect((await readdir(outbox)).filter((name) => name.startsWith(row.id))).toEqual([`${row.id}.eml`]);
    const raw = await readFile(path.join(outbox, `${row.id}.eml`));
    expect(raw.toString()).toMatch(/\r\n\r\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: 'no-reply@localhost', name: 'tcms' }]);
    expect(parsed.to).toMatchObject({ value: [{ address: mail.to }] });
    expect(parsed.subject).toBe('Únete a Acme');
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe('<p>Hola</p>');
    expect(parsed.messageId).toBe(`<${row.id.toLowerCase()}@localhost>`);
    expect(row).toMatchObject({ attempts: 1, lastError: null });
  });
});
