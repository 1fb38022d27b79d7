import { emitAudit, SYSTEM_ACTOR } from '../foundation/audit/audit.service.ts';
import { normalizeEmail } from '../foundation/auth/auth.schemas.ts';
import { authorize, lowerRole } from '../foundation/auth/policy.ts';
import { displayName, type RequestContext, type Role } from '../foundation/context.ts';
import { type Db, type Prisma, prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { executeRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, forbidden, notFound } from '../kernel/errors.ts';
import { epochMsOrNull } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { occupiesSeat, reserveSeats } from '../seats/seats.service.ts';
import type { MemberListQuery, UpdateMemberInput } from './members.schemas.ts';

export type MemberRow = Prisma.MembershipGetPayload<{ include: { user: true } }>;

export const toMember = (row: MemberRow) => ({
  userUlid: row.userId,
  email: row.user.email,
  firstName: row.user.firstName,
  lastName: row.user.lastName,
  displayName: displayName(row.user),
  avatarKey: row.user.avatarKey,
  role: row.role as Role,
  joinedAt: row.createdAt.getTime(),
  suspendedAt: epochMsOrNull(row.suspendedAt),
});

/** Members by join time. */
const MEMBER_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.MembershipOrderByWithRelationInput[];

export type MemberFilter = Pick<MemberListQuery, 'q' | 'role'>;

/** `q`: every word must appear in the email, the first or the last name (case-insensitive). */
function memberSearch({ q, role }: MemberFilter): Prisma.MembershipWhereInput {
  const words = q?.trim().split(/\s+/).filter(Boolean) ?? [];
  return {
    ...(role ? { role } : {}),
    ...(words.length > 0
      ? {
          AND: words.map((word) => {
            const contains = { contains: likeLiteral(word), mode: 'insensitive' as const };
            return { user: { OR: [{ email: contains }, { firstName: contains }, { lastName: contains }] } };
          }),
        }
      : {}),
  };
}

/** GET /orgs/{orgUlid}/members: any member may see who else belongs. */
export async function listMembers(ctx: RequestContext, query: MemberListQuery) {
  authorize(ctx, 'organization.read');
  const where = memberSearch(query);
  const [rows, total] = await Promise.all([
    ctx.db.membership.findMany({ where, include: { user: true }, orderBy: MEMBER_ORDER, ...pageWindow(query) }),
    ctx.db.membership.count({ where }),
  ]);
  return pageOf(rows.map(toMember), query, total);
}

/** Members for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findMembers(ctx: RequestContext, filter: MemberFilter, window: Prisma.MembershipFindManyArgs) {
  authorize(ctx, 'organization.read');
  return ctx.db.membership.findMany({ ...window, where: memberSearch(filter), orderBy: MEMBER_ORDER });
}

export async function countMembers(ctx: RequestContext, filter: MemberFilter) {
  authorize(ctx, 'organization.read');
  return ctx.db.membership.count({ where: memberSearch(filter) });
}

/**
 * Inside a transaction: takes the organization's row lock, so that role changes, removals,
 * invitations and acceptances of one organization happen one after the other (two demotions
 * cannot both see another owner), then reads the member.
 */
async function lockedMember(tx: Db, ctx: RequestContext, userUlid: string): Promise<MemberRow> {
  await lockRow(tx, 'organizations', ctx.org.id);
  const member = await tx.membership.findFirst({ where: { userId: userUlid }, include: { user: true } });
  if (!member) throw notFound('Member');
  return member;
}

/**
 * The caller's role once the organization is locked: a concurrent change may have lowered it
 * since the request began (a token never acts above its creator's current role).
 */
async function actingRole(tx: Db, ctx: RequestContext): Promise<Role> {
  const own = await tx.membership.findFirst({ where: { userId: ctx.identity.user.id }, select: { role: true } });
  if (!own) throw notFound('Organization');
  return lowerRole(ctx.role, own.role as Role);
}

/** Owners are changed, removed and appointed by owners only. */
function assertOwnerActs(role: Role): void {
  if (role !== 'owner') throw forbidden('Only an owner can change, remove or appoint an owner');
}

async function assertAnotherOwner(tx: Db): Promise<void> {
  if ((await tx.membership.count({ where: { role: 'owner' } })) <= 1) {
    throw new AppError('last_owner', 'The organization must keep at least one owner');
  }
}

const memberEvent = (member: MemberRow) => ({ entityType: 'member', entityUlid: member.userId, entityLabel: member.user.email });

/** PATCH /orgs/{orgUlid}/members/{userUlid}: the same role answers the member and records nothing. */
export async function changeMemberRole(ctx: RequestContext, userUlid: string, input: UpdateMemberInput): Promise<MemberRow> {
  authorize(ctx, 'member.manage');
  return inTransaction(ctx.db, async (tx) => {
    const member = await lockedMember(tx, ctx, userUlid);
    const role = await actingRole(tx, ctx);
    authorize({ role }, 'member.manage');
    if (member.role === 'owner' || input.role === 'owner') assertOwnerActs(role);
    if (member.role === input.role) return member;
    if (member.role === 'owner') await assertAnotherOwner(tx);
    if (!occupiesSeat(member.role) && occupiesSeat(input.role)) await reserveSeats(tx, ctx.org.id, 1);
    const updated = await tx.membership.update({ where: { id: member.id }, data: { role: input.role }, include: { user: true } });
    await emitAudit(tx, ctx, {
      action: 'member.role_changed',
      ...memberEvent(member),
      metadata: { email: member.user.email, changes: [{ field: 'role', from: member.role, to: input.role }] },
    });
    return updated;
  });
}

/**
 * DELETE /orgs/{orgUlid}/members/{userUlid}: an owner or admin removes a member, or a person
 * leaves (with their session; an API token removes like anyone else, by its role). The
 * member's group memberships, project grants and project ownerships in the organization go with
 * the membership, and their API tokens and OAuth grants there are revoked, so that rejoining later
 * revives none.
 */
export async function removeMember(ctx: RequestContext, userUlid: string): Promise<void> {
  const leaving = ctx.identity.kind === 'session' && ctx.identity.user.id === userUlid;
  if (!leaving) authorize(ctx, 'member.manage');
  await inTransaction(ctx.db, async (tx) => {
    const member = await lockedMember(tx, ctx, userUlid);
    if (!leaving) {
      const role = await actingRole(tx, ctx);
      authorize({ role }, 'member.manage');
      if (member.role === 'owner') assertOwnerActs(role);
    }
    if (member.role === 'owner') await assertAnotherOwner(tx);
    await tx.membership.delete({ where: { id: member.id } });
    await forgetMembership(tx, ctx.org.id, member.userId);
    await emitAudit(tx, ctx, {
      action: 'member.removed',
      ...memberEvent(member),
      metadata: { email: member.user.email, role: member.role, left: leaving },
    });
  });
}

/**
 * What a person held in an organization besides the membership. Raw SQL on purpose: the
 * caller's client may hide private projects, and the rows of those must go too.
 */
async function forgetMembership(tx: Db, orgId: string, userId: string): Promise<void> {
  await executeRaw(tx, sql`DELETE FROM user_group_members WHERE org_id = ${orgId} AND user_id = ${userId}`);
  await executeRaw(tx, sql`DELETE FROM project_access_members WHERE org_id = ${orgId} AND user_id = ${userId}`);
  await executeRaw(tx, sql`UPDATE projects SET owner_user_id = NULL WHERE org_id = ${orgId} AND owner_user_id = ${userId}`);
  await executeRaw(
    tx,
    sql`UPDATE api_tokens SET revoked_at = now() WHERE org_id = ${orgId} AND user_id = ${userId} AND revoked_at IS NULL`,
  );
  await executeRaw(tx, sql`DELETE FROM oauth_grants WHERE org_id = ${orgId} AND user_id = ${userId}`);
}

/**
 * Staff suspension (the `tcms` command): a suspended member keeps their role and their seat but
 * cannot act in the organization (src/foundation/auth/authenticate.ts) until unsuspended. `member` is a user
 * ULID or an email address. Setting what already holds records nothing.
 */
export async function setMemberSuspension(orgId: string, member: string, suspended: boolean) {
  return inTransaction(prisma(), async (tx) => {
    if (!(await lockRow(tx, 'organizations', orgId))) throw notFound(`Organization ${orgId}`);
    const row = await tx.membership.findFirst({
      where: { orgId, ...(member.includes('@') ? { user: { email: normalizeEmail(member) } } : { userId: member }) },
      include: { user: true },
    });
    if (!row) throw notFound(`Member ${member} of organization ${orgId}`);
    if ((row.suspendedAt !== null) === suspended) return toMember(row);
    const updated = await tx.membership.update({
      where: { id: row.id },
      data: { suspendedAt: suspended ? new Date() : null },
      include: { user: true },
    });
    await emitAudit(
      tx,
      { identity: SYSTEM_ACTOR, org: { id: orgId } },
      {
        action: suspended ? 'member.suspended' : 'member.unsuspended',
        ...memberEvent(row),
        metadata: { email: row.user.email, role: row.role },
      },
    );
    return toMember(updated);
  });
}
