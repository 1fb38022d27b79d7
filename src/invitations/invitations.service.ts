import { z } from 'zod';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { EMAIL_MAX, normalizeEmail } from '../foundation/auth/auth.schemas.ts';
import { unauthorized } from '../foundation/auth/authenticate.ts';
import { assertEmailVerified } from '../foundation/auth/email-verification.ts';
import { authorize } from '../foundation/auth/policy.ts';
import { displayName, type Identity, type RequestContext, type Role, type UserSnapshot } from '../foundation/context.ts';
import { type DeliveryStatus, deliveryStatuses, queueMail } from '../foundation/mail/mail.service.ts';
import { settings } from '../kernel/config.ts';
import { type Db, type Prisma, prisma } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict, forbidden, notFound } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import { newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { newSecret, sha256 } from '../kernel/secrets.ts';
import { occupiesSeat, reserveSeats } from '../seats/seats.service.ts';
import { chargeInvitationMails } from './invitation-budgets.ts';
import { invitationMail } from './invitation-mail.ts';
import type {
  BulkInvitationInput,
  BulkOutcome,
  CreateInvitationInput,
  InvitationListQuery,
  InvitationStatus,
} from './invitations.schemas.ts';

/** Invitations expire 7 days after they were (re)sent (contract §8). */
const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** The pending-invitation ceiling: at most this many unexpired pending invitations per organization. */
export const PENDING_INVITATION_CEILING = 100;
/** What the invitation mail's outbox rows are about, for `emailDeliveryStatus`. */
const MAIL_SUBJECT = 'invitation';

export type InvitationRow = Awaited<ReturnType<Db['invitation']['findFirstOrThrow']>>;
type InvitationRole = 'admin' | 'member' | 'viewer';

/** A pending invitation past its expiry reads as expired. */
export function invitationStatus(row: Pick<InvitationRow, 'status' | 'expiresAt'>, now = Date.now()): InvitationStatus {
  return row.status === 'pending' && row.expiresAt.getTime() <= now ? 'expired' : (row.status as InvitationStatus);
}

const toInvitation = (row: InvitationRow, emailDeliveryStatus: DeliveryStatus) => ({
  ulid: row.id,
  email: row.email,
  role: row.role as InvitationRole,
  locale: row.locale as Locale,
  status: invitationStatus(row),
  grantAllPrivateProjects: row.grantAllPrivateProjects,
  invitedBy: { ulid: row.invitedByUserId, displayName: row.invitedByName },
  expiresAt: row.expiresAt.getTime(),
  createdAt: row.createdAt.getTime(),
  emailDeliveryStatus,
});

/**
 * Invitations as REST answers them, with the delivery status of their latest mail (one query on
 * the caller's connection: a keyed request's transaction holds the embedded database's only one).
 */
export async function invitationViews(ctx: RequestContext, rows: InvitationRow[]) {
  const statusOf = await deliveryStatuses(
    ctx.db,
    MAIL_SUBJECT,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toInvitation(row, statusOf(row.id)));
}

/** For GraphQL's batched `emailDeliveryStatus`: ids of invitations the caller has already read. */
export async function invitationDeliveryStatuses(ctx: RequestContext, invitationIds: string[]): Promise<DeliveryStatus[]> {
  authorize(ctx, 'member.manage');
  const statusOf = await deliveryStatuses(ctx.db, MAIL_SUBJECT, invitationIds);
  return invitationIds.map(statusOf);
}

const invitationEvent = (row: InvitationRow) => ({ entityType: 'invitation', entityUlid: row.id, entityLabel: row.email });

const expiryFrom = (now: Date) => new Date(now.getTime() + INVITATION_LIFETIME_MS);

async function queueInvitationMail(tx: Db, org: { id: string; name: string }, row: InvitationRow, token: string): Promise<void> {
  const mail = invitationMail({
    locale: row.locale as Locale,
    organizationName: org.name,
    inviterName: row.invitedByName,
    role: row.role as InvitationRole,
    acceptUrl: `${settings().publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`,
    token,
    expiresAt: row.expiresAt,
  });
  await queueMail(tx, { orgId: org.id, about: { type: MAIL_SUBJECT, id: row.id }, to: row.email, ...mail });
}

/** Which of `emails` already belong to a member, or to a pending unexpired invitation. */
async function takenAddresses(tx: Db, emails: string[], now: Date): Promise<Map<string, 'already_member' | 'duplicate_pending'>> {
  const taken = new Map<string, 'already_member' | 'duplicate_pending'>();
  if (emails.length === 0) return taken;
  const pending = await tx.invitation.findMany({
    where: { email: { in: emails }, status: 'pending', expiresAt: { gt: now } },
    select: { email: true },
  });
  for (const row of pending) taken.set(row.email, 'duplicate_pending');
  const members = await tx.membership.findMany({
    where: { user: { email: { in: emails } } },
    select: { user: { select: { email: true } } },
  });
  for (const row of members) taken.set(row.user.email, 'already_member');
  return taken;
}

/** The pending-invitation ceiling: `additional` more pending invitations must fit. */
async function assertPendingRoom(tx: Db, additional: number, now: Date): Promise<void> {
  const pending = await tx.invitation.count({ where: { status: 'pending', expiresAt: { gt: now } } });
  if (pending + additional > PENDING_INVITATION_CEILING) {
    throw conflict(`At most ${PENDING_INVITATION_CEILING} invitations can be pending at once`, {
      code: 'pending_invitation_ceiling',
      pending,
      ceiling: PENDING_INVITATION_CEILING,
    });
  }
}

type InvitationOptions = Pick<CreateInvitationInput, 'role' | 'locale' | 'grantAllPrivateProjects'>;

/**
 * Inside a transaction holding the organization's row lock: checks the pending-invitation
 * ceiling, the seats and the mail budgets once for all of `emails` (addresses nobody holds),
 * supersedes their expired pending invitations, and creates one invitation each with its mail
 * and audit event.
 */
async function createInvitations(tx: Db, ctx: RequestContext, emails: string[], options: InvitationOptions): Promise<InvitationRow[]> {
  if (emails.length === 0) return [];
  const now = new Date();
  await assertPendingRoom(tx, emails.length, now);
  if (occupiesSeat(options.role)) await reserveSeats(tx, ctx.org.id, emails.length);
  await chargeInvitationMails(tx, ctx.org.id, emails, now.getTime());
  await tx.invitation.updateMany({ where: { email: { in: emails }, status: 'pending' }, data: { status: 'expired', updatedAt: now } });
  const created: InvitationRow[] = [];
  for (const email of emails) {
    const { secret, hash } = newSecret();
    const row = await uniqueOrConflict(
      () =>
        tx.invitation.create({
          data: {
            id: newId(),
            orgId: ctx.org.id,
            email,
            role: options.role,
            locale: options.locale ?? 'en',
            grantAllPrivateProjects: options.grantAllPrivateProjects ?? false,
            tokenHash: hash,
            invitedByUserId: ctx.identity.user.id,
            invitedByName: displayName(ctx.identity.user),
            expiresAt: expiryFrom(now),
            createdAt: now,
            updatedAt: now,
          },
        }),
      { field: 'email', message: `${email} already has a pending invitation` },
    );
    await queueInvitationMail(tx, ctx.org, row, secret);
    await emitAudit(tx, ctx, {
      action: 'invitation.created',
      ...invitationEvent(row),
      metadata: { email, role: row.role, locale: row.locale, grantAllPrivateProjects: row.grantAllPrivateProjects },
    });
    created.push(row);
  }
  return created;
}

/** POST /orgs/{orgUlid}/invitations (owner, admin). */
export async function createInvitation(ctx: RequestContext, input: CreateInvitationInput): Promise<InvitationRow> {
  authorize(ctx, 'member.manage');
  assertEmailVerified(ctx.identity.user);
  const email = normalizeEmail(input.email);
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const taken = (await takenAddresses(tx, [email], new Date())).get(email);
    if (taken === 'already_member') throw conflict(`${email} is already a member of this organization`, { path: ['email'] });
    if (taken === 'duplicate_pending') throw conflict(`${email} already has a pending invitation`, { path: ['email'] });
    const [row] = await createInvitations(tx, ctx, [email], input);
    return row!;
  });
}

