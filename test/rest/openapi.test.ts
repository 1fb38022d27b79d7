import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JSON_BODY_LIMIT } from '../../rest/http-settings.ts';
import type { RouteDefinition } from '../../rest/route.ts';
import { v1Routes } from '../../rest/v1/index.ts';
import { ERROR_CODES } from '../../src/kernel/errors.ts';
import { signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Json = Record<string, any>;
let document: Json;
beforeAll(async () => {
  document = (await t.http.get('/openapi/v1.json')).body;
});

const operationOf = (route: RouteDefinition): Json => document.paths[`/api/v1${route.path}`][route.method];
const resolve = (schema: Json): Json =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]) : schema;
const responseOf = (response: Json): Json =>
  response.$ref ? document.components.responses[response.$ref.replace('#/components/responses/', '')] : response;
const headerNames = (response: Json) => Object.keys(responseOf(response).headers ?? {});

describe('GET /openapi/v1.json', () => {
  it('is an OpenAPI 3.1 document, version 1.0.0, listing every /api/v1 route', async () => {
    const response = await t.http.get('/openapi/v1.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info.version).toBe('1.0.0');
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(v1Routes.map((route) => `${route.method} /api/v1${route.path}`).sort());
  });

  it('documents the request schemas that validate requests, unknown keys included', async () => {
    const create = document.components.schemas.CreateProjectRequest;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'id']));
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.name.maxLength).toBe(200);
    expect(create.properties.id.pattern).toBe('^[A-Z][A-Z0-9]*$');
    const conflict = responseOf(document.paths['/api/v1/projects'].post.responses['409']);
    expect(conflict.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });

  it('every documented operation is routed (none falls through to the 404 catch-all)', async () => {
    for (const route of v1Routes) {
      const path = `/api/v1${route.path}`.replace(/\{\w+\}/g, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D');
      const response = await t.http[route.method](path);
      expect(response.body?.error?.message ?? '', `${route.method} ${path}`).not.toMatch(/^No route/);
    }
  });

  it('names every operation with a unique camelCase operationId', () => {
    const ids = v1Routes.map((route) => operationOf(route).operationId as string);
    expect(ids).toEqual(v1Routes.map((route) => route.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)+$/);
    expect(operationOf(v1Routes.find((route) => route.path === '/projects' && route.method === 'get')!).operationId).toBe('listProjects');
  });

  it('types page, pageSize and limit as integers with their bounds and default', () => {
    const integers = v1Routes.flatMap((route) =>
      ((operationOf(route).parameters ?? []) as Json[])
        .filter((parameter) => ['page', 'pageSize', 'limit'].includes(parameter.name))
        .map((parameter): Json => ({ ...parameter, route: route.operationId })),
    );
    expect(integers.length).toBeGreaterThan(20);
    for (const parameter of integers) {
      expect(parameter.schema, `${parameter.route} ${parameter.name}`).toMatchObject({ type: 'integer', minimum: 1 });
      expect(parameter.schema.maximum, `${parameter.route} ${parameter.name}`).toBeGreaterThanOrEqual(200);
      expect(parameter.schema.default, `${parameter.route} ${parameter.name}`).toBeTypeOf('number');
    }
    const pageSize = integers.find((parameter) => parameter.route === 'listProjects' && parameter.name === 'pageSize');
    expect(pageSize?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Items per page, 1..200' });
  });

  it('still reads integers from the query string as before: digits only', async () => {
    const owner = await signUp(t.http);
    const page = (query: string) => t.http.get(`/api/v1/projects?${query}`).set(owner.headers);
    const suites = (query: string) => t.http.get(`/api/v1/projects/NOPE/suites?${query}`).set(owner.headers);
    expect((await page('page=2&pageSize=007')).body).toMatchObject({ page: 2, pageSize: 7 });
    for (const query of ['page=2.0', 'page=1e1', 'page=', 'page=%202', 'page=1&page=2', 'pageSize=0x10']) {
      const response = await page(query);
      expect(response.status, query).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
    }
    expect((await suites('limit=1.0')).body.error.details.path).toEqual(['limit']);
  });

  it('enumerates the contract error codes in the Error schema', () => {
    const error = document.components.schemas.Error.properties.error;
    expect(error.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(error.required).toEqual(['code', 'message']);
  });

  it('documents the rate-limit, Retry-After and Idempotency-Replayed headers where they are sent', () => {
    const rateLimit = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    for (const route of v1Routes) {
      const responses = Object.entries(operationOf(route).responses as Record<string, Json>);
      const unsafe = route.method !== 'get' && route.auth !== 'none';
      for (const [status, response] of responses) {
        const names = headerNames(response);
        const where = `${route.operationId} ${status}`;
        if (route.auth === 'org') expect(names, where).toEqual(expect.arrayContaining(rateLimit));
        else
          expect(
            names.filter((name) => name.startsWith('X-RateLimit')),
            where,
          ).toEqual([]);
        if (status === '429' || (status === '409' && unsafe)) expect(names, where).toContain('Retry-After');
        expect(names.includes('Idempotency-Replayed'), where).toBe(unsafe && status === String(route.success.status));
      }
      if (route.auth === 'org') expect(Object.keys(operationOf(route).responses), route.operationId).toContain('429');
      if (unsafe) expect(Object.keys(operationOf(route).responses), route.operationId).toContain('409');
    }
    expect(document.components.headers['X-RateLimit-Reset'].schema.type).toBe('integer');
  });

  it('sends the documented headers: rate limits to a token, Idempotency-Replayed on a replay', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const create = () =>
      t.http.post('/api/v1/projects').set(token.headers).set('Idempotency-Key', 'openapi-headers').send({ name: 'Headers', id: 'HDR' });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    expect(first.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(first.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
  });

  it('names its server and license and states the request body limits', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/', description: expect.any(String) })]);
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    for (const route of v1Routes.filter((candidate) => candidate.body)) {
      expect(operationOf(route).requestBody.description, route.operationId).toContain(JSON_BODY_LIMIT);
      expect(Object.keys(operationOf(route).responses), route.operationId).toContain('413');
    }
    const stage = operationOf(v1Routes.find((route) => route.operationId === 'stageStepAttachments')!).requestBody;
    expect(stage.description).toBe('multipart/form-data: 1 to 10 `file` parts of at most 10 MiB each');
    expect(stage.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'array', minItems: 1, maxItems: 10 });
    const avatar = operationOf(v1Routes.find((route) => route.operationId === 'uploadProjectAvatar')!).requestBody;
    expect(avatar.description).toBe('multipart/form-data: One `file` part of at most 5 MiB');
  });

  it('passes the recommended rules of the Redocly linter without an error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi-v1.json', config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
  });
});

