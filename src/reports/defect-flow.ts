import type { Db } from '../kernel/database/client.ts';
import { sql } from '../kernel/database/raw-sql.ts';
import { bucketOf, byScope, queryReport, type ReportScope, scopedRuns, WHOLE_PROJECT, windowBuckets } from './report-scopes.ts';
import type { DefectBucket, ReportWindow } from './reports.schemas.ts';

type DefectRow = Omit<DefectBucket, 'start'> & { key: number; start: Date };

/**
 * Defects opened and resolved per bucket, and those open at each bucket's end, for each scope in
 * one statement. A defect keeps no history of its own: its status changes are the `status`
 * entries of its `defect.updated` audit events (written in the same transaction as the change,
 * and never deleted), read through the partial index on them. Its status when created is the
 * `from` of its first change, else the status it has. A narrowed scope counts the defects linked
 * to a result of its runs. A deleted defect is gone from every bucket.
 */
export async function readDefectFlows(db: Db, orgId: string, scopes: ReportScope[], window: ReportWindow): Promise<DefectBucket[][]> {
  const { from, to } = window;
  const rows = await queryReport<DefectRow[]>(
    db,
    sql`
    WITH ${scopedRuns(orgId, scopes)}, ${windowBuckets(window)},
    scoped_defects AS (
      SELECT s.key, d.id, d.created_at, d.status
      FROM subject AS s
      JOIN defects AS d ON d.org_id = ${orgId} AND d.project_id = s.project_id
      WHERE ${WHOLE_PROJECT} OR EXISTS (
        SELECT 1 FROM defect_result_links AS link
        JOIN test_run_results AS res ON res.id = link.result_id
        JOIN scoped_runs AS sr ON sr.id = res.run_id AND sr.key = s.key
        WHERE link.org_id = ${orgId} AND link.defect_id = d.id
      )
    ),
    status_changes AS (
      SELECT sd.key, sd.id, event.created_at AS at, event.id AS event_id, entry->>'from' AS from_status, entry->>'to' AS to_status
      FROM scoped_defects AS sd
      JOIN audit_events AS event ON event.entity_ulid = sd.id AND event.action = 'defect.updated' AND event.org_id = ${orgId}
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(event.metadata->'changes') = 'array' THEN event.metadata->'changes' ELSE '[]'::jsonb END
      ) AS entry
      WHERE entry->>'field' = 'status'
    ),
    timeline (key, at, from_status, to_status) AS (
      SELECT sd.key, sd.created_at, NULL,
        coalesce((SELECT c.from_status FROM status_changes AS c WHERE c.id = sd.id ORDER BY c.at, c.event_id LIMIT 1), sd.status)
      FROM scoped_defects AS sd WHERE sd.created_at < ${to}::timestamptz
      UNION ALL
      SELECT key, at, from_status, to_status FROM status_changes WHERE at < ${to}::timestamptz
    ),
    per_bucket AS (
      SELECT key, greatest(${bucketOf(sql`at`, window)}, (SELECT min(local_start) FROM buckets)) AS local_start,
        count(*) FILTER (WHERE from_status IS NULL AND at >= ${from}::timestamptz) AS opened,
        count(*) FILTER (WHERE at >= ${from}::timestamptz AND to_status IN ('resolved', 'closed')
                           AND (from_status IS NULL OR from_status IN ('open', 'in_progress'))) AS resolved,
        sum((to_status IN ('open', 'in_progress'))::int - coalesce((from_status IN ('open', 'in_progress'))::int, 0)) AS open_change
      FROM timeline
      GROUP BY 1, 2
    )
    SELECT s.key, b.start, coalesce(p.opened, 0)::int AS opened, coalesce(p.resolved, 0)::int AS resolved,
      (sum(coalesce(p.open_change, 0)) OVER (PARTITION BY s.key ORDER BY b.local_start))::int AS open
    FROM subject AS s
    CROSS JOIN buckets AS b
    LEFT JOIN per_bucket AS p ON p.key = s.key AND p.local_start = b.local_start
    ORDER BY s.key, b.local_start`,
  );
  return byScope(scopes.length, rows).map((buckets) =>
    buckets.map(({ key: _key, start, ...counts }) => ({ start: start.getTime(), ...counts })),
  );
}
