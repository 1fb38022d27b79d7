/**
 * The tight floor of the mark and bulk rows (BENCH_ONLY=tight): the rows the service writes for a
 * single mark and for a bulk submit-result, in the fewest round trips, with the service's lock
 * order, its statement names and its NOTIFY of the run's change, and nothing else: what the
 * service would cost with no overhead of its own. bench/raw-runs.ts (the statements of the day
 * issue 13 was filed) and bench/raw-runs-today.ts (the statements the service sends today) are
 * the older floors.
 *
 * - Authentication and metering, one statement: an API token with its membership and
 *   organization, its last use touched at most once a minute and the call counted in the
 *   minute's window (src/foundation/auth/authenticate.ts); or a session with its user, touched at
 *   most once a minute, with the membership and organization of X-Organization-Id and, for a
 *   role the project allowlists apply to, the private projects hidden from it.
 * - A mark (PATCH run case with a status): one statement. The run FOR KEY SHARE with its project
 *   and run settings, then the case FOR UPDATE (lockRunCase's order); if the status changes, the
 *   case, its steps and the result written, the run's counters moved (the run FOR NO KEY UPDATE,
 *   the last lock, as applyRunChange takes it) and closed when nothing is left untested, the
 *   month's charge for a token, run.case_marked and, when the run closes, run.closed, each with
 *   its webhook deliveries; the case with its steps read back for the answer. What the service
 *   refuses (a hidden, locked or missing run or case, an aborted run, a closed one while the
 *   settings forbid it, the assignee lock, a required elapsedMs, the result ceiling) fails the
 *   statement, so that nothing of it is written.
 * - A bulk submit-result: BEGIN; the run FOR UPDATE (lockRun: ids in ULID order); one statement
 *   for everything else (the cases read after the lock, the run.cases_bulk_marked event with its
 *   first 20 entries, the writes, counters, charge and run.closed as for a mark); COMMIT. The lock
 *   is a statement of its own because a statement's snapshot is taken before it waits for a lock:
 *   the cases must be read after it.
 * - After the commit, on PostgreSQL, the run's change as the service's live-progress fan-out
 *   sends it (src/live/progress-fanout.service.ts): on one connection that LISTENs on the
 *   channel, the changes of one tick in one statement, one per run, one statement in flight at a
 *   time. The embedded database sends none (its one server process hears its own changes).
 *
 * Statements are named as the service names its raw statements (bench/raw.ts, pgPoolSql with
 * `named`). Audit labels and snapshots are not clipped: the bench's titles are far shorter than
 * the snapshot limit.
 */
import pg from 'pg';
import { SESSION_IDLE_MS } from '../src/foundation/auth/auth.schemas.ts';
import { effectiveLimits, type OrganizationPlanRow } from '../src/kernel/billing-tiers.ts';
import { newId } from '../src/kernel/ids.ts';
import { CASE_STATUSES, OUTCOME_STATUSES } from '../src/kernel/statuses.ts';
import type { Sql } from './raw.ts';
import type { Rows } from './raw-runs.ts';

/** The credentials a request carries: an API token's secret hash, or a session's with the organization it acts in. */
export type TightCredentials =
  | { kind: 'api_token'; tokenHash: string }
  | { kind: 'session'; sessionTokenHash: string; organizationId: string };

/** A run's committed change, published after the commit (src/live/progress-signals.service.ts). */
export type RunChange = { orgId: string; runId: string; planId: string | null };
export type PublishRunChange = (change: RunChange) => void;

/** The embedded database: nothing leaves the process. */
export const publishNowhere: PublishRunChange = () => {};

// ---- statements with named parameters ----------------------------------------------------------

type Slots<N extends string> = Record<N, string>;

/**
 * A statement whose parameters are named: `text` gets each name's placeholder with its type
 * cast, and `values` orders an object's values to match. The text is built once.
 */
function statement<N extends string>(types: Record<N, string>, text: (slot: Slots<N>) => string) {
  const names = Object.keys(types) as N[];
  const slot = Object.fromEntries(names.map((name, index) => [name, `$${index + 1}::${types[name]}`])) as Slots<N>;
  return { text: text(slot), values: (args: Record<N, unknown>) => names.map((name) => args[name]) };
}

