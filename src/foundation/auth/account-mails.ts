import { settings } from '../../kernel/config.ts';
import type { Db } from '../../kernel/database/client.ts';
import type { Locale } from '../../kernel/i18n.ts';
import { queueMail } from '../mail/mail.service.ts';

/**
 * The mails that hand a person a token for their own account: the verification mail (contract
 * §18) and the password reset mail (contract §19). Each greets, says what the link does, gives the
 * link to `{TCMS_PUBLIC_URL}<path>?token=`, the token on a line of its own, and how long it works.
 * The token line's label is the same in every language, so that a person (or a program) finds the
 * token without the link.
 */

type Wording = {
  subject: string;
  greeting: (firstName: string) => string;
  /** The sentence before the link. */
  prompt: string;
  /** How long the token works, and what to do with a mail nobody asked for. */
  closing: string;
};

type AccountMail = { path: string; tokenLabel: string; wording: { en: Wording } & Partial<Record<Locale, Wording>> };

const ACCOUNT_MAILS = {
  email_verification: {
    path: '/verify-email',
    tokenLabel: 'Verification token',
    wording: {
      en: {
        subject: 'Verify your email address for tcms',
        greeting: (firstName) => `Hello ${firstName},`,
        prompt: 'Confirm that this address is yours:',
        closing: 'The token works for 7 days. If you did not sign up for tcms, ignore this message.',
      },
    },
  },
  password_reset: {
    path: '/password-reset/confirm',
    tokenLabel: 'Password reset token',
    wording: {
      en: {
        subject: 'Reset your tcms password',
        greeting: (firstName) => `Hello ${firstName},`,
        prompt: 'Someone asked to reset the password of your tcms account. Choose a new password here:',
        closing: 'The token works once, for 1 hour. If you did not ask for it, ignore this message: your password stays as it is.',
      },
      es: {
        subject: 'Restablece tu contraseña de tcms',
        greeting: (firstName) => `Hola, ${firstName}:`,
        prompt: 'Alguien ha pedido restablecer la contraseña de tu cuenta de tcms. Elige una nueva aquí:',
        closing: 'El token sirve una sola vez, durante 1 hora. Si no lo has pedido, ignora este mensaje: tu contraseña no cambia.',
      },
    },
  },
} satisfies Record<string, AccountMail>;

/** What an account mail is about; its outbox rows are about the user under this type. */
export type AccountMailKind = keyof typeof ACCOUNT_MAILS;

/** Names typed by people go into the greeting line: no line breaks there. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/** The mail of `kind` carrying `token`, in `locale` when the mail is written in it, else in English. */
function accountMail(kind: AccountMailKind, firstName: string, token: string, locale: Locale): { subject: string; text: string } {
  const mail: AccountMail = ACCOUNT_MAILS[kind];
  const wording = mail.wording[locale] ?? mail.wording.en;
  return {
    subject: wording.subject,
    text: [
      wording.greeting(oneLine(firstName)),
      '',
      wording.prompt,
      `${settings().publicUrl}${mail.path}?token=${encodeURIComponent(token)}`,
      '',
      `${mail.tokenLabel}: ${token}`,
      '',
      wording.closing,
      '',
    ].join('\n'),
  };
}

/** Queues the mail of `kind` carrying `token` to `user`, inside the caller's transaction. */
export async function queueAccountMail(
  tx: Db,
  kind: AccountMailKind,
  user: { id: string; email: string; firstName: string },
  token: string,
  locale: Locale = 'en',
): Promise<void> {
  await queueMail(tx, {
    orgId: null,
    about: { type: kind, id: user.id },
    to: user.email,
    ...accountMail(kind, user.firstName, token, locale),
  });
}
