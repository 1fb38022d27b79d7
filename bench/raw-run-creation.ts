/**
 * The raw-SQL floor of the run-creation measures (bench/run-creation.ts): for each request, the
 * token lookup and per-minute counter of bench/raw.ts, then the reads and writes the service does
 * for it in one transaction, straight to the database (a pg Pool or PGlite; no HTTP, no Prisma).
 * The set-based statements are the service's own (src/runs/internal/run-snapshot.ts,
 * src/plans/plan-selection.service.ts, emitAudit in src/foundation/audit/audit.service.ts), copied with the
 * parameters the bench's requests give them; the small reads around them are written by hand.
 *
 * - run from a plan: the project by code; the live plan with its live configuration selection;
 *   INSERT the run; INSERT … SELECT its run cases and steps from the plan's live selection (one
 *   statement); the run's untested counter; the run.created event (with its webhook deliveries);
 *   the run read back with its configurations, environment and milestone.
 * - PUT plan selection: lock the plan row; the plan with its project, milestone and live case
 *   count; count the listed live cases; the set-based replace of test_plan_cases (one statement);
 *   the plan's updatedAt; the plan.cases_replaced event; the selection read back (the answer).
 *
 * What the floor leaves out is the service's own work, and reads that only check inputs these
 * requests do not send (configurations, assignees, custom-field values): HTTP, routing,
 * validation, authorization, Prisma's query building and result mapping, the JSON answers, and the
 * live-progress notification after commit.
 */
import { newId } from '../src/kernel/ids.ts';
import { authenticate, type Sql } from './raw.ts';
import type { Query, RunsActor } from './raw-runs.ts';
import { type RunCreationFixture, repeated, selectionOrder } from './run-creation.ts';
import type { Measurement } from './stats.ts';

type Rows<T = Record<string, unknown>> = { rows: T[] };
const rowsOf = async <T>(pending: Promise<unknown>) => ((await pending) as Rows<T>).rows;

/** emitAudit's statement: the event, and a delivery for each active webhook whose pattern matches. */
const EMIT_AUDIT = `WITH event AS (
    INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                              entity_type, entity_ulid, entity_label, run_id, origin_run_id, metadata, created_at)
    VALUES ($1, $2, $3, 'api_token', NULL, $4, NULL, $5, $6, $7, $8, $9, $9, $10::jsonb, $11)
    RETURNING id, org_id, action, created_at
  ), deliveries AS (
    INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_id, action, created_at)
    SELECT tcms_ulid(), event.org_id, webhook.id, event.id, event.action, event.created_at
    FROM event JOIN webhooks AS webhook ON webhook.org_id = event.org_id AND webhook.active
    WHERE EXISTS (SELECT 1 FROM unnest(webhook.events) AS pattern WHERE pattern = '*' OR pattern = event.action
      OR (right(pattern, 2) = '.*' AND starts_with(event.action, left(pattern, -1))))
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM deliveries)::int AS deliveries, (SELECT plan_id FROM test_runs WHERE id = $9) AS "planId"`;

type Event = { action: string; entityType: string; entityUlid: string; entityLabel: string; runId: string | null; metadata: unknown };
const emitAudit = (query: Query, actor: RunsActor, event: Event) =>
  query(EMIT_AUDIT, [
    newId(),
    actor.orgId,
    event.action,
    actor.tokenId,
    actor.tokenName,
    event.entityType,
    event.entityUlid,
    event.entityLabel,
    event.runId,
    JSON.stringify(event.metadata),
    new Date(),
  ]);

// ---- run from a plan ----------------------------------------------------------------------------

const PROJECT_BY_CODE = 'SELECT * FROM projects WHERE code = $1 AND org_id = $2 LIMIT 1';
const LIVE_PLAN = `SELECT plan.*, COALESCE((
    SELECT json_agg(json_build_object('configurationId', selected.configuration_id, 'groupId', value.group_id))
    FROM test_plan_configurations AS selected
    JOIN configurations AS value ON value.id = selected.configuration_id AND value.deleted_at IS NULL
    JOIN configuration_groups AS grp ON grp.id = value.group_id AND grp.deleted_at IS NULL
    WHERE selected.plan_id = plan.id), '[]') AS configurations
  FROM test_plans AS plan WHERE plan.id = $1 AND plan.project_id = $2 AND plan.org_id = $3 AND plan.deleted_at IS NULL`;
