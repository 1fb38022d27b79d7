import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_VALUES } from '../../rest/router.ts';
import { MAX_NESTING_DEPTH } from '../../src/kernel/validation.ts';
import { type Caller, createProject, expectError, projectCode, signUp, useTestApp } from '../support/app.ts';
import { createCase, createPlan } from '../support/runs.ts';

/** The reproducers of the hostile-input issue, each replayed: every one answers a 4xx envelope. */
const t = useTestApp();

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A raw body, sent byte for byte: supertest would serialize a Buffer as JSON (the serializer is typed for strings, and passes Buffers through). */
const postRaw = (path: string, caller: Caller | undefined, body: string | Buffer, headers: Record<string, string> = {}) =>
  t.http
    .post(path)
    .set(caller?.headers ?? {})
    .set({ 'Content-Type': 'application/json', ...headers })
    .serialize((raw: string) => raw)
    .send(body);

const expectPath = (response: Response, path: unknown[]) => expect(response.body.error.details.path).toEqual(path);

describe('hostile input: deeply nested JSON', () => {
  it('answers 422 without parsing a body nested deeper than the limit, also unauthenticated through signup and login', async () => {
    const deep = `{"email":${nested(100_000)}}`;
    for (const path of ['/api/v1/auth/signup', '/api/v1/auth/login']) {
      const started = performance.now();
      const response = await postRaw(path, undefined, deep);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.message).toContain(`deeper than ${MAX_NESTING_DEPTH} levels`);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const owner = await signUp(t.http);
    expectError(await postRaw('/api/v1/projects', owner, `{"name":${nested(MAX_NESTING_DEPTH + 1)}}`), 422, 'validation_failed');
  });

  it('counts only brackets outside strings, so a body at the limit is read', async () => {
    const owner = await signUp(t.http);
    // The name holds brackets and an escaped quote; the body itself nests exactly to the limit.
    const atLimit = `{"name":"[[[\\"{{{","id":"${projectCode()}","description":${nested(MAX_NESTING_DEPTH - 1)}}`;
    const response = await postRaw('/api/v1/projects', owner, atLimit);
    expectError(response, 422, 'validation_failed');
    expectPath(response, ['description']);
    expect(response.body.error.message).not.toContain('deeper');
  });
});

describe('hostile input: malformed percent-encoding in a path', () => {
  it('answers 400 malformed_path for /api/v1 routes and public assets', async () => {
    const owner = await signUp(t.http);
    for (const path of ['/api/v1/projects/%FF', '/api/v1/runs/%E0%A4%A', '/api/v1/projects/%ED%A0%80', '/__assets/avatars/%FF']) {
      const response = await t.http.get(path).set(owner.headers);
      expectError(response, 400, 'validation_failed');
      expect(response.body.error.details.code).toBe('malformed_path');
    }
  });

  it('answers 422 naming the parameter for a path that decodes to a NUL character', async () => {
    const owner = await signUp(t.http);
    const response = await t.http.get('/api/v1/projects/AB%00').set(owner.headers);
    expectError(response, 422, 'validation_failed');
    expectPath(response, ['projectId']);
    expect(response.body.error.details.location).toBe('params');
  });
});

describe('hostile input: body encodings', () => {
  it('answers 400 for a body that does not inflate under its Content-Encoding (gzip, deflate, br)', async () => {
    const owner = await signUp(t.http);
    const plain = JSON.stringify({ name: 'Plain', id: projectCode() });
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await postRaw('/api/v1/projects', owner, plain, { 'Content-Encoding': encoding });
      expectError(response, 400, 'validation_failed');
      expect(response.body.error.details.code).toBe('malformed_json');
    }
  });

  it('reads a body that is compressed as it claims', async () => {
    const owner = await signUp(t.http);
    const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, compress] of Object.entries(compressors)) {
      const code = projectCode();
      const response = await postRaw('/api/v1/projects', owner, compress(JSON.stringify({ name: encoding, id: code })), {
        'Content-Encoding': encoding,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.id).toBe(code);
    }
  });

  it('answers 415 for an unknown Content-Encoding and for a charset other than UTF-8', async () => {
    const owner = await signUp(t.http);
    const body = JSON.stringify({ name: 'Charset', id: projectCode() });
    expectError(await postRaw('/api/v1/projects', owner, body, { 'Content-Encoding': 'compress' }), 415, 'unsupported_media_type');
    for (const charset of ['latin1', 'utf-16le', 'utf-32', 'nonsense']) {
      const response = await postRaw('/api/v1/projects', owner, body, { 'Content-Type': `application/json; charset=${charset}` });
      expectError(response, 415, 'unsupported_media_type');
    }
  });

  it('answers 400 for a body that is not JSON, and reads invalid UTF-8 as replacement characters', async () => {
    const owner = await signUp(t.http);
    const truncated = await postRaw('/api/v1/projects', owner, '{"name":"Trunc');
    expectError(truncated, 400, 'validation_failed');
    expect(truncated.body.error.details.code).toBe('malformed_json');
    const invalidUtf8 = Buffer.concat([
      Buffer.from(`{"id":"${projectCode()}","name":"a`),
      Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]);
    const response = await postRaw('/api/v1/projects', owner, invalidUtf8);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.name).toMatch(/^a\uFFFD+$/);
  });
});

