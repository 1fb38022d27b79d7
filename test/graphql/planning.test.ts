import { describe, expect, it } from 'vitest';
import { auditEvents, graphql, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';

const t = useTestApp();

const MILESTONE = 'ulid projectUlid name description dueAt completedAt createdAt updatedAt';

describe('GraphQL: milestones', () => {
  it('creates, lists (q, totalCount), updates and soft-deletes through the same rules as REST', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const dueAt = Date.UTC(2031, 1, 1);
    const create = `mutation($code: String!, $input: CreateMilestoneInput!) { createMilestone(projectCode: $code, input: $input) { ${MILESTONE} } }`;
    const created = dataOf(await graphql(t.http, owner, create, { code: project.id, input: { name: 'Beta', dueAt } })).createMilestone;
    expect(created).toMatchObject({ projectUlid: project.ulid, name: 'Beta', description: null, dueAt, completedAt: null });
    await graphql(t.http, owner, create, { code: project.id, input: { name: 'GA' } });

    const rest = await t.http.get(`/api/v1/milestones/${created.ulid}`).set(owner.headers);
    expect(rest.body).toEqual(created);

    const listing = `query($code: String!, $q: String) { project(code: $code) { milestones(q: $q) { totalCount edges { node { name } } } } }`;
    const all = dataOf(await graphql(t.http, owner, listing, { code: project.id })).project.milestones;
    expect(all.totalCount).toBe(2);
    expect(all.edges.map((edge: { node: { name: string } }) => edge.node.name)).toEqual(['Beta', 'GA']);
    const filtered = dataOf(await graphql(t.http, owner, listing, { code: project.id, q: 'bet' })).project.milestones;
    expect(filtered.totalCount).toBe(1);

    const update = `mutation($ulid: String!, $input: UpdateMilestoneInput!) { updateMilestone(ulid: $ulid, input: $input) { ${MILESTONE} } }`;
    const completedAt = Date.UTC(2031, 0, 30);
    const updated = dataOf(
      await graphql(t.http, owner, update, { ulid: created.ulid, input: { completedAt, dueAt: null } }),
    ).updateMilestone;
    expect(updated).toMatchObject({ name: 'Beta', completedAt, dueAt: null });

    const empty = await graphql(t.http, owner, update, { ulid: created.ulid, input: {} });
    expect(codeOf(empty)).toBe('validation_failed');
    const badName = await graphql(t.http, owner, create, { code: project.id, input: { name: '' } });
    expect(codeOf(badName)).toBe('validation_failed');
    expect(onlyError(badName).extensions?.details?.path).toEqual(['name']);

    expect(
      dataOf(await graphql(t.http, owner, 'mutation($u: String!) { deleteMilestone(ulid: $u) }', { u: created.ulid })).deleteMilestone,
    ).toBe(true);
    expect(codeOf(await graphql(t.http, owner, 'query($u: String!) { milestone(ulid: $u) { name } }', { u: created.ulid }))).toBe(
      'not_found',
    );
    expect(dataOf(await graphql(t.http, owner, listing, { code: project.id })).project.milestones.totalCount).toBe(1);
    expect((await auditEvents(t.http, owner, { entityUlid: created.ulid })).map((event) => event.action).reverse()).toEqual([
      'milestone.created',
      'milestone.updated',
      'milestone.deleted',
    ]);
  });

  it('refuses a viewer (forbidden) and hides milestones from another organization (not_found)', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const create = 'mutation($code: String!) { createMilestone(projectCode: $code, input: { name: "M" }) { ulid } }';
    expect(codeOf(await graphql(t.http, viewer, create, { code: project.id }))).toBe('forbidden');
    const created = dataOf(await graphql(t.http, owner, create, { code: project.id })).createMilestone;
    const read = 'query($u: String!) { milestone(ulid: $u) { name } }';
    expect(dataOf(await graphql(t.http, viewer, read, { u: created.ulid })).milestone.name).toBe('M');
    expect(codeOf(await graphql(t.http, stranger, read, { u: created.ulid }))).toBe('not_found');
    const update = 'mutation($u: String!) { updateMilestone(ulid: $u, input: { name: "Hijacked" }) { name } }';
    expect(codeOf(await graphql(t.http, stranger, update, { u: created.ulid }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, viewer, update, { u: created.ulid }))).toBe('forbidden');
  });
});

