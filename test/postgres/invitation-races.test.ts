import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/database/client.ts';
import { joinAs, signUp, uniqueEmail, useTestApp, type Caller } from '../support/app.ts';
import { invitationToken, invite } from '../support/invitations.ts';
import { useServerProcess, type ServerProcess } from '../support/processes.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * Invitations, acceptances and removals racing on two server processes that share one
 * PostgreSQL database. The organization's row lock is all they share, and it must make the
 * seat limit, the single use of an invitation and the last owner hold.
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

  const context = (extra: unknown) =>
    JSON.stringify({ extra, servers: servers.map((server) => server.output().slice(-1500)) });

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
      expect(statuses.filter((status) => status === 201), context({ round, answers })).toHaveLength(1);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(refused.map((answer) => [answer.status, answer.body?.error?.code]), context({ round, answers })).toEqual(
        Array(9).fill([409, 'seat_limit_exceeded']),
      );
      expect(await prisma().invitation.count({ where: { orgId: owner.orgId } })).toBe(1);
      expect(await prisma().mailOutbox.count({ where: { orgId: owner.orgId } })).toBe(1);
      const usage = await send(round, owner, 'GET', `/orgs/${owner.orgId}/seat-usage`);
      expect(usage.body).toEqual({ used: 3, limit: 3 });
    }
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