describe('hostile input: strings the database cannot store', () => {
  it('answers 422 naming the field for a lone surrogate in a PATCH (the audit insert used to fail)', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    for (const surrogate of ['\\ud800', '\\udfff', 'x\\ud83d']) {
      const response = await t.http
        .patch(`/api/v1/projects/${project.id}`)
        .set(owner.headers)
        .set('Content-Type', 'application/json')
        .send(`{"name":"a${surrogate}"}`);
      expectError(response, 422, 'validation_failed');
      expectPath(response, ['name']);
    }
    // A surrogate pair is one well-formed character.
    const emoji = await t.http.patch(`/api/v1/projects/${project.id}`).set(owner.headers).send({ name: 'launch \ud83d\ude80' });
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(200);
    expect(emoji.body.name).toBe('launch \u{1F680}');
  });

  it('answers 422 naming the nested field, for NUL characters and lone surrogates in strings and in keys of free-form values', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const testCase = await createCase(t.http, owner, project.id);
    const steps = await t.http
      .put(`/api/v1/test-cases/${testCase.ulid}/steps`)
      .set(owner.headers)
      .send({ steps: [{ action: 'fine' }, { action: 'bad\u0000step' }] });
    expectError(steps, 422, 'validation_failed');
    expectPath(steps, ['steps', 1, 'action']);

    const field = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/custom-fields`)
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const valuePath = `/api/v1/test-cases/${testCase.ulid}/custom-field-values/${field.body.field.ulid}`;
    const badKey = await t.http
      .patch(valuePath)
      .set(owner.headers)
      .set('Content-Type', 'application/json')
      .send('{"value":{"ok":1,"\\ud800":2}}');
    expectError(badKey, 422, 'validation_failed');
    expectPath(badKey, ['value', '\ud800']);
    const deepValue = await t.http
      .patch(valuePath)
      .set(owner.headers)
      .send({ value: { a: [[{ b: 'x\u0000' }]] } });
    expectError(deepValue, 422, 'validation_failed');
    expectPath(deepValue, ['value', 'a', 0, 0, 'b']);
  });
});

describe('hostile input: oversize arrays', () => {
  it('answers a 2 MB body holding a million-element array with a small 413 before parsing it, fast', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const plan = await createPlan(t.http, owner, project.id);
    const body = `{"caseUlids":[${new Array(1_000_000).fill('0').join(',')}]}`;
    expect(body.length).toBeGreaterThan(2_000_000);
    const started = performance.now();
    const response = await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .set('Content-Type', 'application/json')
      .send(body);
    const elapsed = performance.now() - started;
    expectError(response, 413, 'validation_failed');
    expect(response.body.error.details.code).toBe('body_too_large');
    expect(response.body.error.message).toContain(`more than ${MAX_BODY_VALUES} values`);
    expect(response.text.length).toBeLessThan(4096);
    expect(elapsed).toBeLessThan(3000);
  });

  it("answers an array of fewer values than that but over its schema's max with a small 422, fast (zod checks the max before the items)", async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const plan = await createPlan(t.http, owner, project.id);
    const body = `{"caseUlids":[${new Array(MAX_BODY_VALUES - 10).fill('0').join(',')}]}`;
    const started = performance.now();
    const response = await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .set('Content-Type', 'application/json')
      .send(body);
    const elapsed = performance.now() - started;
    expectError(response, 422, 'validation_failed');
    expectPath(response, ['caseUlids']);
    expect(response.text.length).toBeLessThan(4096);
    expect(elapsed).toBeLessThan(3000);
  });

  it('bounds a 422 that lists many issues: at most 100, with the count', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const plan = await createPlan(t.http, owner, project.id);
    const response = await t.http
      .put(`/api/v1/plans/${plan.ulid}/cases`)
      .set(owner.headers)
      .send({ caseUlids: new Array(5000).fill(0).map((_, index) => index) });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.issues).toHaveLength(100);
    expect(response.body.error.details.issueCount).toBeGreaterThan(100);
    expect(response.text.length).toBeLessThan(16_384);
  });

  it('answers unknown keys, however many and however long, with a small 422', async () => {
    const owner = await signUp(t.http);
    const manyKeys = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`unknown-${index}`, 1]));
    const many = await t.http
      .post('/api/v1/projects')
      .set(owner.headers)
      .send({ name: 'Keys', id: projectCode(), ...manyKeys });
    expectError(many, 422, 'validation_failed');
    expectPath(many, ['unknown-0']);
    expect(many.text.length).toBeLessThan(4096);
    const longKey = 'k'.repeat(5_000_000);
    const long = await t.http
      .post('/api/v1/projects')
      .set(owner.headers)
      .send({ name: 'Key', id: projectCode(), [longKey]: 1 });
    expectError(long, 422, 'validation_failed');
    expect(long.body.error.details.path[0]).toMatch(/^k{200}…$/);
    expect(long.text.length).toBeLessThan(4096);
  });

  it('bounds the CSV filters of a query', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const longCsv = new Array(1000).fill('passed').join(',');
    expectError(await t.http.get(`/api/v1/projects/${project.id}/runs?status=${longCsv}`).set(owner.headers), 422, 'validation_failed');
    const repeated = new Array(60).fill('env=staging').join('&');
    expectError(await t.http.get(`/api/v1/projects/${project.id}/runs?${repeated}`).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(`/api/v1/projects?runs=${'any,'.repeat(600)}`).set(owner.headers), 422, 'validation_failed');
  });
});

describe('hostile input: numbers', () => {
  it("answers 422 for an instant past the largest date (an API token's expiresAt)", async () => {
    const owner = await signUp(t.http);
    for (const expiresAt of [8.64e15 + 1, Number.MAX_SAFE_INTEGER]) {
      const response = await t.http.post('/api/v1/me/api-tokens').set(owner.headers).send({ name: 'far future', expiresAt });
      expectError(response, 422, 'validation_failed');
      expectPath(response, ['expiresAt']);
    }
  });
});