/** Every `.meta({ example })` under a zod schema, with where it sits. */
function* documentedExamples(
  schema: z.ZodType,
  path: string[] = [],
  seen = new Set<z.ZodType>(),
): Generator<{ path: string; schema: z.ZodType; example: unknown }> {
  if (seen.has(schema)) return;
  seen.add(schema);
  const meta = schema.meta();
  if (meta && 'example' in meta) yield { path: path.join('.'), schema, example: meta.example };
  for (const [key, value] of Object.entries(schema._zod.def)) {
    const children: [string, unknown][] =
      key === 'shape' ? Object.entries(value as object) : Array.isArray(value) ? value.map((item) => ['', item]) : [['', value]];
    for (const [name, child] of children) {
      if (child instanceof z.ZodType) yield* documentedExamples(child, name ? [...path, name] : path, seen);
    }
  }
}

/** A value as it travels: path and query values as strings, bodies through JSON. */
const asSent = (value: unknown, location: 'params' | 'query' | 'body') =>
  location === 'body' ? JSON.parse(JSON.stringify(value)) : Array.isArray(value) ? value.map(String) : String(value);

/**
 * The value a client builds from a documented schema, as Swagger UI's "Try it out" does: the
 * example, else the default, the first enum value or alternative; objects with every property.
 */
function sampleOf(documented: Json): unknown {
  const schema = resolve(documented);
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf ?? schema.oneOf) return sampleOf((schema.anyOf ?? schema.oneOf)[0]);
  const type = [schema.type].flat().find((candidate) => candidate !== 'null');
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) => [name, sampleOf(property)]),
      );
    case 'array':
      return [sampleOf(schema.items ?? {})];
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 0 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return true;
    case 'string':
      return 'string';
    default:
      return null;
  }
}

describe('the examples of /openapi/v1.json', () => {
  it('are each accepted by the schema that validates them at runtime', () => {
    const checked: string[] = [];
    for (const route of v1Routes) {
      for (const location of ['params', 'query', 'body'] as const) {
        const schema = route[location];
        if (!schema) continue;
        for (const { path, schema: node, example } of documentedExamples(schema)) {
          const where = `${route.operationId} ${location} ${path}`;
          const result = node.safeParse(asSent(example, location));
          expect(result.success, `${where}: ${JSON.stringify(example)} ${result.error?.message}`).toBe(true);
          checked.push(where);
        }
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'createProject body id',
        'submitRunResults body results',
        'submitRunResults body results.runCaseUlid',
        'getSuiteByDisplayId params displayId',
      ]),
    );
  });

  it('make requests that validate when sent as a client builds them from the document', () => {
    const bulk = v1Routes.find((route) => route.operationId === 'submitRunResults')!;
    expect(sampleOf(operationOf(bulk).requestBody.content['application/json'].schema)).toEqual({
      results: [{ runCaseUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', status: 'passed', elapsedMs: 1250, comment: 'Green on staging' }],
    });
    for (const route of v1Routes) {
      const operation = operationOf(route);
      const parameters = (operation.parameters ?? []) as Json[];
      const valuesIn = (where: 'path' | 'query') =>
        Object.fromEntries(
          parameters
            .filter(
              (parameter) => parameter.in === where && (where === 'path' || 'example' in parameter.schema || 'default' in parameter.schema),
            )
            .map((parameter) => [parameter.name, asSent(sampleOf(parameter.schema), 'query')]),
        );
      const requests: [string, z.ZodType | undefined, unknown][] = [
        ['params', route.params, valuesIn('path')],
        ['query', route.query, valuesIn('query')],
        ['body', route.body, route.body && asSent(sampleOf(operation.requestBody.content['application/json'].schema), 'body')],
      ];
      for (const [location, schema, sample] of requests) {
        const result = schema?.safeParse(sample);
        expect(result?.success ?? true, `${route.operationId} ${location}: ${JSON.stringify(sample)} ${result?.error?.message}`).toBe(true);
      }
    }
  });
});

describe('GET /docs', () => {
  it('renders the reference for people from /openapi/v1.json', async () => {
    const page = await t.http.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const init = await t.http.get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('/openapi/v1.json');
  });
});
