import { profileBodySchema } from '../../src/accounts/accounts.schemas.ts';
import { organizationsOf, signOutEverywhere, updateProfile } from '../../src/accounts/accounts.service.ts';
import { lowerRole, roleAtMost } from '../../src/foundation/auth/policy.ts';
import type { RequestContext } from '../../src/foundation/context.ts';
import { AppError, validationFailed } from '../../src/kernel/errors.ts';
import type { Locale } from '../../src/kernel/i18n.ts';
import { listOAuthGrants, revokeOAuthGrant } from '../../src/oauth/oauth.service.ts';
import { createTokenBodySchema, TOKEN_ROLES } from '../../src/tokens/tokens.schemas.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../src/tokens/tokens.service.ts';
import { field, hiddenField, notice, postForm } from './frame.ts';
import { Html, html } from './html.ts';
import {
  enterOrganization,
  type FieldError,
  type FormValues,
  type PageAnswer,
  type PageDefinition,
  type PageRequest,
  readForm,
  refusal,
} from './page.ts';
import { ROLE_NAMES } from './role-names.ts';
import { selectField } from './select-field.ts';
import { fill, type Texts } from './texts.ts';

/**
 * `/account` (contract decisions §19): the person's profile, their organizations, and in one of
 * them their API tokens and connected apps; signing out everywhere. Each form names its `intent`
 * and goes through the services of the API, with their audit events.
 */

const TEXT = {
  en: {
    title: 'Your account',
    profile: 'Profile',
    email: 'Email address: {email}',
    language: 'Pages are shown in the language your browser asks for.',
    firstName: 'First name',
    lastName: 'Last name',
    saveProfile: 'Save the profile',
    profileSaved: 'Your profile was saved.',
    organizations: 'Your organizations',
    organizationsHint:
      'API tokens and connected apps act in one organization: choose the one to manage. A tool with your session chooses with the X-Organization-Id header; without it, it acts in the oldest organization you are active in.',
    membership: '{organization}, as {role}',
    shown: '(shown below)',
    tokens: 'API tokens in {organization}',
    noTokens: 'No API tokens.',
    name: 'Name',
    role: 'Role',
    prefix: 'Starts with',
    created: 'Created',
    lastUsed: 'Last used',
    expires: 'Expires',
    never: 'never',
    actions: 'Actions',
    expiresOn: 'Expires on (optional)',
    expiresHint: 'The token stops working at the start of this day (UTC).',
    createToken: 'Create the token',
    pastExpiry: 'The expiry date must be a day to come.',
    notVerified: 'Verify your email address first, with the link of the verification mail; then create the token.',
    tokenCreated: 'The token “{name}” was created. Copy its secret now: it is not shown again.',
    newToken: 'New token',
    revokeToken: 'Revoke {name}',
    tokenRevoked: 'The token was revoked: it no longer works.',
    gone: 'It is gone already: it was revoked, maybe in another window.',
    apps: 'Connected apps in {organization}',
    noApps: 'No connected apps.',
    app: 'App',
    connected: 'Connected',
    disconnect: 'Disconnect {name}',
    appDisconnected: 'The app was disconnected: its tokens no longer work.',
    sessions: 'Sign out everywhere',
    sessionsHint: 'Ends every session of your account, in every browser, this one too. API tokens and connected apps keep working.',
    signOutEverywhere: 'Sign out everywhere',
  },
  es: {
    title: 'Tu cuenta',
    profile: 'Perfil',
    email: 'Correo electrónico: {email}',
    language: 'Las páginas se muestran en el idioma que pide tu navegador.',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    saveProfile: 'Guardar el perfil',
    profileSaved: 'Se ha guardado tu perfil.',
    organizations: 'Tus organizaciones',
    organizationsHint:
      'Los tokens de API y las aplicaciones conectadas actúan en una organización: elige cuál gestionar. Una herramienta con tu sesión la elige con la cabecera X-Organization-Id; sin ella, actúa en la organización más antigua en la que estás activo.',
    membership: '{organization}, como {role}',
    shown: '(se muestra abajo)',
    tokens: 'Tokens de API en {organization}',
    noTokens: 'No hay tokens de API.',
    name: 'Nombre',
    role: 'Rol',
    prefix: 'Empieza por',
    created: 'Creado',
    lastUsed: 'Último uso',
    expires: 'Caduca',
    never: 'nunca',
    actions: 'Acciones',
    expiresOn: 'Caduca el (opcional)',
    expiresHint: 'El token deja de funcionar al comienzo de este día (UTC).',
    createToken: 'Crear el token',
    pastExpiry: 'La fecha de caducidad debe ser un día futuro.',
    notVerified: 'Verifica primero tu correo electrónico con el enlace del mensaje de verificación; después crea el token.',
    tokenCreated: 'Se ha creado el token «{name}». Copia ahora su secreto: no se vuelve a mostrar.',
    newToken: 'Nuevo token',
    revokeToken: 'Revocar {name}',
    tokenRevoked: 'Se ha revocado el token: ya no funciona.',
    gone: 'Ya no existe: se revocó, quizá en otra ventana.',
    apps: 'Aplicaciones conectadas en {organization}',
    noApps: 'No hay aplicaciones conectadas.',
    app: 'Aplicación',
    connected: 'Conectada',
    disconnect: 'Desconectar {name}',
    appDisconnected: 'Se ha desconectado la aplicación: sus tokens ya no funcionan.',
    sessions: 'Cerrar sesión en todas partes',
    sessionsHint:
      'Cierra todas las sesiones de tu cuenta, en todos los navegadores, también esta. Los tokens de API y las aplicaciones conectadas siguen funcionando.',
    signOutEverywhere: 'Cerrar sesión en todas partes',
  },
} satisfies Texts<string>;

