/**
 * The raw-SQL floor of the execution measures (bench/runs.ts): for each request, the statements
 * the service sent for it, in the same order and transaction boundaries, straight to the
 * database (a pg Pool or PGlite; no HTTP, no Prisma). Every operation starts with the token
 * lookup and the per-minute counter of bench/raw.ts. The SQL is the service's of the day issue 13
 * was filed, which its target ratios refer to (bench/raw-runs-today.ts has the marks' and bulk
 * calls' of today), copied from the PostgreSQL statement log (log_statement = 'all') of one
 * request of each kind:
 *
 * - mark (PATCH …/cases/{runCaseUlid}): BEGIN; lock the run row; read the run with its
 *   configurations, environment, milestone and project (run settings); read the run case with its
 *   steps; INSERT run.case_marked; UPDATE the case; UPDATE its steps; INSERT the result; UPDATE the
 *   run's counters; count the result against the month (upsert); read the case for the answer;
 *   COMMIT.
 * - bulk-mark and bulk submit-result (500 cases): the same, with the cases read by run-case or
 *   test-case ULID in one statement, one run.cases_bulk_marked event (20 case entries), and the
 *   case, step and result writes each one statement for all 500 (arrays through unnest); no
 *   read-back.
 *
 * - plan progress (POST /graphql, progress of 200 plans): the project by code; the page of plans;
 *   one GROUP BY over the plans' runs (plan, comboKey, state) summing the per-status counters;
 *   one DISTINCT ON query for the configuration names of each bucket's latest run.
 * - plan detail (GET /api/v1/plans/{planUlid}, a plan of 50 runs): the plan with its milestone,
 *   project and live case count; then the same GROUP BY and DISTINCT ON for that one plan. No
 *   transaction, as in the service.
 *
 * The single marks spread over 10 runs, and those at 50 clients, send the same statements as the
 * marks into one run: only the runs and the number of workers differ (at 50 the pg Pool, sized
 * like the service's, queues them).
 *
 * What the floor leaves out is the service's own work: HTTP, routing, validation, authorization,
 * the audit metadata built in JavaScript, Prisma's query building and result mapping, the JSON
 * answers.
 */
import { newId } from '../src/kernel/ids.ts';
import { type Actor, authenticate, INSERT_AUDIT, measureOps, type Sql } from './raw.ts';
import { type BenchRun, elapsedOf, markSequence, PROGRESS_PLANS, RUN_CASES, roundRobin, statusOfPass } from './runs.ts';
import type { Measurement } from './stats.ts';
import type { Counts, Drive } from './test-design.ts';

/** A token's organization and the user behind it (results carry executed_by_id). */
export type RunsActor = Actor & { userId: string };

export type Query = (text: string, params: unknown[]) => Promise<unknown>;
export type Rows<T = Record<string, unknown>> = { rows: T[] };

const LOCK_RUN = 'SELECT id FROM test_runs WHERE id = $1 AND org_id = $2 FOR NO KEY UPDATE';

