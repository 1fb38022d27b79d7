import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, createProject, joinAs, projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

const HOUR_MS = 60 * 60 * 1000;
const newKey = () => `key-${newId()}`;

function expectError(response: Response, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body.error.code).toBe(code);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.trim()).not.toBe('');
  return response.body.error as { code: string; message: string; details?: Record<string, unknown> };
}

const replayed = (response: Response) => response.headers['idempotency-replayed'];

/** Projects visible to `caller` in its organization. */
async function projectList(caller: Caller) {
  const response = await t.http.get('/api/v1/projects?pageSize=200').set(caller.headers);
  expect(response.status).toBe(200);
  return response.body.items as Array<{ ulid: string; id: string; name: string; description: string | null }>;
}

describe('Idempotency-Key replay', () => {
  it('replays a POST with the same status and body, flagged, without executing it again', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const key = newKey();
    const body = { name: 'Checkout', id: projectCode(), description: 'first' };

    const first = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeUndefined();

    const second = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(second.status).toBe(201);
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(replayed(second)).toBe('true');
    expect(second.body).toEqual(first.body);

    // The body is compared as JSON: key order does not make it another request.
    const reordered = { description: 'first', id: body.id, name: 'Checkout' };
    const third = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(reordered);
    expect(third.status).toBe(201);
    expect(replayed(third)).toBe('true');
    expect(third.body).toEqual(first.body);

    const projects = await projectList(owner);
    expect(projects.map((p) => p.ulid)).toEqual([first.body.ulid]);
    expect(await auditEvents(t.http, owner, { action: 'project.created' })).toHaveLength(1);
  });

  it('replays a session PATCH from the stored response even after the resource changed', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const key = newKey();
    const path = `/api/v1/projects/${project.id}`;

    const first = await t.http.patch(path).set(owner.headers).set('Idempotency-Key', key).send({ description: 'one' });
    expect(first.status).toBe(200);
    expect(first.body.description).toBe('one');
    expect(replayed(first)).toBeUndefined();

    const other = await t.http.patch(path).set(owner.headers).send({ description: 'two' });
    expect(other.status).toBe(200);

    const retry = await t.http.patch(path).set(owner.headers).set('Idempotency-Key', key).send({ description: 'one' });
    expect(retry.status).toBe(200);
    expect(replayed(retry)).toBe('true');
    expect(retry.body).toEqual(first.body);

    const current = await t.http.get(path).set(owner.headers);
    expect(current.body.description).toBe('two');
    expect(await auditEvents(t.http, owner, { action: 'project.updated' })).toHaveLength(2);
  });

  it('replays a DELETE (204) instead of answering 404 the second time', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const project = await createProject(t.http, token);
    const key = newKey();

    const first = await t.http.delete(`/api/v1/projects/${project.id}`).set(token.headers).set('Idempotency-Key', key);
    expect(first.status).toBe(204);
    const second = await t.http.delete(`/api/v1/projects/${project.id}`).set(token.headers).set('Idempotency-Key', key);
    expect(second.status).toBe(204);
    expect(replayed(second)).toBe('true');
    expect(second.text).toBe('');

    // Without the key, the same DELETE executes and finds nothing.
    expectError(await t.http.delete(`/api/v1/projects/${project.id}`).set(token.headers), 404, 'not_found');
    expect(await auditEvents(t.http, owner, { action: 'project.deleted' })).toHaveLength(1);
  });
});

