import { Prisma } from '../../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../foundation/context.ts';
import type { Db } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { notFound } from '../../kernel/errors.ts';
import { applyRunChange } from './run-counters.ts';

type RunForCases = { id: string; projectId: string; name: string; firstResultAt: Date | null; lastResultAt: Date | null };

/**
 * The live cases a run gets, in order, and who each starts with. Assignee precedence, first match
 * wins: `requested` (null unassigns); the plan's stored assignee (a former member seeds null);
 * `defaultAssigneeId`.
 */
export type CaseSeeds = {
  /** Test case ULIDs in run order (distinct); null: the plan's live selection in plan order. */
  caseIds: string[] | null;
  planId: string | null;
  requested: Map<string, string | null>;
  defaultAssigneeId: string | null;
};

/**
 * Snapshots run cases and their steps in one statement, every case and step untested. `source`
 * yields case_id, case_number, title, suite_name, position, assignee_id, step_source (whose steps
 * `steps` holds as owner_id) and live (only live rows are inserted). Set-based: the rows never
 * pass through Node, whatever their number. Returns how many cases were inserted.
 */
async function insertSnapshot(tx: Db, ctx: RequestContext, runId: string, source: Prisma.Sql, steps: Prisma.Sql): Promise<number> {
  const orgId = ctx.org.id;
  const now = new Date();
  // MATERIALIZED keeps `live` out of the source's joins: without fresh statistics (the embedded
  // database never analyzes) the planner would otherwise look cases up by project, once per case.
  const [{ count }] = await queryRaw<[{ count: number }]>(
    tx,
    sql`
    WITH source AS MATERIALIZED (SELECT tcms_ulid() AS id, listed.* FROM (${source}) AS listed),
    run_case AS (
      INSERT INTO test_run_cases (id, org_id, run_id, case_id, case_number, title, suite_name, position, status, assignee_id, created_at, updated_at)
      SELECT id, ${orgId}, ${runId}, case_id, case_number, title, suite_name, position, 'untested', assignee_id, ${now}, ${now}
      FROM source WHERE live
      RETURNING 1
    ),
    step AS (
      INSERT INTO test_run_case_steps (id, org_id, run_case_id, position, action, expected_result, status, updated_at)
      SELECT tcms_ulid(), ${orgId}, source.id, step.position, step.action, step.expected_result, 'untested', ${now}
      FROM source JOIN ${steps} AS step ON step.owner_id = source.step_source
      WHERE source.live
      RETURNING 1
    )
    SELECT count(*)::int AS count FROM run_case`,
  );
  return count;
}

/**
 * Adds live cases of the run's project to a run, in seed order from `firstPosition` on: title,
 * suite name and steps are snapshotted from the test cases (404 unless each listed case is live in
 * the run's project), and the run's counters grow. Returns the run as it now is and how many cases
 * were added.
 */
export async function snapshotCases<R extends RunForCases>(tx: Db, ctx: RequestContext, run: R, seeds: CaseSeeds, firstPosition: number) {
  const orgId = ctx.org.id;
  const ordered = seeds.caseIds
    ? sql`SELECT seed.case_id, seed.ord FROM unnest(${seeds.caseIds}::char(26)[]) WITH ORDINALITY AS seed(case_id, ord)`
    : sql`SELECT entry.case_id, row_number() OVER (ORDER BY entry.position, entry.id) AS ord
        FROM test_plan_cases AS entry JOIN test_cases AS live ON live.id = entry.case_id AND live.archived_at IS NULL
        WHERE entry.plan_id = ${seeds.planId} AND entry.org_id = ${orgId}`;
  const requested = [...seeds.requested];
  const source = sql`
    SELECT tc.id AS case_id, tc.case_number, tc.title, suite.name AS suite_name, (${firstPosition} + seed.ord - 1)::int AS position,
           CASE WHEN asked.case_id IS NOT NULL THEN asked.assignee_id
                WHEN planned.assignee_id IS NOT NULL THEN member.user_id
                ELSE ${seeds.defaultAssigneeId}::char(26) END AS assignee_id,
           tc.id AS step_source, tc.org_id = ${orgId} AND tc.project_id = ${run.projectId} AND tc.archived_at IS NULL AS live
    FROM (${ordered}) AS seed
    JOIN test_cases AS tc ON tc.id = seed.case_id
    LEFT JOIN suites AS suite ON suite.id = tc.suite_id
    LEFT JOIN unnest(${requested.map(([caseId]) => caseId)}::char(26)[], ${requested.map(([, assigneeId]) => assigneeId)}::char(26)[])
      AS asked(case_id, assignee_id) ON asked.case_id = seed.case_id
    LEFT JOIN test_plan_cases AS planned ON planned.plan_id = ${seeds.planId} AND planned.case_id = seed.case_id
    LEFT JOIN memberships AS member ON member.org_id = ${orgId} AND member.user_id = planned.assignee_id`;
  const steps = sql`(SELECT case_id AS owner_id, position, action, expected_result FROM test_case_steps WHERE org_id = ${orgId})`;
  const count = await insertSnapshot(tx, ctx, run.id, source, steps);
  if (seeds.caseIds && count !== seeds.caseIds.length) throw notFound('Test case');
  return { run: await applyRunChange(tx, ctx, run, { statusDelta: { untested: count } }), count };
}

/**
 * Copies the cases of another run (its snapshots, not the live cases) with `statuses` (all when
 * null) into a new run, in the source's order, every case and step untested; assignees only with
 * `keepAssignees`, and then only members. Returns the run as it now is and how many cases it got.
 */
export async function copyRunCases<R extends RunForCases>(
  tx: Db,
  ctx: RequestContext,
  run: R,
  sourceRunId: string,
  statuses: string[] | null,
  keepAssignees: boolean,
) {
  const orgId = ctx.org.id;
  const source = sql`
    SELECT rc.case_id, rc.case_number, rc.title, rc.suite_name,
           (row_number() OVER (ORDER BY rc.position, rc.id) - 1)::int AS position,
           CASE WHEN ${keepAssignees} THEN member.user_id END AS assignee_id, rc.id AS step_source, true AS live
    FROM test_run_cases AS rc
    LEFT JOIN memberships AS member ON member.org_id = ${orgId} AND member.user_id = rc.assignee_id
    WHERE rc.run_id = ${sourceRunId} AND rc.org_id = ${orgId} ${statuses ? sql`AND rc.status = ANY(${statuses}::text[])` : Prisma.empty}`;
  const steps = sql`(SELECT run_case_id AS owner_id, position, action, expected_result FROM test_run_case_steps WHERE org_id = ${orgId})`;
  const count = await insertSnapshot(tx, ctx, run.id, source, steps);
  return { run: await applyRunChange(tx, ctx, run, { statusDelta: { untested: count } }), count };
}
