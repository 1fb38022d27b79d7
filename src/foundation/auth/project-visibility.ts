import type { Db } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import type { Identity, Role } from '../context.ts';

/**
 * Who sees a private project (contract §10): owners and admins bypass the allowlist, API tokens
 * are never evaluated against it (an OAuth token is its user, §16); everyone else sees it only as its project owner, with a granted
 * row or through an assigned group, and never with a revoked row (except its project owner).
 */
export const bypassesAllowlist = (identity: Identity, role: Role) => identity.kind === 'api_token' || role === 'owner' || role === 'admin';

/**
 * The private projects of `orgId` that the member `userId` may not see, in one statement. The
 * tenant client (src/kernel/database/tenant.ts) leaves them, and everything in them, out of every query.
 */
export async function hiddenProjectIds(db: Db, orgId: string, userId: string): Promise<string[]> {
  const rows = await queryRaw<Array<{ id: string }>>(
    db,
    sql`
    SELECT p.id FROM projects p
    LEFT JOIN project_access_members own ON own.project_id = p.id AND own.user_id = ${userId}
    WHERE p.org_id = ${orgId} AND p.access_mode = 'private' AND p.owner_user_id IS DISTINCT FROM ${userId}
      AND (own.state = 'revoked'
        OR (own.state IS NULL AND NOT EXISTS (
          SELECT 1 FROM project_group_assignments a
          JOIN user_group_members m ON m.group_id = a.group_id AND m.user_id = ${userId}
          WHERE a.project_id = p.id)))`,
  );
  return rows.map((row) => row.id);
}
