import http from 'node:http';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../schema/limits.ts';
import { onQuery, prisma } from '../../src/kernel/database/client.ts';
import { type Caller, createProject, createSuite, graphql, signUp, tokenFor, useTestApp } from '../support/app.ts';
import type { GraphQLErrorBody } from '../support/graphql.ts';

/**
 * GraphQL as a public API: the queries that took the server down (a thousand aliases, a few
 * nested back-references, an endless document) are refused before anything executes — quickly,
 * without one SQL statement — and always as validation_failed.
 */

const t = useTestApp();

/** A refusal must come back this fast (the abusive originals ran for minutes). */
const REFUSAL_BOUND_MS = 2_000;

/** The GraphQL-over-HTTP media type, to which a refused request answers 400 (to application/json, 200). */
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** A request, the SQL statements it ran and how long it took. */
async function measured(send: () => PromiseLike<Response>) {
  const statements: string[] = [];
  const stop = onQuery((event) => statements.push(event.query));
  const startedAt = performance.now();
  const response = await send();
  const elapsedMs = performance.now() - startedAt;
  stop();
  return { response, elapsedMs, statements };
}

/** The errors of a refusal: each validation_failed, no data, fast, no SQL, and its status (400 but on an event stream). */
function refusal(
  { response, elapsedMs, statements }: Awaited<ReturnType<typeof measured>>,
  errors = response.body.errors as GraphQLErrorBody[],
  status = 400,
) {
  expect(response.status, response.text).toBe(status);
  expect(errors?.length, response.text).toBeGreaterThan(0);
  for (const error of errors) expect(error.extensions?.code, error.message).toBe('validation_failed');
  expect(response.body.data ?? null).toBeNull();
  expect(elapsedMs).toBeLessThan(REFUSAL_BOUND_MS);
  expect(statements, 'a refused query runs no SQL').toEqual([]);
  return errors;
}

const refused = async (query: string, caller?: Caller) =>
  refusal(
    await measured(() =>
      t.http
        .post('/graphql')
        .set(caller?.headers ?? {})
        .set('Accept', GRAPHQL_RESPONSE)
        .send({ query }),
    ),
  );

