import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { backoffDelayMs } from '../../kernel/backoff.ts';
import type { Config } from '../../kernel/config.ts';
import type { PrismaClient } from '../../kernel/database/client.ts';
import { executeRaw, queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { logger } from '../../kernel/logger.ts';
import { startOutboxWorker } from '../outbox/outbox-worker.ts';
import { classifyFailure, type Envelope, type Failure, openMailTransport, SEND_DEADLINE_MS } from './mail-transport.ts';

/** Attempts of one mail in all: after the last temporary failure it is `failed`. */
export const MAX_ATTEMPTS = 5;

/** How long a claimed mail stays its claimer's: far beyond the longest send, so no two processes send it. */
const LEASE_MS = 5 * SEND_DEADLINE_MS;

/** Mails sent side by side, each over a connection of its own. */
const CONCURRENCY = 10;

/**
 * Mail its process should have sent (queued there, or due there for a retry) is taken over by
 * any process once it has been due for this many poll intervals: its process has stopped.
 */
const TAKEOVER_POLLS = 10;

/** The delay before the retry that follows `attempt` failed: base · 2^(attempt−1), ±20%. */
export const retryDelayMs = (baseMs: number, attempt: number, random = Math.random()) => backoffDelayMs(baseMs, 2, attempt, random);

/** How an address is compared with the suppression list. */
export const suppressionKey = (address: string) => address.trim().toLowerCase();

export const SUPPRESSED_REASON = 'not attempted: the address is suppressed';

/** What became of one attempt, as counted by the metrics. */
export type MailOutcome = 'sent' | 'retry' | 'failed' | 'suppressed';

type Claimed = Envelope & { status: 'sending' | 'failed' | 'suppressed'; attempts: number; lastError: string | null };

export type MailOutbox = { stop(): Promise<void> };

/** The outboxes running in this process (one per open app), told of each mail a transaction committed. */
const running = new Set<(mailId: string, attempts: number) => void>();

/** Tells this process's outbox that a mail was committed: it is sent now. */
export function wakeMailOutbox(mailId: string): void {
  for (const wake of running) wake(mailId, 0);
}

/**
 * Starts the outbox worker of this process; every server process runs one, on the `mail_outbox`
 * table they share. A mail is claimed (FOR UPDATE SKIP LOCKED: status `sending` and a lease)
 * before it is sent, outside any transaction, and its outcome is recorded only if the claim is
 * still this worker's. The process that queued a mail sends it at once and its retries when they
 * are due; every `mailPollMs` each process also looks for mail no process is taking care of
 * (due for ten intervals: its process stopped) and takes it over. `stop` waits for the sends in
 * flight and claims nothing more.
 */
export async function startMailOutbox(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'retryBaseMs' | 'mailPollMs'>,
  db: PrismaClient,
  onOutcome: (outcome: MailOutcome) => void = () => {},
): Promise<MailOutbox> {
  const transport = await openMailTransport(config);
  const takeoverMs = TAKEOVER_POLLS * config.mailPollMs;
  /** Mail this worker is to send, with the attempts it had when it was left to this worker. */
  const own = new Map<string, number>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let lookForOrphans = false;

  /** Its own mail first; mail of no process only after a poll, and as long as each claim finds a full batch. */
  const claimDue = async (limit: number): Promise<Claimed[]> => {
    if (own.size > 0) {
      const mails = [...own].slice(0, limit);
      for (const [id] of mails) own.delete(id);
      const claimed = await claim(db, ownedMail(mails));
      // None of these was still left to this worker: the rest may be.
      return claimed.length > 0 ? claimed : claimDue(limit);
    }
    if (!lookForOrphans) return [];
    lookForOrphans = false;
    const claimed = await claim(db, orphanedMail(takeoverMs, limit));
    lookForOrphans = claimed.length === limit;
    return claimed;
  };

  const deliver = async (mail: Claimed) => {
    if (mail.status !== 'sending') return report(mail, mail.status, mail.lastError);
    let failure: Failure | undefined;
    try {
      await transport.send(mail, AbortSignal.timeout(SEND_DEADLINE_MS));
    } catch (error) {
      failure = classifyFailure(error);
    }
    const outcome = outcomeOf(mail, failure);
    const delayMs = outcome === 'retry' ? retryDelayMs(config.retryBaseMs, mail.attempts) : 0;
    try {
      if (!(await record(db, mail, outcome, failure?.reason ?? null, delayMs))) return;
    } catch (error) {
      // Its lease runs out and it is taken over: at worst the mail is sent twice.
      logger.error({ err: error, mailId: mail.id }, 'the outcome of a mail could not be recorded');
      return;
    }
    report(mail, outcome, failure?.reason ?? null);
    if (outcome === 'retry') retryLater(mail, delayMs);
  };

  const retryLater = (mail: Claimed, delayMs: number) => {
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      wake(mail.id, mail.attempts);
    }, delayMs);
    timer.unref();
    retryTimers.add(timer);
  };

  /** Logs what became of a mail (never its body, which carries tokens) and counts it. */
  const report = (mail: Claimed, outcome: MailOutcome, reason: string | null) => {
    onOutcome(outcome);
    const fields = { mailId: mail.id, attempt: mail.attempts, outcome, reason };
    if (outcome === 'sent') logger.info(fields, 'mail sent');
    else logger.warn(fields, OUTCOME_MESSAGES[outcome]);
  };

  const worker = startOutboxWorker({ name: 'mail', concurrency: CONCURRENCY, claim: claimDue, process: deliver });
  const wake = (mailId: string, attempts: number) => {
    own.set(mailId, attempts);
    worker.wake();
  };
  // The worker's own poll would not tell a poll from a wake: only a poll looks for orphans.
  const poll = setInterval(() => {
    lookForOrphans = true;
    worker.wake();
  }, config.mailPollMs);
  poll.unref();
  running.add(wake);

  return {
    stop: async () => {
      running.delete(wake);
      clearInterval(poll);
      await worker.stop();
      // Set last by the sends that were in flight.
      for (const timer of retryTimers) clearTimeout(timer);
      transport.close();
    },
  };
}

