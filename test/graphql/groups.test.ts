import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { onQuery } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, graphql, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';

const t = useTestApp();

const GROUP_FIELDS = 'ulid name description memberCount projectCount createdAt updatedAt';
const CREATE = `mutation($input: CreateUserGroupInput!) { createUserGroup(input: $input) { ${GROUP_FIELDS} } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateUserGroupInput!) { updateUserGroup(ulid: $ulid, input: $input) { ${GROUP_FIELDS} } }`;
const DELETE = `mutation($ulid: String!) { deleteUserGroup(ulid: $ulid) }`;
const ADD = `mutation($ulid: String!, $input: AddUserGroupMembersInput!) { addUserGroupMembers(ulid: $ulid, input: $input) { memberCount } }`;
const REMOVE = `mutation($ulid: String!, $userUlid: String!) { removeUserGroupMember(ulid: $ulid, userUlid: $userUlid) }`;
const ASSIGN = `mutation($ulid: String!, $projectUlids: [String!]!) { assignUserGroupProjects(ulid: $ulid, projectUlids: $projectUlids) { projectCount } }`;
const GROUP = `query($ulid: String!) { userGroup(ulid: $ulid) {
  ${GROUP_FIELDS}
  members { totalCount edges { node { userUlid displayName email addedAt } } }
  projects { totalCount edges { node { ulid name } } }
} }`;
const LIST = `query($q: String, $first: Int, $after: String) {
  userGroups(q: $q, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { ulid name memberCount projectCount } } }
}`;

const ACCESS = `query($code: String!) { projectAccess(projectCode: $code) { mode ownerUlid groups { userGroupUlid name memberCount } } }`;
const ACCESS_MEMBERS = `query($code: String!) { projectAccess(projectCode: $code) { members { userUlid displayName email state updatedAt } } }`;
const UPDATE_ACCESS = `mutation($code: String!, $input: UpdateProjectAccessInput!) { updateProjectAccess(projectCode: $code, input: $input) { mode ownerUlid } }`;
const GRANT = `mutation($code: String!, $userUlid: String!) { grantProjectAccess(projectCode: $code, userUlid: $userUlid) { userUlid displayName email state updatedAt } }`;
const REVOKE = `mutation($code: String!, $userUlid: String!) { revokeProjectAccess(projectCode: $code, userUlid: $userUlid) }`;
const ASSIGN_GROUP = `mutation($code: String!, $ulid: String!) { assignProjectAccessGroup(projectCode: $code, userGroupUlid: $ulid) { userGroupUlid name memberCount } }`;
const UNASSIGN_GROUP = `mutation($code: String!, $ulid: String!) { unassignProjectAccessGroup(projectCode: $code, userGroupUlid: $ulid) }`;

const gql = (caller: Caller, query: string, variables: Record<string, unknown> = {}) => graphql(t.http, caller, query, variables);

async function createGroup(caller: Caller, input: Record<string, unknown> = {}) {
  return dataOf(await gql(caller, CREATE, { input: { name: `Group ${newId()}`, ...input } })).createUserGroup as {
    ulid: string;
    name: string;
    memberCount: number;
    projectCount: number;
  };
}

const groupTotal = async (caller: Caller) => dataOf(await gql(caller, LIST)).userGroups.totalCount as number;