describe('Idempotency-Key reuse for another request', () => {
  it('answers 422 for the same key with a different body, path or method, and executes none of them', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const a = await createProject(t.http, token, { name: 'A' });
    const b = await createProject(t.http, token, { name: 'B' });
    const key = newKey();

    const original = await t.http
      .patch(`/api/v1/projects/${a.id}`)
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ description: 'original' });
    expect(original.status).toBe(200);

    const otherBody = await t.http
      .patch(`/api/v1/projects/${a.id}`)
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ description: 'changed' });
    expectError(otherBody, 422, 'validation_failed');
    expect(replayed(otherBody)).toBeUndefined();

    const otherPath = await t.http
      .patch(`/api/v1/projects/${b.id}`)
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ description: 'original' });
    expectError(otherPath, 422, 'validation_failed');

    const otherMethod = await t.http.delete(`/api/v1/projects/${a.id}`).set(token.headers).set('Idempotency-Key', key);
    expectError(otherMethod, 422, 'validation_failed');

    const otherCreate = await t.http
      .post('/api/v1/projects')
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ name: 'C', id: projectCode() });
    expectError(otherCreate, 422, 'validation_failed');

    const projects = await projectList(owner);
    expect(projects.map((p) => [p.id, p.description])).toEqual([
      [a.id, 'original'],
      [b.id, null],
    ]);
    expect(await auditEvents(t.http, owner, { action: 'project.updated' })).toHaveLength(1);
    expect(await auditEvents(t.http, owner, { action: 'project.deleted' })).toHaveLength(0);
    expect(await auditEvents(t.http, owner, { action: 'project.created' })).toHaveLength(2);

    // The original request still replays.
    const retry = await t.http
      .patch(`/api/v1/projects/${a.id}`)
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ description: 'original' });
    expect(retry.status).toBe(200);
    expect(replayed(retry)).toBe('true');
  });
});

describe('Idempotency-Key format', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a non-ASCII letter', 'caf\u00e9'],
    ['a tab', 'tab\there'],
  ])('answers 400 JSON for a key with %s and executes nothing', async (_label, key) => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const create = await t.http
      .post('/api/v1/projects')
      .set(token.headers)
      .set('Idempotency-Key', key)
      .send({ name: 'Bad key', id: projectCode() });
    expectError(create, 400, 'validation_failed');
    expect(await projectList(owner)).toEqual([]);

    const project = await createProject(t.http, token);
    const remove = await t.http.delete(`/api/v1/projects/${project.id}`).set(token.headers).set('Idempotency-Key', key);
    expectError(remove, 400, 'validation_failed');
    const patch = await t.http
      .patch(`/api/v1/projects/${project.id}`)
      .set(owner.headers)
      .set('Idempotency-Key', key)
      .send({ name: 'Renamed' });
    expectError(patch, 400, 'validation_failed');
    expect((await projectList(owner)).map((p) => p.name)).toEqual(['Project']);
  });

  it('accepts 255 visible ASCII characters, the whole printable range included', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    for (const key of ['k'.repeat(255), printable, 'x']) {
      const body = { name: 'Good key', id: projectCode() };
      const first = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
      expect(first.status).toBe(201);
      const second = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
      expect(second.status).toBe(201);
      expect(replayed(second)).toBe('true');
      await t.http.delete(`/api/v1/projects/${body.id}`).set(token.headers).expect(204);
    }
  });
});

describe('Idempotency-Key on safe methods', () => {
  it('ignores the header on GET: neither validated nor replayed', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const invalid = await t.http.get('/api/v1/projects').set(token.headers).set('Idempotency-Key', 'not visible ascii');
    expect(invalid.status).toBe(200);
    const key = newKey();
    const before = await t.http.get('/api/v1/projects').set(token.headers).set('Idempotency-Key', key);
    expect(before.body.total).toBe(0);
    await createProject(t.http, token);
    const after = await t.http.get('/api/v1/projects').set(token.headers).set('Idempotency-Key', key);
    expect(after.status).toBe(200);
    expect(replayed(after)).toBeUndefined();
    expect(after.body.total).toBe(1);
  });
});

describe('Idempotency-Key in flight', () => {
  it('lets exactly one of several concurrent identical requests execute', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const key = newKey();
    const body = { name: 'Concurrent', id: projectCode() };
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body)),
    );
    const executed = responses.filter((r) => r.status === 201 && replayed(r) === undefined);
    expect(executed).toHaveLength(1);
    for (const response of responses) {
      if (response === executed[0]) continue;
      if (response.status === 409) {
        expectError(response, 409, 'conflict');
        expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      } else {
        expect(response.status).toBe(201);
        expect(replayed(response)).toBe('true');
        expect(response.body).toEqual(executed[0]!.body);
      }
    }
    expect((await projectList(owner)).map((p) => p.ulid)).toEqual([executed[0]!.body.ulid]);
    expect(await auditEvents(t.http, owner, { action: 'project.created' })).toHaveLength(1);
  });
});