const READ_RUN = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."plan_id" AS "planId", "t0"."name", "t0"."description", "t0"."state",
  "t0"."closed_at" AS "closedAt", "t0"."aborted_at" AS "abortedAt", "t0"."default_assignee_id" AS "defaultAssigneeId", "t0"."milestone_id" AS "milestoneId",
  "t0"."environment_id" AS "environmentId", "t0"."environment_name" AS "environmentName", "t0"."combo_key" AS "comboKey", "t0"."count_passed" AS "countPassed",
  "t0"."count_failed" AS "countFailed", "t0"."count_blocked" AS "countBlocked", "t0"."count_skipped" AS "countSkipped", "t0"."count_untested" AS "countUntested",
  "t0"."count_retested" AS "countRetested", "t0"."total_duration_ms" AS "totalDurationMs", "t0"."first_result_at" AS "firstResultAt", "t0"."last_result_at" AS "lastResultAt",
  "t0"."author_kind" AS "authorKind", "t0"."author_id" AS "authorId", "t0"."author_name" AS "authorName", "t0"."author_avatar_key" AS "authorAvatarKey",
  "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt", "TestRun_configurations"."__prisma_data__" AS "configurations",
  "TestRun_environment"."__prisma_data__" AS "environment", "TestRun_milestone"."__prisma_data__" AS "milestone", "TestRun_project"."__prisma_data__" AS "project"
  FROM "public"."test_runs" AS "t0" LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__" FROM (SELECT "t3"."__prisma_data__"
  FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id", 'orgId', "t2"."org_id", 'runId', "t2"."run_id", 'configurationId', "t2"."configuration_id", 'groupName', "t2"."group_name",
  'valueName', "t2"."value_name", 'position', "t2"."position") AS "__prisma_data__", "t2"."position", "t2"."id" FROM (SELECT "t1".* FROM "public"."test_run_configurations" AS "t1"
  WHERE "t0"."id" = "t1"."run_id" /* root select */) AS "t2" /* inner select */) AS "t3" ORDER BY "t3"."position" ASC, "t3"."id" ASC /* middle select */) AS "t4" /* outer select */)
  AS "TestRun_configurations" ON true LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t5"."id", 'orgId', "t5"."org_id", 'projectId', "t5"."project_id", 'name', "t5"."name", 'slug', "t5"."slug",
  'deletedAt', "t5"."deleted_at", 'createdAt', "t5"."created_at", 'updatedAt', "t5"."updated_at") AS "__prisma_data__"
  FROM "public"."environments" AS "t5" WHERE "t0"."environment_id" = "t5"."id" LIMIT $1) AS "TestRun_environment" ON true LEFT JOIN LATERAL
  (SELECT JSONB_BUILD_OBJECT('id', "t6"."id", 'orgId', "t6"."org_id", 'projectId', "t6"."project_id", 'name', "t6"."name", 'description', "t6"."description",
  'dueAt', "t6"."due_at", 'completedAt', "t6"."completed_at", 'deletedAt', "t6"."deleted_at", 'createdAt', "t6"."created_at", 'updatedAt', "t6"."updated_at") AS "__prisma_data__" FROM "public"."milestones" AS "t6" WHERE "t0"."milestone_id" = "t6"."id" LIMIT $2)
  AS "TestRun_milestone" ON true LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t7"."id", 'orgId', "t7"."org_id", 'code', "t7"."code", 'name', "t7"."name",
  'description', "t7"."description", 'avatarKey', "t7"."avatar_key", 'avatarVersion', "t7"."avatar_version", 'lockedAt', "t7"."locked_at", 'lastSuiteNumber', "t7"."last_suite_number",
  'lastCaseNumber', "t7"."last_case_number", 'lastPlanNumber', "t7"."last_plan_number", 'runSettings', "t7"."run_settings", 'createdAt', "t7"."created_at", 'updatedAt', "t7"."updated_at",
  'orgId', "t7"."org_id", 'org', "Project_org"."__prisma_data__") AS "__prisma_data__" FROM "public"."projects" AS "t7" LEFT JOIN LATERAL
  (SELECT JSONB_BUILD_OBJECT('runSettings', "t8"."run_settings") AS "__prisma_data__" FROM "public"."organizations" AS "t8" WHERE "t7"."org_id" = "t8"."id" LIMIT $3) AS "Project_org"
  ON true WHERE "t0"."project_id" = "t7"."id" LIMIT $4) AS "TestRun_project" ON true WHERE ("t0"."id" = $5 AND "t0"."org_id" = $6) LIMIT $7`;

const RUN_CASE_FIELDS = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."run_id" AS "runId", "t0"."case_id" AS "caseId", "t0"."case_number" AS "caseNumber", "t0"."title",
  "t0"."suite_name" AS "suiteName", "t0"."position", "t0"."status", "t0"."assignee_id" AS "assigneeId", "t0"."elapsed_ms" AS "elapsedMs", "t0"."last_result_at" AS "lastResultAt",
  "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt"`;