const validEmail = z.email().max(EMAIL_MAX);

/**
 * POST /orgs/{orgUlid}/invitations/bulk: one result per distinct address (trimmed,
 * case-insensitive) in first-appearance order. The ceiling and the seats are checked once,
 * against the addresses that would be invited: a refusal invites nobody.
 */
export async function createInvitationsInBulk(ctx: RequestContext, input: BulkInvitationInput) {
  authorize(ctx, 'member.manage');
  assertEmailVerified(ctx.identity.user);
  const addresses = [...new Set(input.emails.map(normalizeEmail))];
  const valid = addresses.filter((email) => validEmail.safeParse(email).success);
  const validSet = new Set(valid);
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const taken = await takenAddresses(tx, valid, new Date());
    await createInvitations(
      tx,
      ctx,
      valid.filter((email) => !taken.has(email)),
      input,
    );
    const outcome = (email: string): BulkOutcome => (!validSet.has(email) ? 'invalid_email' : (taken.get(email) ?? 'created'));
    return { results: addresses.map((email) => ({ email, status: outcome(email) })) };
  });
}

/** The stored rows a status filter selects (`expired`: superseded, or pending past expiry). */
function invitationFilter(statuses: InvitationStatus[] | undefined, now = new Date()): Prisma.InvitationWhereInput {
  if (!statuses) return {};
  const byStatus: Record<InvitationStatus, Prisma.InvitationWhereInput> = {
    pending: { status: 'pending', expiresAt: { gt: now } },
    expired: { OR: [{ status: 'expired' }, { status: 'pending', expiresAt: { lte: now } }] },
    accepted: { status: 'accepted' },
    revoked: { status: 'revoked' },
  };
  return { OR: statuses.map((status) => byStatus[status]) };
}

