import { loginBodySchema, signupBodySchema } from '../../src/accounts/accounts.schemas.ts';
import { login, logout, signup } from '../../src/accounts/accounts.service.ts';
import { settings } from '../../src/kernel/config.ts';
import { field, postForm } from './frame.ts';
import { type Html, html } from './html.ts';
import {
  type FieldError,
  type FormValues,
  localPath,
  type PageAnswer,
  type PageDefinition,
  type PageRequest,
  readForm,
  refusal,
} from './page.ts';
import { FRAME, type Texts } from './texts.ts';

/** `/signin`, `/signup`, `/signout` (contract decisions §19). */

const TEXT = {
  en: {
    signInTitle: 'Sign in',
    signUpTitle: 'Create your account',
    signOutTitle: 'Sign out',
    email: 'Email address',
    password: 'Password',
    newPassword: 'Password',
    passwordHint: 'At least 8 characters.',
    firstName: 'First name',
    lastName: 'Last name',
    organizationName: 'Organization name',
    organizationHint: 'Optional. Your own organization, where your projects will live.',
    wrongCredentials: 'The email address or the password is not right.',
    forgot: 'Forgot your password?',
    noAccount: 'No account yet?',
    haveAccount: 'Already have an account?',
    taken: 'An account with this email address already exists. Sign in instead, or reset its password.',
    challenge: 'The check that you are a person did not pass. Please try again.',
    signOutQuestion: 'Sign out of tcms in this browser?',
    invitationUnusable:
      'This invitation can no longer be used: it expired, was withdrawn or was already accepted. Sign up without it, or ask for a new one.',
    invitationElsewhere: 'This invitation was sent to another email address. Sign up with the address it was sent to.',
  },
  es: {
    signInTitle: 'Iniciar sesión',
    signUpTitle: 'Crea tu cuenta',
    signOutTitle: 'Cerrar sesión',
    email: 'Correo electrónico',
    password: 'Contraseña',
    newPassword: 'Contraseña',
    passwordHint: 'Al menos 8 caracteres.',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    organizationName: 'Nombre de la organización',
    organizationHint: 'Opcional. Tu propia organización, donde vivirán tus proyectos.',
    wrongCredentials: 'El correo electrónico o la contraseña no son correctos.',
    forgot: '¿Olvidaste tu contraseña?',
    noAccount: '¿Aún no tienes cuenta?',
    haveAccount: '¿Ya tienes cuenta?',
    taken: 'Ya existe una cuenta con este correo electrónico. Inicia sesión o restablece su contraseña.',
    challenge: 'La comprobación de que eres una persona no se superó. Inténtalo de nuevo.',
    signOutQuestion: '¿Cerrar la sesión de tcms en este navegador?',
    invitationUnusable: 'Esta invitación ya no se puede usar: caducó, se retiró o ya se aceptó. Crea la cuenta sin ella o pide una nueva.',
    invitationElsewhere: 'Esta invitación se envió a otra dirección de correo. Crea la cuenta con la dirección a la que se envió.',
  },
} satisfies Texts<string>;

const withNext = (path: string, next: string) => (next === '/' ? path : `${path}?${new URLSearchParams({ next })}`);

function signInForm(page: PageRequest, form: FormValues, errors?: FieldError[]): PageAnswer {
  const text = TEXT[page.locale];
  const next = localPath(form.next ?? page.query.next);
  return {
    title: text.signInTitle,
    errors,
    body: html`${postForm(
      page,
      html`<input type="hidden" name="next" value="${next}">${field({ name: 'email', label: text.email, type: 'email', value: form.email, autocomplete: 'email', required: true, errors })}${field(
        { name: 'password', label: text.password, type: 'password', autocomplete: 'current-password', required: true, errors },
      )}<button type="submit">${text.signInTitle}</button>`,
    )}<p><a href="/password-reset">${text.forgot}</a></p><p>${text.noAccount} <a href="${withNext('/signup', next)}">${FRAME[page.locale].signUp}</a></p>`,
  };
}