const RUN_CASE_COLUMNS = `${RUN_CASE_FIELDS}, "TestRunCase_steps"."__prisma_data__" AS "steps" FROM "public"."test_run_cases" AS "t0"
  LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__" FROM (SELECT "t3"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id",
  'orgId', "t2"."org_id", 'runCaseId', "t2"."run_case_id", 'position', "t2"."position", 'action', "t2"."action", 'expectedResult', "t2"."expected_result", 'status', "t2"."status",
  'actualResult', "t2"."actual_result", 'updatedAt', "t2"."updated_at") AS "__prisma_data__", "t2"."position", "t2"."id" FROM (SELECT "t1".* FROM "public"."test_run_case_steps" AS "t1"
  WHERE "t0"."id" = "t1"."run_case_id" /* root select */) AS "t2" /* inner select */) AS "t3" ORDER BY "t3"."position" ASC, "t3"."id" ASC /* middle select */) AS "t4" /* outer select */)
  AS "TestRunCase_steps" ON true`;
const READ_RUN_CASE = `${RUN_CASE_COLUMNS} WHERE ("t0"."id" = $1 AND "t0"."run_id" = $2 AND "t0"."org_id" = $3) LIMIT $4`;

const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, index) => `$${from + index}`).join(',');
/** findRunCasesByUlid: the run's cases (without steps) whose run-case or test-case ULID is listed. */
const readCasesByUlid = (count: number) =>
  `${RUN_CASE_FIELDS} FROM "public"."test_run_cases" AS "t0" WHERE ("t0"."run_id" = $1 AND ("t0"."id" IN (${placeholders(2, count)}) OR "t0"."case_id" IN (${placeholders(2 + count, count)})) AND "t0"."org_id" = $${2 + 2 * count})`;

/** recordResults' writes: columns travel as arrays (unnest), one statement each for any number of cases. */
const UPDATE_CASES = `UPDATE test_run_cases AS c
  SET status = v.status, elapsed_ms = CASE WHEN v.set_elapsed THEN v.elapsed ELSE c.elapsed_ms END, last_result_at = $1, updated_at = $2
  FROM unnest($3::char(26)[], $4::text[], $5::int[], $6::boolean[]) AS v(id, status, elapsed, set_elapsed)
  WHERE c.id = v.id AND c.org_id = $7`;
const UPDATE_STEPS = `UPDATE test_run_case_steps AS s SET status = v.status, updated_at = $1
  FROM unnest($2::char(26)[], $3::text[]) AS v(run_case_id, status)
  WHERE s.run_case_id = v.run_case_id AND s.org_id = $4 AND s.status <> v.status`;
const INSERT_RESULTS = `INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, executed_at,
    executed_by_id, author_kind, author_id, author_name, author_avatar_key)
  SELECT r.id, $1, $2, r.run_case_id, r.case_id, r.status, r.elapsed_ms, r.comment, $3, $4, $5, $6, $7, $8, $9
  FROM unnest($10::char(26)[], $11::char(26)[], $12::char(26)[], $13::text[], $14::int[], $15::text[])
    AS r(id, run_case_id, case_id, status, elapsed_ms, comment)`;

const RUN_COLUMNS = [
  'id',
  'org_id',
  'project_id',
  'plan_id',
  'name',
  'description',
  'state',
  'closed_at',
  'aborted_at',
  'default_assignee_id',
  'milestone_id',
  'environment_id',
  'environment_name',
  'combo_key',
  'count_passed',
  'count_failed',
  'count_blocked',
  'count_skipped',
  'count_untested',
  'count_retested',
  'total_duration_ms',
  'first_result_at',
  'last_result_at',
  'author_kind',
  'author_id',
  'author_name',
  'author_avatar_key',
  'created_at',
  'updated_at',
];
/** applyRunChange: one increment per status whose count moves, the duration, first/last result. */
const updateRun = (statuses: string[]) =>
  `UPDATE "public"."test_runs" SET "updated_at" = $1, ${statuses
    .map((status, index) => `"count_${status}" = ("public"."test_runs"."count_${status}" + $${2 + index})`)
    .join(
      ', ',
    )}, "total_duration_ms" = ("public"."test_runs"."total_duration_ms" + $${2 + statuses.length}), "first_result_at" = $${3 + statuses.length},
  "last_result_at" = $${4 + statuses.length} WHERE ("public"."test_runs"."id" = $${5 + statuses.length} AND "public"."test_runs"."org_id" = $${6 + statuses.length})
  RETURNING ${RUN_COLUMNS.map((column) => `"public"."test_runs"."${column}"`).join(', ')}`;