/** Who acts: the parameters every write names (the result's author, the event's actor, the run settings' assignee lock). */
const ACTOR_TYPES = {
  orgId: 'char(26)',
  hidden: 'char(26)[]',
  userId: 'char(26)',
  authorKind: 'text',
  authorId: 'char(26)',
  authorName: 'text',
  authorAvatar: 'text',
  actorKind: 'text',
  actorUser: 'char(26)',
  actorToken: 'char(26)',
  actorEmail: 'text',
  actorName: 'text',
  lockExempt: 'boolean',
  lockSelf: 'char(26)',
  metered: 'boolean',
  ceiling: 'int',
} as const;
/** What one write of results adds: when, the two events' ids, the month charged. */
const WRITE_TYPES = {
  runId: 'char(26)',
  at: 'timestamptz',
  now: 'timestamptz',
  source: 'text',
  eventId: 'char(26)',
  closedEventId: 'char(26)',
  period: 'text',
} as const;
type ActorSlots = Slots<keyof typeof ACTOR_TYPES | keyof typeof WRITE_TYPES>;

/**
 * The run with its project and resolved run settings (project, then organization, then the
 * default: src/run-settings/run-settings.service.ts), if the caller may write results into it.
 */
const setting = (key: string, cast: string, fallback: string) =>
  `COALESCE((p.run_settings->>'${key}')${cast}, (o.run_settings->>'${key}')${cast}, ${fallback})`;
const ALLOW_CLOSED = setting('allowResultsInClosedRuns', '::boolean', 'true');
const runOf = (p: ActorSlots, lock: string) => `run AS MATERIALIZED (
    SELECT r.id, r.name, r.plan_id, p.code, ${ALLOW_CLOSED} AS allow_closed,
           ${setting('assigneeResultLock', '::boolean', 'false')} AS assignee_lock, ${setting('timeTracking', '', "'optional'")} AS time_tracking
    FROM test_runs AS r
    JOIN projects AS p ON p.id = r.project_id
    JOIN organizations AS o ON o.id = r.org_id
    WHERE r.id = ${p.runId} AND r.org_id = ${p.orgId} AND r.project_id <> ALL(${p.hidden}) AND p.locked_at IS NULL AND r.aborted_at IS NULL
      AND (r.state = 'open' OR ${ALLOW_CLOSED})
    ${lock}
  )`;

/** Whether the assignee lock keeps the caller from marking `runCase` (isAssigneeLocked). */
const assigneeLocked = (p: ActorSlots, runCase: string) =>
  `run.assignee_lock AND ${runCase}.assignee_id IS NOT NULL AND NOT ${p.lockExempt} AND ${runCase}.assignee_id IS DISTINCT FROM ${p.lockSelf}`;

/** An audit event (auditWrites) as the CTE `name`, with its webhook deliveries as `<name>_deliveries`. */
const eventCtes = (name: string, p: ActorSlots, row: { id: string; action: string; entity: string; from: string }) => `${name} AS (
    INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                              entity_type, entity_ulid, entity_label, run_id, origin_run_id, metadata, created_at)
    SELECT ${row.id}, ${p.orgId}, '${row.action}', ${p.actorKind}, ${p.actorUser}, ${p.actorToken}, ${p.actorEmail}, ${p.actorName},
           ${row.entity}, run.id, run.id, metadata, clock_timestamp()
    ${row.from}
    RETURNING id, org_id, action, created_at
  ), ${name}_deliveries AS (
    INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_id, action, created_at)
    SELECT tcms_ulid(), event.org_id, webhook.id, event.id, event.action, event.created_at
    FROM ${name} AS event JOIN webhooks AS webhook ON webhook.org_id = event.org_id AND webhook.active
    WHERE EXISTS (SELECT 1 FROM unnest(webhook.events) AS pattern WHERE pattern = '*' OR pattern = event.action
      OR (right(pattern, 2) = '.*' AND starts_with(event.action, left(pattern, -1))))
    RETURNING 1
  )`;

const STATUSES = CASE_STATUSES;
const sumOf = (columns: (status: string) => string) => STATUSES.map(columns).join(' + ');

/**
 * applyRunChange after the results are written: the run's counters moved by `delta` (a row of
 * one column per status, `delta_<status>`, plus `results` and `duration`), closed when open and
 * nothing is left untested; the month's charge for a metered caller; run.closed with its
 * deliveries when this change closed the run (its runAggregates as run-events.service.ts builds them).
 * The CTEs `writtenFirst` are read before the run's row is locked, and the charge follows the
 * counters: as in the service, the run's and the month's rows are held from the end of the writes
 * to the commit, not while the cases are written (a data-modifying CTE runs when first read, else
 * at the end of the statement).
 */
