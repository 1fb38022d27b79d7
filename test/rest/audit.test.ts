import { describe, expect, it } from 'vitest';
import { clipSnapshot, SNAPSHOT_GRAPHEMES } from '../../src/foundation/audit/clip.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import {
  type AuditEventBody,
  type Caller,
  createProject,
  expectError,
  joinAs,
  projectCode,
  signUp,
  tokenFor,
  useTestApp,
} from '../support/app.ts';

const t = useTestApp();

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].length;

const auditPath = (caller: Caller, query = '') => `/api/v1/orgs/${caller.orgId}/audit-events${query}`;

async function auditPage(caller: Caller, query = '') {
  const response = await t.http.get(auditPath(caller, query)).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(Object.keys(response.body).sort()).toEqual(['events', 'nextCursor']);
  return response.body as { events: AuditEventBody[]; nextCursor: string | null };
}

/** Every event of the organization, newest first, following the cursor. */
async function allEvents(caller: Caller) {
  const events: AuditEventBody[] = [];
  let cursor: string | null = null;
  do {
    const page = await auditPage(caller, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    events.push(...page.events);
    cursor = page.nextCursor;
  } while (cursor);
  return events;
}

function expectNewestFirst(events: AuditEventBody[]) {
  for (let i = 1; i < events.length; i += 1) expect(events[i - 1]!.ulid > events[i]!.ulid).toBe(true);
}

/** Fixture: `count` events written straight to the table (oldest first), as other features would. */
async function seedEvents(caller: Caller, count: number) {
  const ids = Array.from({ length: count }, () => newId());
  await prisma().auditEvent.createMany({
    data: ids.map((id, i) => ({
      id,
      orgId: caller.orgId,
      action: 'fixture.seeded',
      actorKind: 'system',
      entityType: 'fixture',
      entityUlid: newId(),
      entityLabel: `fixture ${i}`,
      metadata: { index: i },
    })),
  });
  return ids;
}

describe('GET /api/v1/orgs/{orgUlid}/audit-events: envelope and paging', () => {
  it('lists newest first with a default limit of 50, caps limit at 100, and pages by cursor', async () => {
    const owner = await signUp(t.http);
    const seeded = await seedEvents(owner, 130);
    const everything = await allEvents(owner);
    expect(everything.length).toBeGreaterThanOrEqual(131);
    expectNewestFirst(everything);
    expect(new Set(everything.map((e) => e.ulid)).size).toBe(everything.length);
    expect(everything.slice(0, 130).map((e) => e.ulid)).toEqual([...seeded].reverse());
    expect(everything.at(-1)!.action).toBe('organization.created');

    const firstPage = await auditPage(owner);
    expect(firstPage.events).toHaveLength(50);
    expect(firstPage.events.map((e) => e.ulid)).toEqual(everything.slice(0, 50).map((e) => e.ulid));
    expect(firstPage.nextCursor).toBe(firstPage.events[49]!.ulid);

    const capped = await auditPage(owner, '?limit=500');
    expect(capped.events).toHaveLength(100);
    expect(capped.nextCursor).toBe(capped.events[99]!.ulid);

    const secondPage = await auditPage(owner, `?cursor=${firstPage.nextCursor}`);
    expect(secondPage.events.map((e) => e.ulid)).toEqual(everything.slice(50, 100).map((e) => e.ulid));

    // Paging with limit 50 visits every event once; the last page has nextCursor null.
    const visited: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await auditPage(owner, `?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      pages += 1;
      visited.push(...page.events.map((e) => e.ulid));
      if (page.nextCursor !== null) expect(page.nextCursor).toBe(page.events.at(-1)!.ulid);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toBe(Math.ceil(everything.length / 50));
    expect(visited).toEqual(everything.map((e) => e.ulid));
  });

  it('returns exactly the events with a ULID below the cursor, even for a cursor that is no event', async () => {
    const owner = await signUp(t.http);
    const seeded = await seedEvents(owner, 20);
    const everything = await allEvents(owner);

    const cursor = seeded[10]!;
    const below = await auditPage(owner, `?cursor=${cursor}&limit=100`);
    expect(below.events.map((e) => e.ulid)).toEqual(everything.filter((e) => e.ulid < cursor).map((e) => e.ulid));
    expect(below.events.every((e) => e.ulid < cursor)).toBe(true);
    expect(below.nextCursor).toBeNull();

    // ULIDs that name no event: the largest possible one, and one older than every event.
    const top = await auditPage(owner, '?cursor=7ZZZZZZZZZZZZZZZZZZZZZZZZZ&limit=100');
    expect(top.events.map((e) => e.ulid)).toEqual(everything.map((e) => e.ulid));
    expect(await auditPage(owner, '?cursor=00000000000000000000000000')).toEqual({ events: [], nextCursor: null });

    const oldest = everything.at(-1)!.ulid;
    expect(await auditPage(owner, `?cursor=${oldest}`)).toEqual({ events: [], nextCursor: null });
  });

  it('answers nextCursor null when the page ends exactly at the last event', async () => {
    const owner = await signUp(t.http);
    await seedEvents(owner, 4);
    const everything = await allEvents(owner);
    const total = everything.length;

    const exact = await auditPage(owner, `?limit=${total}`);
    expect(exact.events).toHaveLength(total);
    expect(exact.nextCursor).toBeNull();

    const short = await auditPage(owner, `?limit=${total - 1}`);
    expect(short.events).toHaveLength(total - 1);
    expect(short.nextCursor).toBe(everything[total - 2]!.ulid);
    const rest = await auditPage(owner, `?limit=${total - 1}&cursor=${short.nextCursor}`);
    expect(rest.events.map((e) => e.ulid)).toEqual([everything[total - 1]!.ulid]);
    expect(rest.nextCursor).toBeNull();
  });

  it.each(['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'cursor=not-a-ulid'])('answers 422 validation_failed for %s', async (query) => {
    const owner = await signUp(t.http);
    expectError(await t.http.get(auditPath(owner, `?${query}`)).set(owner.headers), 422, 'validation_failed');
  });

  it('is for owners and admins of the organization only, and shows no other organization', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    await createProject(t.http, stranger, { name: 'Not yours' });

    expect((await t.http.get(auditPath(owner)).set(admin.headers)).status).toBe(200);
    expectError(await t.http.get(auditPath(owner)).set(member.headers), 403, 'forbidden');
    expectError(await t.http.get(auditPath(owner)).set(viewer.headers), 403, 'forbidden');
    expectError(await t.http.get(auditPath(owner)).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.get(auditPath(owner)), 401, 'unauthorized');

    const mine = await allEvents(owner);
    const theirs = await allEvents(stranger);
    expect(theirs.some((e) => e.action === 'project.created')).toBe(true);
    const theirIds = new Set(theirs.map((e) => e.ulid));
    expect(mine.some((e) => theirIds.has(e.ulid))).toBe(false);
    expect(mine.some((e) => e.entityLabel === 'Not yours')).toBe(false);
  });
});

describe('AuditEventOut and actors', () => {
  it('records project.created with the AuditEventOut shape and a user actor for a session', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace' });
    const before = Date.now();
    const project = await createProject(t.http, owner, { name: 'Engine' });
    const after = Date.now();

    const event = (await allEvents(owner)).find((e) => e.action === 'project.created');
    expect(event).toBeDefined();
    expect(Object.keys(event!).sort()).toEqual(
      ['action', 'actor', 'createdAt', 'entityLabel', 'entityType', 'entityUlid', 'metadata', 'runUlid', 'ulid'].sort(),
    );
    expect(event!.ulid).toMatch(ULID);
    expect(event!.actor).toEqual({ kind: 'user', ulid: owner.userId, email: owner.email, displayName: 'Ada Lovelace' });
    expect(event!.entityType).toBe('project');
    expect(event!.entityUlid).toBe(project.ulid);
    expect(event!.entityLabel).toBe('Engine');
    expect(event!.runUlid).toBeNull();
    expect(typeof event!.metadata).toBe('object');
    expect(Array.isArray(event!.metadata)).toBe(false);
    expect(Number.isInteger(event!.createdAt)).toBe(true);
    expect(event!.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(event!.createdAt).toBeLessThanOrEqual(after + 1000);
  });

  it('records an api_token actor for a token, and keeps the event with a null reference after the token is deleted', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner, { name: 'deploy bot' });
    const project = await createProject(t.http, token, { name: 'By token' });

    const find = async () => (await allEvents(owner)).find((e) => e.action === 'project.created' && e.entityUlid === project.ulid);
    const event = await find();
    expect(event?.actor).toEqual({ kind: 'api_token', ulid: token.tokenUlid, name: 'deploy bot' });

    // The token listing route works with a token too (the admin-role token may read the log).
    const viaToken = await t.http.get(auditPath(owner)).set(token.headers);
    expect(viaToken.status).toBe(200);

    await prisma().apiToken.delete({ where: { id: token.tokenUlid } });
    const after = await find();
    expect(after).toBeDefined();
    expect(after!.ulid).toBe(event!.ulid);
    expect(after!.actor).toEqual({ kind: 'api_token', ulid: null, name: 'deploy bot' });
    expect(after!.entityLabel).toBe('By token');
  });

  it('is append-only: raw UPDATE and DELETE of events are refused by the database', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner);
    const before = await allEvents(owner);
    expect(before.length).toBeGreaterThan(0);

    await expect(prisma().$executeRawUnsafe(`UPDATE audit_events SET action = 'x' WHERE org_id = $1`, owner.orgId)).rejects.toThrow();
    await expect(prisma().$executeRawUnsafe(`DELETE FROM audit_events WHERE org_id = $1`, owner.orgId)).rejects.toThrow();
    await expect(
      prisma().$executeRawUnsafe(`UPDATE audit_events SET metadata = '{}'::jsonb, entity_label = 'forged' WHERE org_id = $1`, owner.orgId),
    ).rejects.toThrow();

    expect(await allEvents(owner)).toEqual(before);
  });
});

describe('audit snapshots and refused mutations', () => {
  it('clips a string snapshot over 240 graphemes and marks the change truncated', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const thumb = '👍🏽'; // one grapheme, four UTF-16 code units
    const long = thumb.repeat(300);

    const patched = await t.http.patch(`/api/v1/projects/${project.id}`).set(owner.headers).send({ description: long });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBe(long);

    const updates = () => allEvents(owner).then((events) => events.filter((e) => e.action === 'project.updated'));
    const [event] = await updates();
    const changes = event!.metadata.changes as Array<Record<string, unknown>>;
    const entry = changes.find((c) => c.field === 'description');
    expect(entry).toBeDefined();
    expect(entry!.from).toBeNull();
    expect(graphemes(entry!.to as string)).toBe(240);
    expect(entry!.to).toBe(thumb.repeat(240));
    expect(entry!.truncated).toBe(true);

    // The clipped side may be the old value.
    await t.http.patch(`/api/v1/projects/${project.id}`).set(owner.headers).send({ description: 'short' }).expect(200);
    const newest = (await updates())[0]!;
    const back = (newest.metadata.changes as Array<Record<string, unknown>>).find((c) => c.field === 'description');
    expect(back).toEqual({ field: 'description', from: thumb.repeat(240), to: 'short', truncated: true });

    // A change within the limit is not marked.
    await t.http
      .patch(`/api/v1/projects/${project.id}`)
      .set(owner.headers)
      .send({ description: thumb.repeat(240) })
      .expect(200);
    const exact = (await updates())[0]!;
    const whole = (exact.metadata.changes as Array<Record<string, unknown>>).find((c) => c.field === 'description');
    expect(whole).toEqual({ field: 'description', from: 'short', to: thumb.repeat(240) });
  });

  it('writes no event for a refused mutation', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const member = await joinAs(t.http, owner, 'member');
    const taken = await createProject(t.http, owner, { name: 'Taken' });
    const before = await allEvents(owner);

    expectError(await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Copy', id: taken.id }), 409, 'conflict');
    expectError(await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'Copy', id: taken.id }), 409, 'conflict');
    expectError(await t.http.post('/api/v1/projects').set(owner.headers).send({ name: '', id: projectCode() }), 422, 'validation_failed');
    expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Extra', id: projectCode(), extra: true }),
      422,
      'validation_failed',
    );
    expectError(await t.http.patch(`/api/v1/projects/${taken.id}`).set(owner.headers).send({ id: 'NEWID' }), 422, 'immutable_field');
    expectError(await t.http.patch(`/api/v1/projects/${taken.id}`).set(owner.headers).send({}), 422, 'validation_failed');
    expectError(
      await t.http
        .patch(`/api/v1/projects/${taken.id}`)
        .set(owner.headers)
        .send({ description: 'x'.repeat(2001) }),
      422,
      'validation_failed',
    );
    expectError(await t.http.post('/api/v1/projects').set(member.headers).send({ name: 'Nope', id: projectCode() }), 403, 'forbidden');
    expectError(await t.http.delete(`/api/v1/projects/${taken.id}`).set(member.headers), 403, 'forbidden');

    expect(await allEvents(owner)).toEqual(before);

    // Over the free plan's three projects: 409 project_limit_exceeded, and still no event.
    await createProject(t.http, owner);
    await createProject(t.http, owner);
    const full = await allEvents(owner);
    expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Fourth', id: projectCode() }),
      409,
      'project_limit_exceeded',
    );
    expect(await allEvents(owner)).toEqual(full);
  });
});

describe('clipSnapshot', () => {
  it('counts a combining sequence as one grapheme and never splits it', () => {
    const accented = 'e\u0301'; // "é" as e + COMBINING ACUTE ACCENT: two code units, one grapheme
    const clipped = clipSnapshot(accented.repeat(300));
    expect(clipped.truncated).toBe(true);
    expect(clipped.text).toBe(accented.repeat(SNAPSHOT_GRAPHEMES));
    expect(graphemes(clipped.text)).toBe(240);
    expect(clipped.text.length).toBe(480);
    expect(clipped.text.endsWith('\u0301')).toBe(true);
  });

  it('keeps exactly 240 graphemes untouched, clips 241', () => {
    const accented = 'a\u0308\u0323'; // a + two combining marks
    expect(clipSnapshot(accented.repeat(240))).toEqual({ text: accented.repeat(240), truncated: false });
    expect(clipSnapshot(accented.repeat(241))).toEqual({ text: accented.repeat(240), truncated: true });
    expect(clipSnapshot('x'.repeat(240))).toEqual({ text: 'x'.repeat(240), truncated: false });
    expect(clipSnapshot('x'.repeat(241))).toEqual({ text: 'x'.repeat(240), truncated: true });
  });

  it('treats emoji ZWJ sequences and modifiers as single graphemes', () => {
    const family = '👩‍👩‍👧‍👦';
    const clipped = clipSnapshot(`${'ab'.repeat(100)}${family.repeat(50)}`);
    expect(clipped.truncated).toBe(true);
    expect(clipped.text).toBe(`${'ab'.repeat(100)}${family.repeat(40)}`);
    expect(graphemes(clipped.text)).toBe(240);
  });
});
