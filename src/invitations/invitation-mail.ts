import type { Locale } from '../kernel/i18n.ts';

export type InvitationMailFacts = {
  locale: Locale;
  organizationName: string;
  inviterName: string;
  role: 'admin' | 'member' | 'viewer';
  /** `{TCMS_PUBLIC_URL}/invitations/accept?token=<token>` */
  acceptUrl: string;
  token: string;
  expiresAt: Date;
};

const ROLE_NAMES: Record<Locale, Record<InvitationMailFacts['role'], string>> = {
  en: { admin: 'an admin', member: 'a member', viewer: 'a viewer' },
  es: { admin: 'administrador', member: 'miembro', viewer: 'lector' },
};

/** Names typed by people go into a header line: no line breaks there. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/** The date an invitation expires, as people read it, in UTC. */
const dayOf = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The invitation mail in the invitation's language. The line `Invitation token: <token>` is the
 * same in every language, so that a person (or a program) can find the token without the link.
 */
export function invitationMail(facts: InvitationMailFacts): { subject: string; text: string } {
  const organization = oneLine(facts.organizationName);
  const inviter = oneLine(facts.inviterName);
  const role = ROLE_NAMES[facts.locale][facts.role];
  const tokenLine = `Invitation token: ${facts.token}`;
  if (facts.locale === 'es') {
    return {
      subject: `${inviter} te invita a ${organization} en tcms`,
      text: [
        'Hola:',
        '',
        `${inviter} te invita a unirte a la organización "${organization}" en tcms como ${role}.`,
        '',
        'Acepta la invitación aquí:',
        facts.acceptUrl,
        '',
        tokenLine,
        '',
        `La invitación caduca el ${dayOf(facts.expiresAt)}. Si no la esperabas, ignora este mensaje.`,
        '',
      ].join('\n'),
    };
  }
  return {
    subject: `${inviter} invited you to ${organization} on tcms`,
    text: [
      'Hello,',
      '',
      `${inviter} invited you to join the organization "${organization}" on tcms as ${role}.`,
      '',
      'Accept the invitation here:',
      facts.acceptUrl,
      '',
      tokenLine,
      '',
      `The invitation expires on ${dayOf(facts.expiresAt)}. If you did not expect it, ignore this message.`,
      '',
    ].join('\n'),
  };
}