/** What a redirect after a form says happened (`?done=`). */
const DONE = ['profileSaved', 'tokenRevoked', 'appDisconnected'] as const;
type Done = (typeof DONE)[number];

/** What the page shows besides the account: a form's values and errors, a created token, a sentence. */
type View = {
  orgUlid?: string | undefined;
  form?: FormValues;
  errors?: FieldError[];
  created?: { name: string; token: string };
  done?: Done;
};

const day = (ms: number | null, locale: Locale, never: string) =>
  ms === null ? never : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(ms);

/** A `<input type=date>` value as the epoch ms of that day's start in UTC; empty is no expiry. */
const dayStart = (value: string | undefined) => (value ? Date.parse(`${value}T00:00:00Z`) : undefined);

/** The page after a form: `done` says what happened, `org` keeps the organization it was about. */
const accountPath = (done: Done, orgUlid?: string) => `/account?${new URLSearchParams({ ...(orgUlid ? { org: orgUlid } : {}), done })}`;

const hiddenOrg = (ctx: RequestContext) => hiddenField('org', ctx.org.id);
const intent = (name: string) => hiddenField('intent', name);

function profileSection(page: PageRequest, view: View): Html {
  const text = TEXT[page.locale];
  const user = page.identity!.user;
  const values = view.form?.intent === 'profile' ? view.form : user;
  return html`<h2 id="profile">${text.profile}</h2><p>${fill(text.email, { email: user.email })}</p><p>${text.language}</p>${postForm(
    page,
    html`${intent('profile')}${field({ name: 'firstName', label: text.firstName, value: values.firstName, autocomplete: 'given-name', required: true, errors: view.errors })}${field(
      { name: 'lastName', label: text.lastName, value: values.lastName, autocomplete: 'family-name', required: true, errors: view.errors },
    )}<button type="submit">${text.saveProfile}</button>`,
  )}`;
}

async function organizationsSection(page: PageRequest, managed: string | undefined): Promise<Html> {
  const text = TEXT[page.locale];
  const organizations = await organizationsOf(page.identity!.user.id);
  const items = organizations.map((org) => {
    const label = fill(text.membership, { organization: org.name, role: ROLE_NAMES[page.locale][org.role] });
    return org.ulid === managed
      ? html`<li><a href="/account?org=${org.ulid}" aria-current="page">${label}</a> ${text.shown}</li>`
      : html`<li><a href="/account?org=${org.ulid}">${label}</a></li>`;
  });
  return html`<h2 id="organizations">${text.organizations}</h2><p>${text.organizationsHint}</p><ul>${items}</ul>`;
}