describe('GraphQL limits', () => {
  it('refuses a thousand aliases of one field', async () => {
    const aliases = Array.from({ length: 1_000 }, (_, index) => `a${index}: organization { name }`).join(' ');
    const [error] = await refused(`{ ${aliases} }`);
    expect(error!.message).toMatch(/alias|token/i);
  });

  it(`accepts ${GRAPHQL_LIMITS.aliases} aliases and refuses one more`, async () => {
    const owner = await signUp(t.http);
    const aliases = (count: number) => Array.from({ length: count }, (_, index) => `a${index}: organization { name }`).join(' ');
    const ok = await graphql(t.http, owner, `{ ${aliases(GRAPHQL_LIMITS.aliases)} }`);
    expect(ok.body.errors, JSON.stringify(ok.body)).toBeUndefined();
    const [error] = await refused(`{ ${aliases(GRAPHQL_LIMITS.aliases + 1)} }`, owner);
    expect(error!.message).toMatch(/alias/i);
  });

  it('refuses a list selected inside itself through a back-reference, also hidden in a fragment', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    await createSuite(t.http, owner, project.id);
    const cycle = `{ project(code: "${project.id}") { suites { cases { suite { cases { suite { cases { title } } } } } } } }`;
    const [error] = await refused(cycle, owner);
    expect(error!.message).toMatch(/Suite\.cases may not be selected inside itself/);

    const viaFragment = `
      query { project(code: "${project.id}") { suites { cases { ...Back } } } }
      fragment Back on TestCase { suite { cases { title } } }`;
    await refused(viaFragment, owner);

    // The same fields without the cycle are an ordinary query.
    const ordinary = await graphql(t.http, owner, `{ project(code: "${project.id}") { suites { name cases { title suite { name } } } } }`);
    expect(ordinary.body.errors, JSON.stringify(ordinary.body)).toBeUndefined();
  });

  it(`refuses nesting deeper than ${GRAPHQL_LIMITS.depth}`, async () => {
    const tooDeep = `{ suite(ulid: "X") { ${'children { '.repeat(GRAPHQL_LIMITS.depth)}name${' }'.repeat(GRAPHQL_LIMITS.depth)} } }`;
    const [error] = await refused(tooDeep);
    expect(error!.message).toMatch(/depth/i);
  });

  it('refuses a document with more tokens than the limit', async () => {
    const fields = Array.from({ length: GRAPHQL_LIMITS.tokens }, () => '__typename').join(' ');
    const [error] = await refused(`{ ${fields} }`);
    expect(error!.message).toMatch(/token/i);
  });

  it('refuses a page of pages, whose cost exceeds the limit, and accepts one full page', async () => {
    const owner = await signUp(t.http);
    const onePage = '{ projects(first: 200) { edges { node { ulid code name description createdAt updatedAt } } } }';
    const ok = await graphql(t.http, owner, onePage);
    expect(ok.body.errors, JSON.stringify(ok.body)).toBeUndefined();
    const pageOfPages = '{ projects(first: 200) { edges { node { runs(first: 200) { edges { node { ulid name } } } } } } }';
    const [error] = await refused(pageOfPages, owner);
    expect(error!.message).toMatch(/cost/i);
  });

  it('refuses a batch of operations (a JSON array body)', async () => {
    const response = await t.http.post('/graphql').send([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(response.status).toBeLessThan(500);
    expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe('validation_failed');
  });
});

describe('GraphQL fragment cycles', () => {
  const CYCLES = {
    'a fragment spread inside itself': '{ ...A } fragment A on Query { ...A }',
    'two fragments spread inside each other': '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
    'a cycle in a nested selection, through an inline fragment':
      '{ viewer { ...V } } fragment V on Viewer { ... on Viewer { ...W } } fragment W on Viewer { __typename ...V }',
    'a cycle under an inline fragment of the operation':
      '{ ... on Query { organization { ...O } } } fragment O on Organization { name ... on Organization { ...O } }',
  };

  for (const [name, query] of Object.entries(CYCLES)) {
    it(`refuses ${name} as validation_failed, without and with a token`, async () => {
      const token = await tokenFor(t.http, await signUp(t.http));
      for (const caller of [undefined, token]) {
        const [error, ...others] = await refused(query, caller);
        expect(error!.message).toMatch(/^Cannot spread fragment "\w+" within itself/);
        expect(others).toEqual([]);
      }
    });
  }

  it('refuses a cycle sent by GET, and one of a subscription asked for as an event stream', async () => {
    const token = await tokenFor(t.http, await signUp(t.http));
    for (const caller of [undefined, token]) {
      const headers = caller?.headers ?? {};
      const [viaGet] = refusal(
        await measured(() =>
          t.http.get('/graphql').query({ query: CYCLES['a fragment spread inside itself'] }).set(headers).set('Accept', GRAPHQL_RESPONSE),
        ),
      );
      expect(viaGet!.message).toMatch(/within itself/);

      const subscription = 'subscription { ...A } fragment A on Subscription { ...B } fragment B on Subscription { ...A }';
      const stream = await measured(() =>
        t.http.post('/graphql').set(headers).set('Accept', 'text/event-stream').send({ query: subscription }),
      );
      expect(stream.response.headers['content-type']).toMatch(/^text\/event-stream/);
      // An event stream opens (200) and carries the refusal as its one event, as graphql-sse has it for validation errors.
      const [event] = refusal(stream, JSON.parse(/^data: (.*)$/m.exec(stream.response.text)![1]!).errors, 200);
      expect(event!.message).toMatch(/within itself via/);
    }
  });

  it('answers a chain of fragments as long as the token limit allows, and refuses one that doubles at each link', async () => {
    const token = await tokenFor(t.http, await signUp(t.http));
    const chain = (links: number, spreads: number) =>
      `{ ...F0 } ${Array.from({ length: links }, (_, index) => `fragment F${index} on Query { ${`...F${index + 1} `.repeat(spreads)}}`).join(' ')} fragment F${links} on Query { __typename }`;
    const longest = chain(Math.floor((GRAPHQL_LIMITS.tokens - 20) / 8), 1);
    const { response, elapsedMs } = await measured(() => graphql(t.http, token, longest));
    expect(response.body, response.text).toEqual({ data: { __typename: 'Query' } });
    expect(elapsedMs).toBeLessThan(REFUSAL_BOUND_MS);

    const [error] = await refused(chain(40, 2), token);
    expect(error!.message).toMatch(/cost|too many fields/i);
  });
});

describe('GraphQL execution stops when the client goes away', () => {
  it('runs no further mutation of a document once its client disconnected', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const project = await createProject(t.http, owner);
    const count = GRAPHQL_LIMITS.aliases;
    // Mutations of one document run one after the other, each in its own transaction.
    const mutations = Array.from(
      { length: count },
      (_, index) => `m${index}: createMilestone(projectCode: "${project.id}", input: { name: "Milestone ${index}" }) { ulid }`,
    ).join(' ');
    const listening = t.app.express.listen(0);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Holds the project's row until released: a milestone insert waits for it on PostgreSQL, and
    // on the embedded database (one session) every statement of the request waits for it.
    const gate = prisma().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM projects WHERE id = ${project.ulid} FOR UPDATE`;
      await released;
    });
    try {
      await new Promise((resolve) => listening.once('listening', resolve));
      const { port } = listening.address() as { port: number };
      const arrived = new Promise((resolve) => listening.once('request', resolve));
      const body = JSON.stringify({ query: `mutation { ${mutations} }` });
      const client = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/graphql',
        headers: { ...token.headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      const failed = new Promise((resolve) => client.once('error', resolve));
      client.end(body);
      await arrived;
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The client gives up: its connection closes without an answer.
      client.destroy();
      await failed;
      release();
      await gate;
      // Whatever was under way finishes (at most the first mutation); nothing after it starts.
      let settled = -1;
      for (let previous = -2; settled !== previous; ) {
        previous = settled;
        await new Promise((resolve) => setTimeout(resolve, 300));
        settled = await prisma().milestone.count({ where: { projectId: project.ulid } });
      }
      expect(settled).toBeLessThanOrEqual(1);
    } finally {
      release();
      await gate.catch(() => {});
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});
