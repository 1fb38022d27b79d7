import type { IncomingMessage, Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_VALUES } from '../../rest/router.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { newId } from '../../src/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { MAX_NESTING_DEPTH } from '../../src/validation.ts';
import { createMilestone, createProject, createSuite, signUp, tokenFor, uniqueEmail, useTestApp, type Caller } from '../support/app.ts';
import { createCase, createPlan, createRun } from '../support/runs.ts';

/**
 * The acceptance test of the hostile-input issue: requests generated from the OpenAPI document,
 * every operation, with wrong types, oversize strings and arrays, deep nesting, bad encodings,
 * unknown keys and malformed paths, as an owner (session and token) and unauthenticated. No
 * answer may be a 5xx, and every error is the contract's envelope.
 *
 * The requests come from a seeded PRNG: HOSTILE_SEED=<seed> replays a run (HOSTILE_CONCURRENCY=1
 * replays it in exactly the same order). Only the ULIDs differ between runs (the fixture's, and
 * fresh ones standing for unknown ids), not what they stand for.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = Number(process.env.HOSTILE_CONCURRENCY ?? 6);
const REQUESTS_PER_OPERATION = 27;

const t = useTestApp();

// ---- a seeded PRNG (mulberry32) and its helpers --------------------------------------------

type Random = {
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
};

function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { int, pick: (items) => items[int(items.length)]!, chance: (probability) => next() < probability };
}

// ---- the OpenAPI document ------------------------------------------------------------------

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  upload: boolean;
  authenticated: boolean;
  /** Answers Server-Sent Events: a 200 never ends by itself. */
  streams: boolean;
};

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content ?? {};
      return {
        method,
        path,
        parameters: (operation.parameters as Parameter[] | undefined) ?? [],
        body: content['application/json']?.schema,
        upload: 'multipart/form-data' in content,
        authenticated: ((operation.security as unknown[] | undefined) ?? []).length > 0,
        streams: 'text/event-stream' in ((operation.responses as Record<string, { content?: object }>)['200']?.content ?? {}),
      };
    }),
  );
}

// ---- values ----------------------------------------------------------------------------------

/** A JSON text spliced into a body where its marker string stands (deep nesting, raw escapes). */
type Fragments = Map<string, string>;
const spliced = (fragments: Fragments, text: string) => {
  const marker = `@@fragment-${fragments.size}@@`;
  fragments.set(`"${marker}"`, text);
  return marker;
};

const nested = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

type Context = { random: Random; ulids: string[]; resolve(ref: string): JsonSchema };

/** A plausible value of `schema`: real ULIDs where a ULID goes, so that requests reach the services. */
function sample(schema: JsonSchema, context: Context, depth = 0): unknown {
  const { random } = context;
  if (schema.$ref) return sample(context.resolve(schema.$ref), context, depth);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(random.pick(options), context, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(part, context, depth)));
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || random.chance(0.5)) value[key] = sample(property, context, depth + 1);
      }
      return value;
    }
    case 'array': {
      const length = Math.max(schema.minItems ?? 0, random.int(3));
      return depth > 6 ? [] : Array.from({ length }, () => sample(schema.items ?? {}, context, depth + 1));
    }
    case 'string':
      return sampleString(schema, context);
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? -Number.MAX_SAFE_INTEGER;
      const maximum = schema.maximum ?? Number.MAX_SAFE_INTEGER;
      // The bounds themselves, or a small value above the minimum.
      return random.chance(0.3) ? random.pick([minimum, maximum]) : Math.max(minimum, 0) + random.int(1000);
    }
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    default:
      return hostileScalar(random);
  }
}

function sampleString(schema: JsonSchema, { random, ulids }: Context): string {
  if (schema.format === 'email') return uniqueEmail('hostile');
  if (schema.pattern?.includes('{26}')) return random.chance(0.8) ? random.pick(ulids) : newId();
  if (schema.pattern?.startsWith('^staging')) return `staging/${newId()}/${newId()}`;
  if (schema.pattern?.startsWith('^[A-Z]')) return `H${random.int(1e8)}`;
  if (schema.pattern?.startsWith('^[a-z0-9]')) return `env-${random.int(1e6)}`;
  if (schema.pattern === '^\\d+$') return String(1 + random.int(5));
  const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 1 + random.int(12)));
  return 'hostile text '.repeat(2).slice(0, length);
}

