import { normalizeEmail } from '../../src/foundation/auth/auth.schemas.ts';
import { acceptInvitationBodySchema } from '../../src/invitations/invitations.schemas.ts';
import { acceptInvitation, describeInvitation } from '../../src/invitations/invitations.service.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { hiddenField, notice, postForm } from './frame.ts';
import { html } from './html.ts';
import { type PageAnswer, type PageDefinition, type PageRequest, readForm, signInPath } from './page.ts';
import { FRAME, fill, type Texts } from './texts.ts';

/** `/invitations/accept?token=`: an invitation's organization and role, and accepting it (contract §8, §19). */

const TEXT = {
  en: {
    title: 'Invitation',
    invited: 'You are invited to join {organization} as {role}. The invitation was sent to {email}.',
    signedOut: 'To accept it, create an account with this address, or sign in if you already have one.',
    signUp: 'Create an account',
    signIn: 'Sign in',
    accept: 'Accept the invitation',
    acceptedTitle: 'Welcome to {organization}',
    accepted: 'You are now a member of {organization}, as {role}.',
    home: 'Go to your organizations',
    admin: 'an admin',
    member: 'a member',
    viewer: 'a viewer',
    unknown:
      'This invitation link does not work: it is not known, or a newer invitation replaced it. Ask for a new invitation if you still need one.',
    used: 'This invitation has already been used.',
    expired: 'This invitation has expired. Ask an admin of {organization} to send it again.',
    revoked: 'This invitation was withdrawn by {organization}.',
    otherAddress:
      'This invitation was sent to {email}, but you are signed in as {current}. Sign out, then open the link again and sign in as {email}.',
    seatLimit: '{organization} has no free seat for another member. Ask one of its owners or admins to free a seat, then try again.',
    alreadyMember: 'You are already a member of {organization}.',
    notVerified: 'Verify your email address first, with the link of the verification mail; then accept the invitation.',
  },
  es: {
    title: 'Invitación',
    invited: 'Te han invitado a unirte a {organization} como {role}. La invitación se envió a {email}.',
    signedOut: 'Para aceptarla, crea una cuenta con esta dirección, o inicia sesión si ya tienes una.',
    signUp: 'Crear una cuenta',
    signIn: 'Iniciar sesión',
    accept: 'Aceptar la invitación',
    acceptedTitle: 'Te damos la bienvenida a {organization}',
    accepted: 'Ya eres miembro de {organization}, como {role}.',
    home: 'Ir a tus organizaciones',
    admin: 'administrador',
    member: 'miembro',
    viewer: 'lector',
    unknown:
      'Este enlace de invitación no funciona: no se conoce, o una invitación más reciente lo ha sustituido. Pide una nueva invitación si todavía la necesitas.',
    used: 'Esta invitación ya se ha usado.',
    expired: 'Esta invitación ha caducado. Pide a un administrador de {organization} que te la envíe de nuevo.',
    revoked: '{organization} ha retirado esta invitación.',
    otherAddress:
      'Esta invitación se envió a {email}, pero has iniciado sesión como {current}. Cierra la sesión, abre de nuevo el enlace e inicia sesión como {email}.',
    seatLimit:
      '{organization} no tiene ninguna plaza libre para otro miembro. Pide a uno de sus propietarios o administradores que libere una plaza y vuelve a intentarlo.',
    alreadyMember: 'Ya eres miembro de {organization}.',
    notVerified: 'Verifica primero tu correo electrónico con el enlace del mensaje de verificación; después acepta la invitación.',
  },
} satisfies Texts<string>;

type Invitation = NonNullable<Awaited<ReturnType<typeof describeInvitation>>>;

/** Why an invitation cannot be accepted, each with the status the API answers it with. */
const PROBLEM_STATUS = {
  unknown: 404,
  used: 404,
  expired: 404,
  revoked: 404,
  otherAddress: 403,
  notVerified: 403,
  seatLimit: 409,
  alreadyMember: 409,
} as const;
type Problem = keyof typeof PROBLEM_STATUS;

const STATUS_PROBLEM: Record<Exclude<Invitation['status'], 'pending'>, Problem> = {
  accepted: 'used',
  expired: 'expired',
  revoked: 'revoked',
};
/** What an invitation's own state forbids: null for a pending one. */
const stateProblem = (invitation: Invitation | null): Problem | null =>
  !invitation ? 'unknown' : invitation.status === 'pending' ? null : STATUS_PROBLEM[invitation.status];

