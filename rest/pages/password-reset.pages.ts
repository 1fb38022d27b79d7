import { confirmPasswordResetBodySchema, passwordResetBodySchema } from '../../src/accounts/accounts.schemas.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../src/accounts/password-reset.service.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { field, hiddenField, notice, postForm } from './frame.ts';
import { html } from './html.ts';
import { type FieldError, type FormValues, type PageAnswer, type PageDefinition, type PageRequest, readForm, refusal } from './page.ts';
import { fill, type Texts } from './texts.ts';

/** `/password-reset` and `/password-reset/confirm?token=` (contract §19). */

const TEXT = {
  en: {
    requestTitle: 'Reset your password',
    requestPrompt: 'Type the email address of your account: we mail you a link to choose a new password.',
    email: 'Email address',
    send: 'Mail me a link',
    sentTitle: 'Check your mail',
    sent: 'If an account has the address {email}, a mail with a link to choose a new password is on its way. The link works once, for 1 hour.',
    confirmTitle: 'Choose a new password',
    password: 'New password',
    passwordHint: 'At least 8 characters.',
    save: 'Save the new password',
    changedTitle: 'Password changed',
    changed: 'Your password is changed, and every session of your account has ended.',
    signIn: 'Sign in with your new password',
    unusable:
      'This link does not work: it is not known, it has been used or it expired (links work for 1 hour), or a newer mail replaced it.',
    again: 'Ask for a new link',
  },
  es: {
    requestTitle: 'Restablece tu contraseña',
    requestPrompt: 'Escribe el correo electrónico de tu cuenta: te enviaremos un enlace para elegir una contraseña nueva.',
    email: 'Correo electrónico',
    send: 'Enviarme un enlace',
    sentTitle: 'Revisa tu correo',
    sent: 'Si alguna cuenta tiene la dirección {email}, va de camino un mensaje con un enlace para elegir una contraseña nueva. El enlace sirve una sola vez, durante 1 hora.',
    confirmTitle: 'Elige una contraseña nueva',
    password: 'Contraseña nueva',
    passwordHint: 'Al menos 8 caracteres.',
    save: 'Guardar la contraseña nueva',
    changedTitle: 'Contraseña cambiada',
    changed: 'Tu contraseña ha cambiado y todas las sesiones de tu cuenta se han cerrado.',
    signIn: 'Inicia sesión con tu contraseña nueva',
    unusable:
      'Este enlace no funciona: no se conoce, ya se usó o caducó (los enlaces sirven durante 1 hora), o un mensaje más reciente lo ha sustituido.',
    again: 'Pedir un enlace nuevo',
  },
} satisfies Texts<string>;

function requestForm(page: PageRequest, form: FormValues, errors?: FieldError[]): PageAnswer {
  const text = TEXT[page.locale];
  return {
    title: text.requestTitle,
    errors,
    body: html`<p>${text.requestPrompt}</p>${postForm(
      page,
      html`${field({ name: 'email', label: text.email, type: 'email', value: form.email, autocomplete: 'email', required: true, errors })}<button type="submit">${text.send}</button>`,
    )}`,
  };
}

export const passwordResetPage: PageDefinition = {
  path: '/password-reset',
  async get(page) {
    return requestForm(page, {});
  },
  async post(page, form) {
    const read = readForm(page, passwordResetBodySchema, { email: form.email });
    if ('errors' in read) return requestForm(page, form, read.errors);
    try {
      await requestPasswordReset(read.value.email, { ip: page.ip }, page.locale);
    } catch (error) {
      const refused = refusal(page, error, {});
      return { ...requestForm(page, form, refused.errors), status: refused.status };
    }
    const text = TEXT[page.locale];
    return { title: text.sentTitle, body: notice(fill(text.sent, { email: read.value.email })) };
  },
};

function confirmForm(page: PageRequest, token: string, errors?: FieldError[]): PageAnswer {
  const text = TEXT[page.locale];
  return {
    title: text.confirmTitle,
    errors,
    body: postForm(
      page,
      html`${hiddenField('token', token)}${field({
        name: 'password',
        label: text.password,
        type: 'password',
        hint: text.passwordHint,
        autocomplete: 'new-password',
        required: true,
        errors,
      })}<button type="submit">${text.save}</button>`,
    ),
  };
}

const unusableLink = (page: PageRequest): PageAnswer => ({
  status: 404,
  title: TEXT[page.locale].confirmTitle,
  errors: [{ message: TEXT[page.locale].unusable }],
  body: html`<p><a href="/password-reset">${TEXT[page.locale].again}</a></p>`,
});

function passwordChanged(page: PageRequest, userUlid: string): PageAnswer {
  // The reset ended this browser's session too when it was the same person's: the frame shows them signed out.
  if (page.identity?.user.id === userUlid) page.identity = null;
  const text = TEXT[page.locale];
  return { title: text.changedTitle, body: html`${notice(text.changed)}<p><a href="/signin">${text.signIn}</a></p>` };
}

export const confirmPasswordResetPage: PageDefinition = {
  path: '/password-reset/confirm',
  async get(page) {
    return page.query.token ? confirmForm(page, page.query.token) : unusableLink(page);
  },
  async post(page, form) {
    const read = readForm(page, confirmPasswordResetBodySchema, { token: form.token, password: form.password });
    if ('errors' in read) {
      return read.errors.some((error) => error.field === 'token') ? unusableLink(page) : confirmForm(page, form.token ?? '', read.errors);
    }
    try {
      const { user } = await confirmPasswordReset(read.value.token, read.value.password);
      return passwordChanged(page, user.ulid);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return unusableLink(page);
      throw error;
    }
  },
};
