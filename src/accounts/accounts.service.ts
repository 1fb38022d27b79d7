import { auditInEachOrganization } from '../foundation/audit/audit.service.ts';
import { change } from '../foundation/audit/clip.ts';
import { normalizeEmail } from '../foundation/auth/auth.schemas.ts';
import { unauthorized, userSnapshot } from '../foundation/auth/authenticate.ts';
import { markEmailVerified, queueVerificationMail, resendVerification, verifyByToken } from '../foundation/auth/email-verification.ts';
import { throttleSignIn } from '../foundation/auth/sign-in-throttle.ts';
import { assertChallengePassed } from '../foundation/auth/signup-challenge.ts';
import type { Identity, Role, UserSnapshot } from '../foundation/context.ts';
import { displayName } from '../foundation/context.ts';
import { joinByInvitation } from '../invitations/invitations.service.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { decoyPasswordHash, hashPassword, newSecret, verifyPassword } from '../kernel/secrets.ts';
import { createOrganizationFor, toOrganization } from '../orgs/orgs.service.ts';
import type { LoginInput, ProfileInput, SignupInput } from './accounts.schemas.ts';

export const toUser = (user: UserSnapshot) => ({
  ulid: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  displayName: displayName(user),
  avatarKey: user.avatarKey,
  emailVerified: user.emailVerified,
});

/** `[{ ulid, name, role }]`, oldest membership first (the default active organization). */
export async function organizationsOf(userId: string) {
  const memberships = await prisma().membership.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { org: true },
  });
  return memberships.map((m) => ({ ulid: m.org.id, name: m.org.name, role: m.role as Role }));
}

async function startSession(tx: Db, userId: string): Promise<string> {
  const { secret, hash } = newSecret();
  await tx.session.create({ data: { id: newId(), tokenHash: hash, userId } });
  return secret;
}

