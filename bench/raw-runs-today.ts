/**
 * The floor of the execution measures with the statements the service sends today
 * (BENCH_FLOOR=today), beside bench/raw-runs.ts's of the day issue 13 was filed, which its
 * target ratios refer to. Same order and transaction boundaries as the service, copied from the
 * PostgreSQL statement log (log_statement = 'all') of a mark and a bulk submit by a token:
 *
 * - mark: the token with its per-minute count (one statement); BEGIN; the case gate (the run
 *   FOR KEY SHARE with both levels of run settings, the case FOR UPDATE with its steps); the case,
 *   step and result writes; the run's counters with the month's charge and the run.case_marked
 *   event with its webhook deliveries; COMMIT.
 * - bulk-mark and bulk submit-result: the token; BEGIN; the run locked FOR UPDATE; the run read
 *   by Prisma; its cases by ULID; the run.cases_bulk_marked event with its deliveries; the writes;
 *   the counters with the charge; COMMIT.
 *
 * Left out, as the service does it outside the transaction: the NOTIFY of the run's change after
 * the commit (batched, on the listener's connection).
 */
import { newId } from '../src/kernel/ids.ts';
import type { Sql } from './raw.ts';
import { auditRow, type CaseRow, type Mark, type Query, type Rows, type RunsActor, type RunsStatements } from './raw-runs.ts';
import { type BenchRun, elapsedOf } from './runs.ts';

/** src/foundation/auth/authenticate.ts: the token with its membership and organization, its last use touched, the call counted in the minute's window. */
const TOKEN_WITH_COUNT = `WITH token AS (
    SELECT t.id, t.org_id, t.user_id, t.name, t.role, t.expires_at, t.revoked_at, t.last_used_at,
           m.role AS membership_role, m.suspended_at AS membership_suspended_at
    FROM api_tokens AS t
    LEFT JOIN memberships AS m ON m.org_id = t.org_id AND m.user_id = t.user_id
    WHERE t.token_hash = $1
  ), working AS (
    SELECT id, org_id, last_used_at FROM token
    WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
      AND membership_role IS NOT NULL AND membership_suspended_at IS NULL
  ), touched AS (
    UPDATE api_tokens SET last_used_at = $3
    WHERE id IN (SELECT id FROM working WHERE last_used_at IS NULL OR last_used_at < $4)
  ), counted AS (
    INSERT INTO rate_limit_windows (org_id, bucket, window_start, count)
    SELECT owners.owner, $5, $6, 1 FROM (SELECT working.org_id AS owner FROM working JOIN organizations AS o ON o.id = working.org_id
      WHERE working.org_id = coalesce($7::text, working.org_id) AND (o.suspended_at IS NULL OR $8)) AS owners
    ON CONFLICT (org_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
    RETURNING count)
  SELECT token.id, token.org_id AS "orgId", token.name, token.role, token.expires_at AS "expiresAt", token.revoked_at AS "revokedAt",
         token.membership_role AS "membershipRole", token.membership_suspended_at AS "membershipSuspendedAt",
         u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.avatar_key AS "avatarKey",
         u.email_verified_at AS "emailVerifiedAt",
         o.name AS "orgName", o.suspended_at AS "orgSuspendedAt", o.plan, o.max_projects_override AS "maxProjectsOverride",
         o.max_seats_override AS "maxSeatsOverride", o.max_results_per_month_override AS "maxResultsPerMonthOverride",
         o.requests_per_minute_override AS "requestsPerMinuteOverride", o.audit_export_enabled_override AS "auditExportEnabledOverride",
         (SELECT count FROM counted) AS "requestCount"
  FROM token
  JOIN users AS u ON u.id = token.user_id
  JOIN organizations AS o ON o.id = token.org_id`;
const TOUCH_INTERVAL_MS = 60_000;

async function authenticate(sql: Sql, actor: RunsActor): Promise<void> {
  const now = new Date();
  const window = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  await sql.query(TOKEN_WITH_COUNT, [
    actor.tokenHash,
    now,
    now,
    new Date(now.getTime() - TOUCH_INTERVAL_MS),
    'requests',
    window,
    null,
    false,
  ]);
}