/** Newest first. */
const INVITATION_ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.InvitationOrderByWithRelationInput[];

/** GET /orgs/{orgUlid}/invitations (owner, admin): every status unless filtered, newest first. */
export async function listInvitations(ctx: RequestContext, query: InvitationListQuery) {
  authorize(ctx, 'member.manage');
  const where = invitationFilter(query.status);
  const [rows, total] = await Promise.all([
    ctx.db.invitation.findMany({ where, orderBy: INVITATION_ORDER, ...pageWindow(query) }),
    ctx.db.invitation.count({ where }),
  ]);
  return pageOf(await invitationViews(ctx, rows), query, total);
}

/** Invitations for a GraphQL connection. */
export async function findInvitations(
  ctx: RequestContext,
  statuses: InvitationStatus[] | undefined,
  window: Prisma.InvitationFindManyArgs,
) {
  authorize(ctx, 'member.manage');
  return ctx.db.invitation.findMany({ ...window, where: invitationFilter(statuses), orderBy: INVITATION_ORDER });
}

export async function countInvitations(ctx: RequestContext, statuses: InvitationStatus[] | undefined) {
  authorize(ctx, 'member.manage');
  return ctx.db.invitation.count({ where: invitationFilter(statuses) });
}

async function pendingInvitation(tx: Db, invitationUlid: string, action: string): Promise<InvitationRow> {
  const row = await tx.invitation.findFirst({ where: { id: invitationUlid } });
  if (!row) throw notFound('Invitation');
  if (row.status !== 'pending') throw conflict(`Only a pending invitation can be ${action}; this one is ${invitationStatus(row)}`);
  return row;
}

/**
 * POST …/invitations/{invitationUlid}/resend: a new token (the previous one stops working), the
 * expiry renewed, the mail queued again within the mail budgets. A pending invitation that
 * expired may be resent too: it reserved nothing meanwhile, so the ceiling and the seats are
 * checked again.
 */
export async function resendInvitation(ctx: RequestContext, invitationUlid: string): Promise<InvitationRow> {
  authorize(ctx, 'member.manage');
  assertEmailVerified(ctx.identity.user);
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const row = await pendingInvitation(tx, invitationUlid, 'resent');
    const now = new Date();
    if ((await takenAddresses(tx, [row.email], now)).get(row.email) === 'already_member') {
      throw conflict(`${row.email} is already a member of this organization`);
    }
    if (row.expiresAt <= now) {
      await assertPendingRoom(tx, 1, now);
      if (occupiesSeat(row.role)) await reserveSeats(tx, ctx.org.id, 1);
    }
    await chargeInvitationMails(tx, ctx.org.id, [row.email], now.getTime());
    const { secret, hash } = newSecret();
    const updated = await tx.invitation.update({
      where: { id: row.id },
      data: { tokenHash: hash, expiresAt: expiryFrom(now), updatedAt: now },
    });
    await queueInvitationMail(tx, ctx.org, updated, secret);
    await emitAudit(tx, ctx, {
      action: 'invitation.resent',
      ...invitationEvent(updated),
      metadata: { email: updated.email, expiresAt: updated.expiresAt.getTime() },
    });
    return updated;
  });
}

