import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../kernel/database/client.ts';
import { executeRaw, sql } from '../kernel/database/raw-sql.ts';
import { notFound } from '../kernel/errors.ts';
import { type AuditEntry, emitAudit } from './audit/audit.service.ts';
import type { Identity } from './context.ts';

/** Rows still live: what every read of a soft-deletable model filters on. */
export const LIVE = { deletedAt: null } as const;

/** The tables whose rows are soft-deleted (`deleted_at`); all belong to one organization. */
export type SoftDeletable = 'milestones' | 'environments' | 'configuration_groups' | 'configurations' | 'test_plans';

/**
 * Soft-deletes one live row and records its audit event, in the caller's transaction. The update
 * is conditional on the row being live, so of two concurrent deletes one answers 404 (`what` not
 * found) and only one event is recorded. Answers the instant of the deletion.
 */
export async function softDelete(
  tx: Db,
  ctx: { identity: Identity; org: { id: string } },
  row: { table: SoftDeletable; id: string; what: string },
  event: AuditEntry,
): Promise<Date> {
  const now = new Date();
  const count = await executeRaw(
    tx,
    sql`
    UPDATE ${Prisma.raw(row.table)} SET deleted_at = ${now}, updated_at = ${now}
    WHERE id = ${row.id} AND org_id = ${ctx.org.id} AND deleted_at IS NULL`,
  );
  if (count === 0) throw notFound(row.what);
  await emitAudit(tx, ctx, event);
  return now;
}
