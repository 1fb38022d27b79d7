import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { RequestContext } from '../foundation/context.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';

/** Team entries a project list item carries (`team`); `teamCount` counts them all. */
const TEAM_PREVIEW = 4;

type TeamMember = { userUlid: string; firstName: string; lastName: string; avatarKey: string | null; avatarVersion: number };
export type ProjectTeam = { team: TeamMember[]; teamCount: number };

/*
 * Team semantics (api-v1.md "Project", contract §10): the team of a public project is the
 * active organization membership minus the members holding a revoked row on it; the team of a
 * private project is exactly the active members holding a granted row (owners and admins who
 * only bypass the allowlist, and members reaching it through a group, are not on it). Active:
 * a membership that staff have not suspended. In the SQL below `p` is the project (always one
 * of the organization's) and `m` the membership; allowlist rows are reached through their
 * project, by their primary key (project_id, user_id), whatever the planner knows of the tables.
 */

/** Whether the member `m` holds an allowlist row in `state` on the project `p`. */
const allowlistRow = (state: 'granted' | 'revoked') => sql`EXISTS (
  SELECT 1 FROM project_access_members a WHERE a.project_id = p.id AND a.user_id = m.user_id AND a.state = ${state})`;

const ON_TEAM = sql`CASE WHEN p.access_mode = 'private' THEN ${allowlistRow('granted')} ELSE NOT ${allowlistRow('revoked')} END`;

type TeamRow = {
  projectId: string;
  teamCount: number;
  userUlid: string | null;
  firstName: string | null;
  lastName: string | null;
  avatarKey: string | null;
};

/**
 * `team` and `teamCount` of the projects `projectIds`, in one statement whatever their number or
 * the organization's size. Private projects: their granted rows joined to active memberships,
 * numbered by join time. Public projects: the active membership (counted once) less the active
 * members with a revoked row, and the first TEAM_PREVIEW members by join time read from the
 * membership index, skipping revoked ones. A project with no team has no row.
 */
export async function readTeams(ctx: RequestContext, projectIds: string[]): Promise<Map<string, ProjectTeam>> {
  const teams = new Map<string, ProjectTeam>(projectIds.map((id) => [id, { team: [], teamCount: 0 }]));
  if (projectIds.length === 0) return teams;
  const orgId = ctx.org.id;
  const rows = await queryRaw<TeamRow[]>(
    ctx.db,
    sql`
    WITH page AS (
      SELECT id, org_id, access_mode FROM projects WHERE org_id = ${orgId} AND id = ANY(${projectIds}::char(26)[])
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
      WHERE granted.position <= ${TEAM_PREVIEW}
      UNION ALL
      SELECT p.id, active.members - revoked.members, preview.user_id, preview.created_at, preview.id
      FROM page p
      CROSS JOIN (SELECT count(*) AS members FROM memberships WHERE org_id = ${orgId} AND suspended_at IS NULL) AS active
      CROSS JOIN LATERAL (
        SELECT count(*) AS members FROM project_access_members a
        JOIN memberships m ON m.org_id = p.org_id AND m.user_id = a.user_id AND m.suspended_at IS NULL
        WHERE a.project_id = p.id AND a.state = 'revoked'
      ) AS revoked
      LEFT JOIN LATERAL (
        SELECT m.user_id, m.created_at, m.id FROM memberships m
        WHERE m.org_id = p.org_id AND m.suspended_at IS NULL AND NOT ${allowlistRow('revoked')}
        ORDER BY m.created_at, m.id LIMIT ${TEAM_PREVIEW}
      ) AS preview ON true
      WHERE p.access_mode <> 'private'
    )
    SELECT members.project_id AS "projectId", members.team_count::int AS "teamCount",
      u.id AS "userUlid", u.first_name AS "firstName", u.last_name AS "lastName", u.avatar_key AS "avatarKey"
    FROM members LEFT JOIN users u ON u.id = members.user_id
    ORDER BY members.project_id, members.created_at, members.membership_id`,
  );
  for (const row of rows) {
    const entry = teams.get(row.projectId)!;
    entry.teamCount = row.teamCount;
    if (row.userUlid === null) continue;
    // Users have no avatar upload yet: their avatar version is always 0.
    entry.team.push({
      userUlid: row.userUlid,
      firstName: row.firstName!,
      lastName: row.lastName!,
      avatarKey: row.avatarKey,
      avatarVersion: 0,
    });
  }
  return teams;
}

/**
 * The `memberUlid` filter: projects whose team includes any of `userUlids`, as a project filter.
 * ULIDs of people who are not members of the organization are dropped; when none is left the
 * filter is absent (undefined), like a list filter of unknown tokens. One statement.
 */
export async function teamFilter(ctx: RequestContext, userUlids: string[]): Promise<Prisma.ProjectWhereInput | undefined> {
  const [row] = await queryRaw<Array<{ known: number; projectIds: string[] }>>(
    ctx.db,
    sql`
    SELECT count(*)::int AS known, ARRAY(
      SELECT p.id FROM projects p
      WHERE p.org_id = ${ctx.org.id} AND EXISTS (
        SELECT 1 FROM memberships m
        WHERE m.org_id = p.org_id AND m.user_id = ANY(${userUlids}::char(26)[]) AND m.suspended_at IS NULL AND ${ON_TEAM})
    ) AS "projectIds"
    FROM memberships WHERE org_id = ${ctx.org.id} AND user_id = ANY(${userUlids}::char(26)[])`,
  );
  return row!.known === 0 ? undefined : { id: { in: row!.projectIds } };
}