/** DELETE …/invitations/{invitationUlid}: a pending invitation (expired or not) is revoked; its token answers 404. */
export async function revokeInvitation(ctx: RequestContext, invitationUlid: string): Promise<void> {
  authorize(ctx, 'member.manage');
  await inTransaction(ctx.db, async (tx) => {
    const row = await pendingInvitation(tx, invitationUlid, 'revoked');
    const { count } = await tx.invitation.updateMany({
      where: { id: row.id, status: 'pending' },
      data: { status: 'revoked', updatedAt: new Date() },
    });
    if (count === 0) throw conflict('The invitation is no longer pending');
    await emitAudit(tx, ctx, { action: 'invitation.revoked', ...invitationEvent(row), metadata: { email: row.email, role: row.role } });
  });
}

/**
 * What the holder of an invitation's token may read of it (the accept page shows it): the
 * organization, the role, the invited address and the status. Null for a token no invitation
 * holds: never issued, or replaced by a resend.
 */
export async function describeInvitation(token: string) {
  const row = await prisma().invitation.findUnique({
    where: { tokenHash: sha256(token) },
    include: { org: { select: { name: true } } },
  });
  if (!row) return null;
  return { organizationName: row.org.name, role: row.role as InvitationRole, email: row.email, status: invitationStatus(row) };
}

const invitationNotFound = () => notFound('Invitation');

/**
 * Inside the caller's transaction: `user` joins the organization that `token` invites their
 * email address to. Unknown, revoked, expired or used tokens answer 404; another address 403;
 * the seat limit is checked again (the invitation stops reserving its seat as it is used). The
 * organization's row lock makes two acceptances of one invitation run one after the other: the
 * second finds it used.
 */
export async function joinByInvitation(tx: Db, user: UserSnapshot, token: string) {
  const invitation = await tx.invitation.findUnique({ where: { tokenHash: sha256(token) } });
  if (!invitation || invitationStatus(invitation) !== 'pending') throw invitationNotFound();
  if (invitation.email !== normalizeEmail(user.email)) throw forbidden('This invitation was sent to another email address');
  const orgId = invitation.orgId;
  await lockRow(tx, 'organizations', orgId);
  const now = new Date();
  const { count } = await tx.invitation.updateMany({
    where: { id: invitation.id, tokenHash: invitation.tokenHash, status: 'pending', expiresAt: { gt: now } },
    data: { status: 'accepted', acceptedAt: now, acceptedByUserId: user.id, updatedAt: now },
  });
  if (count === 0) throw invitationNotFound();
  if (await tx.membership.findFirst({ where: { orgId, userId: user.id } })) {
    throw conflict('You are already a member of this organization');
  }
  const role = invitation.role as Role;
  if (occupiesSeat(role)) await reserveSeats(tx, orgId, 1);
  await tx.membership.create({ data: { id: newId(), orgId, userId: user.id, role } });
  const grantedProjectUlids = invitation.grantAllPrivateProjects ? await grantPrivateProjects(tx, orgId, user.id) : [];
  const organization = await tx.organization.findUniqueOrThrow({ where: { id: orgId } });
  const actor = { identity: { kind: 'session', user, sessionId: '' } satisfies Identity, org: organization };
  await emitAudit(tx, actor, {
    action: 'invitation.accepted',
    ...invitationEvent(invitation),
    metadata: { email: invitation.email, role, userUlid: user.id, grantedProjectUlids },
  });
  await emitAudit(tx, actor, {
    action: 'member.joined',
    entityType: 'member',
    entityUlid: user.id,
    entityLabel: invitation.email,
    metadata: { email: invitation.email, role, invitationUlid: invitation.id },
  });
  return { organization, role };
}

/** A granted allowlist row on every private project of the organization; answers their ids. */
async function grantPrivateProjects(tx: Db, orgId: string, userId: string): Promise<string[]> {
  const rows = await queryRaw<Array<{ project_id: string }>>(
    tx,
    sql`
    INSERT INTO project_access_members (project_id, user_id, org_id, state)
    SELECT id, ${userId}, org_id, 'granted' FROM projects WHERE org_id = ${orgId} AND access_mode = 'private'
    ON CONFLICT (project_id, user_id) DO UPDATE SET state = 'granted', updated_at = CURRENT_TIMESTAMP
    RETURNING project_id`,
  );
  return rows.map((row) => row.project_id).sort();
}

/**
 * POST /invitations/accept, with a session only: the organization joined and the role there.
 * `db` is the request's transaction when it runs in one.
 */
export async function acceptInvitation(identity: Identity, token: string, db: Db = prisma()) {
  if (identity.kind !== 'session') throw unauthorized('Accepting an invitation needs a session');
  assertEmailVerified(identity.user);
  return inTransaction(db, async (tx) => {
    return joinByInvitation(tx, identity.user, token);
  });
}
