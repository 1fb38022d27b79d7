import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, signUp } from './app.ts';
import type { TestSmtpServer } from './smtp.ts';

/**
 * Invitations as a person receives them: the token is read out of the message that the real SMTP
 * server of the test (test/support/smtp.ts) received, on its `Invitation token:` line.
 */

export type InvitationBody = {
  ulid: string;
  email: string;
  role: 'admin' | 'member' | 'viewer';
  locale: 'en' | 'es';
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  grantAllPrivateProjects: boolean;
  invitedBy: { ulid: string | null; displayName: string };
  expiresAt: number;
  createdAt: number;
  emailDeliveryStatus: 'failed' | 'suppressed' | null;
};

/** The newest queued mail about an invitation. */
export async function invitationMail(invitationUlid: string) {
  const mail = await prisma().mailOutbox.findFirst({
    where: { subjectType: 'invitation', subjectId: invitationUlid },
    orderBy: { id: 'desc' },
  });
  if (!mail) throw new Error(`no mail queued about invitation ${invitationUlid}`);
  return mail;
}

/** The message delivered for the newest mail about an invitation (its Message-ID names the outbox row). */
export async function invitationMessage(smtp: TestSmtpServer, invitationUlid: string, timeoutMs = 15_000) {
  const mail = await invitationMail(invitationUlid);
  const messageId = `<${mail.id.toLowerCase()}@`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const delivered = smtp.messages.find((message) => message.parsed.messageId?.startsWith(messageId));
    if (delivered) return { subject: delivered.parsed.subject ?? '', text: delivered.parsed.text ?? '', to: delivered.to };
    if (Date.now() > deadline) throw new Error(`the mail about invitation ${invitationUlid} was not delivered`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The token of the newest mail about an invitation, from the delivered message's `Invitation token:` line. */
export async function invitationToken(smtp: TestSmtpServer, invitationUlid: string): Promise<string> {
  const { text } = await invitationMessage(smtp, invitationUlid);
  const token = /^Invitation token: (\S+)$/m.exec(text)?.[1];
  if (!token) throw new Error(`no token line in ${text}`);
  return token;
}

/** POST /orgs/{orgUlid}/invitations that must succeed. */
export async function invite(
  http: TestAgent,
  inviter: Caller,
  body: { email: string; role: 'admin' | 'member' | 'viewer'; locale?: 'en' | 'es'; grantAllPrivateProjects?: boolean },
): Promise<InvitationBody> {
  const response = await http.post(`/api/v1/orgs/${inviter.orgId}/invitations`).set(inviter.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as InvitationBody;
}

export const accept = (http: TestAgent, person: Caller, token: string) =>
  http.post('/api/v1/invitations/accept').set(person.headers).send({ token });

/**
 * A new person (who signed up with an organization of their own) invited to `org` with `role`,
 * who accepts: a session caller acting in `org`.
 */
export async function inviteAndJoin(
  http: TestAgent,
  smtp: TestSmtpServer,
  org: Caller,
  role: 'admin' | 'member' | 'viewer',
  fields: Parameters<typeof signUp>[1] = {},
): Promise<Caller> {
  const person = await signUp(http, fields);
  const invitation = await invite(http, org, { email: person.email, role });
  const accepted = await accept(http, person, await invitationToken(smtp, invitation.ulid));
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { ...person, orgId: org.orgId, headers: { ...person.headers, 'X-Organization-Id': org.orgId } };
}