const INSERT_RUN = `INSERT INTO test_runs (id, org_id, project_id, plan_id, name, description, default_assignee_id, milestone_id, environment_id,
    environment_name, combo_key, author_kind, author_id, author_name, author_avatar_key, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, NULL, NULL, NULL, NULL, NULL, '', 'api_token', $6, $7, NULL, $8, $8) RETURNING *`;
/**
 * snapshotCases with the plan's live selection as the seeds (no caseUlids, no assignees asked,
 * no default assignee), first position 0: $1 org, $2 run, $3 now, $4 plan, $5 project.
 */
const SNAPSHOT_FROM_PLAN = `WITH source AS MATERIALIZED (SELECT tcms_ulid() AS id, listed.* FROM (
    SELECT tc.id AS case_id, tc.case_number, tc.title, suite.name AS suite_name, (0 + seed.ord - 1)::int AS position,
           CASE WHEN asked.case_id IS NOT NULL THEN asked.assignee_id
                WHEN planned.assignee_id IS NOT NULL THEN member.user_id
                ELSE NULL::char(26) END AS assignee_id,
           tc.id AS step_source, tc.org_id = $1 AND tc.project_id = $5 AND tc.archived_at IS NULL AS live
    FROM (SELECT entry.case_id, row_number() OVER (ORDER BY entry.position, entry.id) AS ord
          FROM test_plan_cases AS entry JOIN test_cases AS live ON live.id = entry.case_id AND live.archived_at IS NULL
          WHERE entry.plan_id = $4 AND entry.org_id = $1) AS seed
    JOIN test_cases AS tc ON tc.id = seed.case_id
    LEFT JOIN suites AS suite ON suite.id = tc.suite_id
    LEFT JOIN unnest('{}'::char(26)[], '{}'::char(26)[]) AS asked(case_id, assignee_id) ON asked.case_id = seed.case_id
    LEFT JOIN test_plan_cases AS planned ON planned.plan_id = $4 AND planned.case_id = seed.case_id
    LEFT JOIN memberships AS member ON member.org_id = $1 AND member.user_id = planned.assignee_id
  ) AS listed),
  run_case AS (
    INSERT INTO test_run_cases (id, org_id, run_id, case_id, case_number, title, suite_name, position, status, assignee_id, created_at, updated_at)
    SELECT id, $1, $2, case_id, case_number, title, suite_name, position, 'untested', assignee_id, $3::timestamptz, $3::timestamptz
    FROM source WHERE live
    RETURNING 1
  ),
  step AS (
    INSERT INTO test_run_case_steps (id, org_id, run_case_id, position, action, expected_result, status, updated_at)
    SELECT tcms_ulid(), $1, source.id, step.position, step.action, step.expected_result, 'untested', $3::timestamptz
    FROM source JOIN (SELECT case_id AS owner_id, position, action, expected_result FROM test_case_steps WHERE org_id = $1) AS step
      ON step.owner_id = source.step_source
    WHERE source.live
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM run_case`;
const COUNT_UNTESTED =
  'UPDATE test_runs SET count_untested = count_untested + $1, updated_at = $2 WHERE id = $3 AND org_id = $4 RETURNING *';
const READ_RUN = `SELECT run.*, row_to_json(environment) AS environment, row_to_json(milestone) AS milestone, COALESCE((
    SELECT json_agg(configuration ORDER BY configuration.position, configuration.id) FROM test_run_configurations AS configuration
    WHERE configuration.run_id = run.id), '[]') AS configurations
  FROM test_runs AS run LEFT JOIN environments AS environment ON environment.id = run.environment_id
  LEFT JOIN milestones AS milestone ON milestone.id = run.milestone_id
  WHERE run.id = $1 AND run.org_id = $2`;

