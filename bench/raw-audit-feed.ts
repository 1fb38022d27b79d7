/**
 * The raw-SQL floor of the audit feed row (bench/audit-feed.ts): GET
 * /api/v1/orgs/{orgUlid}/audit-events?limit=…&cursor=… with an API token, as the two statements
 * the service sends for it and nothing else: the token's authentication and metering in one
 * statement (the tight floor's, bench/raw-runs-tight.ts: the token with its membership and
 * organization, its use touched, the call counted), then the page as auditWindow
 * (src/foundation/audit/audit.service.ts) selects it, one event more than the page to know
 * whether another follows. No HTTP, validation, mapping or JSON.
 */
import type { Sql } from './raw.ts';
import { authenticate, type TightCredentials } from './raw-runs-tight.ts';

/** auditWindow's statement for a forward page of the organization's feed: $1 the organization, $2 the cursor, $3 the page size plus one. */
export const FEED_PAGE = `
    SELECT id, org_id AS "orgId", action, actor_kind AS "actorKind", actor_user_id AS "actorUserId",
      actor_token_id AS "actorTokenId", actor_email AS "actorEmail", actor_name AS "actorName", entity_type AS "entityType",
      entity_ulid AS "entityUlid", entity_label AS "entityLabel", run_id AS "runId", origin_run_id AS "originRunId",
      metadata, created_at AS "createdAt"
    FROM audit_events
    WHERE org_id = $1
      AND id COLLATE "C" < $2
    ORDER BY id COLLATE "C" DESC
    LIMIT $3`;

/** The page of `limit` events older than `cursor` of the caller's organization: their ids, newest first, and whether more follow. */
export async function auditFeedFloor(
  sql: Sql,
  credentials: TightCredentials,
  cursor: string,
  limit: number,
): Promise<{ ids: string[]; more: boolean }> {
  const caller = await authenticate(sql, credentials);
  const { rows } = (await sql.query(FEED_PAGE, [caller.orgId, cursor, limit + 1])) as { rows: Array<{ id: string }> };
  return { ids: rows.slice(0, limit).map((row) => row.id), more: rows.length > limit };
}