describe('GraphQL: environments', () => {
  it('derives slugs, refuses a taken slug with conflict, renames and frees the slug on delete', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const create = `mutation($code: String!, $input: CreateEnvironmentInput!) { createEnvironment(projectCode: $code, input: $input) { ulid name slug projectUlid } }`;
    const staging = dataOf(await graphql(t.http, owner, create, { code: project.id, input: { name: 'Staging (EU)' } })).createEnvironment;
    expect(staging).toMatchObject({ name: 'Staging (EU)', slug: 'staging-eu', projectUlid: project.ulid });
    const taken = await graphql(t.http, owner, create, { code: project.id, input: { name: 'Other', slug: 'staging-eu' } });
    expect(codeOf(taken)).toBe('conflict');
    expect(codeOf(await graphql(t.http, owner, create, { code: project.id, input: { name: 'X', slug: 'Not OK' } }))).toBe(
      'validation_failed',
    );

    const update = 'mutation($u: String!, $input: UpdateEnvironmentInput!) { updateEnvironment(ulid: $u, input: $input) { name slug } }';
    expect(dataOf(await graphql(t.http, owner, update, { u: staging.ulid, input: { name: 'Staging' } })).updateEnvironment).toEqual({
      name: 'Staging',
      slug: 'staging-eu',
    });

    const listing = 'query($code: String!) { project(code: $code) { environments { totalCount edges { node { slug } } } } }';
    expect(dataOf(await graphql(t.http, owner, listing, { code: project.id })).project.environments.totalCount).toBe(1);
    expect(
      dataOf(await graphql(t.http, owner, 'mutation($u: String!) { deleteEnvironment(ulid: $u) }', { u: staging.ulid })).deleteEnvironment,
    ).toBe(true);
    expect(codeOf(await graphql(t.http, owner, 'query($u: String!) { environment(ulid: $u) { slug } }', { u: staging.ulid }))).toBe(
      'not_found',
    );
    const reused = dataOf(
      await graphql(t.http, owner, create, { code: project.id, input: { name: 'Again', slug: 'staging-eu' } }),
    ).createEnvironment;
    expect(reused.slug).toBe('staging-eu');
    expect((await auditEvents(t.http, owner, { entityUlid: staging.ulid })).map((event) => event.action).reverse()).toEqual([
      'environment.created',
      'environment.updated',
      'environment.deleted',
    ]);
  });
});

