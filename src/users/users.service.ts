import { normalizeEmail } from '../foundation/auth/auth.schemas.ts';
import { prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound } from '../kernel/errors.ts';

/**
 * `tcms user erase <email>`: removes a person's identity. The user row goes, and with it their
 * memberships, sessions, API tokens, group memberships and project grants (foreign keys cascade;
 * project ownership and defect assignments are nulled). Their audit events stay with null
 * references: the actor's ULID, email and name are cleared together (the one change the
 * append-only trigger allows for this), so exports show `[identity removed]`. Refused while the
 * user is the last owner of an organization. No audit event: one would record the identity.
 */
export async function eraseUser(email: string) {
  return inTransaction(prisma(), async (tx) => {
    const user = await tx.user.findUnique({ where: { email: normalizeEmail(email) }, include: { memberships: true } });
    if (!user) throw notFound(`User ${email}`);
    for (const membership of user.memberships.filter((each) => each.role === 'owner')) {
      // Serializes with role changes, as the members module does, so the organization keeps an owner.
      await lockRow(tx, 'organizations', membership.orgId);
      const owners = await tx.membership.count({ where: { orgId: membership.orgId, role: 'owner' } });
      if (owners === 1) {
        throw new AppError('last_owner', `${email} is the last owner of organization ${membership.orgId}: make another member owner first`);
      }
    }
    const { count: events } = await tx.auditEvent.updateMany({
      where: { actorUserId: user.id },
      data: { actorUserId: null, actorEmail: null, actorName: null },
    });
    await tx.user.delete({ where: { id: user.id } });
    return { erased: user.id, organizations: user.memberships.map((each) => each.orgId), auditEventsAnonymized: events };
  });
}
