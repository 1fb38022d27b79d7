import type { Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { type Caller, createProject, projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

/** The contract's error envelope: JSON `{ error: { code, message (non-empty), details? } }`. */
function expectError(response: Response, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.text.trimStart().startsWith('<')).toBe(false);
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(response.body.error.code).toBe(code);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.trim()).not.toBe('');
  return response.body.error as { code: string; message: string; details?: Record<string, unknown> };
}

const countProjects = async (caller: Caller) => {
  const response = await t.http.get('/api/v1/projects').set(caller.headers);
  expect(response.status).toBe(200);
  return response.body.total as number;
};

describe('errors', () => {
  it('answers 404 not_found JSON for an unknown route under /api/v1, with or without credentials', async () => {
    const owner = await signUp(t.http);
    expectError(await t.http.get('/api/v1/no-such-route'), 404, 'not_found');
    expectError(await t.http.get('/api/v1/no-such-route').set(owner.headers), 404, 'not_found');
    expectError(await t.http.post('/api/v1/projects/ABC/no-such-action').set(owner.headers).send({}), 404, 'not_found');
    expectError(await t.http.get('/api/v1/no-such-route').set('Accept', 'text/html'), 404, 'not_found');
  });

  it('answers 404 not_found JSON, never HTML, for unversioned /api paths', async () => {
    const owner = await signUp(t.http);
    for (const path of ['/api/projects', '/api/health', '/api/v2/projects', '/api']) {
      expectError(await t.http.get(path), 404, 'not_found');
      expectError(await t.http.get(path).set('Accept', 'text/html'), 404, 'not_found');
    }
    expectError(await t.http.get('/api/projects').set(owner.headers), 404, 'not_found');
    expectError(await t.http.post('/api/projects').set(owner.headers).send({ name: 'Unversioned', id: projectCode() }), 404, 'not_found');
    expect(await countProjects(owner)).toBe(0);
    // The versioned health probe is the control: it exists.
    const health = await t.http.get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('answers 400 validation_failed JSON for a malformed JSON body and executes nothing', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    for (const caller of [owner, token]) {
      const response = await t.http
        .post('/api/v1/projects')
        .set(caller.headers)
        .set('Content-Type', 'application/json')
        .send('{"name": "Broken", "id": ');
      expectError(response, 400, 'validation_failed');
    }
    expect(await countProjects(owner)).toBe(0);
  });

  it('answers 422 validation_failed with details.path naming the offending field', async () => {
    const owner = await signUp(t.http);
    const badId = expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Lower', id: 'lower' }),
      422,
      'validation_failed',
    );
    expect(badId.details?.path).toEqual(['id']);

    const emptyName = expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: '', id: projectCode() }),
      422,
      'validation_failed',
    );
    expect(emptyName.details?.path).toEqual(['name']);

    const missingName = expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ id: projectCode() }),
      422,
      'validation_failed',
    );
    expect(missingName.details?.path).toEqual(['name']);

    const longDescription = expectError(
      await t.http
        .post('/api/v1/projects')
        .set(owner.headers)
        .send({ name: 'Long', id: projectCode(), description: 'x'.repeat(2001) }),
      422,
      'validation_failed',
    );
    expect(longDescription.details?.path).toEqual(['description']);

    const badQuery = expectError(await t.http.get('/api/v1/projects?pageSize=0').set(owner.headers), 422, 'validation_failed');
    expect(badQuery.details?.path).toEqual(['pageSize']);

    expect(await countProjects(owner)).toBe(0);
  });

  it('rejects an unknown key on a "no other keys" body (project create) with 422', async () => {
    const owner = await signUp(t.http);
    const code = projectCode();
    const error = expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Extra', id: code, color: 'red' }),
      422,
      'validation_failed',
    );
    expect(error.details?.path).toEqual(['color']);
    expect(await countProjects(owner)).toBe(0);
    // The same body without the unknown key is accepted.
    const accepted = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'Extra', id: code });
    expect(accepted.status).toBe(201);
  });

  it('answers 422 (not 500) for a string carrying the NUL character, which PostgreSQL cannot store', async () => {
    const owner = await signUp(t.http);
    const error = expectError(
      await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'bad\u0000name', id: projectCode() }),
      422,
      'validation_failed',
    );
    expect(error.details?.path).toEqual(['name']);
    expectError(await t.http.get('/api/v1/projects?q=a%00b').set(owner.headers), 422, 'validation_failed');
    expect(await countProjects(owner)).toBe(0);
  });

  it('answers 401 unauthorized without credentials or with an invalid token', async () => {
    expectError(await t.http.get('/api/v1/projects'), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/projects').send({ name: 'Anon', id: projectCode() }), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/auth/session'), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/projects').set('Authorization', 'Bearer tcms_not-a-real-token-at-all'), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/projects').set('Authorization', 'Basic dXNlcjpwYXNz'), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/projects').set('Cookie', 'tcms_session=forged'), 401, 'unauthorized');
  });

  it('gives every error body a non-empty message', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const taken = await createProject(t.http, owner);
    const responses: Array<[Response, number, string]> = [
      [await t.http.get('/api/v1/projects'), 401, 'unauthorized'],
      [await t.http.get('/api/v1/nowhere').set(token.headers), 404, 'not_found'],
      [await t.http.get('/api/v1/projects/NOSUCH').set(token.headers), 404, 'not_found'],
      [
        await t.http.post('/api/v1/projects').set(token.headers).set('Content-Type', 'application/json').send('{'),
        400,
        'validation_failed',
      ],
      [await t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', '').send({}), 400, 'validation_failed'],
      [await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'x' }), 422, 'validation_failed'],
      [await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'Dup', id: taken.id }), 409, 'conflict'],
      [await t.http.patch(`/api/v1/projects/${taken.id}`).set(token.headers).send({ id: 'OTHER' }), 422, 'immutable_field'],
      // A cookie-authenticated write without X-Organization-Id or Origin (CSRF defence).
      [
        await t.http
          .post('/api/v1/projects')
          .set('Cookie', owner.headers.Cookie as string)
          .send({ name: 'x', id: projectCode() }),
        403,
        'forbidden',
      ],
      [await t.http.get('/api/v1/me/api-tokens').set(token.headers), 401, 'unauthorized'],
    ];
    for (const [response, status, code] of responses) expectError(response, status, code);
  });
});

