import { verifyEmailBodySchema } from '../../src/accounts/accounts.schemas.ts';
import { resendVerificationMail, verifyEmail } from '../../src/accounts/accounts.service.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { hiddenField, notice, postForm } from './frame.ts';
import { type Html, html } from './html.ts';
import { type FormValues, type PageAnswer, type PageDefinition, type PageRequest, readForm, refusal, signInPath } from './page.ts';
import { FRAME, fill, type Texts } from './texts.ts';

/**
 * `/verify-email?token=` (contract §18, §19): the link of the verification mail. Opening it
 * verifies nothing; the person presses the page's button, because mail scanners open links too.
 */

const TEXT = {
  en: {
    title: 'Verify your email address',
    prompt: 'Confirm that this email address is yours.',
    verify: 'Verify my email address',
    verifiedTitle: 'Email address verified',
    verified: 'Your email address {email} is verified.',
    continue: 'Continue to tcms',
    unknown: 'This verification link does not work: it is not known, it has expired or been used, or a newer mail replaced it.',
    resendPrompt: 'We can mail you a new link.',
    resend: 'Send a new verification mail',
    resentTitle: 'Verification mail sent',
    resent: 'A new verification mail is on its way to {email}. Its link works for 7 days.',
    alreadyVerified: 'Your email address {email} is already verified.',
    signInPrompt: 'Once you are signed in, you can have a new verification mail sent.',
  },
  es: {
    title: 'Verifica tu correo electrónico',
    prompt: 'Confirma que este correo electrónico es tuyo.',
    verify: 'Verificar mi correo electrónico',
    verifiedTitle: 'Correo electrónico verificado',
    verified: 'Tu correo electrónico {email} está verificado.',
    continue: 'Continuar a tcms',
    unknown: 'Este enlace de verificación no funciona: no se conoce, ha caducado o ya se usó, o un mensaje más reciente lo ha sustituido.',
    resendPrompt: 'Podemos enviarte un enlace nuevo.',
    resend: 'Enviar un nuevo mensaje de verificación',
    resentTitle: 'Mensaje de verificación enviado',
    resent: 'Un nuevo mensaje de verificación va de camino a {email}. Su enlace sirve durante 7 días.',
    alreadyVerified: 'Tu correo electrónico {email} ya está verificado.',
    signInPrompt: 'Cuando hayas iniciado sesión, podrás pedir un nuevo mensaje de verificación.',
  },
} satisfies Texts<string>;

/** The resend form's marker: both forms post to the page. */
const RESEND = 'resend';

const verifyPath = (token: string) => `/verify-email?${new URLSearchParams({ token })}`;
const continueLink = (page: PageRequest) => html`<p><a href="/">${TEXT[page.locale].continue}</a></p>`;

/** What a person whose link does not work can do next: sign in (and come back), or have a new mail sent. */
function nextStep(page: PageRequest, token: string): Html {
  const text = TEXT[page.locale];
  if (!page.identity) {
    return html`<p>${text.signInPrompt}</p><p><a href="${signInPath(verifyPath(token))}">${FRAME[page.locale].signIn}</a></p>`;
  }
  if (page.identity.user.emailVerified) {
    return html`<p>${fill(text.alreadyVerified, { email: page.identity.user.email })}</p>${continueLink(page)}`;
  }
  return html`<p>${text.resendPrompt}</p>${postForm(
    page,
    html`${hiddenField('intent', RESEND)}${hiddenField('token', token)}<button type="submit">${text.resend}</button>`,
  )}`;
}

const linkNotWorking = (page: PageRequest, token: string): PageAnswer => ({
  status: 404,
  title: TEXT[page.locale].title,
  errors: [{ message: TEXT[page.locale].unknown }],
  body: nextStep(page, token),
});

async function verify(page: PageRequest, token: string): Promise<PageAnswer> {
  const text = TEXT[page.locale];
  const read = readForm(page, verifyEmailBodySchema, { token });
  if ('errors' in read) return linkNotWorking(page, token);
  try {
    const { user } = await verifyEmail(read.value.token);
    return { title: text.verifiedTitle, body: html`${notice(fill(text.verified, { email: user.email }))}${continueLink(page)}` };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return linkNotWorking(page, token);
    throw error;
  }
}

async function resend(page: PageRequest, form: FormValues): Promise<PageAnswer> {
  const text = TEXT[page.locale];
  if (!page.identity) return { redirect: signInPath(verifyPath(form.token ?? '')) };
  try {
    await resendVerificationMail(page.identity);
    return { title: text.resentTitle, body: notice(fill(text.resent, { email: page.identity.user.email })) };
  } catch (error) {
    const refused = refusal(page, error, { conflict: fill(text.alreadyVerified, { email: page.identity.user.email }) });
    return { ...refused, title: text.title, body: continueLink(page) };
  }
}

export const verifyEmailPage: PageDefinition = {
  path: '/verify-email',
  async get(page) {
    const token = page.query.token;
    const text = TEXT[page.locale];
    if (!token) return linkNotWorking(page, '');
    return {
      title: text.title,
      body: html`<p>${text.prompt}</p>${postForm(page, html`${hiddenField('token', token)}<button type="submit">${text.verify}</button>`)}`,
    };
  },
  post(page, form) {
    return form.intent === RESEND ? resend(page, form) : verify(page, form.token ?? '');
  },
};