/** Marks: the run (key share, so marks of other cases overlap), its settings, the case (locked) and its steps. */
const CASE_GATE = `WITH run AS MATERIALIZED (
    SELECT r.id, r.name, r.state, r.aborted_at, r.project_id, p.code, p.locked_at, p.run_settings, o.run_settings AS organization_settings
    FROM test_runs AS r
    JOIN projects AS p ON p.id = r.project_id
    JOIN organizations AS o ON o.id = r.org_id
    WHERE r.id = $1 AND r.org_id = $2 AND r.project_id <> ALL($3::char(26)[])
    FOR KEY SHARE OF r
  )
  SELECT run.id AS "runId", run.name AS "runName", run.state AS "runState", run.aborted_at AS "runAbortedAt",
         run.project_id AS "projectId", run.code AS "projectCode", run.locked_at AS "projectLockedAt",
         run.organization_settings AS "organizationSettings", run.run_settings AS "projectSettings",
         CASE WHEN run_case.id IS NULL THEN NULL ELSE jsonb_build_object(
           'id', run_case.id, 'orgId', run_case.org_id, 'runId', run_case.run_id, 'caseId', run_case.case_id,
           'caseNumber', run_case.case_number, 'title', run_case.title, 'suiteName', run_case.suite_name,
           'position', run_case.position, 'status', run_case.status, 'assigneeId', run_case.assignee_id,
           'elapsedMs', run_case.elapsed_ms, 'lastResultAt', run_case.last_result_at,
           'createdAt', run_case.created_at, 'updatedAt', run_case.updated_at, 'steps', steps.list) END AS "runCase"
  FROM run
  LEFT JOIN LATERAL (
    SELECT c.* FROM test_run_cases AS c
    WHERE c.id = $4 AND c.run_id = $5 AND c.org_id = $6
    FOR UPDATE
  ) AS run_case ON true
  LEFT JOIN LATERAL (
    SELECT COALESCE(jsonb_agg(jsonb_build_object(
             'id', s.id, 'orgId', s.org_id, 'runCaseId', s.run_case_id, 'position', s.position, 'action', s.action,
             'expectedResult', s.expected_result, 'status', s.status, 'actualResult', s.actual_result, 'updatedAt', s.updated_at)
           ORDER BY s.position, s.id), '[]'::jsonb) AS list
    FROM test_run_case_steps AS s WHERE s.run_case_id = run_case.id
  ) AS steps ON true`;