const runChangeCtes = (p: ActorSlots, delta: string, options: { whileAccepting: boolean; writtenFirst: string[] }) => {
  const closes = `r.state = 'open' AND ${sumOf((status) => `r.count_${status} + delta.delta_${status}`)} > 0
      AND r.count_untested + r.count_retested + delta.delta_untested + delta.delta_retested = 0`;
  return `before AS (
    SELECT r.id, r.state FROM test_runs AS r JOIN ${delta} AS delta ON true WHERE r.id = ${p.runId} AND r.org_id = ${p.orgId}
      AND ${options.writtenFirst.map((name) => `(SELECT count(*) FROM ${name}) >= 0`).join(' AND ')}
    FOR NO KEY UPDATE OF r
  ), updated AS (
    UPDATE test_runs AS r SET
      ${STATUSES.map((status) => `count_${status} = r.count_${status} + delta.delta_${status}`).join(', ')},
      total_duration_ms = r.total_duration_ms + delta.duration,
      first_result_at = COALESCE(r.first_result_at, ${p.at}), last_result_at = GREATEST(r.last_result_at, ${p.at}),
      state = CASE WHEN ${closes} THEN 'closed' ELSE r.state END,
      closed_at = CASE WHEN ${closes} THEN ${p.now} ELSE r.closed_at END,
      updated_at = ${p.now}
    FROM before, ${delta} AS delta
    WHERE r.id = before.id${options.whileAccepting ? " AND r.aborted_at IS NULL AND (r.state = 'open' OR (SELECT allow_closed FROM run))" : ''}
    RETURNING r.id, r.name, r.plan_id, r.aborted_at, ${STATUSES.map((status) => `r.count_${status}`).join(', ')}, r.total_duration_ms,
      (before.state = 'open' AND r.state = 'closed') AS closed_now
  ), charged AS (
    INSERT INTO api_result_usage AS usage (org_id, period_key, used)
    SELECT ${p.orgId}, ${p.period}, delta.results FROM ${delta} AS delta JOIN updated ON true WHERE ${p.metered}
    ON CONFLICT (org_id, period_key) DO UPDATE SET used = usage.used + EXCLUDED.used
    WHERE ${p.ceiling} IS NULL OR usage.used + EXCLUDED.used <= ${p.ceiling}
    RETURNING used
  ), ${eventCtes('closed_event', p, {
    id: p.closedEventId,
    action: 'run.closed',
    entity: `'test_run', run.id, run.name`,
    from: `FROM updated AS run, LATERAL (SELECT jsonb_build_object('runAggregates', jsonb_build_object(
        'countPassed', run.count_passed, 'countFailed', run.count_failed, 'countBlocked', run.count_blocked,
        'countSkipped', run.count_skipped, 'countUntested', run.count_untested + run.count_retested,
        'totalDurationMs', run.total_duration_ms,
        'projectedStatus', CASE WHEN run.count_failed + run.count_blocked > 0 THEN 'failed' ELSE 'passed' END), 'automatic', true) AS metadata) AS closing
      WHERE run.closed_now`,
  })}`;
};

/**
 * The statement's verdict: `refusals` are [condition, reason] pairs, the first that holds fails
 * the statement (a cast of its reason to int), so that nothing of it is written. The reason
 * names a column, which keeps the planner from folding the failing cast at planning time.
 */
const verdict = (refusals: Array<[string, string]>) =>
  `CASE ${refusals.map(([condition, reason]) => `WHEN ${condition} THEN concat('refused: ${reason} ', run.id)::int`).join(' ')} ELSE 0 END AS refused`;
/** A charge was due and the month's ceiling refused it. */
const overCeiling = (p: ActorSlots, changed: string) => `${p.metered} AND ${changed} AND NOT EXISTS (SELECT FROM charged)`;

const stepStatusSql = (status: string) => `CASE WHEN ${status} IN ('untested', 'retested') THEN 'untested' ELSE ${status} END`;
const OUTCOMES_SQL = OUTCOME_STATUSES.map((status) => `'${status}'`).join(', ');

// ---- authentication -----------------------------------------------------------------------------

/** lastSeenAt and lastUsedAt are refreshed at most this often (src/foundation/auth/authenticate.ts). */
const TOUCH_INTERVAL_MS = 60_000;
const ORGANIZATION_COLUMNS = `o.name AS "orgName", o.suspended_at AS "orgSuspendedAt", o.plan, o.max_projects_override AS "maxProjectsOverride",
  o.max_seats_override AS "maxSeatsOverride", o.max_results_per_month_override AS "maxResultsPerMonthOverride",
  o.requests_per_minute_override AS "requestsPerMinuteOverride", o.audit_export_enabled_override AS "auditExportEnabledOverride"`;