describe('GraphQL: user groups', () => {
  it('creates a seeded group and reads it with its members and projects, as REST does', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member', { firstName: 'Ada', lastName: 'Lovelace' });
    const project = await createProject(t.http, owner, { name: 'Seeded' });
    const group = await createGroup(owner, {
      name: 'QA',
      description: 'Testers',
      memberUserUlids: [member.userId, member.userId],
      projectUlids: [project.ulid],
    });
    expect(group).toMatchObject({ name: 'QA', memberCount: 1, projectCount: 1 });
    const read = dataOf(await gql(member, GROUP, { ulid: group.ulid })).userGroup;
    expect(read).toMatchObject({ ...group, description: 'Testers' });
    expect(read.members).toEqual({
      totalCount: 1,
      edges: [{ node: { userUlid: member.userId, displayName: 'Ada Lovelace', email: member.email, addedAt: expect.any(Number) } }],
    });
    expect(read.projects).toEqual({ totalCount: 1, edges: [{ node: { ulid: project.ulid, name: 'Seeded' } }] });
    const rest = await t.http.get(`/api/v1/groups/${group.ulid}`).set(owner.headers);
    expect(rest.body).toEqual({ ...group, description: 'Testers' });
    expect(await auditEvents(t.http, owner, { action: 'user_group.member_added' })).toHaveLength(1);
  });

  it('refuses what REST refuses: members (forbidden), blank names (validation_failed), unknown seeds (not_found), taken names (conflict)', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    await createGroup(owner, { name: 'Taken' });
    expect(codeOf(await gql(member, CREATE, { input: { name: 'Mine' } }))).toBe('forbidden');
    expect(codeOf(await gql(owner, CREATE, { input: { name: '  ' } }))).toBe('validation_failed');
    expect(codeOf(await gql(owner, CREATE, { input: { name: 'Seeded', memberUserUlids: [newId()] } }))).toBe('not_found');
    expect(codeOf(await gql(owner, CREATE, { input: { name: 'Seeded', projectUlids: [newId()] } }))).toBe('not_found');
    expect(codeOf(await gql(owner, CREATE, { input: { name: 'TAKEN' } }))).toBe('conflict');
    expect(await groupTotal(owner)).toBe(1);
  });

  it('lists groups with q, paging and real counts in a fixed number of SQL statements', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const project = await createProject(t.http, owner);
    const few = await signUp(t.http);
    await createGroup(few, { name: 'Only' });
    for (let i = 0; i < 12; i++) {
      await createGroup(owner, {
        name: `Team ${i}`,
        memberUserUlids: [owner.userId, member.userId],
        projectUlids: i % 2 ? [project.ulid] : [],
      });
    }
    const page = dataOf(await gql(member, LIST, { q: 'team 1', first: 2 })).userGroups;
    expect(page.totalCount).toBe(3);
    expect(page.edges.map((edge: { node: { name: string } }) => edge.node)).toEqual([
      { ulid: expect.any(String), name: 'Team 1', memberCount: 2, projectCount: 1 },
      { ulid: expect.any(String), name: 'Team 10', memberCount: 2, projectCount: 0 },
    ]);
    expect(page.pageInfo.hasNextPage).toBe(true);

    const statementsOf = async (caller: Caller) => {
      await gql(caller, LIST);
      const statements: string[] = [];
      const stop = onQuery((event) => statements.push(event.query));
      let response: Response;
      try {
        response = await gql(caller, LIST);
      } finally {
        stop();
      }
      return { statements, groups: dataOf(response).userGroups };
    };
    const one = await statementsOf(few);
    const twelve = await statementsOf(owner);
    expect(one.groups.edges).toHaveLength(1);
    expect(twelve.groups.edges).toHaveLength(12);
    expect(twelve.statements.length, twelve.statements.join('\n')).toBe(one.statements.length);
  });

  it('updates, deletes, adds and removes members with the REST rules', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const group = await createGroup(owner, { name: 'Before', description: 'x' });

    const updated = dataOf(await gql(owner, UPDATE, { ulid: group.ulid, input: { name: 'After', description: null } })).updateUserGroup;
    expect(updated).toMatchObject({ name: 'After', description: null });
    expect(codeOf(await gql(owner, UPDATE, { ulid: group.ulid, input: {} }))).toBe('validation_failed');
    expect(codeOf(await gql(member, UPDATE, { ulid: group.ulid, input: { name: 'Mine' } }))).toBe('forbidden');

    expect(codeOf(await gql(owner, ADD, { ulid: group.ulid, input: {} }))).toBe('validation_failed');
    expect(codeOf(await gql(owner, ADD, { ulid: group.ulid, input: { userUlid: member.userId, userUlids: [viewer.userId] } }))).toBe(
      'validation_failed',
    );
    expect(codeOf(await gql(owner, ADD, { ulid: group.ulid, input: { userUlids: [member.userId, stranger.userId] } }))).toBe('not_found');
    expect(
      dataOf(await gql(owner, ADD, { ulid: group.ulid, input: { userUlids: [member.userId, viewer.userId, member.userId] } })),
    ).toEqual({
      addUserGroupMembers: { memberCount: 2 },
    });
    expect(codeOf(await gql(owner, ADD, { ulid: group.ulid, input: { userUlid: member.userId } }))).toBe('conflict');
    expect(codeOf(await gql(viewer, ADD, { ulid: group.ulid, input: { userUlid: owner.userId } }))).toBe('forbidden');

    expect(dataOf(await gql(owner, REMOVE, { ulid: group.ulid, userUlid: member.userId }))).toEqual({ removeUserGroupMember: true });
    expect(codeOf(await gql(owner, REMOVE, { ulid: group.ulid, userUlid: member.userId }))).toBe('not_found');
    const removed = await auditEvents(t.http, owner, { action: 'user_group.member_removed' });
    expect(removed.map((event) => event.metadata.userUlid)).toEqual([member.userId]);

    expect(codeOf(await gql(member, DELETE, { ulid: group.ulid }))).toBe('forbidden');
    expect(dataOf(await gql(owner, DELETE, { ulid: group.ulid }))).toEqual({ deleteUserGroup: true });
    expect(codeOf(await gql(owner, GROUP, { ulid: group.ulid }))).toBe('not_found');
  });

  it('assigns projects per project right, all or nothing, and leaves out private projects the caller cannot see', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const mine = await createProject(t.http, owner, { name: 'Mine' });
    const hidden = await createProject(t.http, owner, { name: 'Hidden' });
    dataOf(await gql(owner, UPDATE_ACCESS, { code: mine.id, input: { ownerUlid: member.userId } }));
    dataOf(await gql(owner, UPDATE_ACCESS, { code: hidden.id, input: { mode: 'private' } }));
    const group = await createGroup(owner, { name: 'Mixed' });

    expect(codeOf(await gql(member, ASSIGN, { ulid: group.ulid, projectUlids: [mine.ulid, hidden.ulid] }))).toBe('not_found');
    expect(dataOf(await gql(member, ASSIGN, { ulid: group.ulid, projectUlids: [mine.ulid, mine.ulid] }))).toEqual({
      assignUserGroupProjects: { projectCount: 1 },
    });
    expect(codeOf(await gql(owner, ASSIGN, { ulid: group.ulid, projectUlids: [] }))).toBe('validation_failed');
    expect(dataOf(await gql(owner, ASSIGN, { ulid: group.ulid, projectUlids: [hidden.ulid] })).assignUserGroupProjects.projectCount).toBe(
      2,
    );

    const seenBy = async (caller: Caller) => dataOf(await gql(caller, GROUP, { ulid: group.ulid })).userGroup.projects;
    expect(await seenBy(member)).toEqual({ totalCount: 1, edges: [{ node: { ulid: mine.ulid, name: 'Mine' } }] });
    expect((await seenBy(owner)).totalCount).toBe(2);
    const token = await tokenFor(t.http, member, { role: 'member' });
    expect((await seenBy(token)).totalCount).toBe(2);
    expect(dataOf(await gql(member, GROUP, { ulid: group.ulid })).userGroup.projectCount).toBe(2);
  });
});

