/**
 * The raw-SQL floor of the project-team measure (bench/project-team.ts): for each request, the
 * statements the service sends for GET /api/v1/projects?include=stats&pageSize=100 read by a
 * member in a session, straight to the database (a pg Pool or PGlite; no HTTP, no Prisma), with
 * the service's concurrency: the session with its user; the membership with its organization;
 * the private projects hidden from the member; then the page and the total concurrently; then
 * the team statement and the three stats aggregates concurrently. The Prisma SQL is copied from
 * the statement log of one request, the team statement from src/projects/team.ts.
 *
 * The hidden-projects statement is the floor's equivalent of the allowlist rule (contract §10):
 * private projects on which the member holds a revoked row, or neither a granted row nor an
 * assignment to one of their groups. It is one statement per member or viewer request, as the
 * service's enforcement is; the page and the total then leave those projects out.
 */
import { createHash } from 'node:crypto';
import { TEAM_PROJECTS, type TeamOrganization } from './project-team.ts';
import { runOps, type Sql } from './raw.ts';
import type { Measurement } from './stats.ts';
import type { Counts, Drive } from './test-design.ts';

type Rows<T> = { rows: T[] };

const SESSION = `SELECT "t0"."id", "t0"."token_hash" AS "tokenHash", "t0"."user_id" AS "userId", "t0"."created_at" AS "createdAt", "t0"."last_seen_at" AS "lastSeenAt",
  "Session_user"."__prisma_data__" AS "user" FROM "public"."sessions" AS "t0" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'email', "t1"."email",
  'passwordHash', "t1"."password_hash", 'firstName', "t1"."first_name", 'lastName', "t1"."last_name", 'avatarKey', "t1"."avatar_key", 'createdAt', "t1"."created_at",
  'updatedAt', "t1"."updated_at") AS "__prisma_data__" FROM "public"."users" AS "t1" WHERE "t0"."user_id" = "t1"."id" LIMIT $1) AS "Session_user" ON true
  WHERE ("t0"."token_hash" = $2 AND 1=1) LIMIT $3`;