const USER_COLUMNS = `u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.avatar_key AS "avatarKey",
  u.email_verified_at AS "emailVerifiedAt"`;

/** findApiToken: the token with its creator's membership, the creator and the organization; the use touched, the call counted. */
const TOKEN = statement(
  { tokenHash: 'text', now: 'timestamptz', touchBefore: 'timestamptz', windowStart: 'timestamptz' },
  (p) => `WITH token AS (
    SELECT t.id, t.org_id, t.user_id, t.name, t.role, t.expires_at, t.revoked_at, t.last_used_at,
           m.role AS membership_role, m.suspended_at AS membership_suspended_at
    FROM api_tokens AS t
    LEFT JOIN memberships AS m ON m.org_id = t.org_id AND m.user_id = t.user_id
    WHERE t.token_hash = ${p.tokenHash}
  ), working AS (
    SELECT id, org_id, last_used_at FROM token
    WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${p.now})
      AND membership_role IS NOT NULL AND membership_suspended_at IS NULL
  ), touched AS (
    UPDATE api_tokens SET last_used_at = ${p.now}
    WHERE id IN (SELECT id FROM working WHERE last_used_at IS NULL OR last_used_at < ${p.touchBefore})
  ), counted AS (
    INSERT INTO rate_limit_windows (org_id, bucket, window_start, count)
    SELECT working.org_id, 'requests', ${p.windowStart}, 1 FROM working JOIN organizations AS o ON o.id = working.org_id
    WHERE o.suspended_at IS NULL
    ON CONFLICT (org_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
    RETURNING count
  )
  SELECT token.id, token.org_id AS "orgId", token.name, token.role, token.expires_at AS "expiresAt", token.revoked_at AS "revokedAt",
         token.membership_role AS "membershipRole", token.membership_suspended_at AS "membershipSuspendedAt",
         ${USER_COLUMNS}, ${ORGANIZATION_COLUMNS}, (SELECT count FROM counted) AS "requestCount"
  FROM token
  JOIN users AS u ON u.id = token.user_id
  JOIN organizations AS o ON o.id = token.org_id`,
);

/**
 * identifySession and enterOrganization: the session (not idle too long) with its user, touched,
 * the membership of the organization asked for with that organization, and the private projects
 * hidden from a role the allowlists apply to (project-visibility.ts).
 */
const SESSION = statement(
  { tokenHash: 'text', idleSince: 'timestamptz', now: 'timestamptz', touchBefore: 'timestamptz', orgId: 'char(26)' },
  (p) => `WITH session AS (
    SELECT id, user_id, last_seen_at FROM sessions WHERE token_hash = ${p.tokenHash} AND last_seen_at >= ${p.idleSince}
  ), touched AS (
    UPDATE sessions SET last_seen_at = ${p.now} WHERE id IN (SELECT id FROM session WHERE last_seen_at < ${p.touchBefore})
  )
  SELECT ${USER_COLUMNS}, m.role AS "membershipRole", m.suspended_at AS "membershipSuspendedAt", o.id AS "orgId", ${ORGANIZATION_COLUMNS},
         CASE WHEN m.role IN ('owner', 'admin') THEN '{}'::char(26)[] ELSE ARRAY(
           SELECT hidden.id FROM projects AS hidden
           LEFT JOIN project_access_members AS own ON own.project_id = hidden.id AND own.user_id = u.id
           WHERE hidden.org_id = o.id AND hidden.access_mode = 'private' AND hidden.owner_user_id IS DISTINCT FROM u.id
             AND (own.state = 'revoked' OR (own.state IS NULL AND NOT EXISTS (
               SELECT 1 FROM project_group_assignments AS a
               JOIN user_group_members AS gm ON gm.group_id = a.group_id AND gm.user_id = u.id
               WHERE a.project_id = hidden.id)))) END AS "hiddenProjectIds"
  FROM session
  JOIN users AS u ON u.id = session.user_id
  JOIN memberships AS m ON m.user_id = u.id AND m.org_id = ${p.orgId}
  JOIN organizations AS o ON o.id = m.org_id`,
);

type AuthenticatedRow = OrganizationPlanRow & {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarKey: string | null;
  orgId: string;
  orgSuspendedAt: Date | null;
  membershipRole: string | null;
  membershipSuspendedAt: Date | null;
  // A token's:
  id?: string;
  name?: string;
  revokedAt?: Date | null;
  expiresAt?: Date | null;
  requestCount?: number | null;
  // A session's:
  hiddenProjectIds?: string[];
};

/** The caller as the writes name it. */
type Caller = Record<keyof typeof ACTOR_TYPES, unknown> & { orgId: string; source: 'api' | 'manual' };