function createdToken(page: PageRequest, created: View['created']): Html | null {
  if (!created) return null;
  const text = TEXT[page.locale];
  return html`${notice(fill(text.tokenCreated, { name: created.name }))}<p class="secret">${created.token}</p>`;
}

function tokenForm(page: PageRequest, ctx: RequestContext, view: View): Html {
  const text = TEXT[page.locale];
  const form = view.form?.intent === 'createToken' ? view.form : {};
  const roles = TOKEN_ROLES.filter((role) => roleAtMost(role, ctx.role)).map((role) => ({
    value: role,
    label: ROLE_NAMES[page.locale][role],
  }));
  return html`<h3 id="new-token">${text.newToken}</h3>${postForm(
    page,
    html`${intent('createToken')}${hiddenOrg(ctx)}${field({ name: 'name', label: text.name, value: form.name, required: true, errors: view.errors })}${selectField(
      { name: 'role', label: text.role, choices: roles, value: form.role ?? lowerRole(ctx.role, 'admin') },
    )}${field({ name: 'expiresAt', label: text.expiresOn, type: 'date', value: form.expiresAt, hint: text.expiresHint, errors: view.errors })}<button type="submit">${
      text.createToken
    }</button>`,
  )}`;
}

async function tokensSection(page: PageRequest, ctx: RequestContext, view: View): Promise<Html> {
  const text = TEXT[page.locale];
  const { items } = await listApiTokens(ctx);
  const rows = items.map(
    (token) =>
      html`<tr><td>${token.name}</td><td>${ROLE_NAMES[page.locale][token.role]}</td><td><code>${token.prefix}</code></td><td>${day(
        token.createdAt,
        page.locale,
        text.never,
      )}</td><td>${day(token.lastUsedAt, page.locale, text.never)}</td><td>${day(token.expiresAt, page.locale, text.never)}</td><td>${postForm(
        page,
        html`${intent('revokeToken')}${hiddenOrg(ctx)}${hiddenField('tokenUlid', token.ulid)}<button type="submit" class="secondary">${fill(
          text.revokeToken,
          { name: token.name },
        )}</button>`,
      )}</td></tr>`,
  );
  const table = rows.length
    ? html`<table><thead><tr><th scope="col">${text.name}</th><th scope="col">${text.role}</th><th scope="col">${text.prefix}</th><th scope="col">${text.created}</th><th scope="col">${text.lastUsed}</th><th scope="col">${text.expires}</th><th scope="col">${text.actions}</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>${text.noTokens}</p>`;
  return html`<h2 id="tokens">${fill(text.tokens, { organization: ctx.org.name })}</h2>${createdToken(page, view.created)}${table}${tokenForm(page, ctx, view)}`;
}

async function appsSection(page: PageRequest, ctx: RequestContext): Promise<Html> {
  const text = TEXT[page.locale];
  const { items } = await listOAuthGrants(ctx);
  const rows = items.map(
    (grant) =>
      html`<tr><td>${grant.clientName}</td><td>${day(grant.createdAt, page.locale, text.never)}</td><td>${postForm(
        page,
        html`${intent('disconnectApp')}${hiddenOrg(ctx)}${hiddenField('grantUlid', grant.ulid)}<button type="submit" class="secondary">${fill(
          text.disconnect,
          { name: grant.clientName },
        )}</button>`,
      )}</td></tr>`,
  );
  const table = rows.length
    ? html`<table><thead><tr><th scope="col">${text.app}</th><th scope="col">${text.connected}</th><th scope="col">${text.actions}</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>${text.noApps}</p>`;
  return html`<h2 id="apps">${fill(text.apps, { organization: ctx.org.name })}</h2>${table}`;
}