const CHARGE_RESULTS = `INSERT INTO api_result_usage AS usage (org_id, period_key, used) VALUES ($1, $2, $3)
  ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used
  WHERE $4::int IS NULL OR usage.used + EXCLUDED.used <= $5::int RETURNING used`;
const RESULT_CEILING = 1_000_000_000;

export type CaseRow = { id: string; caseId: string | null; caseNumber: number; title: string; status: string };
export type Mark = { runCase: CaseRow; status: string; elapsedMs: number | null };

export const auditRow = (
  actor: RunsActor,
  action: string,
  entityType: string,
  entityUlid: string,
  label: string,
  runId: string,
  metadata: unknown,
) => [
  newId(),
  actor.orgId,
  action,
  'api_token',
  null,
  actor.tokenId,
  null,
  actor.tokenName,
  entityType,
  entityUlid,
  label,
  runId,
  JSON.stringify(metadata),
  new Date(),
];

/** The writes of recordResults for `marks` (each changes its case), then the month's charge. */
async function recordResults(query: Query, actor: RunsActor, run: Record<string, unknown>, marks: Mark[], source: string): Promise<void> {
  const at = new Date();
  const ids = marks.map((mark) => mark.runCase.id);
  await query(UPDATE_CASES, [
    at,
    at,
    ids,
    marks.map((mark) => mark.status),
    marks.map((mark) => mark.elapsedMs),
    marks.map((mark) => mark.elapsedMs !== null),
    actor.orgId,
  ]);
  await query(UPDATE_STEPS, [at, ids, marks.map((mark) => mark.status), actor.orgId]);
  await query(INSERT_RESULTS, [
    actor.orgId,
    run.id,
    source,
    at,
    actor.userId,
    'api_token',
    actor.tokenId,
    actor.tokenName,
    null,
    marks.map(() => newId()),
    ids,
    marks.map((mark) => mark.runCase.caseId),
    marks.map((mark) => mark.status),
    marks.map((mark) => mark.elapsedMs),
    marks.map(() => null),
  ]);
  const delta = new Map<string, number>();
  for (const mark of marks) {
    delta.set(mark.runCase.status, (delta.get(mark.runCase.status) ?? 0) - 1);
    delta.set(mark.status, (delta.get(mark.status) ?? 0) + 1);
  }
  const moved = [...delta].filter(([, count]) => count !== 0);
  const duration = marks.reduce((sum, mark) => sum + (mark.elapsedMs ?? 0), 0);
  await query(updateRun(moved.map(([status]) => status)), [
    at,
    ...moved.map(([, count]) => count),
    duration,
    run.firstResultAt ?? at,
    at,
    run.id,
    actor.orgId,
  ]);
  await query(CHARGE_RESULTS, [actor.orgId, at.toISOString().slice(0, 7), marks.length, RESULT_CEILING, RESULT_CEILING]);
}

async function lockAndReadRun(query: Query, actor: RunsActor, runUlid: string) {
  await query(LOCK_RUN, [runUlid, actor.orgId]);
  return ((await query(READ_RUN, [1, 1, 1, 1, runUlid, actor.orgId, 1])) as Rows).rows[0]!;
}