const authenticationFailed = (why: string) => new Error(`tight floor: ${why}`);

/** One statement: the caller, refused as the service refuses it (not found, suspended, over the request ceiling). */
export async function authenticate(sql: Sql, credentials: TightCredentials): Promise<Caller> {
  const now = Date.now();
  const touchBefore = new Date(now - TOUCH_INTERVAL_MS);
  const session = credentials.kind === 'session';
  const [row] = (
    (session
      ? await sql.query(
          SESSION.text,
          SESSION.values({
            tokenHash: credentials.sessionTokenHash,
            idleSince: new Date(now - SESSION_IDLE_MS),
            now: new Date(now),
            touchBefore,
            orgId: credentials.organizationId,
          }),
        )
      : await sql.query(
          TOKEN.text,
          TOKEN.values({
            tokenHash: credentials.tokenHash,
            now: new Date(now),
            touchBefore,
            windowStart: new Date(Math.floor(now / 60_000) * 60_000),
          }),
        )) as Rows<AuthenticatedRow>
  ).rows;
  if (!row || row.membershipRole === null || row.membershipSuspendedAt || row.orgSuspendedAt) throw authenticationFailed('refused');
  const limits = effectiveLimits(row);
  if (!session && (row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now))) throw authenticationFailed('token refused');
  if (!session && Number(row.requestCount) > limits.requestsPerMinute) throw authenticationFailed('request ceiling reached');
  const person = `${row.firstName} ${row.lastName}`.trim();
  const lockExempt = session && (row.membershipRole === 'owner' || row.membershipRole === 'admin');
  return session
    ? {
        orgId: row.orgId,
        hidden: row.hiddenProjectIds ?? [],
        userId: row.userId,
        authorKind: 'user',
        authorId: row.userId,
        authorName: person,
        authorAvatar: row.avatarKey,
        actorKind: 'user',
        actorUser: row.userId,
        actorToken: null,
        actorEmail: row.email,
        actorName: person,
        lockExempt,
        lockSelf: row.userId,
        metered: false,
        ceiling: limits.maxResultsPerMonth,
        source: 'manual',
      }
    : {
        orgId: row.orgId,
        hidden: [],
        userId: row.userId,
        authorKind: 'api_token',
        authorId: row.id,
        authorName: row.name,
        authorAvatar: null,
        actorKind: 'api_token',
        actorUser: null,
        actorToken: row.id,
        actorEmail: null,
        actorName: row.name,
        lockExempt: false,
        lockSelf: null,
        metered: true,
        ceiling: limits.maxResultsPerMonth,
        source: 'api',
      };
}

/** The parameters of one write of results by `caller` into `runId`; the two event ids in the order the service makes them. */
function writeOf(caller: Caller, runId: string, source: string) {
  const at = new Date();
  const eventId = newId();
  return {
    ...caller,
    runId,
    at,
    now: at,
    source,
    eventId,
    closedEventId: newId(),
    period: at.toISOString().slice(0, 7),
  };
}

// ---- a single mark ------------------------------------------------------------------------------

