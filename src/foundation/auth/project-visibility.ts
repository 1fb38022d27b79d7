import type { Db, Prisma } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import type { Identity, Role } from '../context.ts';

/** The roles that see every project of their organization. */
const ALLOWLIST_BYPASSING_ROLES: readonly Role[] = ['owner', 'admin'];

/**
 * Who sees a private project (contract §10): owners and admins bypass the allowlist, API tokens
 * are never evaluated against it (an OAuth token is its user, §16); everyone else sees it only as its project owner, with a granted
 * row or through an assigned group, and never with a revoked row (except its project owner).
 */
export const bypassesAllowlist = (identity: Identity, role: Role) =>
  identity.kind === 'api_token' || ALLOWLIST_BYPASSING_ROLES.includes(role);

/**
 * The ids of the private projects of the organization `orgId` that the person `userId` may not
 * see, as an array expression; each may be a column of the enclosing statement (whose aliases
 * must differ from this expression's). A person whose
 * `role` bypasses the allowlist gets an empty array, and the projects are not read.
 */
export const hiddenProjectsExpression = (orgId: Prisma.Sql, userId: Prisma.Sql, role: Prisma.Sql) => sql`
  CASE WHEN ${role} = ANY(${ALLOWLIST_BYPASSING_ROLES}::text[]) THEN ARRAY[]::text[] ELSE ARRAY(
    SELECT private_project.id::text FROM projects AS private_project
    LEFT JOIN project_access_members AS own ON own.project_id = private_project.id AND own.user_id = ${userId}
    WHERE private_project.org_id = ${orgId} AND private_project.access_mode = 'private'
      AND private_project.owner_user_id IS DISTINCT FROM ${userId}
      AND (own.state = 'revoked'
        OR (own.state IS NULL AND NOT EXISTS (
          SELECT 1 FROM project_group_assignments AS assignment
          JOIN user_group_members AS group_member ON group_member.group_id = assignment.group_id AND group_member.user_id = ${userId}
          WHERE assignment.project_id = private_project.id)))) END`;

/**
 * The private projects of `orgId` that `userId`, in `role`, may not see, in one statement. The
 * tenant client (src/kernel/database/tenant.ts) leaves them, and everything in them, out of every query.
 */
export async function hiddenProjectIds(db: Db, orgId: string, userId: string, role: Role): Promise<string[]> {
  const [row] = await queryRaw<Array<{ hidden: string[] }>>(
    db,
    sql`SELECT ${hiddenProjectsExpression(sql`${orgId}`, sql`${userId}`, sql`${role}`)} AS hidden`,
  );
  return row!.hidden;
}
