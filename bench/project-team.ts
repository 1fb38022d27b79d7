/**
 * The project-team measure of `npm run bench`, service side (bench/raw-project-team.ts is its
 * raw-SQL floor): GET /api/v1/projects?include=stats&pageSize=100 — every project of the page
 * with its stats, `team` (first four by join time) and `teamCount` — in an organization of
 * TEAM_MEMBERS members, TEAM_GROUPS user groups and TEAM_PROJECTS projects, every other one
 * private (granted members, group assignments), read by a member. The reader authenticates with
 * a session (cookie + X-Organization-Id), the browser path: API tokens are never evaluated
 * against private projects' allowlists, members in a session are.
 *
 * The organization's owner and the reader sign up through the API; everything else (members,
 * groups, projects, allowlist rows) is written with direct SQL by seedTeamOrganization, in one
 * transaction, the way the service stores it, and then analyzed.
 */
import { newId } from '../src/kernel/ids.ts';
import type { ServiceProcess } from './child.ts';
import { runHttpLoad } from './load.ts';
import type { Sql } from './raw.ts';
import { getJsonAs, type SessionPerson, sessionHeaders, signUpPerson } from './setup.ts';
import type { Measurement } from './stats.ts';
import type { Counts, Drive } from './test-design.ts';

export const TEAM_MEMBERS = 200;
export const TEAM_GROUPS = 50;
export const TEAM_PROJECTS = 100;
export const TEAM_LIST_PATH = `/api/v1/projects?include=stats&pageSize=${TEAM_PROJECTS}`;

/** Per private project: granted members and assigned groups. Per public project: revoked members. */
const GRANTS_PER_PRIVATE = 10;
const GROUPS_PER_PRIVATE = 2;
const REVOKED_PER_PUBLIC = 2;
/** Groups of every seeded member, and the groups the reader belongs to. */
const GROUPS_PER_MEMBER = 2;
const READER_GROUPS = [0, 1];

/** The organization, its owner, and the member who reads it in a session. */
export type TeamOrganization = { orgId: string; ownerId: string; reader: SessionPerson; visibleProjects: number };

export async function teamPeople(service: ServiceProcess): Promise<Omit<TeamOrganization, 'visibleProjects'>> {
  const owner = await signUpPerson(service, 'team-owner');
  const reader = await signUpPerson(service, 'team-reader');
  return { orgId: owner.orgId, ownerId: owner.userId, reader };
}

const isPrivate = (project: number) => project % 2 === 1;
const groupsOf = (project: number) =>
  Array.from({ length: GROUPS_PER_PRIVATE }, (_, k) => (project + k * (TEAM_GROUPS / GROUPS_PER_PRIVATE)) % TEAM_GROUPS);
/** The reader: granted on every other private project, revoked on every twelfth project (public or private). */
const readerRow = (project: number): 'granted' | 'revoked' | null =>
  project % 12 === 3 ? 'revoked' : isPrivate(project) && project % 4 === 1 ? 'granted' : null;

/**
 * Writes the organization's other TEAM_MEMBERS - 2 members (join times a second apart), the
 * reader's membership, the groups, the projects and their allowlists. Answers how many projects
 * the reader may see: the public ones and the private ones granted to them or assigned to one of
 * their groups, less those where they hold a revoked row.
 */