describe('GraphQL: project access', () => {
  it('reads and changes mode, owner, grants and groups with the REST rules and events', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member', { firstName: 'Grace', lastName: 'Hopper' });
    const viewer = await joinAs(t.http, owner, 'viewer');
    const project = await createProject(t.http, owner);
    const code = project.id;
    const group = await createGroup(owner, { name: 'Crew', memberUserUlids: [viewer.userId] });

    expect(dataOf(await gql(viewer, ACCESS, { code })).projectAccess).toEqual({ mode: 'public', ownerUlid: null, groups: [] });
    expect(codeOf(await gql(viewer, UPDATE_ACCESS, { code, input: { mode: 'private' } }))).toBe('forbidden');
    expect(codeOf(await gql(owner, UPDATE_ACCESS, { code, input: {} }))).toBe('validation_failed');
    expect(codeOf(await gql(owner, UPDATE_ACCESS, { code, input: { ownerUlid: newId() } }))).toBe('not_found');
    expect(dataOf(await gql(owner, UPDATE_ACCESS, { code, input: { mode: 'private', ownerUlid: member.userId } }))).toEqual({
      updateProjectAccess: { mode: 'private', ownerUlid: member.userId },
    });

    // The project's owner (a member) manages the allowlist and the groups.
    const granted = dataOf(await gql(member, GRANT, { code, userUlid: viewer.userId })).grantProjectAccess;
    expect(granted).toEqual({
      userUlid: viewer.userId,
      displayName: 'Test User',
      email: viewer.email,
      state: 'granted',
      updatedAt: expect.any(Number),
    });
    expect(dataOf(await gql(member, REVOKE, { code, userUlid: viewer.userId }))).toEqual({ revokeProjectAccess: true });
    expect(dataOf(await gql(member, ACCESS_MEMBERS, { code })).projectAccess.members).toEqual([
      { ...granted, state: 'revoked', updatedAt: expect.any(Number) },
    ]);
    // Revoked from a private project, the viewer no longer sees it at all.
    expect(codeOf(await gql(viewer, ACCESS_MEMBERS, { code }))).toBe('not_found');
    expect(codeOf(await gql(viewer, GRANT, { code, userUlid: viewer.userId }))).toBe('not_found');

    expect(dataOf(await gql(member, ASSIGN_GROUP, { code, ulid: group.ulid }))).toEqual({
      assignProjectAccessGroup: { userGroupUlid: group.ulid, name: 'Crew', memberCount: 1 },
    });
    // The revoked row outranks the group the viewer belongs to; granting again lets the viewer in.
    expect(codeOf(await gql(viewer, ACCESS, { code }))).toBe('not_found');
    dataOf(await gql(member, GRANT, { code, userUlid: viewer.userId }));
    expect(dataOf(await gql(viewer, ACCESS, { code })).projectAccess.groups).toEqual([
      { userGroupUlid: group.ulid, name: 'Crew', memberCount: 1 },
    ]);
    expect(codeOf(await gql(viewer, UNASSIGN_GROUP, { code, ulid: group.ulid }))).toBe('forbidden');
    expect(dataOf(await gql(member, UNASSIGN_GROUP, { code, ulid: group.ulid }))).toEqual({ unassignProjectAccessGroup: true });
    expect(dataOf(await gql(member, UNASSIGN_GROUP, { code, ulid: group.ulid }))).toEqual({ unassignProjectAccessGroup: true });
    expect(codeOf(await gql(member, ASSIGN_GROUP, { code, ulid: newId() }))).toBe('not_found');

    const actions = (await auditEvents(t.http, owner, { entityUlid: project.ulid })).map((event) => event.action);
    expect(actions.slice(0, 6)).toEqual([
      'project.group_unassigned',
      'project.member_granted',
      'project.group_assigned',
      'project.member_revoked',
      'project.member_granted',
      'project.access_changed',
    ]);
  });

  it("lets the project's owner change the project's run settings through updateRunSettings", async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const project = await createProject(t.http, owner);
    const update = `mutation($code: String, $input: RunSettingsInput!) { updateRunSettings(projectCode: $code, input: $input) { timeTracking { value source } } }`;
    expect(codeOf(await gql(member, update, { code: project.id, input: { timeTracking: 'off' } }))).toBe('forbidden');
    dataOf(await gql(owner, UPDATE_ACCESS, { code: project.id, input: { ownerUlid: member.userId } }));
    expect(dataOf(await gql(member, update, { code: project.id, input: { timeTracking: 'off' } })).updateRunSettings.timeTracking).toEqual({
      value: 'off',
      source: 'project',
    });
    expect(codeOf(await gql(member, update, { input: { timeTracking: 'off' } }))).toBe('forbidden');
  });
});