describe('GraphQL: configuration groups and values', () => {
  const GROUPS = 'query($code: String!) { project(code: $code) { configurationGroups { name position values { name position } } } }';

  it('creates groups and values, orders them, moves, deletes and purges with the same authorization', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const createGroup =
      'mutation($code: String!, $name: String!, $position: Int) { createConfigurationGroup(projectCode: $code, input: { name: $name, position: $position }) { ulid name position values { name } } }';
    const browser = dataOf(await graphql(t.http, member, createGroup, { code: project.id, name: 'Browser' })).createConfigurationGroup;
    expect(browser).toMatchObject({ name: 'Browser', position: 0, values: [] });
    dataOf(await graphql(t.http, member, createGroup, { code: project.id, name: 'OS' }));
    expect(codeOf(await graphql(t.http, member, createGroup, { code: project.id, name: 'browser' }))).toBe('conflict');

    const add =
      'mutation($g: String!, $name: String!) { addConfiguration(groupUlid: $g, input: { name: $name }) { ulid name position groupUlid } }';
    const chrome = dataOf(await graphql(t.http, member, add, { g: browser.ulid, name: 'Chrome' })).addConfiguration;
    const firefox = dataOf(await graphql(t.http, member, add, { g: browser.ulid, name: 'Firefox' })).addConfiguration;
    expect([chrome.position, firefox.position]).toEqual([0, 1]);
    expect(chrome.groupUlid).toBe(browser.ulid);

    const move =
      'mutation($u: String!, $input: ConfigurationPatchInput!) { updateConfiguration(ulid: $u, input: $input) { name position } }';
    expect(
      dataOf(await graphql(t.http, member, move, { u: firefox.ulid, input: { position: 0, name: 'Firefox ESR' } })).updateConfiguration,
    ).toEqual({
      name: 'Firefox ESR',
      position: 0,
    });
    const moveGroup =
      'mutation($u: String!, $input: ConfigurationPatchInput!) { updateConfigurationGroup(ulid: $u, input: $input) { name position values { name } } }';
    const moved = dataOf(await graphql(t.http, member, moveGroup, { u: browser.ulid, input: { position: 7 } })).updateConfigurationGroup;
    expect(moved).toEqual({ name: 'Browser', position: 7, values: [{ name: 'Chrome' }, { name: 'Firefox ESR' }] });

    expect(dataOf(await graphql(t.http, member, GROUPS, { code: project.id })).project.configurationGroups).toEqual([
      { name: 'OS', position: 1, values: [] },
      {
        name: 'Browser',
        position: 7,
        values: [
          { name: 'Chrome', position: 0 },
          { name: 'Firefox ESR', position: 0 },
        ],
      },
    ]);

    const remove = 'mutation($u: String!, $purge: Boolean) { deleteConfiguration(ulid: $u, purge: $purge) }';
    expect(codeOf(await graphql(t.http, member, remove, { u: chrome.ulid, purge: true }))).toBe('forbidden');
    expect(dataOf(await graphql(t.http, member, remove, { u: chrome.ulid })).deleteConfiguration).toBe(true);
    expect(dataOf(await graphql(t.http, owner, remove, { u: chrome.ulid, purge: true })).deleteConfiguration).toBe(true);
    expect((await auditEvents(t.http, owner, { entityUlid: chrome.ulid })).map((event) => event.action).reverse()).toEqual([
      'configuration.created',
      'configuration.deleted',
      'configuration.purged',
    ]);

    expect(
      dataOf(await graphql(t.http, member, 'mutation($u: String!) { deleteConfigurationGroup(ulid: $u) }', { u: browser.ulid }))
        .deleteConfigurationGroup,
    ).toBe(true);
    expect(codeOf(await graphql(t.http, member, 'query($u: String!) { configurationGroup(ulid: $u) { name } }', { u: browser.ulid }))).toBe(
      'not_found',
    );
    expect(dataOf(await graphql(t.http, member, GROUPS, { code: project.id })).project.configurationGroups).toEqual([
      { name: 'OS', position: 1, values: [] },
    ]);
  });

  it('refuses viewers and validates inputs', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const create =
      'mutation($code: String!, $name: String!) { createConfigurationGroup(projectCode: $code, input: { name: $name }) { ulid } }';
    expect(codeOf(await graphql(t.http, viewer, create, { code: project.id, name: 'Browser' }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, owner, create, { code: project.id, name: '' }))).toBe('validation_failed');
    const group = dataOf(await graphql(t.http, owner, create, { code: project.id, name: 'Browser' })).createConfigurationGroup;
    const patch = 'mutation($u: String!) { updateConfigurationGroup(ulid: $u, input: {}) { name } }';
    expect(codeOf(await graphql(t.http, owner, patch, { u: group.ulid }))).toBe('validation_failed');
    expect(dataOf(await graphql(t.http, viewer, GROUPS, { code: project.id })).project.configurationGroups).toEqual([
      { name: 'Browser', position: 0, values: [] },
    ]);
  });
});