function sessionsSection(page: PageRequest): Html {
  const text = TEXT[page.locale];
  return html`<h2 id="sessions">${text.sessions}</h2><p>${text.sessionsHint}</p>${postForm(
    page,
    html`${intent('signOutEverywhere')}<button type="submit">${text.signOutEverywhere}</button>`,
  )}`;
}

/** The organization the page manages, or why it cannot (a suspended membership or organization, an unknown `org`). */
async function organizationOf(page: PageRequest, orgUlid: string | undefined): Promise<RequestContext | Html> {
  try {
    return await enterOrganization(page, orgUlid);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return html`<p>${error.message}</p>`;
  }
}

/** The tokens and apps of the managed organization, or why there is none. */
async function managedSections(page: PageRequest, organization: RequestContext | Html, view: View): Promise<Html> {
  if (organization instanceof Html) return organization;
  return html`${await tokensSection(page, organization, view)}${await appsSection(page, organization)}`;
}

async function accountAnswer(page: PageRequest, view: View): Promise<Extract<PageAnswer, { title: string }>> {
  const text = TEXT[page.locale];
  const organization = await organizationOf(page, view.orgUlid);
  const managed = organization instanceof Html ? undefined : organization.org.id;
  return {
    title: text.title,
    errors: view.errors,
    body: html`${view.done ? notice(text[view.done]) : null}${profileSection(page, view)}${await organizationsSection(
      page,
      managed,
    )}${await managedSections(page, organization, view)}${sessionsSection(page)}`,
  };
}

/** The page again with a service's refusal as its error, under the status the API answers; anything else fails the page. */
async function refused(page: PageRequest, form: FormValues, error: unknown): Promise<PageAnswer> {
  const text = TEXT[page.locale];
  const { status, errors } = refusal(page, error, {
    validation_failed: text.pastExpiry,
    not_found: text.gone,
    email_not_verified: text.notVerified,
  });
  return { ...(await accountAnswer(page, { orgUlid: form.org, form, errors })), status };
}

type Action = (page: PageRequest, form: FormValues) => Promise<PageAnswer>;

const ACTIONS: Record<string, Action> = {
  async profile(page, form) {
    const read = readForm(page, profileBodySchema, { firstName: form.firstName, lastName: form.lastName });
    if ('errors' in read) return accountAnswer(page, { orgUlid: form.org, form, errors: read.errors });
    await updateProfile(page.identity!, read.value);
    return { redirect: accountPath('profileSaved') };
  },
  async createToken(page, form) {
    const ctx = await enterOrganization(page, form.org);
    const read = readForm(page, createTokenBodySchema, { name: form.name, role: form.role, expiresAt: dayStart(form.expiresAt) });
    if ('errors' in read) return accountAnswer(page, { orgUlid: ctx.org.id, form, errors: read.errors });
    const created = await createApiToken(ctx, read.value);
    return accountAnswer(page, { orgUlid: ctx.org.id, created: { name: created.name, token: created.token } });
  },
  async revokeToken(page, form) {
    const ctx = await enterOrganization(page, form.org);
    await revokeApiToken(ctx, form.tokenUlid ?? '');
    return { redirect: accountPath('tokenRevoked', ctx.org.id) };
  },
  async disconnectApp(page, form) {
    const ctx = await enterOrganization(page, form.org);
    await revokeOAuthGrant(ctx, form.grantUlid ?? '');
    return { redirect: accountPath('appDisconnected', ctx.org.id) };
  },
  async signOutEverywhere(page) {
    await signOutEverywhere(page.identity!);
    return { redirect: '/signin', session: { token: null } };
  },
};

export const accountPage: PageDefinition = {
  path: '/account',
  audience: 'signed-in',
  async get(page) {
    const done = DONE.find((each) => each === page.query.done);
    return accountAnswer(page, { orgUlid: page.query.org, done });
  },
  async post(page, form) {
    const action = Object.hasOwn(ACTIONS, form.intent ?? '') ? ACTIONS[form.intent!]! : undefined;
    if (!action) throw validationFailed('This form is not one of the account page');
    try {
      return await action(page, form);
    } catch (error) {
      return refused(page, form, error);
    }
  },
};