async function firstActiveOrganization(tx: Db, userId: string) {
  const membership = await tx.membership.findFirst({
    where: { userId, suspendedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { org: true },
  });
  return membership?.org;
}

/**
 * Signup, "create or repair" (contract §1): a new email creates the user and an organization
 * they own; a known email with the right password signs in and creates an organization only if
 * the user has no active membership; a known email with another password is a conflict. With an
 * `invitationToken` for the same email (contract §8) the user joins the inviting organization
 * instead, and an unusable token (404) or one sent to another address (403) creates nothing.
 * With the bot check configured, a signup without a passed challenge is refused first (403).
 * A new user gets the verification mail (contract §18); an invitation token verifies instead.
 */
export async function signup(input: SignupInput, client: { ip: string }) {
  await assertChallengePassed(input.challengeToken, client);
  const email = normalizeEmail(input.email);
  const checked = await throttleSignIn({ email, ip: client.ip }, async () => {
    const existing = await prisma().user.findUnique({ where: { email } });
    const passed = !existing || (await verifyPassword(existing.passwordHash, input.password));
    return passed ? { existing } : undefined;
  });
  if (!checked) throw conflict('An account with this email already exists');
  const { existing } = checked;
  const passwordHash = existing ? existing.passwordHash : await hashPassword(input.password);
  const organizationName = input.organizationName ?? `${input.firstName}'s organization`;

  const result = await inTransaction(prisma(), async (tx) => {
    const created = existing
      ? undefined
      : await tx.user.create({ data: { id: newId(), email, passwordHash, firstName: input.firstName, lastName: input.lastName } });
    const user = userSnapshot((existing ?? created)!);
    let organization: { id: string; name: string; plan: string; createdAt: Date };
    if (input.invitationToken) {
      organization = (await joinByInvitation(tx, user, input.invitationToken)).organization;
      await markEmailVerified(tx, user.id);
    } else {
      if (created) await queueVerificationMail(tx, created);
      organization = (await firstActiveOrganization(tx, user.id)) ?? (await createOrganizationFor(tx, user, organizationName));
    }
    const sessionToken = await startSession(tx, user.id);
    return { user: await tx.user.findUniqueOrThrow({ where: { id: user.id } }), organization, sessionToken };
  });
  return {
    created: !existing,
    sessionToken: result.sessionToken,
    body: {
      user: toUser(userSnapshot(result.user)),
      organization: toOrganization(result.organization),
      organizations: await organizationsOf(result.user.id),
    },
  };
}

/**
 * Unknown email and wrong password answer the same 401, after the same amount of work, and count
 * alike towards the sign-in throttle.
 */
export async function login(input: LoginInput, client: { ip: string }) {
  const email = normalizeEmail(input.email);
  const user = await throttleSignIn({ email, ip: client.ip }, async () => {
    const found = await prisma().user.findUnique({ where: { email } });
    const valid = await verifyPassword(found?.passwordHash ?? (await decoyPasswordHash()), input.password);
    return found && valid ? found : undefined;
  });
  if (!user) throw unauthorized('Invalid email or password');
  const sessionToken = await startSession(prisma(), user.id);
  return { sessionToken, body: { user: toUser(userSnapshot(user)), organizations: await organizationsOf(user.id) } };
}

/** POST /auth/logout; `db` is the request's transaction when it runs in one. */
export async function logout(identity: Identity, db: Db = prisma()): Promise<void> {
  if (identity.kind !== 'session') throw unauthorized('Logout needs a session');
  await db.session.deleteMany({ where: { id: identity.sessionId } });
}

export async function currentSession(identity: Identity) {
  return { user: toUser(identity.user), organizations: await organizationsOf(identity.user.id) };
}

/** POST /auth/verify-email: anyone holding the live token of the mail proves the address; no session needed. */
export async function verifyEmail(token: string) {
  const user = await inTransaction(prisma(), (tx) => verifyByToken(tx, token));
  return { user: toUser(userSnapshot(user)) };
}

/** POST /auth/verify-email/resend, with a session. */
export async function resendVerificationMail(identity: Identity, db?: Db): Promise<void> {
  if (identity.kind !== 'session') throw unauthorized('Sending the verification mail again needs a session');
  await resendVerification(identity.user.id, db);
}

type SessionIdentity = Extract<Identity, { kind: 'session' }>;

/** A person's own account is managed with a session, never with a token (like API tokens, contract §1). */
function sessionOwner(identity: Identity, action: string): SessionIdentity {
  if (identity.kind !== 'session') throw unauthorized(`${action} needs a session`);
  return identity;
}

/** The person's names (the pages' /account), audited as `user.updated` with its changes when anything changed. */
export async function updateProfile(identity: Identity, input: ProfileInput) {
  const owner = sessionOwner(identity, 'Changing your profile');
  const before = owner.user;
  const changes = (['firstName', 'lastName'] as const)
    .filter((field) => input[field] !== before[field])
    .map((field) => change(field, before[field], input[field]));
  if (changes.length === 0) return { user: toUser(before) };
  const user = await inTransaction(prisma(), async (tx) => {
    const updated = userSnapshot(await tx.user.update({ where: { id: before.id }, data: { ...input, updatedAt: new Date() } }));
    await auditInEachOrganization(
      tx,
      { ...owner, user: updated },
      { action: 'user.updated', entityLabel: updated.email, metadata: { changes } },
    );
    return updated;
  });
  return { user: toUser(user) };
}

/**
 * Ends every session of the person, this one too (a lost laptop); API tokens and authorized
 * applications stay: they belong to organizations and are revoked one by one. Audited as
 * `user.signed_out_everywhere`, like a password reset, which ends them all too.
 */
export async function signOutEverywhere(identity: Identity): Promise<{ sessionsRevoked: number }> {
  const owner = sessionOwner(identity, 'Signing out everywhere');
  return inTransaction(prisma(), async (tx) => {
    const { count: sessionsRevoked } = await tx.session.deleteMany({ where: { userId: owner.user.id } });
    await auditInEachOrganization(tx, owner, {
      action: 'user.signed_out_everywhere',
      entityLabel: owner.user.email,
      metadata: { sessionsRevoked },
    });
    return { sessionsRevoked };
  });
}