const hostileScalar = (random: Random): unknown =>
  random.pick([
    0, -1, 1.5, 1e308, -1e308, 2 ** 31, -(2 ** 31) - 1, 8.64e15 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53 + 1,
    true, false, null, '', ' ', 'null', '0', '[]', '{}', 'true', [], {}, [null], { '': '' },
  ]);

const BAD_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', '\u{1F680}', '\u202e', '\uffff', '%00', '\\', '"', "'; DROP TABLE users; --", '<script>'];

/** Every position in a (small, sampled) value: the paths of its objects, arrays and leaves. */
function positionsOf(root: unknown): Array<Array<string | number>> {
  const positions: Array<Array<string | number>> = [];
  const pending: Array<{ value: unknown; path: Array<string | number> }> = [{ value: root, path: [] }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    positions.push(entry.path);
    if (entry.value && typeof entry.value === 'object') {
      for (const [key, inner] of Object.entries(entry.value)) {
        pending.push({ value: inner, path: [...entry.path, Array.isArray(entry.value) ? Number(key) : key] });
      }
    }
  }
  return positions;
}

function replaceAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = replacement;
  return root;
}

const BODY_ATTACKS = ['wrong type', 'oversize string', 'oversize array', 'deep nesting', 'unknown keys', 'bad text', 'bad key'] as const;

/** The sampled body with one attack at a random position, as JSON text. */
function attackedBody(value: unknown, random: Random): { text: string; attack: string } {
  const fragments: Fragments = new Map();
  const attack = random.pick(BODY_ATTACKS);
  const position = random.pick(positionsOf(value));
  const targetObject = () => {
    const objects = positionsOf(value).filter((path) => isPlainObject(valueAt(value, path)));
    return objects.length > 0 ? (valueAt(value, random.pick(objects)) as Record<string, unknown>) : undefined;
  };
  switch (attack) {
    case 'wrong type':
      value = replaceAt(value, position, hostileScalar(random));
      break;
    case 'oversize string':
      value = replaceAt(value, position, 'x'.repeat(random.pick([201, 2001, 10_001, 100_000, 1_000_000])));
      break;
    case 'oversize array': {
      const length = random.pick([51, 101, 201, 501, 5001, 100_000, 300_000]);
      const item = random.pick(['01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', 0, 'x', null, {}]);
      value = replaceAt(value, position, spliced(fragments, `[${new Array(length).fill(JSON.stringify(item)).join(',')}]`));
      break;
    }
    case 'deep nesting': {
      const depth = random.pick([MAX_NESTING_DEPTH - 2, MAX_NESTING_DEPTH + 1, 1000, 100_000]);
      const inner = random.pick(['', '"x"', '{}', '{"a":1}']);
      value = replaceAt(value, position, spliced(fragments, random.chance(0.5) ? nested(depth, inner) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
      break;
    }
    case 'unknown keys': {
      const target = targetObject();
      if (target) target[random.pick(['unknownKey', 'constructor', 'prototype', 'ulid', 'orgId', 'createdAt', '$where', ''])] = hostileScalar(random);
      const text = JSON.stringify(value ?? null);
      // Prototype pollution attempts, spliced as text (an object literal would set the prototype).
      return { text: text.startsWith('{') && text !== '{}' ? `{"__proto__":{"polluted":true},${text.slice(1)}` : text, attack };
    }
    case 'bad text':
      value = replaceAt(value, position, random.chance(0.5) ? random.pick(BAD_TEXT) : spliced(fragments, random.pick(['"\\ud800"', '"a\\u0000"', '"\\udfff\\ud800"', '"\\uDBFF"'])));
      break;
    case 'bad key': {
      const target = targetObject();
      if (target) target[random.pick(BAD_TEXT)] = 'x';
      else value = { [random.pick(BAD_TEXT)]: value };
      break;
    }
  }
  let text = JSON.stringify(value ?? null);
  for (const [marker, fragment] of fragments) text = text.replace(marker, fragment);
  return { text, attack };
}

const isPlainObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
const valueAt = (root: unknown, path: Array<string | number>) =>
  path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);

// ---- requests --------------------------------------------------------------------------------

type HostileRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  description: string;
  operation: string;
  caller: 'session' | 'token' | 'none';
  streams: boolean;
  wellFormed: boolean;
};

