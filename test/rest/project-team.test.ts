import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { createGroup, grant, revoke, setAccessMode } from '../support/access-fixtures.ts';
import { type Caller, createProject, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { recordStatements } from '../support/statements.ts';

/*
 * The project team of GET /api/v1/projects?include=stats (`team`, `teamCount`) and the
 * `memberUlid` filter, with the team semantics of api-v1.md "Project" and contract §10: a
 * public project's team is the active membership minus revoked rows, a private one's exactly
 * its granted active members; ordered by join time, at most four entries.
 */

const app = useTestApp();

type TeamItem = { ulid: string; name: string; team: Array<{ userUlid: string }>; teamCount: number };

async function listItems(caller: Caller, query = 'include=stats') {
  const response = await app.http.get(`/api/v1/projects?${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: TeamItem[]; total: number };
}

/** `{ team: [userUlid…], teamCount }` of the caller's project `project`. */
async function teamOf(caller: Caller, project: { ulid: string }) {
  const item = (await listItems(caller)).items.find((each) => each.ulid === project.ulid);
  expect(item, 'the project is listed').toBeDefined();
  return { team: item!.team.map((member) => member.userUlid), teamCount: item!.teamCount };
}

/** Makes the memberships' join times those of `people`, in this order, a day apart. */
async function joinedInOrder(org: Caller, people: Caller[]) {
  for (const [index, person] of people.entries()) {
    await prisma().membership.update({
      where: { orgId_userId: { orgId: org.orgId, userId: person.userId } },
      data: { createdAt: new Date(Date.UTC(2020, 0, 1 + index)) },
    });
  }
}

const leave = (org: Caller, person: Caller) =>
  prisma().membership.delete({ where: { orgId_userId: { orgId: org.orgId, userId: person.userId } } });
const suspend = (org: Caller, person: Caller) =>
  prisma().membership.update({ where: { orgId_userId: { orgId: org.orgId, userId: person.userId } }, data: { suspendedAt: new Date() } });

/** An owner and `count` people who join after them (roles cycle admin, member, viewer). */
async function organization(count: number) {
  const owner = await signUp(app.http, { firstName: 'Olga', lastName: 'Owner' });
  const people: Caller[] = [];
  const roles = ['admin', 'member', 'viewer'] as const;
  for (let index = 0; index < count; index++) people.push(await joinAs(app.http, owner, roles[index % roles.length]!));
  return { owner, people };
}

describe('project team of include=stats', () => {
  it('public: the active members by join time (not by sign-up), at most 4, all in teamCount; suspended and departed members drop out', async () => {
    const { owner, people } = await organization(5);
    const [a, b, c, d, e] = people as [Caller, Caller, Caller, Caller, Caller];
    // Joined: owner, e, c, a, b, d (users were created a, b, c, d, e).
    await joinedInOrder(owner, [owner, e, c, a, b, d]);
    const project = await createProject(app.http, owner);

    const response = await listItems(owner);
    const item = response.items.find((each) => each.ulid === project.ulid)!;
    expect(item.teamCount).toBe(6);
    expect(item.team).toEqual([
      { userUlid: owner.userId, firstName: 'Olga', lastName: 'Owner', avatarKey: null, avatarVersion: 0 },
      { userUlid: e.userId, firstName: 'Test', lastName: 'User', avatarKey: null, avatarVersion: 0 },
      { userUlid: c.userId, firstName: 'Test', lastName: 'User', avatarKey: null, avatarVersion: 0 },
      { userUlid: a.userId, firstName: 'Test', lastName: 'User', avatarKey: null, avatarVersion: 0 },
    ]);

    await suspend(owner, c);
    expect(await teamOf(owner, project)).toEqual({ team: [owner.userId, e.userId, a.userId, b.userId], teamCount: 5 });
    await leave(owner, e);
    expect(await teamOf(owner, project)).toEqual({ team: [owner.userId, a.userId, b.userId, d.userId], teamCount: 4 });
  });

  it("public: a revoked row removes the member from that project's team only; a granted row changes nothing", async () => {
    const { owner, people } = await organization(3);
    const [admin, member, viewer] = people as [Caller, Caller, Caller];
    const revokedOn = await createProject(app.http, owner);
    const untouched = await createProject(app.http, owner);
    await revoke(owner.orgId, revokedOn, member.userId);
    await grant(owner.orgId, revokedOn, viewer.userId);

    expect(await teamOf(owner, revokedOn)).toEqual({ team: [owner.userId, admin.userId, viewer.userId], teamCount: 3 });
    expect(await teamOf(owner, untouched)).toEqual({ team: [owner.userId, admin.userId, member.userId, viewer.userId], teamCount: 4 });
  });

  it('private: exactly the granted active members by join time; owners, admins and group members are not on it unless granted', async () => {
    const { owner, people } = await organization(7);
    const [admin, m1, viewer, admin2, m2, v2, m3] = people as [Caller, Caller, Caller, Caller, Caller, Caller, Caller];
    const project = await createProject(app.http, owner);
    const empty = await createProject(app.http, owner);
    await setAccessMode(owner.orgId, project, 'private');
    await setAccessMode(owner.orgId, empty, 'private');
    // Granted in another order than they joined; m3 revoked; a group of v2 and m3 assigned.
    await grant(owner.orgId, project, m2.userId);
    await grant(owner.orgId, project, m1.userId);
    await revoke(owner.orgId, project, m3.userId);
    await createGroup(owner.orgId, [v2.userId, m3.userId, admin2.userId], [project, empty]);

    expect(await teamOf(owner, project)).toEqual({ team: [m1.userId, m2.userId], teamCount: 2 });
    expect(await teamOf(owner, empty)).toEqual({ team: [], teamCount: 0 });

    await grant(owner.orgId, project, admin.userId);
    await grant(owner.orgId, project, viewer.userId);
    await grant(owner.orgId, project, owner.userId);
    expect(await teamOf(owner, project)).toEqual({ team: [owner.userId, admin.userId, m1.userId, viewer.userId], teamCount: 5 });

    await leave(owner, admin);
    await suspend(owner, owner);
    expect(await teamOf(m1, project)).toEqual({ team: [m1.userId, viewer.userId, m2.userId], teamCount: 3 });
  });
});

describe('GET /api/v1/projects?memberUlid', () => {
  /**
   * Four projects: Open (public), Closed to m1 (public, m1 revoked), Granted to m1 (private, m1
   * granted, a live case), Grouped (private, m2 granted, a group of m1 assigned).
   */
  async function fixture() {
    const { owner, people } = await organization(3);
    const [admin, m1, m2] = people as [Caller, Caller, Caller];
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 10 });
    await createProject(app.http, owner, { name: 'Open' });
    const closed = await createProject(app.http, owner, { name: 'Closed to m1' });
    const granted = await createProject(app.http, owner, { name: 'Granted to m1' });
    const grouped = await createProject(app.http, owner, { name: 'Grouped' });
    await revoke(owner.orgId, closed, m1.userId);
    await setAccessMode(owner.orgId, granted, 'private');
    await grant(owner.orgId, granted, m1.userId);
    await setAccessMode(owner.orgId, grouped, 'private');
    await grant(owner.orgId, grouped, m2.userId);
    await createGroup(owner.orgId, [m1.userId], [grouped]);
    const created = await app.http.post(`/api/v1/projects/${granted.id}/test-cases`).set(owner.headers).send({ title: 'Live case' });
    expect(created.status).toBe(201);
    return { owner, admin, m1, m2 };
  }

  const names = async (caller: Caller, query: string) => {
    const page = await listItems(caller, query);
    return { names: page.items.map((item) => item.name), total: page.total };
  };
  const all = ['Open', 'Closed to m1', 'Granted to m1', 'Grouped'];

  it('keeps the projects whose team includes any listed member, with the same team semantics', async () => {
    const { owner, admin, m1, m2 } = await fixture();
    expect(await names(owner, `memberUlid=${m1.userId}`)).toEqual({ names: ['Open', 'Granted to m1'], total: 2 });
    expect(await names(owner, `memberUlid=${m2.userId}`)).toEqual({ names: ['Open', 'Closed to m1', 'Grouped'], total: 3 });
    // Owners and admins bypass private allowlists but are on no private team.
    expect(await names(owner, `memberUlid=${owner.userId},${admin.userId}`)).toEqual({ names: ['Open', 'Closed to m1'], total: 2 });
    expect(await names(owner, `memberUlid=${m1.userId},${m2.userId}`)).toEqual({ names: all, total: 4 });
    expect(await names(owner, `memberUlid=${m1.userId}&memberUlid=${m2.userId}`)).toEqual({ names: all, total: 4 });
    // Independent of include: the same projects with include=stats, each with the member on its team.
    const withStats = await listItems(owner, `memberUlid=${m1.userId}&include=stats`);
    expect(withStats.items.map((item) => item.name)).toEqual(['Open', 'Granted to m1']);
    for (const item of withStats.items) expect(item.team.map((member) => member.userUlid)).toContain(m1.userId);
  });

  it('is AND-ed with the other filters and q, and reflected in total', async () => {
    const { owner, m1 } = await fixture();
    expect(await names(owner, `memberUlid=${m1.userId}&cases=has`)).toEqual({ names: ['Granted to m1'], total: 1 });
    expect(await names(owner, `memberUlid=${m1.userId}&cases=without`)).toEqual({ names: ['Open'], total: 1 });
    expect(await names(owner, `memberUlid=${m1.userId}&q=granted`)).toEqual({ names: ['Granted to m1'], total: 1 });
    expect(await names(owner, `memberUlid=${m1.userId}&pageSize=1&page=2`)).toEqual({ names: ['Granted to m1'], total: 2 });
  });

  it('drops ULIDs of people who are not members (strangers, departed members); with none left the filter is absent', async () => {
    const { owner, m1, m2 } = await fixture();
    const stranger = await signUp(app.http);
    const nobody = newId();
    expect(await names(owner, `memberUlid=${nobody},${stranger.userId},${m1.userId}`)).toEqual({
      names: ['Open', 'Granted to m1'],
      total: 2,
    });
    expect(await names(owner, `memberUlid=${nobody},${stranger.userId},not-a-ulid`)).toEqual({ names: all, total: 4 });
    await leave(owner, m2);
    expect(await names(owner, `memberUlid=${m2.userId}`)).toEqual({ names: all, total: 4 });
  });

  it('a suspended member is a member on no team: the filter keeps nothing', async () => {
    const { owner, m1 } = await fixture();
    await suspend(owner, m1);
    expect(await names(owner, `memberUlid=${m1.userId}`)).toEqual({ names: [], total: 0 });
  });

  it('GraphQL: projects(memberUlids) with team and teamCount, through the same service', async () => {
    const { owner, m1, m2 } = await fixture();
    const query = `query($members: [String!]) { projects(memberUlids: $members) { totalCount edges { node { name teamCount team { userUlid firstName lastName avatarKey avatarVersion } } } } }`;
    const data = dataOf(await graphql(app.http, owner, query, { members: [m1.userId] }));
    expect(data.projects.totalCount).toBe(2);
    type Node = { name: string; teamCount: number; team: Array<{ userUlid: string }> };
    const nodes = data.projects.edges.map((edge: { node: Node }) => edge.node) as Node[];
    expect(nodes.map((node) => node.name)).toEqual(['Open', 'Granted to m1']);
    expect(nodes[0]!.teamCount).toBe(4);
    expect(nodes[0]!.team[0]).toEqual({ userUlid: owner.userId, firstName: 'Olga', lastName: 'Owner', avatarKey: null, avatarVersion: 0 });
    expect(nodes[1]).toMatchObject({ teamCount: 1, team: [{ userUlid: m1.userId }] });
    const everyone = dataOf(await graphql(app.http, owner, query, { members: [newId()] }));
    expect(everyone.projects.totalCount).toBe(4);
    const grouped = dataOf(await graphql(app.http, owner, query, { members: [m2.userId] }));
    expect(grouped.projects.edges.map((edge: { node: Node }) => edge.node.name)).toEqual(['Open', 'Closed to m1', 'Grouped']);
  });
});

describe('statements of the project list with include=stats', () => {
  /**
   * An organization of `projects` projects (every other one private, with grants, a revoked row
   * and group assignments), `members` members seeded directly besides the owner, and `groups`
   * groups; the caller is a member in a session (cookie + X-Organization-Id).
   */
  async function seeded(projects: number, members: number, groups: number) {
    const owner = await signUp(app.http);
    const reader = await joinAs(app.http, owner, 'member');
    const orgId = owner.orgId;
    const userIds = Array.from({ length: members }, () => newId());
    await prisma().user.createMany({
      data: userIds.map((id, index) => ({
        id,
        email: `seeded-${id.toLowerCase()}@example.test`,
        passwordHash: 'x',
        firstName: 'Seeded',
        lastName: String(index),
      })),
    });
    await prisma().membership.createMany({
      data: userIds.map((userId, index) => ({ id: newId(), orgId, userId, role: index % 5 === 0 ? 'viewer' : 'member' })),
    });
    const projectRows = Array.from({ length: projects }, (_, index) => ({
      id: newId(),
      orgId,
      code: `S${index}X${newId().slice(-6)}`,
      name: `Seeded ${index}`,
      accessMode: index % 2 === 0 ? 'public' : 'private',
    }));
    await prisma().project.createMany({ data: projectRows });
    await prisma().projectAccessMember.createMany({
      data: projectRows.flatMap((project, index) => [
        ...userIds
          .slice(index % members, (index % members) + 6)
          .map((userId) => ({ projectId: project.id, userId, orgId, state: 'granted' })),
        { projectId: project.id, userId: reader.userId, orgId, state: index % 3 === 0 ? 'revoked' : 'granted' },
      ]),
    });
    for (let group = 0; group < groups; group++) {
      const assigned = projectRows.filter((_, index) => index % groups === group).map((project) => ({ ulid: project.id }));
      await createGroup(
        orgId,
        [...userIds.filter((_, index) => index % groups === group), ...(group === 0 ? [reader.userId] : [])],
        assigned,
      );
    }
    return { reader, userIds };
  }

  const TEAM_QUERY = `{ projects(first: 100) { totalCount edges { node { ulid teamCount team { userUlid } } } } }`;

  it('costs the same number of statements for 5 projects as for 100, REST and GraphQL, with and without memberUlid', async () => {
    const small = await seeded(5, 10, 2);
    const large = await seeded(100, 60, 10);
    const rest = (caller: Caller, query: string) =>
      recordStatements(async () => {
        const response = await app.http.get(`/api/v1/projects?include=stats&pageSize=100${query}`).set(caller.headers);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body as { items: TeamItem[] };
      });

    const few = await rest(small.reader, '');
    const many = await rest(large.reader, '');
    expect(few.result.items.length).toBeGreaterThan(0);
    expect(many.result.items.length).toBeGreaterThan(few.result.items.length);
    expect(many.result.items.every((item) => item.team.length === 4 || item.team.length === item.teamCount)).toBe(true);
    expect(many.statements.length, many.statements.join('\n')).toBe(few.statements.length);

    const fewByMember = await rest(small.reader, `&memberUlid=${small.userIds.slice(0, 3).join(',')}`);
    const manyByMember = await rest(large.reader, `&memberUlid=${large.userIds.slice(0, 30).join(',')}`);
    expect(manyByMember.result.items.length).toBeGreaterThan(fewByMember.result.items.length);
    expect(manyByMember.statements.length, manyByMember.statements.join('\n')).toBe(fewByMember.statements.length);
    expect(manyByMember.statements.length).toBe(many.statements.length + 1);

    const gql = (caller: Caller) => recordStatements(async () => dataOf(await graphql(app.http, caller, TEAM_QUERY)));
    const fewGraph = await gql(small.reader);
    const manyGraph = await gql(large.reader);
    expect(manyGraph.result.projects.edges.length).toBeGreaterThan(fewGraph.result.projects.edges.length);
    expect(manyGraph.statements.length, manyGraph.statements.join('\n')).toBe(fewGraph.statements.length);
  }, 120_000);
});