/** POST …/runs { name, planUlid }: the run's transaction; returns how many cases it got. */
async function runFromPlan(sql: Sql, actor: RunsActor, code: string, planUlid: string, name: string): Promise<number> {
  await authenticate(sql, actor);
  let count = 0;
  await sql.transaction(async (query) => {
    const [project] = await rowsOf<{ id: string }>(query(PROJECT_BY_CODE, [code, actor.orgId]));
    const [plan] = await rowsOf<{ id: string; name: string }>(query(LIVE_PLAN, [planUlid, project!.id, actor.orgId]));
    const now = new Date();
    const runId = newId();
    await query(INSERT_RUN, [runId, actor.orgId, project!.id, plan!.id, name, actor.tokenId, actor.tokenName, now]);
    [{ count }] = (await rowsOf<{ count: number }>(query(SNAPSHOT_FROM_PLAN, [actor.orgId, runId, now, plan!.id, project!.id]))) as [
      { count: number },
    ];
    await query(COUNT_UNTESTED, [count, new Date(), runId, actor.orgId]);
    await emitAudit(query, actor, {
      action: 'run.created',
      entityType: 'test_run',
      entityUlid: runId,
      entityLabel: name,
      runId,
      metadata: { caseCount: count, plan: { ulid: plan!.id, name: plan!.name } },
    });
    await query(READ_RUN, [runId, actor.orgId]);
  });
  return count;
}

export async function rawRunFromPlan(sql: Sql, actor: RunsActor, fixture: RunCreationFixture, size: number): Promise<Measurement> {
  const { planUlid } = fixture.sources.find((source) => source.size === size)!;
  return repeated(async (index) => {
    const count = await runFromPlan(sql, actor, fixture.code, planUlid, `Raw run ${index}`);
    if (count !== size) throw new Error(`raw run from a plan of ${size}: ${count} cases`);
  });
}

// ---- PUT plan selection -------------------------------------------------------------------------

const LOCK_PLAN = 'SELECT id FROM test_plans WHERE id = ANY($1::char(26)[]) AND org_id = $2 ORDER BY id FOR NO KEY UPDATE';
const RESOLVE_PLAN = `SELECT plan.*, row_to_json(project) AS project, json_build_object('id', milestone.id, 'name', milestone.name) AS milestone,
    (SELECT count(*) FROM test_plan_cases AS entry JOIN test_cases AS tc ON tc.id = entry.case_id AND tc.archived_at IS NULL
     WHERE entry.plan_id = plan.id)::int AS cases
  FROM test_plans AS plan JOIN projects AS project ON project.id = plan.project_id
  LEFT JOIN milestones AS milestone ON milestone.id = plan.milestone_id
  WHERE plan.id = $1 AND plan.org_id = $2 AND plan.deleted_at IS NULL`;
const COUNT_LIVE = `SELECT count(*)::int AS live FROM test_cases
  WHERE id = ANY($1::char(26)[]) AND org_id = $2 AND project_id = $3 AND archived_at IS NULL`;
/** replaceSelection without assignees: $1 case ULIDs in order, $2 plan, $3 org. */
const REPLACE_SELECTION = `WITH wanted AS (
    SELECT entry.case_id, (entry.ord - 1)::int AS position, asked.assignee_id
    FROM unnest($1::char(26)[]) WITH ORDINALITY AS entry(case_id, ord)
    LEFT JOIN unnest('{}'::char(26)[], '{}'::char(26)[]) AS asked(case_id, assignee_id)
      ON asked.case_id = entry.case_id
  ),
  current AS (
    SELECT row.id, row.case_id, row.position, row.assignee_id
    FROM test_plan_cases AS row JOIN test_cases AS live ON live.id = row.case_id AND live.archived_at IS NULL
    WHERE row.plan_id = $2 AND row.org_id = $3
  ),
  kept AS (
    SELECT current.id, wanted.position, wanted.assignee_id, current.assignee_id IS DISTINCT FROM wanted.assignee_id AS reassigned,
           current.position <> wanted.position OR current.assignee_id IS DISTINCT FROM wanted.assignee_id AS changed,
           row_number() OVER (ORDER BY current.position, current.id) AS rank_before,
           row_number() OVER (ORDER BY wanted.position) AS rank_after
    FROM current JOIN wanted ON wanted.case_id = current.case_id
  ),
  removed AS (
    DELETE FROM test_plan_cases AS row USING current
    WHERE row.id = current.id AND current.case_id <> ALL($1::char(26)[])
    RETURNING 1
  ),
  updated AS (
    UPDATE test_plan_cases AS row SET position = kept.position, assignee_id = kept.assignee_id
    FROM kept WHERE row.id = kept.id AND kept.changed
    RETURNING kept.reassigned
  ),
  added AS (
    INSERT INTO test_plan_cases (id, org_id, plan_id, case_id, position, assignee_id)
    SELECT tcms_ulid(), $3, $2, wanted.case_id, wanted.position, wanted.assignee_id
    FROM wanted WHERE NOT EXISTS (SELECT 1 FROM current WHERE current.case_id = wanted.case_id)
    ON CONFLICT (plan_id, case_id) DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM removed)::int AS removed,
         (SELECT count(*) FROM updated)::int AS updated, (SELECT count(*) FROM updated WHERE reassigned)::int AS reassigned,
         EXISTS (SELECT 1 FROM kept WHERE rank_before <> rank_after) AS reordered`;
