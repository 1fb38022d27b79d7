import { describe, expect, it } from 'vitest';
import { ULID_PATTERN } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

const COMMENT_FIELDS = ['ulid', 'body', 'parentUlid', 'pinnedAt', 'author', 'createdAt', 'updatedAt'];

type Comment = { ulid: string; body: string; parentUlid: string | null; pinnedAt: number | null; createdAt: number; updatedAt: number };
type TestCase = { ulid: string; displayId: string; title: string };

async function createCase(caller: Caller, projectId: string, title = 'Login works'): Promise<TestCase> {
  const response = await t.http.post(`/api/v1/projects/${projectId}/test-cases`).set(caller.headers).send({ title });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** An owner, a project and one case in it. */
async function ownerWithCase() {
  const owner = await signUp(t.http);
  const project = await createProject(t.http, owner);
  const testCase = await createCase(owner, project.id);
  return { owner, project, testCase };
}

const commentsUrl = (caseUlid: string) => `/api/v1/test-cases/${caseUlid}/comments`;
const commentUrl = (caseUlid: string, commentUlid: string, action = '') =>
  `/api/v1/test-cases/${caseUlid}/comments/${commentUlid}${action ? `/${action}` : ''}`;

const post = (caller: Caller, caseUlid: string, body: Record<string, unknown>) =>
  t.http.post(commentsUrl(caseUlid)).set(caller.headers).send(body);

async function comment(caller: Caller, caseUlid: string, body: string, parentUlid?: string): Promise<Comment> {
  const response = await post(caller, caseUlid, { body, ...(parentUlid ? { parentUlid } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function list(caller: Caller, caseUlid: string, query = '') {
  const response = await t.http.get(`${commentsUrl(caseUlid)}${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Comment[]; page: number; pageSize: number; total: number };
}

const bodies = (page: { items: Comment[] }) => page.items.map((item) => item.body);

describe('POST /api/v1/test-cases/{caseUlid}/comments', () => {
  it('creates a comment with the contract fields and the author snapshot; records test_case.commented', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const project = await createProject(t.http, owner);
    const testCase = await createCase(owner, project.id, 'Checkout pays');
    const response = await post(owner, testCase.ulid, { body: 'Fails on Safari' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...COMMENT_FIELDS].sort());
    expect(response.body).toMatchObject({
      body: 'Fails on Safari',
      parentUlid: null,
      pinnedAt: null,
      author: { kind: 'user', ulid: owner.userId, displayName: 'Ada Lovelace', avatarKey: null },
    });
    expect(response.body.ulid).toMatch(ULID_PATTERN);
    expect(response.body.updatedAt).toBe(response.body.createdAt);

    const events = await auditEvents(t.http, owner, { action: 'test_case.commented' });
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual(
      expect.objectContaining({
        entityType: 'test_case',
        entityUlid: testCase.ulid,
        entityLabel: `${testCase.displayId} · Checkout pays`,
        metadata: { commentUlid: response.body.ulid, excerpt: 'Fails on Safari' },
      }),
    );
  });

  it('snapshots an API token as the author', async () => {
    const { owner, testCase } = await ownerWithCase();
    const token = await tokenFor(t.http, owner, { name: 'CI bot' });
    const created = await comment(token, testCase.ulid, 'From CI');
    expect(created).toMatchObject({ author: { kind: 'api_token', ulid: token.tokenUlid, name: 'CI bot' } });
  });

  it('puts the first 240 characters of the body in the excerpt, never splitting a character', async () => {
    const { owner, testCase } = await ownerWithCase();
    const long = `${'a'.repeat(239)}😀${'b'.repeat(60)}`;
    const exact = `${'c'.repeat(239)}😀`;
    await comment(owner, testCase.ulid, long);
    await comment(owner, testCase.ulid, exact);
    const [second, first] = await auditEvents(t.http, owner, { action: 'test_case.commented' });
    expect(first!.metadata.excerpt).toBe(`${'a'.repeat(239)}😀`);
    expect(Array.from(first!.metadata.excerpt as string)).toHaveLength(240);
    expect(first!.metadata.truncated).toBe(true);
    expect(second!.metadata.excerpt).toBe(exact);
    expect(second!.metadata.truncated).toBeUndefined();
  });

  it.each([
    ['an empty body', { body: '' }, 'body'],
    ['a 10001-character body', { body: 'x'.repeat(10001) }, 'body'],
    ['a missing body', {}, 'body'],
    ['a malformed parentUlid', { body: 'x', parentUlid: 'nope' }, 'parentUlid'],
    ['an unknown key', { body: 'x', pinned: true }, 'pinned'],
  ])('answers 422 for %s and creates nothing', async (_label, body, path) => {
    const { owner, testCase } = await ownerWithCase();
    const response = await post(owner, testCase.ulid, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details.path).toEqual([path]);
    expect((await list(owner, testCase.ulid)).total).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'test_case.commented' })).toEqual([]);
  });

  it('accepts a body of 10000 characters', async () => {
    const { owner, testCase } = await ownerWithCase();
    expect((await comment(owner, testCase.ulid, 'y'.repeat(10000))).body).toHaveLength(10000);
  });

  it('adds replies; a reply to a reply joins the thread of its top-level comment', async () => {
    const { owner, testCase } = await ownerWithCase();
    const root = await comment(owner, testCase.ulid, 'Root');
    const reply = await comment(owner, testCase.ulid, 'Reply', root.ulid);
    expect(reply.parentUlid).toBe(root.ulid);
    const nested = await comment(owner, testCase.ulid, 'Reply to reply', reply.ulid);
    expect(nested.parentUlid).toBe(root.ulid);
    const page = await list(owner, testCase.ulid);
    expect(page.items.map((item) => [item.body, item.parentUlid])).toEqual([
      ['Root', null],
      ['Reply', root.ulid],
      ['Reply to reply', root.ulid],
    ]);
  });

  it('answers 404 for a parentUlid of another case or an unknown one, and creates nothing', async () => {
    const { owner, project, testCase } = await ownerWithCase();
    const other = await createCase(owner, project.id, 'Other');
    const foreign = await comment(owner, other.ulid, 'On the other case');
    for (const parentUlid of [foreign.ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const response = await post(owner, testCase.ulid, { body: 'Reply', parentUlid });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await list(owner, testCase.ulid)).total).toBe(0);
    expect(await auditEvents(t.http, owner, { action: 'test_case.commented' })).toHaveLength(1);
  });
});

describe('GET /api/v1/test-cases/{caseUlid}/comments', () => {
  it('lists pinned comments first (latest pin first), then oldest first, in the page shape', async () => {
    const { owner, testCase } = await ownerWithCase();
    const first = await comment(owner, testCase.ulid, 'First');
    const second = await comment(owner, testCase.ulid, 'Second');
    await comment(owner, testCase.ulid, 'Reply to first', first.ulid);
    const fourth = await comment(owner, testCase.ulid, 'Fourth');
    expect((await t.http.post(commentUrl(testCase.ulid, fourth.ulid, 'pin')).set(owner.headers)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await t.http.post(commentUrl(testCase.ulid, second.ulid, 'pin')).set(owner.headers)).status).toBe(200);

    const page = await list(owner, testCase.ulid);
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 4 });
    expect(bodies(page)).toEqual(['Second', 'Fourth', 'First', 'Reply to first']);
    const two = await list(owner, testCase.ulid, '?page=2&pageSize=3');
    expect(bodies(two)).toEqual(['Reply to first']);
    expect(two.total).toBe(4);
    expect((await list(owner, testCase.ulid, '?page=5')).items).toEqual([]);
    const bad = await t.http.get(`${commentsUrl(testCase.ulid)}?pageSize=0`).set(owner.headers);
    expect(bad.status).toBe(422);
  });

  it('keeps comments per case', async () => {
    const { owner, project, testCase } = await ownerWithCase();
    const other = await createCase(owner, project.id, 'Other');
    await comment(owner, testCase.ulid, 'Mine');
    await comment(owner, other.ulid, 'Theirs');
    expect(bodies(await list(owner, testCase.ulid))).toEqual(['Mine']);
    expect(bodies(await list(owner, other.ulid))).toEqual(['Theirs']);
  });
});

describe('PATCH /api/v1/test-cases/{caseUlid}/comments/{commentUlid}', () => {
  it('lets the author edit the body and records test_case.comment_updated with the new excerpt', async () => {
    const { owner, testCase } = await ownerWithCase();
    const member = await joinAs(t.http, owner, 'member');
    const created = await comment(member, testCase.ulid, 'Tpyo');
    const response = await t.http.patch(commentUrl(testCase.ulid, created.ulid)).set(member.headers).send({ body: 'Typo fixed' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ulid: created.ulid, body: 'Typo fixed', createdAt: created.createdAt });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);
    expect(bodies(await list(owner, testCase.ulid))).toEqual(['Typo fixed']);

    const events = await auditEvents(t.http, owner, { action: 'test_case.comment_updated' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityType: 'test_case',
      entityUlid: testCase.ulid,
      entityLabel: `${testCase.displayId} · ${testCase.title}`,
      metadata: { commentUlid: created.ulid, excerpt: 'Typo fixed' },
    });

    const same = await t.http.patch(commentUrl(testCase.ulid, created.ulid)).set(member.headers).send({ body: 'Typo fixed' });
    expect(same.status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'test_case.comment_updated' })).toHaveLength(1);
  });

  it('refuses everybody but the author with 403 (also owners and admins) and validates the body', async () => {
    const { owner, testCase } = await ownerWithCase();
    const author = await joinAs(t.http, owner, 'member');
    const admin = await joinAs(t.http, owner, 'admin');
    const otherMember = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const token = await tokenFor(t.http, author);
    const created = await comment(author, testCase.ulid, 'Original');
    for (const caller of [owner, admin, otherMember, viewer, token]) {
      const response = await t.http.patch(commentUrl(testCase.ulid, created.ulid)).set(caller.headers).send({ body: 'Hijacked' });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    for (const body of [{}, { body: '' }, { body: 'x', parentUlid: null }]) {
      const response = await t.http.patch(commentUrl(testCase.ulid, created.ulid)).set(author.headers).send(body);
      expect(response.status).toBe(422);
    }
    expect(bodies(await list(owner, testCase.ulid))).toEqual(['Original']);
    expect(await auditEvents(t.http, owner, { action: 'test_case.comment_updated' })).toEqual([]);
  });
});

describe('DELETE /api/v1/test-cases/{caseUlid}/comments/{commentUlid}', () => {
  it('deletes a comment with its replies: one test_case.comment_deleted per deleted comment', async () => {
    const { owner, testCase } = await ownerWithCase();
    const root = await comment(owner, testCase.ulid, `Root ${'r'.repeat(300)}`);
    const replyA = await comment(owner, testCase.ulid, 'Reply A', root.ulid);
    const replyB = await comment(owner, testCase.ulid, 'Reply B', root.ulid);
    const kept = await comment(owner, testCase.ulid, 'Kept');

    const response = await t.http.delete(commentUrl(testCase.ulid, root.ulid)).set(owner.headers);
    expect(response.status).toBe(204);
    expect(bodies(await list(owner, testCase.ulid))).toEqual(['Kept']);
    for (const gone of [root, replyA, replyB]) {
      expect((await t.http.patch(commentUrl(testCase.ulid, gone.ulid)).set(owner.headers).send({ body: 'x' })).status).toBe(404);
    }

    const events = await auditEvents(t.http, owner, { action: 'test_case.comment_deleted' });
    expect(events).toHaveLength(3);
    const byComment = new Map(events.map((event) => [event.metadata.commentUlid, event]));
    expect([...byComment.keys()].sort()).toEqual([root.ulid, replyA.ulid, replyB.ulid].sort());
    expect(byComment.get(root.ulid)!.metadata).toEqual({ commentUlid: root.ulid, excerpt: root.body.slice(0, 240), truncated: true });
    expect(byComment.get(replyB.ulid)!.metadata).toEqual({ commentUlid: replyB.ulid, excerpt: 'Reply B' });
    for (const event of events) {
      expect(event).toMatchObject({
        entityType: 'test_case',
        entityUlid: testCase.ulid,
        entityLabel: `${testCase.displayId} · ${testCase.title}`,
      });
    }

    // Deleting a reply deletes only that reply.
    const reply = await comment(owner, testCase.ulid, 'Reply to kept', kept.ulid);
    expect((await t.http.delete(commentUrl(testCase.ulid, reply.ulid)).set(owner.headers)).status).toBe(204);
    expect(bodies(await list(owner, testCase.ulid))).toEqual(['Kept']);
    expect(await auditEvents(t.http, owner, { action: 'test_case.comment_deleted' })).toHaveLength(4);
    expect((await t.http.delete(commentUrl(testCase.ulid, reply.ulid)).set(owner.headers)).status).toBe(404);
  });

  it('never loses a reply racing the deletion of its parent: it is either refused (404) or deleted with an event', async () => {
    const { owner, testCase } = await ownerWithCase();
    for (let round = 0; round < 3; round += 1) {
      const root = await comment(owner, testCase.ulid, `Root ${round}`);
      const [deleted, reply] = await Promise.all([
        t.http.delete(commentUrl(testCase.ulid, root.ulid)).set(owner.headers),
        post(owner, testCase.ulid, { body: `Racing reply ${round}`, parentUlid: root.ulid }),
      ]);
      expect(deleted.status).toBe(204);
      expect([201, 404]).toContain(reply.status);
      const events = (await auditEvents(t.http, owner, { action: 'test_case.comment_deleted' })).filter((event) =>
        [root.ulid, reply.body.ulid].includes(event.metadata.commentUlid as string),
      );
      expect(events).toHaveLength(reply.status === 201 ? 2 : 1);
    }
    expect((await list(owner, testCase.ulid)).total).toBe(0);
  });

  it('lets the author, an owner or an admin delete; another member and a viewer get 403', async () => {
    const { owner, testCase } = await ownerWithCase();
    const author = await joinAs(t.http, owner, 'member');
    const admin = await joinAs(t.http, owner, 'admin');
    const otherMember = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const [a, b, c] = [
      await comment(author, testCase.ulid, 'A'),
      await comment(author, testCase.ulid, 'B'),
      await comment(author, testCase.ulid, 'C'),
    ];
    for (const caller of [otherMember, viewer]) {
      const response = await t.http.delete(commentUrl(testCase.ulid, a.ulid)).set(caller.headers);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    expect((await list(owner, testCase.ulid)).total).toBe(3);
    expect(await auditEvents(t.http, owner, { action: 'test_case.comment_deleted' })).toEqual([]);
    expect((await t.http.delete(commentUrl(testCase.ulid, a.ulid)).set(author.headers)).status).toBe(204);
    expect((await t.http.delete(commentUrl(testCase.ulid, b.ulid)).set(admin.headers)).status).toBe(204);
    expect((await t.http.delete(commentUrl(testCase.ulid, c.ulid)).set(owner.headers)).status).toBe(204);
    expect((await list(owner, testCase.ulid)).total).toBe(0);
  });
});

describe('POST …/comments/{commentUlid}/pin and /unpin', () => {
  it('pins and unpins a top-level comment once each; repeating records nothing', async () => {
    const { owner, testCase } = await ownerWithCase();
    const member = await joinAs(t.http, owner, 'member');
    const created = await comment(owner, testCase.ulid, 'Important');

    const pinned = await t.http.post(commentUrl(testCase.ulid, created.ulid, 'pin')).set(member.headers);
    expect(pinned.status).toBe(200);
    expect(Object.keys(pinned.body).sort()).toEqual([...COMMENT_FIELDS].sort());
    expect(pinned.body.pinnedAt).toEqual(expect.any(Number));
    const again = await t.http.post(commentUrl(testCase.ulid, created.ulid, 'pin')).set(member.headers);
    expect(again.status).toBe(200);
    expect(again.body.pinnedAt).toBe(pinned.body.pinnedAt);

    const pins = await auditEvents(t.http, owner, { action: 'test_case.comment_pinned' });
    expect(pins).toHaveLength(1);
    expect(pins[0]).toMatchObject({
      entityType: 'test_case',
      entityUlid: testCase.ulid,
      entityLabel: `${testCase.displayId} · ${testCase.title}`,
    });
    expect(pins[0]!.metadata).toEqual({ commentUlid: created.ulid });

    const unpinned = await t.http.post(commentUrl(testCase.ulid, created.ulid, 'unpin')).set(member.headers);
    expect(unpinned.status).toBe(200);
    expect(unpinned.body.pinnedAt).toBeNull();
    expect((await t.http.post(commentUrl(testCase.ulid, created.ulid, 'unpin')).set(member.headers)).status).toBe(200);
    const unpins = await auditEvents(t.http, owner, { action: 'test_case.comment_unpinned' });
    expect(unpins).toHaveLength(1);
    expect(unpins[0]!.metadata).toEqual({ commentUlid: created.ulid });
  });

  it('answers 422 for a reply and 403 for a viewer, changing nothing', async () => {
    const { owner, testCase } = await ownerWithCase();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const root = await comment(owner, testCase.ulid, 'Root');
    const reply = await comment(owner, testCase.ulid, 'Reply', root.ulid);
    for (const action of ['pin', 'unpin']) {
      const response = await t.http.post(commentUrl(testCase.ulid, reply.ulid, action)).set(owner.headers);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(['commentUlid']);
      const refused = await t.http.post(commentUrl(testCase.ulid, root.ulid, action)).set(viewer.headers);
      expect(refused.status).toBe(403);
    }
    expect((await list(owner, testCase.ulid)).items.map((item) => item.pinnedAt)).toEqual([null, null]);
    expect(await auditEvents(t.http, owner, { action: 'test_case.comment_pinned' })).toEqual([]);
  });
});

describe('Comments: roles and tenancy', () => {
  it('lets a viewer read but not comment (403, nothing created)', async () => {
    const { owner, testCase } = await ownerWithCase();
    const viewer = await joinAs(t.http, owner, 'viewer');
    await comment(owner, testCase.ulid, 'Visible');
    const refused = await post(viewer, testCase.ulid, { body: 'Viewer speaks' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(bodies(await list(viewer, testCase.ulid))).toEqual(['Visible']);
  });

  it('answers 404 for another organization, for a comment addressed through another case and for a deleted case', async () => {
    const { owner, project, testCase } = await ownerWithCase();
    const stranger = await signUp(t.http);
    const other = await createCase(owner, project.id, 'Other');
    const created = await comment(owner, testCase.ulid, 'Private');
    for (const request of [
      t.http.get(commentsUrl(testCase.ulid)).set(stranger.headers),
      post(stranger, testCase.ulid, { body: 'Hi' }),
      t.http.patch(commentUrl(testCase.ulid, created.ulid)).set(stranger.headers).send({ body: 'x' }),
      t.http.delete(commentUrl(testCase.ulid, created.ulid)).set(stranger.headers),
      t.http.post(commentUrl(testCase.ulid, created.ulid, 'pin')).set(stranger.headers),
      t.http.patch(commentUrl(other.ulid, created.ulid)).set(owner.headers).send({ body: 'x' }),
      t.http.delete(commentUrl(other.ulid, created.ulid)).set(owner.headers),
      t.http.post(commentUrl(other.ulid, created.ulid, 'pin')).set(owner.headers),
      t.http.get(commentsUrl('not-a-ulid')).set(owner.headers),
    ]) {
      const response = await request;
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect(await list(owner, testCase.ulid)).toMatchObject({ total: 1, items: [{ body: 'Private', pinnedAt: null }] });

    expect((await t.http.delete(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await t.http.get(commentsUrl(testCase.ulid)).set(owner.headers)).status).toBe(404);
  });
});
