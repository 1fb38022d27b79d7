import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import type { ReportWindow } from './reports.schemas.ts';

/**
 * What a report is about: a project's runs, or only those of a plan, of a milestone, or listed
 * (each given narrowing applies). Reports read many scopes in one statement, each scope's rows
 * keyed by its index in the list.
 */
export type ReportScope = { projectId: string; planId: string | null; milestoneId: string | null; runIds: string[] | null };

/**
 * The CTEs every report starts from: `subject` (key, project_id, plan_id, milestone_id, run_ids),
 * one row per scope, and `scoped_runs` (key, id, created_at, closed_at). A milestone's runs are
 * those linked to it and those of the plans linked to it. Raw SQL names org_id itself.
 */
export function scopedRuns(orgId: string, scopes: ReportScope[]): Prisma.Sql {
  const subjects = scopes.map((scope, key) => ({
    key,
    project_id: scope.projectId,
    plan_id: scope.planId,
    milestone_id: scope.milestoneId,
    run_ids: scope.runIds,
  }));
  return sql`
  subject AS (
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(subjects)}::jsonb)
      AS s(key int, project_id char(26), plan_id char(26), milestone_id char(26), run_ids char(26)[])
  ),
  scoped_runs AS (
    SELECT s.key, r.id, r.created_at, r.closed_at
    FROM subject AS s
    JOIN test_runs AS r ON r.org_id = ${orgId} AND r.project_id = s.project_id
    WHERE (s.plan_id IS NULL OR r.plan_id = s.plan_id)
      AND (s.milestone_id IS NULL OR r.milestone_id = s.milestone_id
           OR r.plan_id IN (SELECT p.id FROM test_plans AS p WHERE p.org_id = ${orgId} AND p.milestone_id = s.milestone_id))
      AND (s.run_ids IS NULL OR r.id = ANY(s.run_ids))
  )`;
}

/** True for a `subject` row `s` that is a whole project (no narrowing): every result of its cases counts. */
export const WHOLE_PROJECT = sql`(s.plan_id IS NULL AND s.milestone_id IS NULL AND s.run_ids IS NULL)`;

/** Results with an outcome: the statuses that say a case was executed. */
export const EXECUTED = sql`('passed', 'failed', 'blocked', 'skipped')`;

/**
 * The CTE `buckets` (local_start, start, "end"): every day or week of the window in its time
 * zone, also those without data. A bucket is a span of local time: PostgreSQL turns its local
 * start into an instant with the zone's offset at that moment, so a day across a DST change is 23
 * or 25 hours long. The first bucket may start before `from`; the last one ends at `to`.
 */
export function windowBuckets({ from, to, bucket, timeZone }: ReportWindow): Prisma.Sql {
  return sql`
  buckets AS (
    SELECT local_start, local_start AT TIME ZONE ${timeZone}::text AS start,
      least(lead(local_start) OVER (ORDER BY local_start) AT TIME ZONE ${timeZone}::text, ${to}::timestamptz) AS "end"
    FROM generate_series(
      date_trunc(${bucket}::text, ${from}::timestamptz AT TIME ZONE ${timeZone}::text),
      (${to}::timestamptz - interval '1 millisecond') AT TIME ZONE ${timeZone}::text,
      ${`1 ${bucket}`}::interval
    ) AS local_start
  )`;
}

/** The local start of the window's bucket that holds `instant` (a timestamptz expression). */
export const bucketOf = (instant: Prisma.Sql, { bucket, timeZone }: ReportWindow): Prisma.Sql =>
  sql`date_trunc(${bucket}::text, ${instant} AT TIME ZONE ${timeZone}::text)`;

/** Memory for a report's sorts and hashes: a window's results sorted in memory rather than on disk. */
const REPORT_WORK_MEM = '32MB';

/**
 * Runs a report's statement in a transaction of its own whose settings (SET LOCAL: for it only)
 * suit an aggregate over history: no JIT compilation, which PostgreSQL starts for any plan whose
 * estimated cost passes jit_above_cost and which then costs more than the statement (a coverage of
 * 10,000 cases took 3 s with it, 0.2 s without; docs/decisions.md §50), and REPORT_WORK_MEM.
 */
export function queryReport<T>(db: Db, statement: Prisma.Sql): Promise<T> {
  return inTransaction(db, async (tx) => {
    await queryRaw(tx, sql`SELECT set_config('jit', 'off', true), set_config('work_mem', ${REPORT_WORK_MEM}, true)`);
    return queryRaw<T>(tx, statement);
  });
}

/** `rows` (each keyed by its scope's index) split by scope, in the order of the scopes. */
export function byScope<Row extends { key: number }>(scopeCount: number, rows: Row[]): Row[][] {
  const lists: Row[][] = Array.from({ length: scopeCount }, () => []);
  for (const row of rows) lists[row.key]!.push(row);
  return lists;
}