const MARK = statement(
  {
    ...ACTOR_TYPES,
    ...WRITE_TYPES,
    runCaseId: 'char(26)',
    status: 'text',
    elapsed: 'int',
    elapsedGiven: 'boolean',
    resultId: 'char(26)',
  },
  (p) => `WITH ${runOf(p, 'FOR KEY SHARE OF r')}, run_case AS MATERIALIZED (
    SELECT c.id, c.case_id, c.case_number, c.title, c.status, c.assignee_id
    FROM run JOIN test_run_cases AS c ON c.run_id = run.id
    WHERE c.id = ${p.runCaseId} AND c.org_id = ${p.orgId}
    FOR UPDATE OF c
  ), marked AS MATERIALIZED (
    SELECT run_case.* FROM run_case WHERE run_case.status <> ${p.status}
  ), cases AS (
    UPDATE test_run_cases AS c
    SET status = ${p.status}, elapsed_ms = CASE WHEN ${p.elapsedGiven} THEN ${p.elapsed} ELSE c.elapsed_ms END,
        last_result_at = ${p.at}, updated_at = ${p.at}
    FROM marked WHERE c.id = marked.id AND c.org_id = ${p.orgId}
    RETURNING 1
  ), steps AS (
    UPDATE test_run_case_steps AS s SET status = ${stepStatusSql(p.status)}, updated_at = ${p.at}
    FROM marked WHERE s.run_case_id = marked.id AND s.org_id = ${p.orgId} AND s.status <> ${stepStatusSql(p.status)}
    RETURNING 1
  ), result AS (
    INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, executed_at,
                                  executed_by_id, author_kind, author_id, author_name, author_avatar_key, flaky, attempt, parameters)
    SELECT ${p.resultId}, ${p.orgId}, ${p.runId}, marked.id, marked.case_id, ${p.status}, ${p.elapsed}, NULL, ${p.source}, ${p.at},
           ${p.userId}, ${p.authorKind}, ${p.authorId}, ${p.authorName}, ${p.authorAvatar}, false, 1, NULL
    FROM marked
    RETURNING 1
  ), ${eventCtes('marked_event', p, {
    id: p.eventId,
    action: 'run.case_marked',
    entity: `'test_run_case', marked.id, run.code || '-' || marked.case_number || ' · ' || marked.title`,
    from: `FROM marked, run, LATERAL (SELECT jsonb_build_object('caseDisplayId', run.code || '-' || marked.case_number, 'titleSnapshot', marked.title,
        'changes', jsonb_build_array(jsonb_build_object('field', 'status', 'from', marked.status, 'to', ${p.status})))
        || CASE WHEN ${p.elapsedGiven} THEN jsonb_build_object('elapsedMs', ${p.elapsed}) ELSE '{}'::jsonb END AS metadata) AS marking`,
  })}, delta AS (
    SELECT ${STATUSES.map((status) => `(${p.status} = '${status}')::int - (marked.status = '${status}')::int AS delta_${status}`).join(', ')},
           1 AS results, COALESCE(${p.elapsed}, 0)::bigint AS duration
    FROM marked
  ), ${runChangeCtes(p, 'delta', { whileAccepting: true, writtenFirst: ['cases', 'steps', 'result', 'marked_event_deliveries'] })}
  SELECT run.id AS "runId", run.plan_id AS "planId", run.code AS "projectCode", to_jsonb(run_case) AS "runCase",
         (SELECT jsonb_agg(to_jsonb(s) ORDER BY s.position, s.id) FROM test_run_case_steps AS s WHERE s.run_case_id = run_case.id) AS steps,
         EXISTS (SELECT FROM marked) AS marked,
         ${verdict([
           ['run_case.id IS NULL', 'run case not found'],
           [assigneeLocked(p, 'run_case'), 'run case assignee locked'],
           [`run.time_tracking = 'required' AND ${p.status} IN (${OUTCOMES_SQL}) AND ${p.elapsed} IS NULL`, 'elapsedMs required'],
           ['EXISTS (SELECT FROM marked) AND NOT EXISTS (SELECT FROM updated)', 'run closed'],
           [overCeiling(p, 'EXISTS (SELECT FROM marked)'), 'result ceiling'],
         ])}
  FROM run LEFT JOIN run_case ON true`,
);

/** PATCH run case `{ status, elapsedMs }`: authentication, then the mark in one statement; the run's change published after it. */
export async function tightMark(
  sql: Sql,
  credentials: TightCredentials,
  target: { runUlid: string; runCaseUlid: string; status: string; elapsedMs: number },
  publish: PublishRunChange,
): Promise<{ marked: boolean }> {
  const caller = await authenticate(sql, credentials);
  const { elapsedMs } = target;
  const args = {
    ...writeOf(caller, target.runUlid, caller.source),
    runCaseId: target.runCaseUlid,
    status: target.status,
    elapsed: elapsedMs,
    elapsedGiven: elapsedMs !== undefined,
    resultId: newId(),
  };
  const [row] = ((await sql.query(MARK.text, MARK.values(args))) as Rows<{ runId: string; planId: string | null; marked: boolean }>).rows;
  if (!row) throw new Error(`tight floor: run ${target.runUlid} refused the mark`);
  if (row.marked) publish({ orgId: caller.orgId, runId: row.runId, planId: row.planId });
  return { marked: row.marked };
}

// ---- a bulk submit-result -----------------------------------------------------------------------

/** lockRows of test_runs: the runs' rows FOR UPDATE in ULID order. */
const LOCK_RUNS = statement(
  { ids: 'char(26)[]', orgId: 'char(26)' },
  (p) => `SELECT id FROM test_runs WHERE id = ANY(${p.ids}) AND org_id = ${p.orgId} ORDER BY id FOR UPDATE`,
);

/**
 * submitRunResults after the lock: each entry names a run case by its ULID and appends a result;
 * an entry's `from` is the status the case had before it (the previous entry of the same case,
 * else the case's), the last entry of a case sets its status, and its last elapsedMs given (even
 * null) its elapsed time (recordResults).
 */
