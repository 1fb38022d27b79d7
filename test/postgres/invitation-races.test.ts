import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_MAILS_PER_ADDRESS, INVITATION_MAILS_PER_ORGANIZATION } from '../../src/invitations/invitation-budgets.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, joinAs, signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import { invitationToken, invite } from '../support/invitations.ts';
import { type ServerProcess, useServerProcess } from '../support/processes.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * Invitations, acceptances and removals racing on two server processes that share one
 * PostgreSQL database. The organization's row lock is all they share, and it must make the
 * seat limit, the single use of an invitation and the last owner hold; the mail budgets hold by
 * their counters' rows.
 */

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_SMTP_URL: smtp.url });

describe('members and invitations across two server processes', { timeout: 240_000 }, () => {
  const first = useServerProcess({ TCMS_SMTP_URL: smtp.url });
  const second = useServerProcess({ TCMS_SMTP_URL: smtp.url });
  let servers: ServerProcess[];

  beforeAll(() => {
    servers = [first.current, second.current];
  });

  /** A request to the `index`-th request's server: the processes take turns. */
  async function send(index: number, caller: Caller, method: string, path: string, body?: unknown) {
    const server = servers[index % servers.length]!;
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { ...caller.headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as { error?: { code: string } }) : null };
  }

  const context = (extra: unknown) => JSON.stringify({ extra, servers: servers.map((server) => server.output().slice(-1500)) });

  it('10 invitations racing for the last seat: exactly one is created, nine answer seat_limit_exceeded', async () => {
    for (let round = 0; round < 3; round += 1) {
      const owner = await signUp(t.http);
      await joinAs(t.http, owner, 'member');
      // Owner and member hold 2 of 3 seats: one is left.
      const emails = Array.from({ length: 10 }, () => uniqueEmail('race'));
      const answers = await Promise.all(
        emails.map((email, index) => send(index + round, owner, 'POST', `/orgs/${owner.orgId}/invitations`, { email, role: 'member' })),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(
        statuses.filter((status) => status === 201),
        context({ round, answers }),
      ).toHaveLength(1);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(
        refused.map((answer) => [answer.status, answer.body?.error?.code]),
        context({ round, answers }),
      ).toEqual(Array(9).fill([409, 'seat_limit_exceeded']));
      expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(1);
      expect(await prisma().mailOutbox.count({ where: { orgId: owner.orgId } })).toBe(1);
      const usage = await send(round, owner, 'GET', `/orgs/${owner.orgId}/seat-usage`);
      expect(usage.body).toEqual({ used: 3, limit: 3 });
    }
  });

  it('resends of one invitation, then invitations of its address from 8 organizations, racing: the mail budgets hold exactly', async () => {
    await windowWithRoom(HOUR_MS, 30_000);
    const email = uniqueEmail('budget-race');
    const owner = await signUp(t.http);
    const invitation = await invite(t.http, owner, { email, role: 'viewer' });
    const statusesOf = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();

    const resends = await Promise.all(
      Array.from({ length: 12 }, (_, index) => send(index, owner, 'POST', `/orgs/${owner.orgId}/invitations/${invitation.ulid}/resend`)),
    );
    const resent = INVITATION_MAILS_PER_ORGANIZATION - 1;
    expect(statusesOf(resends), context(resends)).toEqual([...Array(resent).fill(200), ...Array(12 - resent).fill(429)]);

    // The organization has spent its budget for the address; others race for what is left of the address's.
    const others: Caller[] = [];
    // One after the other: sign-ins from one client address at once share its budget.
    for (let made = 0; made < 8; made += 1) others.push(await signUp(t.http));
    const invitations = await Promise.all(
      others.map((other, index) => send(index, other, 'POST', `/orgs/${other.orgId}/invitations`, { email, role: 'viewer' })),
    );
    const invited = INVITATION_MAILS_PER_ADDRESS - INVITATION_MAILS_PER_ORGANIZATION;
    expect(statusesOf(invitations), context(invitations)).toEqual([...Array(invited).fill(201), ...Array(8 - invited).fill(429)]);
    expect(await prisma().mailOutbox.count({ where: { recipient: email } })).toBe(INVITATION_MAILS_PER_ADDRESS);
    expect(await prisma().invitation.count({ where: { email } })).toBe(1 + invited);
  });

  it('two accepts of one invitation racing: exactly one succeeds and one membership exists', async () => {
    for (let round = 0; round < 5; round += 1) {
      const owner = await signUp(t.http);
      const person = await signUp(t.http);
      const invitation = await invite(t.http, owner, { email: person.email, role: 'member' });
      const token = await invitationToken(smtp, invitation.ulid);
      const answers = await Promise.all([0, 1].map((index) => send(index + round, person, 'POST', '/invitations/accept', { token })));
      const outcomes = answers.map((answer) => [answer.status, answer.body?.error?.code ?? null]).sort();
      expect(outcomes, context({ round, answers })).toEqual([
        [200, null],
        [404, 'not_found'],
      ]);
      expect(await prisma().membership.count({ where: { orgId: owner.orgId, userId: person.userId } })).toBe(1);
      const accepted = await prisma().auditEvent.count({ where: { orgId: owner.orgId, action: 'invitation.accepted' } });
      expect(accepted).toBe(1);
    }
  });

  it('two owners leaving at once on two processes: exactly one leaves, an owner remains', async () => {
    for (let round = 0; round < 3; round += 1) {
      const owner = await signUp(t.http);
      const other = await joinAs(t.http, owner, 'admin');
      await prisma().membership.updateMany({ where: { orgId: owner.orgId, userId: other.userId }, data: { role: 'owner' } });
      const answers = await Promise.all(
        [owner, other].map((caller, index) => send(index + round, caller, 'DELETE', `/orgs/${owner.orgId}/members/${caller.userId}`)),
      );
      expect(answers.map((answer) => [answer.status, answer.body?.error?.code ?? null]).sort(), context({ round, answers })).toEqual([
        [204, null],
        [409, 'last_owner'],
      ]);
      expect(await prisma().membership.count({ where: { orgId: owner.orgId, role: 'owner' } })).toBe(1);
    }
  });
});