/** PATCH run case `{ status, elapsedMs }`. */
export async function markRunCase(
  sql: Sql,
  actor: RunsActor,
  runUlid: string,
  runCaseUlid: string,
  status: string,
  elapsedMs: number,
): Promise<void> {
  await authenticate(sql, actor);
  await sql.transaction(async (query) => {
    const run = await lockAndReadRun(query, actor, runUlid);
    const runCase = ((await query(READ_RUN_CASE, [runCaseUlid, runUlid, actor.orgId, 1])) as Rows<CaseRow>).rows[0]!;
    const label = `${runCase.caseNumber} · ${runCase.title}`;
    await query(
      INSERT_AUDIT,
      auditRow(actor, 'run.case_marked', 'test_run_case', runCase.id, label, runUlid, {
        caseDisplayId: `C-${runCase.caseNumber}`,
        titleSnapshot: runCase.title,
        changes: [{ field: 'status', from: runCase.status, to: status }],
        elapsedMs,
      }),
    );
    await recordResults(query, actor, run, [{ runCase, status, elapsedMs }], 'api');
    await query(READ_RUN_CASE, [runCaseUlid, runUlid, actor.orgId, 1]);
  });
}

/**
 * Writes an audit event given as the parameters of INSERT_AUDIT (id, org, action, actor kind,
 * user, token, email, name, entity type, ULID and label, run, metadata JSON, time).
 */
export type WriteEvent = (query: Query, event: unknown[]) => Promise<void>;
const insertEvent: WriteEvent = async (query, event) => {
  await query(INSERT_AUDIT, event);
};

/**
 * bulk-mark (no elapsedMs) or bulk submit-result (an elapsedMs each): every case of the run, in
 * one transaction; `writeEvent` writes its run.cases_bulk_marked event (the webhook floor of
 * bench/raw-live.ts adds the delivery row there).
 */
export async function bulkMarkRun(
  sql: Sql,
  actor: RunsActor,
  run: BenchRun,
  status: string,
  withElapsed: boolean,
  writeEvent = insertEvent,
): Promise<void> {
  await authenticate(sql, actor);
  await sql.transaction(async (query) => {
    const row = await lockAndReadRun(query, actor, run.ulid);
    const ulids = run.runCaseUlids;
    const cases = ((await query(readCasesByUlid(ulids.length), [run.ulid, ...ulids, ...ulids, actor.orgId])) as Rows<CaseRow>).rows;
    const entries = cases.slice(0, 20).map((runCase) => ({
      ulid: runCase.id,
      caseDisplayId: `C-${runCase.caseNumber}`,
      titleSnapshot: runCase.title,
      fromStatus: runCase.status,
      toStatus: status,
    }));
    await writeEvent(
      query,
      auditRow(actor, 'run.cases_bulk_marked', 'test_run', run.ulid, String(row.name), run.ulid, {
        bulkCases: {
          cases: entries,
          omittedCount: cases.length - entries.length,
          summary: { affected: cases.length, unchanged: 0, statusTo: status },
        },
      }),
    );
    await recordResults(
      query,
      actor,
      row,
      cases.map((runCase, index) => ({ runCase, status, elapsedMs: withElapsed ? elapsedOf(index) : null })),
      'bulk',
    );
  });
}

const PROJECT_BY_CODE = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."code", "t0"."name", "t0"."description", "t0"."avatar_key" AS "avatarKey",
  "t0"."avatar_version" AS "avatarVersion", "t0"."locked_at" AS "lockedAt", "t0"."last_suite_number" AS "lastSuiteNumber", "t0"."last_case_number" AS "lastCaseNumber",
  "t0"."last_plan_number" AS "lastPlanNumber", "t0"."run_settings" AS "runSettings", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt"
  FROM "public"."projects" AS "t0" WHERE ("t0"."code" = $1 AND "t0"."org_id" = $2) LIMIT $3`;
const PLAN_PAGE = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."plan_number" AS "planNumber", "t0"."name", "t0"."description",
  "t0"."status", "t0"."milestone_id" AS "milestoneId", "t0"."excluded_combo_keys" AS "excludedComboKeys", "t0"."author_kind" AS "authorKind", "t0"."author_id" AS "authorId",
  "t0"."author_name" AS "authorName", "t0"."author_avatar_key" AS "authorAvatarKey", "t0"."deleted_at" AS "deletedAt", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt"
  FROM "public"."test_plans" AS "t0" WHERE ("t0"."project_id" = $1 AND "t0"."deleted_at" IS NULL AND "t0"."org_id" = $2) ORDER BY "t0"."plan_number" ASC LIMIT $3 OFFSET $4`;