const MALFORMED_PATH_VALUES = ['%FF', '%E0%A4%A', '%ED%A0%80', '%00', 'AB%00', '%2e%2e', '..', '%2F', 'x'.repeat(3000), '%C0%AF', 'null', '-1', '1e999', '%20', '%F0%9F%9A%80'];
const MALFORMED_QUERY_VALUES = ['%FF', '%00', '', '-1', '0', '2.5', '1e999', 'NaN', 'x'.repeat(3000), '%ED%A0%80', 'a%2Cb%2Cc', ',,,,', 'true', '[]', '%7B%7D'];

/** The first is well-formed: one file part. */
const MULTIPART_BODIES = [
  '--hostile\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot an image\r\n--hostile--\r\n',
  '--hostile\r\nContent-Disposition: form-data; name="file"\r\n\r\ntruncated',
  '--other\r\n\r\n',
  '',
];

const encode = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

/**
 * One request to the operation. A well-formed one (`hostile` false) is the owner's session with real path
 * values, a sampled body and, for an upload, one file part: it reaches the operation's validation or service
 * whatever the seed.
 */
function buildRequest(
  operation: Operation,
  context: Context,
  pathValues: Record<string, string[]>,
  callers: Record<'session' | 'token', Caller>,
  hostile: boolean,
): HostileRequest {
  const { random } = context;
  const notes: string[] = hostile ? [] : ['well-formed'];
  const caller = !operation.authenticated ? 'none' : hostile ? random.pick(['session', 'session', 'token', 'token', 'none'] as const) : 'session';
  const headers: Record<string, string> = caller === 'none' ? {} : { ...callers[caller].headers };

  let path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (hostile && random.chance(0.15)) {
      const malformed = random.pick(MALFORMED_PATH_VALUES);
      notes.push(`path ${name}=${malformed.slice(0, 40)}`);
      return malformed;
    }
    return encodeURIComponent(random.pick(pathValues[name] ?? [newId()]));
  });

  const query: string[] = [];
  for (const parameter of operation.parameters.filter((each) => each.in === 'query')) {
    if (!parameter.required && random.chance(0.5)) continue;
    const value = sample(parameter.schema, context);
    for (const each of Array.isArray(value) ? value : [value]) query.push(`${parameter.name}=${encode(each)}`);
  }
  if (hostile && random.chance(0.25)) {
    const name = random.pick([...operation.parameters.filter((each) => each.in === 'query').map((each) => each.name), 'unknown', 'a[b]', '__proto__']);
    const value = random.pick(MALFORMED_QUERY_VALUES);
    // Long values are not repeated: past Node's 16 KiB header limit the HTTP parser answers, not the app.
    const repeat = value.length > 100 ? 1 : random.pick([1, 1, 2, 60]);
    for (let index = 0; index < repeat; index++) query.push(`${encodeURIComponent(name)}=${value}`);
    notes.push(`query ${name}=${value.slice(0, 40)}${repeat > 1 ? ` ×${repeat}` : ''}`);
  }
  if (query.length > 0) path += `?${query.join('&')}`;

  if (hostile && operation.method !== 'get' && random.chance(0.15)) {
    headers['Idempotency-Key'] = random.pick(['', ' ', 'k'.repeat(256), `key-${random.int(20)}`, 'tab\tkey']);
    notes.push(`Idempotency-Key=${headers['Idempotency-Key'].slice(0, 20)}`);
  }
  if (hostile && random.chance(0.05)) {
    const [name, value] = random.pick([
      ['X-Organization-Id', random.pick(['', 'nonsense', newId(), 'x'.repeat(500)])],
      ['Accept-Language', random.pick(['', 'es;q=abc', '*', 'x'.repeat(1000), 'es, en;q=0.5, zz'])],
      ['Authorization', random.pick(['Bearer', 'Bearer ', 'Basic !!!', `Bearer tcms_${'x'.repeat(300)}`])],
      ['Cookie', random.pick(['tcms_session=', 'tcms_session=%FF', '=;=;', `tcms_session=${'x'.repeat(500)}`])],
      ['Origin', 'https://evil.example'],
    ] as const);
    headers[name] = value;
    notes.push(`${name}=${value.slice(0, 30)}`);
  }

  let body: string | Buffer | undefined;
  const takesJson = operation.body !== undefined;
  if (takesJson || (hostile && random.chance(0.2))) {
    const value = takesJson && (!hostile || random.chance(0.9)) ? sample(operation.body!, context) : hostileScalar(random);
    const attacked = hostile && random.chance(0.8) ? attackedBody(value, random) : { text: JSON.stringify(value), attack: 'none' };
    body = attacked.text;
    headers['Content-Type'] = 'application/json';
    notes.push(`body attack: ${attacked.attack}`);
    if (hostile && random.chance(0.25)) {
      const encoding = random.pick(['gzip', 'br', 'deflate', 'compress', 'identity', 'invalid utf-8', 'charset', 'content type', 'truncated', 'empty', 'bom', 'over the limit']);
      notes.push(`encoding: ${encoding}`);
      switch (encoding) {
        case 'gzip':
        case 'br':
        case 'deflate':
        case 'compress':
        case 'identity':
          headers['Content-Encoding'] = encoding;
          break;
        case 'invalid utf-8':
          body = Buffer.concat([Buffer.from(body.slice(0, -1)), Buffer.from([0xff, 0xc0, 0xed, 0xa0, 0x80, 0xf8]), Buffer.from(body.slice(-1))]);
          break;
        case 'charset':
          headers['Content-Type'] = `application/json; charset=${random.pick(['utf-16le', 'utf-16', 'latin1', 'utf-32', 'ascii', 'nonsense', '"utf-8"'])}`;
          break;
        case 'content type':
          headers['Content-Type'] = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/json-patch+json', 'application/*', '']);
          break;
        case 'truncated':
          body = body.slice(0, Math.max(1, random.int(body.length)));
          break;
        case 'empty':
          body = '';
          break;
        case 'bom':
          body = `\ufeff${body}`;
          break;
        case 'over the limit':
          body = `{"padding":"${'x'.repeat(10 * 1024 * 1024)}"}`;
          break;
      }
    }
  }
  if (operation.upload && (!hostile || random.chance(0.3))) {
    headers['Content-Type'] = 'multipart/form-data; boundary=hostile';
    body = hostile ? random.pick(MULTIPART_BODIES) : MULTIPART_BODIES[0];
    notes.push(hostile ? 'multipart garbage' : 'one file part');
  }

  const name = `${operation.method.toUpperCase()} ${operation.path}`;
  return {
    method: operation.method,
    url: path,
    headers,
    body,
    caller,
    operation: name,
    streams: operation.streams,
    wellFormed: !hostile,
    description: `${operation.method.toUpperCase()} ${path.slice(0, 200)} as ${caller}; ${notes.join('; ')}; body ${body === undefined ? 'none' : String(body).slice(0, 200)}`,
  };
}

// ---- the fixture ------------------------------------------------------------------------------

/** An owner (session and token) with one of everything, so that path parameters name real things. */
async function createFixture() {
  const http = t.http;
  const owner = await signUp(http);
  await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1_000_000 });
  const token = await tokenFor(http, owner, { role: 'admin' });
  const spareToken = await tokenFor(http, owner, { name: 'spare' });
  const project = await createProject(http, owner);
  const suite = await createSuite(http, owner, project.id);
  const testCase = await createCase(http, owner, project.id, { suiteUlid: suite.ulid, steps: [{ action: 'Open' }, { action: 'Check' }] });
  const milestone = await createMilestone(http, owner, project.id);
  const environment = (await http.post(`/api/v1/projects/${project.id}/environments`).set(owner.headers).send({ name: 'Staging' })).body;
  const group = (await http.post(`/api/v1/projects/${project.id}/configuration-groups`).set(owner.headers).send({ name: 'Browser' })).body;
  const configuration = (await http.post(`/api/v1/configuration-groups/${group.ulid}/values`).set(owner.headers).send({ name: 'Chrome' })).body;
  const field = (await http.post(`/api/v1/orgs/${owner.orgId}/custom-fields`).set(owner.headers).send({ entity: 'test_case', valueType: 'paragraph', title: 'Notes' })).body.field;
  const comment = (await http.post(`/api/v1/test-cases/${testCase.ulid}/comments`).set(owner.headers).send({ body: 'First' })).body;
  const plan = await createPlan(http, owner, project.id);
  const planCases = (await http.put(`/api/v1/plans/${plan.ulid}/cases`).set(owner.headers).send({ caseUlids: [testCase.ulid] })).body;
  const run = await createRun(http, owner, project.id, { caseUlids: [testCase.ulid] });
  const runCase = (await http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items[0];
  const shareLink = (await http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send({})).body;
  const userGroup = (await http.post('/api/v1/groups').set(owner.headers).send({ name: 'Crew', memberUserUlids: [owner.userId], projectUlids: [project.ulid] })).body;
  const pathValues: Record<string, string[]> = {
    orgUlid: [owner.orgId],
    tokenUlid: [spareToken.tokenUlid],
    projectId: [project.id],
    suiteUlid: [suite.ulid],
    caseUlid: [testCase.ulid],
    displayId: [`${project.id}-1`, `${project.id}-S1`],
    milestoneUlid: [milestone.ulid],
    environmentUlid: [environment.ulid],
    groupUlid: [group.ulid],
    configurationUlid: [configuration.ulid],
    fieldUlid: [field.ulid],
    commentUlid: [comment.ulid],
    planUlid: [plan.ulid],
    planCaseUlid: [planCases.items[0].ulid],
    runUlid: [run.ulid],
    runCaseUlid: [runCase.ulid],
    stepUlid: runCase.steps.map((step: { ulid: string }) => step.ulid),
    attachmentUlid: [newId()],
    userGroupUlid: [userGroup.ulid],
    userUlid: [owner.userId],
    shareLinkUlid: [shareLink.ulid],
    token: [shareLink.token],
  };
  for (const [name, values] of Object.entries(pathValues)) expect(values.every(Boolean), name).toBe(true);
  return { callers: { session: owner, token }, pathValues };
}

/** Operations that end what the others use run last: deletes, closing the run, and last of all logout. */
const phaseOf = (operation: Operation) => {
  if (operation.path.endsWith('/logout')) return 2;
  return operation.method === 'delete' || /\/(abort|close)$/.test(operation.path) ? 1 : 0;
};

// ---- the test ----------------------------------------------------------------------------------

describe('hostile input generated from the OpenAPI document', () => {
  let server: Server;
  beforeAll(() => {
    server = t.app.express.listen(0);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers no request with a 5xx, and every error with the contract envelope', { timeout: 240_000 }, async () => {
    console.log(`hostile-input seed ${SEED} (replay: HOSTILE_SEED=${SEED} HOSTILE_CONCURRENCY=1)`);
    const random = seededRandom(SEED);
    const document = (await t.http.get('/openapi/v1.json')).body;
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(100);
    const { callers, pathValues } = await createFixture();
    const context: Context = {
      random,
      ulids: Object.values(pathValues).flat().filter((value) => value.length === 26),
      resolve: (ref) => document.components.schemas[ref.replace('#/components/schemas/', '')],
    };

    const phases = [0, 1, 2].map((phase) => operations.filter((operation) => phaseOf(operation) === phase));
    const failures: string[] = [];
    const reachedValidation = new Set<string>();
    const statuses = new Map<number, number>();
    let sent = 0;
    let slowest = { ms: 0, description: '' };
    let largestError = 0;
    const started = performance.now();

    const send = async (hostile: HostileRequest) => {
      const begun = performance.now();
      const pending = request(server)[hostile.method as 'get'](hostile.url).set(hostile.headers);
      // superagent hands a parser Node's IncomingMessage, which its types call Response.
      if (hostile.streams) pending.buffer(true).parse(untilEventStream as unknown as Parameters<typeof pending.parse>[0]);
      const response = await (hostile.body === undefined ? pending : pending.serialize((raw: string) => raw).send(hostile.body as string));
      const ms = performance.now() - begun;
      sent++;
      if (ms > slowest.ms) slowest = { ms, description: hostile.description };
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 400) largestError = Math.max(largestError, response.text.length);
      // A well-formed request passes the transport, so its other 4xx (a 400 not_system_field, a 415 of a file's content) come from the service too.
      const reached = response.status < 400 || [403, 404, 409, 422].includes(response.status) || (hostile.wellFormed && ![401, 429].includes(response.status));
      if (reached) reachedValidation.add(hostile.operation);
      const problem = answerProblem(response);
      if (problem) failures.push(`${problem}: ${hostile.description} → ${response.status} ${response.text.slice(0, 300)}`);
    };

    for (const phase of phases) {
      const queue: HostileRequest[] = [];
      for (const operation of phase) {
        for (let index = 0; index < REQUESTS_PER_OPERATION; index++) queue.push(buildRequest(operation, context, pathValues, callers, index > 0));
      }
      const workers = Array.from({ length: CONCURRENCY }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await send(next);
      });
      await Promise.all(workers);
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `hostile-input seed ${SEED}: ${sent} requests to ${operations.length} operations in ${seconds} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; largest error ${largestError} bytes; slowest ${slowest.ms.toFixed(0)} ms (${slowest.description.slice(0, 160)})`,
    );
    expect(failures.slice(0, 20), `seed ${SEED}: ${failures.length} failures`).toEqual([]);
    expect(sent).toBeGreaterThan(2500);
    // Every operation was reached past authentication: its validation or its service answered.
    expect(operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).filter((name) => !reachedValidation.has(name))).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('keeps the event loop, which the embedded database shares, responsive while hostile bodies arrive', { timeout: 120_000 }, async () => {
    const owner = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1_000_000 });
    const project = await createProject(t.http, owner);
    const plan = await createPlan(t.http, owner, project.id);
    // Built before measuring: building them stalls this process too.
    const tenMebibytesOfValues = `{"caseUlids":[${new Array(5_000_000).fill('0').join(',')}]}`;
    const deep = `{"email":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
    const manyKeys = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_BODY_VALUES + 1 }, (_, index) => [`k${index}`, 1])));
    const longKey = JSON.stringify({ name: 'x', id: 'LONG', ['k'.repeat(5_000_000)]: 1 });
    const json = (method: 'post' | 'put', path: string, headers: Record<string, string>, body: string) => () =>
      request(server)[method](path).set(headers).set('Content-Type', 'application/json').send(body);
    const hostile = [
      json('put', `/api/v1/plans/${plan.ulid}/cases`, owner.headers, tenMebibytesOfValues),
      json('post', '/api/v1/auth/signup', {}, deep),
      json('post', '/api/v1/projects', owner.headers, manyKeys),
      json('post', '/api/v1/projects', owner.headers, longKey),
    ];
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const latencies: number[] = [];
    const ordinary = async () => {
      for (let index = 0; index < 40; index++) {
        const begun = performance.now();
        expect((await request(server).get('/api/v1/projects').set(owner.headers)).status).toBe(200);
        latencies.push(performance.now() - begun);
      }
    };
    const attack = async (offset: number) => {
      for (let index = 0; index < 8; index++) {
        const response = await hostile[(index + offset) % hostile.length]!();
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.text.length).toBeLessThan(4096);
      }
    };
    delay.enable();
    await Promise.all([ordinary(), ordinary(), ordinary(), attack(0), attack(1)]);
    delay.disable();
    const slowest = Math.max(...latencies);
    console.log(`under hostile bodies: event loop delay max ${(delay.max / 1e6).toFixed(0)} ms; ordinary requests slowest ${slowest.toFixed(0)} ms`);
    // Before the bounds: stalls of 7 s and ordinary requests of 9 s on this test; now tens of milliseconds.
    expect(delay.max / 1e6).toBeLessThan(1000);
    expect(slowest).toBeLessThan(2000);
  });
});

/** An error answer echoes little of the request: at most 100 issues, each clipped. */
const MAX_ERROR_BYTES = 32 * 1024;

/** Why an answer breaks the rules, or null: a 5xx, an error that is not the contract's envelope, or a big one. */
/**
 * Reads an answer like supertest does, except that an event stream is let go once its headers
 * arrive: its 200 never ends by itself.
 */
function untilEventStream(res: IncomingMessage & { text?: string }, done: (error: Error | null, body: unknown) => void) {
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    res.text = '';
    res.destroy();
    done(null, {});
    return;
  }
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => {
    res.text = text;
    let body: unknown = {};
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: answerProblem says so from the content type.
    }
    done(null, body);
  });
}

function answerProblem(response: request.Response): string | null {
  if (response.status >= 500) return '5xx';
  if (response.status < 400) return null;
  if (response.text.length > MAX_ERROR_BYTES) return `error of ${response.text.length} bytes`;
  if (!String(response.headers['content-type']).startsWith('application/json')) return 'error without a JSON body';
  const error = response.body?.error;
  if (!error || !(ERROR_CODES as readonly string[]).includes(error.code)) return 'error without a contract code';
  if (typeof error.message !== 'string' || error.message.trim() === '') return 'error without a message';
  return null;
}