export async function seedTeamOrganization(sql: Sql, people: Omit<TeamOrganization, 'visibleProjects'>): Promise<TeamOrganization> {
  const { orgId, reader } = people;
  const seeded = Array.from({ length: TEAM_MEMBERS - 2 }, () => newId());
  const groups = Array.from({ length: TEAM_GROUPS }, () => newId());
  const projects = Array.from({ length: TEAM_PROJECTS }, () => newId());
  const start = Date.now() - 3_600_000;
  const at = (offsetSeconds: number) => new Date(start + offsetSeconds * 1000);

  const groupRows = seeded.flatMap((userId, index) =>
    Array.from({ length: GROUPS_PER_MEMBER }, (_, k) => ({ groupId: groups[(index * (k + 1) + k) % TEAM_GROUPS]!, userId })),
  );
  const uniqueGroupRows = [...new Map(groupRows.map((row) => [`${row.groupId}/${row.userId}`, row])).values()];
  uniqueGroupRows.push(...READER_GROUPS.map((group) => ({ groupId: groups[group]!, userId: reader.userId })));
  const assignments = projects.flatMap((projectId, index) =>
    isPrivate(index) ? groupsOf(index).map((group) => ({ projectId, groupId: groups[group]! })) : [],
  );
  const accessRows = projects.flatMap((projectId, index) => {
    const count = isPrivate(index) ? GRANTS_PER_PRIVATE : REVOKED_PER_PUBLIC;
    const state = isPrivate(index) ? 'granted' : 'revoked';
    const rows = Array.from({ length: count }, (_, k) => ({ projectId, userId: seeded[(index * 7 + k * 13) % seeded.length]!, state }));
    const own = readerRow(index);
    return own ? [...rows, { projectId, userId: reader.userId, state: own }] : rows;
  });

  await sql.transaction(async (query) => {
    await query(
      `INSERT INTO users (id, email, password_hash, first_name, last_name)
       SELECT id, 'bench-member-' || lower(id) || '@example.test', 'not a password hash', 'Member', ordinal::text
       FROM unnest($1::char(26)[]) WITH ORDINALITY AS u(id, ordinal)`,
      [seeded],
    );
    await query(
      `INSERT INTO memberships (id, org_id, user_id, role, created_at)
       SELECT m.id, $1, m.user_id, m.role, m.created_at FROM unnest($2::char(26)[], $3::char(26)[], $4::text[], $5::timestamptz[]) AS m(id, user_id, role, created_at)`,
      [
        orgId,
        [...seeded, reader.userId].map(() => newId()),
        [...seeded, reader.userId],
        [...seeded.map((_, index) => (index % 10 === 0 ? 'admin' : index % 5 === 0 ? 'viewer' : 'member')), 'member'],
        [...seeded.map((_, index) => at(index + 1)), at(seeded.length + 1)],
      ],
    );
    await query(
      `INSERT INTO user_groups (id, org_id, name) SELECT id, $1, 'Group ' || ordinal FROM unnest($2::char(26)[]) WITH ORDINALITY AS g(id, ordinal)`,
      [orgId, groups],
    );
    await query(
      `INSERT INTO user_group_members (group_id, user_id, org_id) SELECT group_id, user_id, $1 FROM unnest($2::char(26)[], $3::char(26)[]) AS r(group_id, user_id)`,
      [orgId, uniqueGroupRows.map((row) => row.groupId), uniqueGroupRows.map((row) => row.userId)],
    );
    await query(
      `INSERT INTO projects (id, org_id, code, name, access_mode, created_at, updated_at)
       SELECT id, $1, 'T' || ordinal, 'Team project ' || ordinal, mode, created_at, created_at
       FROM unnest($2::char(26)[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS p(id, mode, created_at, ordinal)`,
      [orgId, projects, projects.map((_, index) => (isPrivate(index) ? 'private' : 'public')), projects.map((_, index) => at(index))],
    );
    await query(
      `INSERT INTO project_group_assignments (project_id, group_id, org_id) SELECT project_id, group_id, $1 FROM unnest($2::char(26)[], $3::char(26)[]) AS a(project_id, group_id)`,
      [orgId, assignments.map((row) => row.projectId), assignments.map((row) => row.groupId)],
    );
    await query(
      `INSERT INTO project_access_members (project_id, user_id, org_id, state)
       SELECT project_id, user_id, $1, state FROM unnest($2::char(26)[], $3::char(26)[], $4::text[]) AS a(project_id, user_id, state)`,
      [orgId, accessRows.map((row) => row.projectId), accessRows.map((row) => row.userId), accessRows.map((row) => row.state)],
    );
  });
  // A live database has statistics: the server's autovacuum, the embedded one's maintenance sweep.
  await sql.query('ANALYZE', []);

  const visibleProjects = projects.filter((_, index) => {
    const own = readerRow(index);
    if (own === 'revoked') return !isPrivate(index);
    return !isPrivate(index) || own === 'granted' || groupsOf(index).some((group) => READER_GROUPS.includes(group));
  }).length;
  return { ...people, visibleProjects };
}

type TeamPage = { total: number; items: Array<{ stats?: object; team?: unknown[]; teamCount?: number }> };

/**
 * Checks one answer, then measures. Until private projects are hidden from members who are not
 * on their allowlist, the reader sees all TEAM_PROJECTS; afterwards exactly `visibleProjects`.
 */
export async function serviceTeamList(
  service: ServiceProcess,
  organization: TeamOrganization,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  const headers = sessionHeaders(organization.reader, organization.orgId);
  const page = (await getJsonAs(service, TEAM_LIST_PATH, headers)) as TeamPage;
  const whole = page.items.length === page.total && [organization.visibleProjects, TEAM_PROJECTS].includes(page.total);
  const shaped = page.items.every((item) => item.stats && item.team && item.team.length <= 4 && (item.teamCount ?? 0) > 0);
  if (!whole || !shaped)
    throw new Error(`unexpected team page: ${page.items.length} items, total ${page.total}, ${JSON.stringify(page.items[0])}`);
  const load = {
    url: `${service.baseUrl}${TEAM_LIST_PATH}`,
    method: 'GET' as const,
    headers,
    concurrency: drive.concurrency,
    maxMs: drive.maxMs,
  };
  await runHttpLoad({ ...load, requests: counts.warmup });
  return runHttpLoad({ ...load, requests: counts.measured });
}