const progressOf = (plans: number) => `SELECT COUNT(*) AS "_count$_all", SUM("public"."test_runs"."count_passed") AS "_sum$count_passed",
  SUM("public"."test_runs"."count_failed") AS "_sum$count_failed", SUM("public"."test_runs"."count_blocked") AS "_sum$count_blocked",
  SUM("public"."test_runs"."count_skipped") AS "_sum$count_skipped", SUM("public"."test_runs"."count_untested") AS "_sum$count_untested",
  SUM("public"."test_runs"."count_retested") AS "_sum$count_retested", "public"."test_runs"."plan_id", "public"."test_runs"."combo_key", "public"."test_runs"."state"
  FROM "public"."test_runs" WHERE ("public"."test_runs"."plan_id" IN (${placeholders(1, plans)}) AND "public"."test_runs"."org_id" = $${plans + 1})
  GROUP BY "public"."test_runs"."plan_id", "public"."test_runs"."combo_key", "public"."test_runs"."state"
  ORDER BY "public"."test_runs"."plan_id" ASC, "public"."test_runs"."combo_key" ASC, "public"."test_runs"."state" ASC OFFSET $${plans + 2}`;
const BUCKET_NAMES = `SELECT latest.plan_id, latest.combo_key, snapshot.group_name, snapshot.value_name
  FROM (
    SELECT DISTINCT ON (plan_id, combo_key) id, plan_id, combo_key
    FROM test_runs
    WHERE org_id = $1 AND plan_id = ANY($2::char(26)[]) AND combo_key <> ''
    ORDER BY plan_id, combo_key, created_at DESC, id DESC
  ) AS latest
  JOIN test_run_configurations AS snapshot ON snapshot.run_id = latest.id
  ORDER BY latest.plan_id, latest.combo_key, snapshot.position, snapshot.id`;

/** The GraphQL progress read of `plans` plans of the project `code`. */
async function readProgress(sql: Sql, actor: RunsActor, code: string, plans: number): Promise<void> {
  await authenticate(sql, actor);
  const project = ((await sql.query(PROJECT_BY_CODE, [code, actor.orgId, 1])) as Rows<{ id: string }>).rows[0]!;
  const ids = ((await sql.query(PLAN_PAGE, [project.id, actor.orgId, plans + 1, 0])) as Rows<{ id: string }>).rows
    .slice(0, plans)
    .map((row) => row.id);
  await sql.query(progressOf(ids.length), [...ids, actor.orgId, 0]);
  await sql.query(BUCKET_NAMES, [actor.orgId, ids]);
}

export const rawProgress = (sql: Sql, actor: RunsActor, code: string, counts: Counts, drive: Drive): Promise<Measurement> =>
  measureOps(counts, drive, () => readProgress(sql, actor, code, PROGRESS_PLANS));