describe('Idempotency-Key scope and lifetime', () => {
  it('scopes keys per caller: another user with the same key and request executes normally', async () => {
    const alice = await signUp(t.http);
    const aliceToken = await tokenFor(t.http, alice);
    const bob = await signUp(t.http);
    const bobToken = await tokenFor(t.http, bob);
    const key = newKey();
    const body = { name: 'Shared key', id: projectCode() };

    const mine = await t.http.post('/api/v1/projects').set(aliceToken.headers).set('Idempotency-Key', key).send(body);
    expect(mine.status).toBe(201);
    const theirs = await t.http.post('/api/v1/projects').set(bobToken.headers).set('Idempotency-Key', key).send(body);
    expect(theirs.status).toBe(201);
    expect(replayed(theirs)).toBeUndefined();
    expect(theirs.body.ulid).not.toBe(mine.body.ulid);
    expect((await projectList(bob)).map((p) => p.ulid)).toEqual([theirs.body.ulid]);
    expect((await projectList(alice)).map((p) => p.ulid)).toEqual([mine.body.ulid]);

    // A colleague in the same organization executes too (and meets the duplicate project id).
    const colleague = await joinAs(t.http, alice, 'admin');
    const again = await t.http.post('/api/v1/projects').set(colleague.headers).set('Idempotency-Key', key).send(body);
    expectError(again, 409, 'conflict');
    expect(replayed(again)).toBeUndefined();
  });

  it('keeps a key 24 hours; afterwards the same key executes again', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const key = newKey();
    const body = { name: 'Yesterday', id: projectCode() };
    const first = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(first.status).toBe(201);

    await prisma().idempotencyKey.updateMany({ where: { key }, data: { createdAt: new Date(Date.now() - 23 * HOUR_MS) } });
    const withinDay = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(withinDay.status).toBe(201);
    expect(replayed(withinDay)).toBe('true');
    expect(withinDay.body).toEqual(first.body);

    await t.http.delete(`/api/v1/projects/${body.id}`).set(token.headers).expect(204);
    await prisma().idempotencyKey.updateMany({
      where: { key },
      data: { createdAt: new Date(Date.now() - 24 * HOUR_MS - 60_000) },
    });
    const nextDay = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(nextDay.status).toBe(201);
    expect(replayed(nextDay)).toBeUndefined();
    expect(nextDay.body.ulid).not.toBe(first.body.ulid);
    expect((await projectList(owner)).map((p) => p.ulid)).toEqual([nextDay.body.ulid]);
    expect(await auditEvents(t.http, owner, { action: 'project.created' })).toHaveLength(2);

    // The fresh execution is what the key replays from now on.
    const replay = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(replay.status).toBe(201);
    expect(replayed(replay)).toBe('true');
    expect(replay.body.ulid).toBe(nextDay.body.ulid);
  });

  it('does not store a 5xx answer: the retry executes', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const key = newKey();
    const body = { name: 'Fails once', id: projectCode() };
    // A real database failure, confined to this test's project code.
    const fn = `tcms_test_fail_${body.id.toLowerCase()}`;
    await prisma().$executeRawUnsafe(
      `CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END; $$`,
    );
    try {
      await prisma().$executeRawUnsafe(
        `CREATE TRIGGER "${fn}" BEFORE INSERT ON "projects" FOR EACH ROW WHEN (NEW."code" = '${body.id}') EXECUTE FUNCTION "${fn}"()`,
      );
      const failed = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
      expectError(failed, 500, 'internal_error');
      expect(await prisma().idempotencyKey.findFirst({ where: { key } })).toBeNull();
    } finally {
      await prisma().$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${fn}" ON "projects"`);
      await prisma().$executeRawUnsafe(`DROP FUNCTION IF EXISTS "${fn}"()`);
    }
    const retry = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBeUndefined();
    expect((await projectList(owner)).map((p) => p.ulid)).toEqual([retry.body.ulid]);
    expect(await auditEvents(t.http, owner, { action: 'project.created' })).toHaveLength(1);
  });

  it('does not store a request refused by the rate limit: the retry executes', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 0 });
    const key = newKey();
    const body = { name: 'Throttled', id: projectCode() };
    const refused = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expectError(refused, 429, 'too_many_requests');

    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1000 });
    const retry = await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', key).send(body);
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBeUndefined();
    expect((await projectList(owner)).map((p) => p.id)).toEqual([body.id]);
  });
});