/** Mail left to this worker, still as it was then (a process that took it over meanwhile moved it on). */
const ownedMail = (mails: [id: string, attempts: number][]) => sql`
  SELECT candidate.id, candidate.recipient, candidate.attempts
  FROM mail_outbox AS candidate
  JOIN unnest(${mails.map(([id]) => id)}::text[], ${mails.map(([, attempts]) => attempts)}::int[]) AS own (id, attempts)
    ON own.id = candidate.id AND own.attempts = candidate.attempts
  WHERE candidate.status = 'queued'`;

/** Mail due for longer than `takeoverMs`, or whose lease ran out as long ago: no process is taking care of it. */
const orphanedMail = (takeoverMs: number, limit: number) => sql`
  SELECT candidate.id, candidate.recipient, candidate.attempts
  FROM mail_outbox AS candidate
  WHERE (candidate.status = 'queued' AND candidate.next_attempt_at <= now() - ${takeoverMs}::double precision * interval '1 millisecond')
     OR (candidate.status = 'sending' AND candidate.lease_until <= now() - ${takeoverMs}::double precision * interval '1 millisecond')
  ORDER BY candidate.next_attempt_at, candidate.id
  LIMIT ${limit}`;

/**
 * Claims the mail `candidates` selects, in one statement. Mail to a suppressed address is settled
 * as `suppressed` on the spot, and a lapsed lease on the last attempt as `failed`; the rest
 * becomes `sending`, one attempt more, leased to this worker.
 */
async function claim(db: PrismaClient, candidates: Prisma.Sql): Promise<Claimed[]> {
  return queryRaw<Claimed[]>(
    db,
    sql`
    UPDATE mail_outbox AS mail
    SET status = CASE WHEN due.suppressed THEN 'suppressed' WHEN due.exhausted THEN 'failed' ELSE 'sending' END,
        attempts = CASE WHEN due.settled THEN mail.attempts ELSE mail.attempts + 1 END,
        lease_until = CASE WHEN due.settled THEN NULL ELSE now() + ${LEASE_MS}::double precision * interval '1 millisecond' END,
        last_error = CASE
          WHEN due.suppressed THEN ${SUPPRESSED_REASON}
          WHEN due.exhausted THEN 'the last attempt did not finish: its process stopped'
          ELSE mail.last_error END,
        text_body = CASE WHEN due.settled THEN '' ELSE mail.text_body END,
        html_body = CASE WHEN due.settled THEN NULL ELSE mail.html_body END
    FROM (
      SELECT locked.id, suppression.email IS NOT NULL AS suppressed, locked.attempts >= ${MAX_ATTEMPTS} AS exhausted,
             suppression.email IS NOT NULL OR locked.attempts >= ${MAX_ATTEMPTS} AS settled
      FROM (${candidates} FOR UPDATE OF candidate SKIP LOCKED) AS locked
      LEFT JOIN mail_suppressions AS suppression ON suppression.email = lower(btrim(locked.recipient))
    ) AS due
    WHERE mail.id = due.id
    RETURNING mail.id, mail.recipient AS "to", mail.subject, mail.text_body AS text, mail.html_body AS html,
              mail.status, mail.attempts, mail.last_error AS "lastError"`,
  );
}

const OUTCOME_MESSAGES = {
  retry: 'mail deferred: it is tried again later',
  failed: 'mail failed: it is not tried again',
  suppressed: 'mail not sent: its recipient is refused, the address is suppressed',
};

function outcomeOf(mail: Claimed, failure: Failure | undefined): MailOutcome {
  if (!failure) return 'sent';
  if (failure.kind === 'recipient_refused') return 'suppressed';
  return failure.kind === 'permanent' || mail.attempts >= MAX_ATTEMPTS ? 'failed' : 'retry';
}

/**
 * Records the outcome of a send if the claim is still ours (same status and attempt); false when
 * its lease had run out and another attempt took the mail over. A refused recipient joins the
 * suppression list in the same statement. A settled mail keeps no body: the tokens it carries are
 * stored only hashed everywhere else.
 */
async function record(db: PrismaClient, mail: Claimed, outcome: MailOutcome, reason: string | null, delayMs: number): Promise<boolean> {
  const changed = await executeRaw(
    db,
    sql`
    WITH suppression AS (
      INSERT INTO mail_suppressions (email, reason)
      SELECT ${suppressionKey(mail.to)}, ${reason} WHERE ${outcome === 'suppressed'}
      ON CONFLICT (email) DO NOTHING
    )
    UPDATE mail_outbox
    SET status = ${outcome === 'retry' ? 'queued' : outcome}, lease_until = NULL, last_error = ${reason},
        sent_at = CASE WHEN ${outcome === 'sent'} THEN now() END,
        next_attempt_at = now() + ${delayMs}::double precision * interval '1 millisecond',
        text_body = CASE WHEN ${outcome === 'retry'} THEN text_body ELSE '' END,
        html_body = CASE WHEN ${outcome === 'retry'} THEN html_body END
    WHERE id = ${mail.id} AND status = 'sending' AND attempts = ${mail.attempts}`,
  );
  return changed === 1;
}