describe('GraphQL: comments', () => {
  const COMMENT = 'ulid body parentUlid pinnedAt author { kind ulid displayName name } createdAt updatedAt';
  const ADD = `mutation($c: String!, $input: AddCommentInput!) { addComment(caseUlid: $c, input: $input) { ${COMMENT} } }`;
  const COMMENTS = 'query($c: String!) { testCase(ulid: $c) { comments { totalCount edges { node { body parentUlid pinnedAt } } } } }';

  async function ownerWithCase() {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await t.http.post(`/api/v1/projects/${project.id}/test-cases`).set(owner.headers).send({ title: 'Login' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { owner, project, testCase: response.body as { ulid: string; displayId: string } };
  }

  it('adds comments and replies, lists them on TestCase.comments, pins, edits and deletes with cascade', async () => {
    const { owner, testCase } = await ownerWithCase();
    const member = await joinAs(t.http, owner, 'member');
    const root = dataOf(await graphql(t.http, member, ADD, { c: testCase.ulid, input: { body: 'Root' } })).addComment;
    expect(root).toMatchObject({
      body: 'Root',
      parentUlid: null,
      pinnedAt: null,
      author: { kind: 'user', ulid: member.userId, name: null },
    });
    const reply = dataOf(
      await graphql(t.http, owner, ADD, { c: testCase.ulid, input: { body: 'Reply', parentUlid: root.ulid } }),
    ).addComment;
    expect(reply.parentUlid).toBe(root.ulid);
    const later = dataOf(await graphql(t.http, owner, ADD, { c: testCase.ulid, input: { body: 'Later' } })).addComment;

    const rest = await t.http.get(`/api/v1/test-cases/${testCase.ulid}/comments`).set(owner.headers);
    const { author: restAuthor, ...restComment } = rest.body.items[0];
    const { author: graphAuthor, ...graphComment } = root;
    expect(restComment).toEqual(graphComment);
    expect(restAuthor).toEqual({ kind: 'user', ulid: graphAuthor.ulid, displayName: graphAuthor.displayName, avatarKey: null });

    const pin = 'mutation($c: String!, $m: String!) { pinComment(caseUlid: $c, commentUlid: $m) { pinnedAt } }';
    expect(dataOf(await graphql(t.http, owner, pin, { c: testCase.ulid, m: later.ulid })).pinComment.pinnedAt).toEqual(expect.any(Number));
    expect(codeOf(await graphql(t.http, owner, pin, { c: testCase.ulid, m: reply.ulid }))).toBe('validation_failed');
    const listed = dataOf(await graphql(t.http, owner, COMMENTS, { c: testCase.ulid })).testCase.comments;
    expect(listed.totalCount).toBe(3);
    expect(listed.edges.map((edge: { node: { body: string } }) => edge.node.body)).toEqual(['Later', 'Root', 'Reply']);
    const unpin = 'mutation($c: String!, $m: String!) { unpinComment(caseUlid: $c, commentUlid: $m) { pinnedAt } }';
    expect(dataOf(await graphql(t.http, owner, unpin, { c: testCase.ulid, m: later.ulid })).unpinComment.pinnedAt).toBeNull();

    const edit = 'mutation($c: String!, $m: String!, $b: String!) { updateComment(caseUlid: $c, commentUlid: $m, body: $b) { body } }';
    expect(codeOf(await graphql(t.http, owner, edit, { c: testCase.ulid, m: root.ulid, b: 'Owner edit' }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, member, edit, { c: testCase.ulid, m: root.ulid, b: '' }))).toBe('validation_failed');
    expect(dataOf(await graphql(t.http, member, edit, { c: testCase.ulid, m: root.ulid, b: 'Edited' })).updateComment.body).toBe('Edited');

    const remove = 'mutation($c: String!, $m: String!) { deleteComment(caseUlid: $c, commentUlid: $m) }';
    expect(dataOf(await graphql(t.http, owner, remove, { c: testCase.ulid, m: root.ulid })).deleteComment).toBe(true);
    const after = dataOf(await graphql(t.http, owner, COMMENTS, { c: testCase.ulid })).testCase.comments;
    expect(after.edges.map((edge: { node: { body: string } }) => edge.node.body)).toEqual(['Later']);

    const deleted = (await auditEvents(t.http, owner, { action: 'test_case.comment_deleted' })).map((event) => event.metadata.commentUlid);
    expect(deleted.sort()).toEqual([root.ulid, reply.ulid].sort());
    expect((await auditEvents(t.http, owner, { entityUlid: testCase.ulid })).map((event) => event.action).reverse()).toEqual([
      'test_case.created',
      'test_case.commented',
      'test_case.commented',
      'test_case.commented',
      'test_case.comment_pinned',
      'test_case.comment_unpinned',
      'test_case.comment_updated',
      'test_case.comment_deleted',
      'test_case.comment_deleted',
    ]);
  });

  it('refuses a viewer and answers not_found across organizations', async () => {
    const { owner, testCase } = await ownerWithCase();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    expect(codeOf(await graphql(t.http, viewer, ADD, { c: testCase.ulid, input: { body: 'Hi' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, stranger, ADD, { c: testCase.ulid, input: { body: 'Hi' } }))).toBe('not_found');
    dataOf(await graphql(t.http, owner, ADD, { c: testCase.ulid, input: { body: 'Visible' } }));
    expect(dataOf(await graphql(t.http, viewer, COMMENTS, { c: testCase.ulid })).testCase.comments.totalCount).toBe(1);
  });
});
