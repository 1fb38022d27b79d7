import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process (the `smtp-server` package): it answers each recipient
 * as told and keeps every message it accepts, parsed (mailparser).
 */

/**
 * How the server answers a recipient: `accept`; `defer` (451 to RCPT TO, a temporary failure);
 * `reject` (550 to RCPT TO: the recipient is refused for good); `refuse-message` (the recipient
 * is accepted, then 554 to the message after DATA: a permanent failure that is not the recipient's).
 */
export type SmtpAnswer = 'accept' | 'defer' | 'reject' | 'refuse-message';

export type DeliveredMessage = {
  /** The envelope: MAIL FROM and the accepted RCPT TO addresses. */
  from: string;
  to: string[];
  /** The message as it came over the wire (RFC 822). */
  raw: Buffer;
  parsed: ParsedMail;
};

export type TestSmtpServer = {
  /** `smtp://127.0.0.1:<port>`, with `user:password@` when the server requires them. */
  url: string;
  port: number;
  /** Every message accepted so far, in order. */
  messages: DeliveredMessage[];
  messagesTo(address: string): DeliveredMessage[];
  /** The first message accepted for `address`, now or once it arrives; rejects after `timeoutMs`. */
  waitForMessage(address: string, timeoutMs?: number): Promise<DeliveredMessage>;
  /**
   * How the next RCPT TO commands for `address` are answered, in order; the last answer stays.
   * `behaviour(to, 'defer', 'defer', 'accept')` defers twice, then accepts. Unnamed addresses are accepted.
   */
  behaviour(address: string, ...answers: [SmtpAnswer, ...SmtpAnswer[]]): void;
  /** How many RCPT TO commands named `address` (each is one delivery attempt). */
  attempts(address: string): number;
  close(): Promise<void>;
};

export type SmtpServerOptions = {
  /** Listen on this port (e.g. one a test first let the service find closed); a free one by default. */
  port?: number;
  /** Require AUTH (PLAIN or LOGIN, over the plain connection) with these credentials. */
  credentials?: { user: string; pass: string };
  /** Answer each message this long after it arrived, as a busy server does (sends stay in flight meanwhile). */
  answerDelayMs?: number;
};

const key = (address: string) => address.trim().toLowerCase();

const smtpError = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: DeliveredMessage[] = [];
  const plans = new Map<string, SmtpAnswer[]>();
  const answered = new Map<string, SmtpAnswer>();
  const rcptCounts = new Map<string, number>();
  const arrivals = new EventEmitter();
  const { credentials } = options;

  const nextAnswer = (address: string): SmtpAnswer => {
    const plan = plans.get(address);
    if (!plan) return 'accept';
    return plan.length > 1 ? plan.shift()! : plan[0]!;
  };

  const server = new SMTPServer({
    logger: false,
    // Plain SMTP: nodemailer would upgrade to TLS, which needs a certificate the client trusts.
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass)
        return callback(null, { user: auth.username });
      callback(smtpError(535, 'Authentication credentials invalid'));
    },
    onRcptTo(address, session, callback) {
      const recipient = key(address.address);
      rcptCounts.set(recipient, (rcptCounts.get(recipient) ?? 0) + 1);
      const answer = nextAnswer(recipient);
      answered.set(`${session.id} ${recipient}`, answer);
      if (answer === 'defer') return callback(smtpError(451, `4.3.0 ${recipient}: try again later`));
      if (answer === 'reject') return callback(smtpError(550, `5.1.1 ${recipient}: no such user`));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (options.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs));
        const to = session.envelope.rcptTo.map((address) => key(address.address));
        if (to.some((recipient) => answered.get(`${session.id} ${recipient}`) === 'refuse-message')) {
          return callback(smtpError(554, '5.6.0 message refused'));
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            const message = { from, to, raw, parsed };
            messages.push(message);
            callback();
            for (const recipient of to) arrivals.emit(recipient, message);
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A client that drops its connection must not end the test process.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;
  const userInfo = credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@` : '';

  const messagesTo = (address: string) => messages.filter((message) => message.to.includes(key(address)));

  return {
    url: `smtp://${userInfo}127.0.0.1:${port}`,
    port,
    messages,
    messagesTo,
    waitForMessage: (address, timeoutMs = 10_000) => {
      const [delivered] = messagesTo(address);
      if (delivered) return Promise.resolve(delivered);
      return new Promise((resolve, reject) => {
        const arrived = (message: DeliveredMessage) => {
          clearTimeout(timer);
          resolve(message);
        };
        const timer = setTimeout(() => {
          arrivals.off(key(address), arrived);
          reject(new Error(`no message for ${address} within ${timeoutMs} ms (${messages.length} delivered to others)`));
        }, timeoutMs);
        arrivals.once(key(address), arrived);
      });
    },
    behaviour: (address, ...answers) => {
      plans.set(key(address), [...answers]);
    },
    attempts: (address) => rcptCounts.get(key(address)) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