const REFUSAL_PROBLEM: Partial<Record<AppError['code'], Problem>> = {
  forbidden: 'otherAddress',
  email_not_verified: 'notVerified',
  seat_limit_exceeded: 'seatLimit',
  conflict: 'alreadyMember',
};

const invitationPath = (token: string) => `/invitations/accept?${new URLSearchParams({ token })}`;

function problemPage(page: PageRequest, problem: Problem, invitation: Invitation | null): PageAnswer {
  const text = TEXT[page.locale];
  const sentence = fill(text[problem], {
    organization: invitation?.organizationName ?? '',
    email: invitation?.email ?? '',
    current: page.identity?.user.email ?? '',
  });
  return {
    status: PROBLEM_STATUS[problem],
    title: text.title,
    errors: [{ message: sentence }],
    body: html`<p><a href="/">${FRAME[page.locale].home}</a></p>`,
  };
}

function invitedSentence(page: PageRequest, invitation: Invitation) {
  const text = TEXT[page.locale];
  return fill(text.invited, { organization: invitation.organizationName, role: text[invitation.role], email: invitation.email });
}

function signedOutChoice(page: PageRequest, token: string, invitation: Invitation): PageAnswer {
  const text = TEXT[page.locale];
  const signUp = `/signup?${new URLSearchParams({ invitation: token, email: invitation.email, next: '/' })}`;
  return {
    title: text.title,
    body: html`<p>${invitedSentence(page, invitation)}</p><p>${text.signedOut}</p><ul><li><a href="${signUp}">${text.signUp}</a></li><li><a href="${signInPath(
      invitationPath(token),
    )}">${text.signIn}</a></li></ul>`,
  };
}

function acceptForm(page: PageRequest, token: string, invitation: Invitation): PageAnswer {
  const text = TEXT[page.locale];
  return {
    title: text.title,
    body: html`<p>${invitedSentence(page, invitation)}</p>${postForm(
      page,
      html`${hiddenField('token', token)}<button type="submit">${text.accept}</button>`,
    )}`,
  };
}

/** Whatever the API would refuse, said before the person presses the button. */
async function invitationView(page: PageRequest, token: string): Promise<PageAnswer> {
  const invitation = token ? await describeInvitation(token) : null;
  const problem = stateProblem(invitation);
  if (problem || !invitation) return problemPage(page, problem ?? 'unknown', invitation);
  if (!page.identity) return signedOutChoice(page, token, invitation);
  if (normalizeEmail(page.identity.user.email) !== invitation.email) return problemPage(page, 'otherAddress', invitation);
  return acceptForm(page, token, invitation);
}

function joined(page: PageRequest, organization: string, role: Invitation['role']): PageAnswer {
  const text = TEXT[page.locale];
  return {
    title: fill(text.acceptedTitle, { organization }),
    body: html`${notice(fill(text.accepted, { organization, role: text[role] }))}<p><a href="/">${text.home}</a></p>`,
  };
}

/** A refused acceptance, as the sentence of its reason. */
async function refusedAcceptance(page: PageRequest, token: string, error: unknown): Promise<PageAnswer> {
  if (!(error instanceof AppError)) throw error;
  const invitation = await describeInvitation(token);
  // A token that stopped working while the page was open: its state, read again, says why.
  const problem = error.code === 'not_found' ? (stateProblem(invitation) ?? 'unknown') : REFUSAL_PROBLEM[error.code];
  if (!problem) throw error;
  return problemPage(page, problem, invitation);
}

export const invitationPage: PageDefinition = {
  path: '/invitations/accept',
  get(page) {
    return invitationView(page, page.query.token ?? '');
  },
  async post(page, form) {
    const token = form.token ?? '';
    if (!page.identity) return { redirect: signInPath(invitationPath(token)) };
    const read = readForm(page, acceptInvitationBodySchema, { token });
    if ('errors' in read) return problemPage(page, 'unknown', null);
    try {
      const { organization, role } = await acceptInvitation(page.identity, read.value.token);
      return joined(page, organization.name, role as Invitation['role']);
    } catch (error) {
      return refusedAcceptance(page, token, error);
    }
  },
};