const PLAN_DETAIL = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."plan_number" AS "planNumber", "t0"."name", "t0"."description", "t0"."status",
  "t0"."milestone_id" AS "milestoneId", "t0"."excluded_combo_keys" AS "excludedComboKeys", "t0"."author_kind" AS "authorKind", "t0"."author_id" AS "authorId",
  "t0"."author_name" AS "authorName", "t0"."author_avatar_key" AS "authorAvatarKey", "t0"."deleted_at" AS "deletedAt", "t0"."created_at" AS "createdAt", "t0"."updated_at"
  AS "updatedAt", "TestPlan_milestone"."__prisma_data__" AS "milestone", "TestPlan_project"."__prisma_data__" AS "project", JSONB_BUILD_OBJECT('cases',
  COALESCE("t3"."_aggr_count_cases", 0)) AS "_count" FROM "public"."test_plans" AS "t0" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'name', "t1"."name")
  AS "__prisma_data__" FROM "public"."milestones" AS "t1" WHERE "t0"."milestone_id" = "t1"."id" LIMIT $1) AS "TestPlan_milestone" ON true LEFT JOIN LATERAL (SELECT
  JSONB_BUILD_OBJECT('id', "t2"."id", 'orgId', "t2"."org_id", 'code', "t2"."code", 'name', "t2"."name", 'description', "t2"."description", 'avatarKey', "t2"."avatar_key",
  'avatarVersion', "t2"."avatar_version", 'avatarSizeBytes', "t2"."avatar_size_bytes", 'lockedAt', "t2"."locked_at", 'lastSuiteNumber', "t2"."last_suite_number",
  'lastCaseNumber', "t2"."last_case_number", 'lastPlanNumber', "t2"."last_plan_number", 'lastDefectNumber', "t2"."last_defect_number", 'runSettings', "t2"."run_settings",
  'accessMode', "t2"."access_mode", 'ownerUserId', "t2"."owner_user_id", 'createdAt', "t2"."created_at", 'updatedAt', "t2"."updated_at") AS "__prisma_data__" FROM
  "public"."projects" AS "t2" WHERE "t0"."project_id" = "t2"."id" LIMIT $2) AS "TestPlan_project" ON true LEFT JOIN LATERAL (SELECT COUNT(*) AS "_aggr_count_cases" FROM
  "public"."test_plan_cases" AS "t4" LEFT JOIN "public"."test_cases" AS "j5" ON ("j5"."id") = ("t4"."case_id") WHERE ("t0"."id" = "t4"."plan_id" AND ("j5"."archived_at" IS
  NULL AND ("j5"."id" IS NOT NULL)))) AS "t3" ON true WHERE ("t0"."id" = $3 AND "t0"."deleted_at" IS NULL AND "t0"."org_id" = $4) LIMIT $5`;

/** GET /api/v1/plans/{planUlid}: the plan with its milestone, project and case count, then its progress as readProgress reads it. */
async function readPlanDetail(sql: Sql, actor: RunsActor, planUlid: string): Promise<void> {
  await authenticate(sql, actor);
  const plan = (await sql.query(PLAN_DETAIL, [1, 1, planUlid, actor.orgId, 1])) as Rows;
  if (plan.rows.length !== 1) throw new Error(`no plan ${planUlid}`);
  await sql.query(progressOf(1), [planUlid, actor.orgId, 0]);
  await sql.query(BUCKET_NAMES, [actor.orgId, [planUlid]]);
}

export const rawPlanDetail = (sql: Sql, actor: RunsActor, planUlid: string, counts: Counts, drive: Drive): Promise<Measurement> =>
  measureOps(counts, drive, () => readPlanDetail(sql, actor, planUlid));

/**
 * The statements a floor sends for a single mark and for a bulk call. ISSUE_STATEMENTS (the
 * default) are the service's when issue 13 was filed, the reference of its target ratios;
 * bench/raw-runs-today.ts has the service's statements of today (BENCH_FLOOR=today).
 */
export type RunsStatements = { mark: typeof markRunCase; bulk: typeof bulkMarkRun };
export const ISSUE_STATEMENTS: RunsStatements = { mark: markRunCase, bulk: bulkMarkRun };

/** Single marks into `runs` in markSequence's order, as the service side sends them. */
export function rawMarks(
  sql: Sql,
  actor: RunsActor,
  runs: BenchRun[],
  counts: Counts,
  drive: Drive,
  statements: RunsStatements,
): Promise<Measurement> {
  const next = markSequence(runs);
  return measureOps(counts, drive, () => {
    const { run, runCaseUlid, status, elapsedMs } = next();
    return statements.mark(sql, actor, run.ulid, runCaseUlid, status, elapsedMs);
  });
}

/** bulk-mark (`withElapsed` false) or bulk submit-result over `runs`, round-robin. */
export function rawBulk(
  sql: Sql,
  actor: RunsActor,
  runs: BenchRun[],
  withElapsed: boolean,
  counts: Counts,
  drive: Drive,
  statements: RunsStatements,
): Promise<Measurement> {
  if (runs.some((run) => run.runCaseUlids.length !== RUN_CASES)) throw new Error('raw bulk: a run without all its cases');
  const next = roundRobin(runs);
  return measureOps(counts, drive, () => {
    const { item, pass } = next();
    return statements.bulk(sql, actor, item, statusOfPass(pass), withElapsed);
  });
}