const TOUCH_PLAN = 'UPDATE test_plans SET updated_at = $1 WHERE id = $2 AND org_id = $3 RETURNING *';
const READ_SELECTION = `SELECT entry.id, entry.case_id, entry.position, entry.assignee_id, tc.case_number, tc.title, suite.name AS suite_name, project.code
  FROM test_plan_cases AS entry JOIN test_cases AS tc ON tc.id = entry.case_id AND tc.archived_at IS NULL
  JOIN projects AS project ON project.id = tc.project_id
  LEFT JOIN suites AS suite ON suite.id = tc.suite_id
  WHERE entry.plan_id = $1 AND entry.org_id = $2 ORDER BY entry.position, entry.id`;

type Change = { added: number; removed: number; updated: number; reassigned: number; reordered: boolean };

/** PUT /plans/{planUlid}/cases { caseUlids }: the replace's transaction; returns the selection read back. */
async function putSelection(sql: Sql, actor: RunsActor, planUlid: string, caseUlids: string[]): Promise<Array<{ case_id: string }>> {
  await authenticate(sql, actor);
  let selection: Array<{ case_id: string }> = [];
  await sql.transaction(async (query) => {
    await query(LOCK_PLAN, [[planUlid], actor.orgId]);
    const [plan] = await rowsOf<{ id: string; name: string; project_id: string }>(query(RESOLVE_PLAN, [planUlid, actor.orgId]));
    const [{ live }] = (await rowsOf<{ live: number }>(query(COUNT_LIVE, [caseUlids, actor.orgId, plan!.project_id]))) as [
      { live: number },
    ];
    if (live !== caseUlids.length) throw new Error(`raw PUT selection: ${live} of ${caseUlids.length} cases live`);
    const [change] = (await rowsOf<Change>(query(REPLACE_SELECTION, [caseUlids, plan!.id, actor.orgId]))) as [Change];
    if (change.added + change.removed + change.updated > 0) {
      await query(TOUCH_PLAN, [new Date(), plan!.id, actor.orgId]);
      const { added, removed, reassigned, reordered } = change;
      await emitAudit(query, actor, {
        action: 'plan.cases_replaced',
        entityType: 'test_plan',
        entityUlid: plan!.id,
        entityLabel: plan!.name,
        runId: null,
        metadata: { added, removed, reassigned, reordered, total: caseUlids.length },
      });
    }
    selection = await rowsOf<{ case_id: string }>(query(READ_SELECTION, [plan!.id, actor.orgId]));
  });
  return selection;
}

export const rawPutSelection = (sql: Sql, actor: RunsActor, fixture: RunCreationFixture): Promise<Measurement> =>
  repeated(async (index) => {
    const order = selectionOrder(fixture, index);
    const selection = await putSelection(sql, actor, fixture.selection.raw, order);
    if (selection.length !== order.length || selection[0]!.case_id !== order[0] || selection.at(-1)!.case_id !== order.at(-1)) {
      throw new Error(`raw PUT selection: ${selection.length} rows, not the order sent`);
    }
  });