const SUBMIT = statement(
  {
    ...ACTOR_TYPES,
    ...WRITE_TYPES,
    ulids: 'char(26)[]',
    statuses: 'text[]',
    elapsed: 'int[]',
    elapsedGiven: 'boolean[]',
    comments: 'text[]',
    resultIds: 'char(26)[]',
  },
  (p) => `WITH ${runOf(p, '')}, entry AS MATERIALIZED (
    SELECT e.ord, e.status, e.elapsed, e.elapsed_given, e.comment, e.result_id, c.id AS run_case_id, c.case_id, c.case_number, c.title,
           c.status AS case_status, c.assignee_id,
           COALESCE(lag(e.status) OVER (PARTITION BY c.id ORDER BY e.ord), c.status) AS from_status,
           row_number() OVER (PARTITION BY c.id ORDER BY e.ord DESC) = 1 AS last_of_case
    FROM unnest(${p.ulids}, ${p.statuses}, ${p.elapsed}, ${p.elapsedGiven}, ${p.comments}, ${p.resultIds})
      WITH ORDINALITY AS e(ulid, status, elapsed, elapsed_given, comment, result_id, ord)
    JOIN run ON true
    LEFT JOIN test_run_cases AS c ON c.id = e.ulid AND c.run_id = run.id AND c.org_id = ${p.orgId}
  ), final AS MATERIALIZED (
    SELECT run_case_id AS id, min(case_status) AS original,
           (array_agg(status ORDER BY ord DESC))[1] AS status,
           bool_or(elapsed_given) AS elapsed_given,
           (array_agg(elapsed ORDER BY ord DESC) FILTER (WHERE elapsed_given))[1] AS elapsed
    FROM entry WHERE run_case_id IS NOT NULL GROUP BY run_case_id
  ), valid AS MATERIALIZED (
    SELECT NOT EXISTS (SELECT FROM entry WHERE run_case_id IS NULL OR ${assigneeLocked(p, 'entry')}) AS ok FROM run
  ), cases AS (
    UPDATE test_run_cases AS c
    SET status = final.status, elapsed_ms = CASE WHEN final.elapsed_given THEN final.elapsed ELSE c.elapsed_ms END,
        last_result_at = ${p.at}, updated_at = ${p.at}
    FROM final, valid WHERE valid.ok AND c.id = final.id AND c.org_id = ${p.orgId}
    RETURNING 1
  ), steps AS (
    UPDATE test_run_case_steps AS s SET status = ${stepStatusSql('final.status')}, updated_at = ${p.at}
    FROM final, valid WHERE valid.ok AND s.run_case_id = final.id AND s.org_id = ${p.orgId} AND s.status <> ${stepStatusSql('final.status')}
    RETURNING 1
  ), results AS (
    INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, comment, source, executed_at,
                                  executed_by_id, author_kind, author_id, author_name, author_avatar_key, flaky, attempt, parameters)
    SELECT entry.result_id, ${p.orgId}, ${p.runId}, entry.run_case_id, entry.case_id, entry.status, entry.elapsed, entry.comment, ${p.source}, ${p.at},
           ${p.userId}, ${p.authorKind}, ${p.authorId}, ${p.authorName}, ${p.authorAvatar}, false, 1, NULL
    FROM entry, valid WHERE valid.ok ORDER BY entry.ord
    RETURNING 1
  ), delta AS (
    SELECT ${STATUSES.map((status) => `count(*) FILTER (WHERE final.status = '${status}') - count(*) FILTER (WHERE final.original = '${status}') AS delta_${status}`).join(', ')},
           (SELECT count(*) FROM entry)::int AS results, (SELECT COALESCE(sum(entry.elapsed), 0) FROM entry)::bigint AS duration
    FROM final, valid WHERE valid.ok GROUP BY valid.ok
  ), listed AS (
    SELECT entry.*, entry.from_status <> entry.status AS changed FROM entry
  ), ${eventCtes('bulk_event', p, {
    id: p.eventId,
    action: 'run.cases_bulk_marked',
    entity: `'test_run', run.id, run.name`,
    from: `FROM run, valid, LATERAL (SELECT jsonb_build_object('bulkCases',
        jsonb_build_object('cases', (SELECT COALESCE(jsonb_agg(item.entry ORDER BY item.rank), '[]'::jsonb) FROM (
            SELECT jsonb_build_object('ulid', listed.run_case_id, 'caseDisplayId', run.code || '-' || listed.case_number,
                     'titleSnapshot', listed.title, 'fromStatus', listed.from_status, 'toStatus', listed.status) AS entry,
                   row_number() OVER (ORDER BY NOT listed.changed, listed.ord) AS rank
            FROM listed ORDER BY rank LIMIT 20) AS item),
          'summary', jsonb_strip_nulls(jsonb_build_object(
            'affected', count(*) FILTER (WHERE listed.changed), 'unchanged', count(*) FILTER (WHERE NOT listed.changed),
            'statusFrom', CASE WHEN count(DISTINCT listed.from_status) FILTER (WHERE listed.changed) = 1
              THEN min(listed.from_status) FILTER (WHERE listed.changed) END,
            'statusTo', CASE WHEN count(DISTINCT listed.status) = 1 THEN min(listed.status) END)))
          || CASE WHEN count(*) > 20 THEN jsonb_build_object('omittedCount', count(*) - 20) ELSE '{}'::jsonb END) AS metadata
        FROM listed) AS listing
      WHERE valid.ok`,
  })}, ${runChangeCtes(p, 'delta', { whileAccepting: false, writtenFirst: ['cases', 'steps', 'results', 'bulk_event_deliveries'] })}
  SELECT run.id AS "runId", run.plan_id AS "planId", (SELECT count(*) FROM results)::int AS results,
         ${verdict([
           ['NOT valid.ok', 'an entry names no case of the run, or a locked one'],
           ['NOT EXISTS (SELECT FROM updated)', 'run closed'],
           [overCeiling(p, 'true'), 'result ceiling'],
         ])}
  FROM run, valid`,
);

