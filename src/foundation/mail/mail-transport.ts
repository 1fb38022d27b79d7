import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type NodemailerError, type SendMailOptions } from 'nodemailer';
import type { Config } from '../../kernel/config.ts';
import { ensureDataDirectory, errorCode, notWritable } from '../../kernel/data-directory.ts';

/** One outbox row as it is handed to a transport. */
export type Envelope = { id: string; to: string; subject: string; text: string; html: string | null };

/** Where mail goes: an SMTP server, or files in the local outbox. */
export type MailTransport = {
  /** Delivers the message, or rejects with the transport's error (read it with `classifyFailure`). */
  send(mail: Envelope, signal: AbortSignal): Promise<void>;
  close(): void;
};

/** What a failed delivery means for the mail: try again later, suppress the address, or give up. */
export type Failure = { kind: 'temporary' | 'recipient_refused' | 'permanent'; reason: string };

/**
 * No conversation with the SMTP server may take longer than these: a send is aborted at
 * SEND_DEADLINE_MS, well within the lease that keeps other processes off the mail meanwhile.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 };
export const SEND_DEADLINE_MS = 60_000;

const MAX_REASON_LENGTH = 1_000;

/** SMTP when TCMS_SMTP_URL is set; otherwise `.eml` files in TCMS_DATA_DIR/outbox (created here). */
export async function openMailTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Promise<MailTransport> {
  if (config.smtpUrl) return smtpTransport(config.smtpUrl, config.mailFrom);
  const directory = path.join(config.dataDir, 'outbox');
  await ensureDataDirectory(config.dataDir);
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw notWritable(config.dataDir, error);
  }
  return outboxDirectoryTransport(directory, config.mailFrom);
}

/** The message as nodemailer builds it; its Message-ID names the outbox row, so a repeat is recognizable. */
function messageOf(mail: Envelope, from: string): SendMailOptions {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html === null ? {} : { html: mail.html }),
    messageId: `<${mail.id.toLowerCase()}@${domain}>`,
  };
}

function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer reads host, port, TLS (smtps:) and user:password from the URL.
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    send: async (mail, signal) => {
      await transporter.sendMail({ ...messageOf(mail, from), signal });
    },
    close: () => transporter.close(),
  };
}

/**
 * Writes each message as RFC 822 to `<directory>/<ulid>.eml`, through a temporary name so that a
 * reader never sees half a file; a repeated delivery of one row overwrites its own file.
 */
function outboxDirectoryTransport(directory: string, from: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    send: async (mail) => {
      const { message } = await composer.sendMail(messageOf(mail, from));
      const file = path.join(directory, `${mail.id}.eml`);
      await writeFile(`${file}.partial`, message as Buffer);
      await rename(`${file}.partial`, file);
    },
    close: () => composer.close(),
  };
}

/** Commands whose permanent refusal is about the message (its sender, its content), not the session. */
const MESSAGE_COMMANDS = new Set(['MAIL FROM', 'DATA']);

/**
 * Reads a transport error. A permanent SMTP reply (5xx, but 503) to RCPT TO refuses the
 * recipient; to MAIL FROM or DATA it refuses the message, which no retry changes either. Anything
 * else is temporary: a 4xx reply, a refused login (the operator can fix the credentials), and
 * every failure without a reply (connection refused or lost, timeouts, TLS, DNS, a full disk
 * under the outbox).
 */
export function classifyFailure(error: unknown): Failure {
  const failure = error as NodemailerError;
  const reason = describe(failure).slice(0, MAX_REASON_LENGTH);
  if (failure.responseCode === undefined || !failure.permanent) return { kind: 'temporary', reason };
  if (failure.command === 'RCPT TO') return { kind: 'recipient_refused', reason };
  return { kind: MESSAGE_COMMANDS.has(failure.command ?? '') ? 'permanent' : 'temporary', reason };
}

function describe(error: NodemailerError): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.originalCode ?? errorCode(error);
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