const MEMBERSHIP = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."user_id" AS "userId", "t0"."role", "t0"."suspended_at" AS "suspendedAt", "t0"."created_at" AS "createdAt",
  "Membership_org"."__prisma_data__" AS "org" FROM "public"."memberships" AS "t0" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'name', "t1"."name",
  'plan', "t1"."plan", 'maxProjectsOverride', "t1"."max_projects_override", 'maxSeatsOverride', "t1"."max_seats_override",
  'maxResultsPerMonthOverride', "t1"."max_results_per_month_override", 'requestsPerMinuteOverride', "t1"."requests_per_minute_override",
  'auditExportEnabledOverride', "t1"."audit_export_enabled_override", 'createdAt', "t1"."created_at", 'runSettings', "t1"."run_settings") AS "__prisma_data__"
  FROM "public"."organizations" AS "t1" WHERE "t0"."org_id" = "t1"."id" LIMIT $1) AS "Membership_org" ON true
  WHERE ("t0"."user_id" = $2 AND "t0"."org_id" = $3) ORDER BY "t0"."created_at" ASC, "t0"."id" ASC LIMIT $4`;

const HIDDEN = `SELECT p.id FROM projects p
  WHERE p.org_id = $1 AND p.access_mode = 'private' AND (
    EXISTS (SELECT 1 FROM project_access_members a WHERE a.org_id = p.org_id AND a.project_id = p.id AND a.user_id = $2 AND a.state = 'revoked')
    OR NOT (
      EXISTS (SELECT 1 FROM project_access_members a WHERE a.org_id = p.org_id AND a.project_id = p.id AND a.user_id = $2 AND a.state = 'granted')
      OR EXISTS (SELECT 1 FROM project_group_assignments g JOIN user_group_members gm ON gm.group_id = g.group_id
                 WHERE g.org_id = p.org_id AND g.project_id = p.id AND gm.user_id = $2)))`;

const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, index) => `$${from + index}`).join(',');
/** `AND "t0"."id" NOT IN (…)` of the hidden projects, their parameters from $2 on. */
const notHidden = (column: string, hidden: number) => (hidden === 0 ? '' : ` AND ${column} NOT IN (${placeholders(2, hidden)})`);

const page = (
  hidden: number,
) => `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."code", "t0"."name", "t0"."description", "t0"."avatar_key" AS "avatarKey",
  "t0"."avatar_version" AS "avatarVersion", "t0"."avatar_size_bytes" AS "avatarSizeBytes", "t0"."locked_at" AS "lockedAt", "t0"."last_suite_number" AS "lastSuiteNumber",
  "t0"."last_case_number" AS "lastCaseNumber", "t0"."last_plan_number" AS "lastPlanNumber", "t0"."run_settings" AS "runSettings", "t0"."access_mode" AS "accessMode",
  "t0"."owner_user_id" AS "ownerUserId", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt" FROM "public"."projects" AS "t0"
  WHERE ("t0"."org_id" = $1${notHidden('"t0"."id"', hidden)}) ORDER BY "t0"."created_at" ASC, "t0"."id" ASC LIMIT $${hidden + 2} OFFSET $${hidden + 3}`;
const count = (hidden: number) => `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."projects"."id" FROM "public"."projects"
  WHERE ("public"."projects"."org_id" = $1${notHidden('"public"."projects"."id"', hidden)}) OFFSET $${hidden + 2}) AS "sub"`;

const TEAMS = `WITH page AS (
    SELECT id, org_id, access_mode FROM projects WHERE org_id = $1 AND id = ANY($2::char(26)[])
  ), members AS (
    SELECT granted.project_id, granted.team_count, granted.user_id, granted.created_at, granted.membership_id
    FROM (
      SELECT p.id AS project_id, m.user_id, m.created_at, m.id AS membership_id,
        count(*) OVER (PARTITION BY p.id) AS team_count,
        row_number() OVER (PARTITION BY p.id ORDER BY m.created_at, m.id) AS position
      FROM page p
      JOIN project_access_members a ON a.project_id = p.id AND a.state = 'granted'
      JOIN memberships m ON m.org_id = p.org_id AND m.user_id = a.user_id AND m.suspended_at IS NULL
      WHERE p.access_mode = 'private'
    ) AS granted
    WHERE granted.position <= $3
    UNION ALL
    SELECT p.id, active.members - revoked.members, preview.user_id, preview.created_at, preview.id
    FROM page p
    CROSS JOIN (SELECT count(*) AS members FROM memberships WHERE org_id = $4 AND suspended_at IS NULL) AS active
    CROSS JOIN LATERAL (
      SELECT count(*) AS members FROM project_access_members a
      JOIN memberships m ON m.org_id = p.org_id AND m.user_id = a.user_id AND m.suspended_at IS NULL
      WHERE a.project_id = p.id AND a.state = 'revoked'
    ) AS revoked
    LEFT JOIN LATERAL (
      SELECT m.user_id, m.created_at, m.id FROM memberships m
      WHERE m.org_id = p.org_id AND m.suspended_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM project_access_members a WHERE a.project_id = p.id AND a.user_id = m.user_id AND a.state = $5)
      ORDER BY m.created_at, m.id LIMIT $6
    ) AS preview ON true
    WHERE p.access_mode <> 'private'
  )
  SELECT members.project_id AS "projectId", members.team_count::int AS "teamCount",
    u.id AS "userUlid", u.first_name AS "firstName", u.last_name AS "lastName", u.avatar_key AS "avatarKey"
  FROM members LEFT JOIN users u ON u.id = members.user_id
  ORDER BY members.project_id, members.created_at, members.membership_id`;

const perProject = (table: string, condition: string, by: string[], projects: number) =>
  `SELECT COUNT(*) AS "_count$_all", ${by.map((column) => `"public"."${table}"."${column}"`).join(', ')} FROM "public"."${table}"
  WHERE ("public"."${table}"."project_id" IN (${placeholders(1, projects)})${condition} AND "public"."${table}"."org_id" = $${projects + 1})
  GROUP BY ${by.map((column) => `"public"."${table}"."${column}"`).join(', ')} OFFSET $${projects + 2}`;
const cases = (projects: number) => perProject('test_cases', ' AND "public"."test_cases"."archived_at" IS NULL', ['project_id'], projects);
const milestones = (projects: number) =>
  perProject('milestones', ' AND "public"."milestones"."deleted_at" IS NULL', ['project_id'], projects);
const runs = (projects: number) => perProject('test_runs', '', ['project_id', 'state'], projects);

/** The request of one member: answers the total, for the check before measuring. */
async function readTeamList(sql: Sql, organization: TeamOrganization, sessionHash: string): Promise<number> {
  const { orgId, reader } = organization;
  if (((await sql.query(SESSION, [1, sessionHash, 1])) as Rows<unknown>).rows.length !== 1) throw new Error('raw team list: no session');
  await sql.query(MEMBERSHIP, [1, reader.userId, orgId, 1]);
  const hidden = ((await sql.query(HIDDEN, [orgId, reader.userId])) as Rows<{ id: string }>).rows.map((row) => row.id);
  const [projects, total] = (await Promise.all([
    sql.query(page(hidden.length), [orgId, ...hidden, TEAM_PROJECTS, 0]),
    sql.query(count(hidden.length), [orgId, ...hidden, 0]),
  ])) as [Rows<{ id: string }>, Rows<{ _count$_all: number | string }>];
  const ids = projects.rows.map((row) => row.id);
  await Promise.all([
    sql.query(cases(ids.length), [...ids, orgId, 0]),
    sql.query(milestones(ids.length), [...ids, orgId, 0]),
    sql.query(runs(ids.length), [...ids, orgId, 0]),
    sql.query(TEAMS, [orgId, ids, 4, orgId, 'revoked', 4]),
  ]);
  return Number(total.rows[0]!._count$_all);
}

export async function rawTeamList(sql: Sql, organization: TeamOrganization, counts: Counts, drive: Drive): Promise<Measurement> {
  const sessionHash = createHash('sha256').update(organization.reader.sessionToken).digest('hex');
  const total = await readTeamList(sql, organization, sessionHash);
  if (total !== organization.visibleProjects)
    throw new Error(`raw team list: ${total} projects visible, ${organization.visibleProjects} expected`);
  const op = async () => {
    await readTeamList(sql, organization, sessionHash);
  };
  await runOps(counts.warmup, drive.concurrency, drive.maxMs, op);
  return runOps(counts.measured, drive.concurrency, drive.maxMs, op);
}