describe('page pagination on GET /api/v1/projects', () => {
  const SPECIAL = ['Alpha Web', 'mobile ALPHA', '100% done', 'snake_case', 'Gamma'];
  const FILLERS = 47;
  const TOTAL = FILLERS + SPECIAL.length;
  let owner: Caller;
  let created: Array<{ ulid: string; name: string }>;

  beforeAll(async () => {
    owner = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 100 });
    created = [];
    const names = [...Array.from({ length: FILLERS }, (_, i) => `Filler ${String(i).padStart(2, '0')}`), ...SPECIAL];
    for (const name of names) created.push(await createProject(t.http, owner, { name }));
  }, 120_000);

  const list = (query: string) => t.http.get(`/api/v1/projects${query}`).set(owner.headers);

  it('defaults to page 1 and pageSize 50, with the real total', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['items', 'page', 'pageSize', 'total']);
    expect(response.body.page).toBe(1);
    expect(response.body.pageSize).toBe(50);
    expect(response.body.total).toBe(TOTAL);
    expect(response.body.items).toHaveLength(50);
  });

  it('pages through every project exactly once', async () => {
    const first = await list('?page=1&pageSize=50');
    const second = await list('?page=2&pageSize=50');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ page: 2, pageSize: 50, total: TOTAL });
    expect(second.body.items).toHaveLength(TOTAL - 50);
    const seen = [...first.body.items, ...second.body.items].map((item: { ulid: string }) => item.ulid);
    expect(new Set(seen).size).toBe(TOTAL);
    expect([...seen].sort()).toEqual(created.map((p) => p.ulid).sort());

    const all = await list('?pageSize=200');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(TOTAL);
    const one = await list('?pageSize=1&page=3');
    expect(one.body.items).toHaveLength(1);
    expect(one.body.items[0].ulid).toBe(all.body.items[2].ulid);
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=201', 'pageSize'],
    ['pageSize=abc', 'pageSize'],
    ['pageSize=1.5', 'pageSize'],
    ['pageSize=-1', 'pageSize'],
    ['pageSize=', 'pageSize'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
  ])('answers 422 validation_failed for %s', async (query, field) => {
    const response = await list(`?${query}`);
    const error = expectError(response, 422, 'validation_failed');
    expect(error.details?.path).toEqual([field]);
  });

  it('answers a page past the end with 200, items [] and the real total', async () => {
    for (const query of ['?page=3', '?page=2&pageSize=200', '?page=999&pageSize=10']) {
      const response = await list(query);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([]);
      expect(response.body.total).toBe(TOTAL);
    }
  });

  it('filters with q as a case-insensitive substring reflected in total', async () => {
    for (const q of ['alpha', 'ALPHA', 'AlPhA']) {
      const response = await list(`?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(2);
      expect(response.body.items.map((p: { name: string }) => p.name).sort()).toEqual(['Alpha Web', 'mobile ALPHA']);
    }
    const middle = await list(`?q=${encodeURIComponent('HA w')}`);
    expect(middle.body.total).toBe(1);
    expect(middle.body.items[0].name).toBe('Alpha Web');

    // q applies before pagination.
    const firstPage = await list('?q=alpha&pageSize=1');
    const secondPage = await list('?q=alpha&pageSize=1&page=2');
    const thirdPage = await list('?q=alpha&pageSize=1&page=3');
    expect(firstPage.body.total).toBe(2);
    expect(firstPage.body.items).toHaveLength(1);
    expect(secondPage.body.total).toBe(2);
    expect(secondPage.body.items).toHaveLength(1);
    expect(secondPage.body.items[0].ulid).not.toBe(firstPage.body.items[0].ulid);
    expect(thirdPage.body).toMatchObject({ items: [], total: 2 });

    const fillers = await list('?q=filler&pageSize=10');
    expect(fillers.body.total).toBe(FILLERS);
    expect(fillers.body.items).toHaveLength(10);

    const none = await list('?q=nothing-matches-this');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ items: [], total: 0 });
  });

  it('treats LIKE wildcards in q as literal characters', async () => {
    const percent = await list(`?q=${encodeURIComponent('%')}`);
    expect(percent.status).toBe(200);
    expect(percent.body.items.map((p: { name: string }) => p.name)).toEqual(['100% done']);
    expect(percent.body.total).toBe(1);

    const underscore = await list(`?q=${encodeURIComponent('_')}`);
    expect(underscore.body.items.map((p: { name: string }) => p.name)).toEqual(['snake_case']);
    expect(underscore.body.total).toBe(1);

    const backslash = await list(`?q=${encodeURIComponent('\\')}`);
    expect(backslash.status).toBe(200);
    expect(backslash.body.total).toBe(0);
  });
});