export const signInPage: PageDefinition = {
  path: '/signin',
  async get(page) {
    if (page.identity) return { redirect: localPath(page.query.next) };
    return signInForm(page, {});
  },
  async post(page, form) {
    const read = readForm(page, loginBodySchema, { email: form.email, password: form.password });
    if ('errors' in read) return signInForm(page, form, read.errors);
    try {
      const { sessionToken } = await login(read.value, { ip: page.ip });
      return { redirect: localPath(form.next), session: { token: sessionToken } };
    } catch (error) {
      const text = TEXT[page.locale];
      const refused = refusal(page, error, { unauthorized: text.wrongCredentials });
      return { ...signInForm(page, form, refused.errors), status: refused.status };
    }
  },
};

function signUpForm(page: PageRequest, form: FormValues, errors?: FieldError[]): PageAnswer {
  const text = TEXT[page.locale];
  const next = localPath(form.next ?? page.query.next);
  const invitation = form.invitationToken ?? page.query.invitation;
  const email = form.email ?? page.query.email;
  return {
    title: text.signUpTitle,
    errors,
    body: html`${postForm(
      page,
      html`<input type="hidden" name="next" value="${next}">${invitation ? html`<input type="hidden" name="invitationToken" value="${invitation}">` : null}${field(
        { name: 'firstName', label: text.firstName, value: form.firstName, autocomplete: 'given-name', required: true, errors },
      )}${field({ name: 'lastName', label: text.lastName, value: form.lastName, autocomplete: 'family-name', required: true, errors })}${field(
        {
          name: 'email',
          label: text.email,
          type: 'email',
          value: email,
          autocomplete: 'email',
          required: true,
          errors,
        },
      )}${field({ name: 'password', label: text.newPassword, type: 'password', hint: text.passwordHint, autocomplete: 'new-password', required: true, errors })}${
        invitation
          ? null
          : field({
              name: 'organizationName',
              label: text.organizationName,
              hint: text.organizationHint,
              value: form.organizationName,
              autocomplete: 'organization',
              errors,
            })
      }${challengeWidget()}<button type="submit">${text.signUpTitle}</button>`,
    )}<p>${text.haveAccount} <a href="${withNext('/signin', next)}">${FRAME[page.locale].signIn}</a></p>`,
  };
}

/** The operator's bot-check widget (TCMS_CHALLENGE_SITE_KEY): its script fills the element and adds its answer to the form. */
function challengeWidget(): Html | null {
  const widget = settings().challenge?.widget;
  if (!widget) return null;
  return html`<div class="${widget.className}" data-sitekey="${widget.siteKey}"></div><script src="${widget.scriptUrl}" async defer></script>`;
}

export const signUpPage: PageDefinition = {
  path: '/signup',
  widgetOrigins: () => {
    const widget = settings().challenge?.widget;
    return widget ? [new URL(widget.scriptUrl).origin] : [];
  },
  async get(page) {
    return signUpForm(page, {});
  },
  async post(page, form) {
    const read = readForm(page, signupBodySchema, {
      email: form.email,
      password: form.password,
      firstName: form.firstName,
      lastName: form.lastName,
      organizationName: form.organizationName || undefined,
      invitationToken: form.invitationToken || undefined,
      challengeToken: form[settings().challenge?.widget?.responseField ?? 'challengeToken'] || undefined,
    });
    if ('errors' in read) return signUpForm(page, form, read.errors);
    try {
      const { sessionToken } = await signup(read.value, { ip: page.ip });
      return { redirect: localPath(form.next), session: { token: sessionToken } };
    } catch (error) {
      const text = TEXT[page.locale];
      const refused = refusal(page, error, {
        conflict: text.taken,
        challenge_failed: text.challenge,
        not_found: text.invitationUnusable,
        forbidden: text.invitationElsewhere,
      });
      return { ...signUpForm(page, form, refused.errors), status: refused.status };
    }
  },
};

export const signOutPage: PageDefinition = {
  path: '/signout',
  async get(page) {
    const text = TEXT[page.locale];
    if (!page.identity) return { redirect: '/' };
    return {
      title: text.signOutTitle,
      body: html`<p>${text.signOutQuestion}</p>${postForm(page, html`<button type="submit">${text.signOutTitle}</button>`)}`,
    };
  },
  async post(page) {
    if (page.identity) await logout(page.identity);
    return { redirect: '/', session: { token: null } };
  },
};