/** A submit's entry: the run case, its status and elapsedMs. */
export type SubmitEntry = { runCaseUlid: string; status: string; elapsedMs: number | undefined };

/** POST results/bulk: authentication; BEGIN; the run locked; the submit in one statement; COMMIT; the run's change published. */
export async function tightSubmit(
  sql: Sql,
  credentials: TightCredentials,
  runUlid: string,
  entries: SubmitEntry[],
  publish: PublishRunChange,
): Promise<{ results: number }> {
  const caller = await authenticate(sql, credentials);
  const args = {
    ...writeOf(caller, runUlid, 'bulk'),
    ulids: entries.map((entry) => entry.runCaseUlid),
    statuses: entries.map((entry) => entry.status),
    elapsed: entries.map((entry) => entry.elapsedMs ?? null),
    elapsedGiven: entries.map((entry) => entry.elapsedMs !== undefined),
    comments: entries.map(() => null),
    resultIds: entries.map(() => newId()),
  };
  let written: { runId: string; planId: string | null; results: number } | undefined;
  await sql.transaction(async (query) => {
    const locked = (await query(LOCK_RUNS.text, LOCK_RUNS.values({ ids: [runUlid], orgId: caller.orgId }))) as Rows;
    if (locked.rows.length === 0) throw new Error(`tight floor: no run ${runUlid}`);
    [written] = ((await query(SUBMIT.text, SUBMIT.values(args))) as Rows<NonNullable<typeof written>>).rows;
  });
  if (!written) throw new Error(`tight floor: run ${runUlid} refused the results`);
  publish({ orgId: caller.orgId, runId: written.runId, planId: written.planId });
  return { results: written.results };
}

// ---- the run's change, after the commit ----------------------------------------------------------

/** The service's channel and statement (src/live/progress-fanout.service.ts). */
const RUN_CHANGES_CHANNEL = 'tcms_run_changes';
const NOTIFY = 'SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload';

/**
 * The live-progress fan-out's sending half on its own connection, which LISTENs as the service's
 * does (and so also receives every change it sends): the changes published in one tick go out in
 * one statement, each run once; those published while a statement is on its way go in the next.
 */
export async function runChangeNotifier(connectionString: string): Promise<{ publish: PublishRunChange; stop(): Promise<void> }> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  client.on('notification', (message) => {
    if (message.payload) JSON.parse(message.payload);
  });
  await client.connect();
  await client.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
  let queued = new Map<string, RunChange>();
  let sending: Promise<void> | undefined;
  const flush = () => {
    if (sending || queued.size === 0) return;
    const payloads = [...queued.values()].map((change) => JSON.stringify(change));
    queued = new Map();
    sending = client
      .query(NOTIFY, [RUN_CHANGES_CHANNEL, payloads])
      .then(() => undefined)
      .finally(() => {
        sending = undefined;
        flush();
      });
  };
  return {
    publish: (change) => {
      if (queued.size === 0) setImmediate(flush);
      queued.set(change.runId, change);
    },
    async stop() {
      flush();
      while (sending) await sending;
      await client.end();
    },
  };
}