/** Bulk calls: the runs' rows locked in ULID order (lockRuns), then the run with its settings (Prisma). */
const LOCK_RUNS = 'SELECT id FROM test_runs WHERE id = ANY($1::char(26)[]) AND org_id = $2 ORDER BY id FOR UPDATE';
const READ_RUN = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."plan_id" AS "planId", "t0"."name", "t0"."description", "t0"."state", "t0"."closed_at" AS "closedAt",
  "t0"."aborted_at" AS "abortedAt", "t0"."default_assignee_id" AS "defaultAssigneeId", "t0"."milestone_id" AS "milestoneId", "t0"."environment_id" AS "environmentId", "t0"."environment_name"
  AS "environmentName", "t0"."combo_key" AS "comboKey", "t0"."count_passed" AS "countPassed", "t0"."count_failed" AS "countFailed", "t0"."count_blocked" AS "countBlocked", "t0"."count_skipped"
  AS "countSkipped", "t0"."count_untested" AS "countUntested", "t0"."count_retested" AS "countRetested", "t0"."total_duration_ms" AS "totalDurationMs", "t0"."first_result_at" AS
  "firstResultAt", "t0"."last_result_at" AS "lastResultAt", "t0"."author_kind" AS "authorKind", "t0"."author_id" AS "authorId", "t0"."author_name" AS "authorName", "t0"."author_avatar_key" AS
  "authorAvatarKey", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt", "TestRun_configurations"."__prisma_data__" AS "configurations", "TestRun_environment"."__prisma_data__"
  AS "environment", "TestRun_milestone"."__prisma_data__" AS "milestone", "TestRun_project"."__prisma_data__" AS "project" FROM "public"."test_runs" AS "t0" LEFT JOIN LATERAL (SELECT
  COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__" FROM (SELECT "t3"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id", 'orgId', "t2"."org_id", 'runId',
  "t2"."run_id", 'configurationId', "t2"."configuration_id", 'groupName', "t2"."group_name", 'valueName', "t2"."value_name", 'position', "t2"."position") AS "__prisma_data__", "t2"."position",
  "t2"."id" FROM (SELECT "t1".* FROM "public"."test_run_configurations" AS "t1" WHERE "t0"."id" = "t1"."run_id" /* root select */) AS "t2" /* inner select */) AS "t3" ORDER BY "t3"."position"
  ASC, "t3"."id" ASC /* middle select */) AS "t4" /* outer select */) AS "TestRun_configurations" ON true LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t5"."id", 'orgId', "t5"."org_id",
  'projectId', "t5"."project_id", 'name', "t5"."name", 'slug', "t5"."slug", 'deletedAt', "t5"."deleted_at", 'createdAt', "t5"."created_at", 'updatedAt', "t5"."updated_at") AS "__prisma_data__"
  FROM "public"."environments" AS "t5" WHERE "t0"."environment_id" = "t5"."id" LIMIT $1) AS "TestRun_environment" ON true LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t6"."id", 'orgId',
  "t6"."org_id", 'projectId', "t6"."project_id", 'name', "t6"."name", 'description', "t6"."description", 'dueAt', "t6"."due_at", 'completedAt', "t6"."completed_at", 'deletedAt',
  "t6"."deleted_at", 'createdAt', "t6"."created_at", 'updatedAt', "t6"."updated_at") AS "__prisma_data__" FROM "public"."milestones" AS "t6" WHERE "t0"."milestone_id" = "t6"."id" LIMIT $2) AS
  "TestRun_milestone" ON true LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t7"."id", 'orgId', "t7"."org_id", 'code', "t7"."code", 'name', "t7"."name", 'description', "t7"."description",
  'avatarKey', "t7"."avatar_key", 'avatarVersion', "t7"."avatar_version", 'avatarSizeBytes', "t7"."avatar_size_bytes", 'lockedAt', "t7"."locked_at", 'lastSuiteNumber',
  "t7"."last_suite_number", 'lastCaseNumber', "t7"."last_case_number", 'lastPlanNumber', "t7"."last_plan_number", 'lastDefectNumber', "t7"."last_defect_number", 'runSettings',
  "t7"."run_settings", 'accessMode', "t7"."access_mode", 'ownerUserId', "t7"."owner_user_id", 'createdAt', "t7"."created_at", 'updatedAt', "t7"."updated_at", 'orgId', "t7"."org_id", 'org',
  "Project_org"."__prisma_data__") AS "__prisma_data__" FROM "public"."projects" AS "t7" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('runSettings', "t8"."run_settings") AS "__prisma_data__"
  FROM "public"."organizations" AS "t8" WHERE "t7"."org_id" = "t8"."id" LIMIT $3) AS "Project_org" ON true WHERE "t0"."project_id" = "t7"."id" LIMIT $4) AS "TestRun_project" ON true WHERE
  ("t0"."id" = $5 AND "t0"."org_id" = $6) LIMIT $7`;

/** findRunCasesByUlid: the run's cases (without steps) whose run-case or test-case ULID is listed. */
const CASES_BY_ULID = `SELECT id, org_id AS "orgId", run_id AS "runId", case_id AS "caseId", case_number AS "caseNumber", title, suite_name AS "suiteName",
         position, status, assignee_id AS "assigneeId", elapsed_ms AS "elapsedMs", last_result_at AS "lastResultAt",
         created_at AS "createdAt", updated_at AS "updatedAt"
  FROM test_run_cases
  WHERE run_id = $1 AND org_id = $2 AND (id = ANY($3::char(26)[]) OR case_id = ANY($4::char(26)[]))`;

/** recordResults' writes, one statement for any number of cases: the cases, their steps, the results (arrays through unnest). */
const WRITE_RESULTS = `WITH cases AS (
    UPDATE test_run_cases AS c
    SET status = v.status, elapsed_ms = CASE WHEN v.set_elapsed THEN v.elapsed ELSE c.elapsed_ms END, last_result_at = $1, updated_at = $2
    FROM unnest($3::char(26)[], $4::text[], $5::int[], $6::boolean[]) AS v(id, status, elapsed, set_elapsed)
    WHERE c.id = v.id AND c.org_id = $7
  ), steps AS (
    UPDATE test_run_case_steps AS s SET status = v.status, updated_at = $8
    FROM unnest($9::char(26)[], $10::text[]) AS v(run_case_id, status)
    WHERE s.run_case_id = v.run_case_id AND s.org_id = $11 AND s.status <> v.status)
  INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, executed_at,
                                executed_by_id, author_kind, author_id, author_name, author_avatar_key, flaky, attempts, parameters)
  SELECT r.id, $12, $13, r.run_case_id, r.case_id, r.status, r.elapsed_ms, r.comment, $14, $15, $16, $17, $18, $19, $20,
         r.flaky, r.attempts::jsonb, r.parameters::jsonb
  FROM unnest($21::char(26)[], $22::char(26)[], $23::char(26)[], $24::text[], $25::int[], $26::text[], $27::boolean[], $28::text[], $29::text[])
    AS r(id, run_case_id, case_id, status, elapsed_ms, comment, flaky, attempts, parameters)`;

const STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'untested', 'retested'];
/** The event as emitAudit writes it: the row and one delivery per matching active webhook (14 parameters from `first`; the run twice). */
const eventCtes = (first: number) => {
  const $ = (index: number) => `$${first + index - 1}`;
  return `audit_event AS (
    INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                              entity_type, entity_ulid, entity_label, run_id, origin_run_id, metadata, created_at)
    VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12].map($).join(', ')}, ${$(13)}::jsonb, ${$(14)})
    RETURNING id, org_id, action, created_at
  ), audit_deliveries AS (
    INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_id, action, created_at)
    SELECT tcms_ulid(), event.org_id, webhook.id, event.id, event.action, event.created_at
    FROM audit_event AS event JOIN webhooks AS webhook ON webhook.org_id = event.org_id AND webhook.active
    WHERE EXISTS (SELECT 1 FROM unnest(webhook.events) AS pattern WHERE pattern = '*' OR pattern = event.action
      OR (right(pattern, 2) = '.*' AND starts_with(event.action, left(pattern, -1))))
    RETURNING 1
  )`;
};
/** A bulk call's event statement (emitAudit): the event, its deliveries, and the run's plan for live progress. */
const BULK_EVENT = `WITH ${eventCtes(1)}
  SELECT (SELECT count(*) FROM audit_deliveries)::int AS deliveries, (SELECT plan_id FROM test_runs WHERE id = $15) AS "planId"`;

/**
 * applyRunChange: the run's counters (closing the run when nothing is left untested) and the
 * month's charge in one statement; a single mark's holds to a run that still accepts results
 * and writes its run.case_marked event too.
 */
const countersOf = (
  single: boolean,
  charge = single ? 16 : 15,
) => `WITH before AS (SELECT id, state FROM test_runs WHERE id = $1 AND org_id = $2 FOR NO KEY UPDATE), updated AS (UPDATE test_runs AS r SET
    ${STATUSES.map((status, index) => `count_${status} = r.count_${status} + $${3 + index}::int`).join(', ')},
    total_duration_ms = r.total_duration_ms + $9::bigint,
    first_result_at = COALESCE(r.first_result_at, $10::timestamptz),
    last_result_at = GREATEST(r.last_result_at, $11::timestamptz),
    state = CASE WHEN r.state = 'open' AND ${STATUSES.map((status) => `r.count_${status}`).join(' + ')} + $12::int > 0
      AND r.count_untested + r.count_retested + $13::int = 0 THEN 'closed' ELSE r.state END,
    closed_at = CASE WHEN r.state = 'open' AND ${STATUSES.map((status) => `r.count_${status}`).join(' + ')} + $12::int > 0
      AND r.count_untested + r.count_retested + $13::int = 0 THEN $14::timestamptz ELSE r.closed_at END,
    updated_at = $14::timestamptz
  FROM before
  WHERE r.id = before.id${single ? " AND r.aborted_at IS NULL AND (r.state = 'open' OR $15)" : ''}
  RETURNING r.*, (before.state = 'open' AND r.state = 'closed') AS "closedNow"), charged AS (
    INSERT INTO api_result_usage AS usage (org_id, period_key, used) VALUES ($${charge}, $${charge + 1}, $${charge + 2})
    ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used
    WHERE $${charge + 3}::int IS NULL OR usage.used + EXCLUDED.used <= $${charge + 3}::int
    RETURNING used)${single ? `, ${eventCtes(charge + 4)}` : ''}
  SELECT *, EXISTS (SELECT FROM charged) AS charged, ${single ? '(SELECT count(*) FROM audit_deliveries)::int' : '0'} AS "auditDeliveries"
  FROM updated`;
const SINGLE_COUNTERS = countersOf(true);
const BULK_COUNTERS = countersOf(false);
const RESULT_CEILING = 1_000_000_000;

/** recordResults for `marks` (each changes its case): the writes, then the counters with the charge (and `event`, for a single mark). */
async function recordResults(
  query: Query,
  actor: RunsActor,
  runUlid: string,
  marks: Mark[],
  source: string,
  event?: unknown[],
): Promise<void> {
  const at = new Date();
  const ids = marks.map((mark) => mark.runCase.id);
  const statuses = marks.map((mark) => mark.status);
  await query(WRITE_RESULTS, [
    at,
    at,
    ids,
    statuses,
    marks.map((mark) => mark.elapsedMs),
    marks.map((mark) => mark.elapsedMs !== null),
    actor.orgId,
    at,
    ids,
    statuses,
    actor.orgId,
    actor.orgId,
    runUlid,
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
    statuses,
    marks.map((mark) => mark.elapsedMs),
    marks.map(() => null),
    marks.map(() => false),
    marks.map(() => null),
    marks.map(() => null),
  ]);
  const delta = new Map(STATUSES.map((status) => [status, 0]));
  for (const mark of marks) {
    delta.set(mark.runCase.status, delta.get(mark.runCase.status)! - 1);
    delta.set(mark.status, delta.get(mark.status)! + 1);
  }
  const moved = STATUSES.map((status) => delta.get(status)!);
  const total = moved.reduce((sum, count) => sum + count, 0);
  const left = delta.get('untested')! + delta.get('retested')!;
  const duration = marks.reduce((sum, mark) => sum + (mark.elapsedMs ?? 0), 0);
  const settled = new Date();
  const counters = [runUlid, actor.orgId, ...moved, duration, at, at, total, left, settled];
  const charge = [actor.orgId, at.toISOString().slice(0, 7), marks.length, RESULT_CEILING];
  if (event) await query(SINGLE_COUNTERS, [...counters, false, ...charge, ...event]);
  else await query(BULK_COUNTERS, [...counters, ...charge]);
}

/** PATCH run case `{ status, elapsedMs }`: the token, then the case gate, the writes and the counters with the event. */
async function markRunCase(
  sql: Sql,
  actor: RunsActor,
  runUlid: string,
  runCaseUlid: string,
  status: string,
  elapsedMs: number,
): Promise<void> {
  await authenticate(sql, actor);
  await sql.transaction(async (query) => {
    const gate = ((await query(CASE_GATE, [runUlid, actor.orgId, [], runCaseUlid, runUlid, actor.orgId])) as Rows<{ runCase: CaseRow }>)
      .rows[0]!;
    const { runCase } = gate;
    const label = `${runCase.caseNumber} · ${runCase.title}`;
    const event = auditRow(actor, 'run.case_marked', 'test_run_case', runCase.id, label, runUlid, {
      caseDisplayId: `C-${runCase.caseNumber}`,
      titleSnapshot: runCase.title,
      changes: [{ field: 'status', from: runCase.status, to: status }],
      elapsedMs,
    });
    await recordResults(query, actor, runUlid, [{ runCase, status, elapsedMs }], 'api', event);
  });
}

/** emitAudit's statement for a bulk call's event: the event, its deliveries, the run's plan. */
const writeEvent = async (query: Query, event: unknown[]) => {
  await query(BULK_EVENT, [...event, event[11]]);
};

/** bulk-mark (no elapsedMs) or bulk submit-result (an elapsedMs each): every case of the run, in one transaction. */
async function bulkMarkRun(sql: Sql, actor: RunsActor, run: BenchRun, status: string, withElapsed: boolean): Promise<void> {
  await authenticate(sql, actor);
  await sql.transaction(async (query) => {
    await query(LOCK_RUNS, [[run.ulid], actor.orgId]);
    const row = ((await query(READ_RUN, [1, 1, 1, 1, run.ulid, actor.orgId, 1])) as Rows).rows[0]!;
    const ulids = run.runCaseUlids;
    const cases = ((await query(CASES_BY_ULID, [run.ulid, actor.orgId, ulids, ulids])) as Rows<CaseRow>).rows;
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
      run.ulid,
      cases.map((runCase, index) => ({ runCase, status, elapsedMs: withElapsed ? elapsedOf(index) : null })),
      'bulk',
    );
  });
}

export const TODAY_STATEMENTS: RunsStatements = { mark: markRunCase, bulk: bulkMarkRun };
