import type { Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';
import { MAX_NESTING_DEPTH } from '../../src/kernel/validation.ts';
import { createProject, graphql, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { type GraphQLErrorBody, onlyError } from '../support/graphql.ts';
import { createHostileFixture, WALK_APP_ENV } from '../support/hostile/fixture.ts';
import { type GraphQLOperation, graphqlOperations } from '../support/hostile/graphql-operations.ts';
import { buildGraphQLRequest } from '../support/hostile/graphql-requests.ts';
import { hostileSeed, seededRandom } from '../support/hostile/random.ts';
import { failuresOf, summaryOf, walk } from '../support/hostile/walk.ts';
import { createRun, createRunField } from '../support/runs.ts';

/**
 * Hostile GraphQL: a walk generated from the schema, every root field with a well-formed request
 * and hostile variables, literals, documents (fragment cycles among them), callers, headers and
 * transports; then the reproducers through variables and documents. Never a 5xx nor an
 * internal_error. HOSTILE_SEED=<seed> replays the walk (HOSTILE_CONCURRENCY=1 in the same order).
 */
const t = useTestApp(WALK_APP_ENV);

const SEED = hostileSeed();
const CONCURRENCY = Number(process.env.HOSTILE_CONCURRENCY ?? 6);
const REQUESTS_PER_FIELD = 8;

type GraphQLBody = {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: unknown[]; extensions?: { code?: string } }>;
};

/** Whether the root field's resolver answered: its data, or an error of its own other than a refused caller. */
const answered = (operation: GraphQLOperation, body: unknown) => {
  const { data, errors = [] } = (body ?? {}) as GraphQLBody;
  return (
    (data?.[operation.field] ?? null) !== null ||
    errors.some((error) => error.path?.[0] === operation.field && error.extensions?.code !== 'unauthorized')
  );
};

/** A well-formed document that GraphQL refused as a whole (an error without a path): the walk's own mistake, or limits too tight for it. */
const refusedDocument = (body: unknown) => {
  const refusal = ((body ?? {}) as GraphQLBody).errors?.find((error) => !error.path);
  return refusal ? `well-formed document refused: ${refusal.message}` : null;
};

/** Mutations that end what the others use run last. */
const phaseOf = (operation: GraphQLOperation) =>
  operation.kind === 'mutation' && /^(delete|remove|revoke|unassign|unlink|abort|close|cancel|archive|merge)/.test(operation.field) ? 1 : 0;

describe('GraphQL: hostile requests generated from the schema', () => {
  let server: Server;
  beforeAll(() => {
    server = t.app.express.listen(0);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers no request with a 5xx or an internal_error, reaches every root field and selects every field', {
    timeout: 240_000,
  }, async () => {
    console.log(`graphql hostile-input seed ${SEED} (replay: HOSTILE_SEED=${SEED} HOSTILE_CONCURRENCY=1)`);
    const random = seededRandom(SEED);
    const fixture = await createHostileFixture(t.http);
    const { operations, allCoordinates } = graphqlOperations(schema, fixture.pathValues, random);
    // A field added to the schema is selected by a generated document, or fails here.
    const selected = new Set(operations.flatMap((operation) => operation.coordinates));
    expect(allCoordinates.filter((coordinate) => !selected.has(coordinate))).toEqual([]);

    const phases = [0, 1].map((phase) =>
      operations
        .filter((operation) => phaseOf(operation) === phase)
        .flatMap((operation) =>
          Array.from({ length: operation.coverageOnly ? 1 : REQUESTS_PER_FIELD }, (_, index) =>
            buildGraphQLRequest(operation, random, fixture.callers, fixture.address, index > 0),
          ),
        ),
    );
    const byName = new Map(operations.map((operation) => [operation.name, operation]));
    const report = await walk(server, phases, {
      concurrency: CONCURRENCY,
      reached: (sent, answer) => sent.wellFormed && answered(byName.get(sent.operation)!, answer.body),
      problem: (sent, answer) => (sent.wellFormed ? refusedDocument(answer.body) : null),
    });
    console.log(summaryOf('graphql hostile-input', SEED, operations.length, report));
    const { failures, message } = failuresOf(SEED, report.failures);
    expect(failures, message).toEqual([]);
    // Every root field was reached past authentication: its resolver answered.
    expect(operations.map((operation) => operation.name).filter((name) => !report.reached.has(name))).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    // The service still answers a newcomer (the walk may have removed the owner).
    const viewer = await request(server)
      .post('/graphql')
      .set((await signUp(t.http)).headers)
      .send({ query: '{ organization { name } }' });
    expect(viewer.body.errors, viewer.text).toBeUndefined();
  });
});

const SET_RUN_VALUES = `mutation($ulid: String!, $values: [RunFieldValueInput!]!) {
  setRunCustomFieldValues(ulid: $ulid, values: $values) { fieldUlid value }
}`;
const UPDATE_PROJECT = `mutation($code: String!, $input: UpdateProjectInput!) { updateProject(code: $code, input: $input) { name } }`;

/** A raw GraphQL request body, so that JSON escapes reach the server as written. */
const postRaw = (headers: Record<string, string>, body: string) =>
  t.http.post('/graphql').set(headers).set('Content-Type', 'application/json').send(body);

describe('GraphQL: hostile variables', () => {
  it('answers validation_failed naming the path for a JSON variable nested too deeply, however deep', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const field = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
    const run = await createRun(t.http, owner, code, { caseUlids: [] });
    for (const depth of [MAX_NESTING_DEPTH, 100_000]) {
      const value = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const response = await postRaw(
        owner.headers,
        `{"query":${JSON.stringify(SET_RUN_VALUES)},"variables":{"ulid":"${run.ulid}","values":[{"fieldUlid":"${field.ulid}","value":${value}}]}}`,
      );
      const error = onlyError(response);
      expect(error.extensions?.code).toBe('validation_failed');
      expect(error.message).toContain(`deeper than ${MAX_NESTING_DEPTH} levels`);
      expect(error.extensions?.details?.path?.slice(0, 3)).toEqual(['values', 0, 'value']);
    }
  });

  it('answers validation_failed naming the field for a lone surrogate, in a string and in a key of a JSON value', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const name = onlyError(
      await postRaw(
        owner.headers,
        `{"query":${JSON.stringify(UPDATE_PROJECT)},"variables":{"code":"${project.id}","input":{"name":"a\\ud800"}}}`,
      ),
    );
    expect(name.extensions?.code).toBe('validation_failed');
    expect(name.extensions?.details?.path).toEqual(['name']);

    const field = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
    const run = await createRun(t.http, owner, project.id, { caseUlids: [] });
    const key = onlyError(
      await postRaw(
        owner.headers,
        `{"query":${JSON.stringify(SET_RUN_VALUES)},"variables":{"ulid":"${run.ulid}","values":[{"fieldUlid":"${field.ulid}","value":{"\\udc00":1}}]}}`,
      ),
    );
    expect(key.extensions?.code).toBe('validation_failed');
    expect(key.extensions?.details?.path).toEqual(['values', 0, 'value', '\udc00']);
  });

  it('answers validation_failed, not internal_error, for a NUL in an identifier, as a literal and as a variable', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const answers = [
      await graphql(t.http, owner, '{ webhook(ulid: "\\u0000") { ulid } }'),
      await graphql(t.http, owner, 'mutation($user: String!) { removeMember(userUlid: $user) }', { user: `${member.userId}\u0000` }),
      await graphql(t.http, owner, 'mutation($run: String!) { closeRun(ulid: $run) { ulid } }', { run: 'a\u0000' }),
    ];
    for (const answer of answers) expect(onlyError(answer).extensions?.code, answer.text).toBe('validation_failed');
  });

  it('echoes little of variables that do not coerce: a few hundred characters of a value, some fifty errors', async () => {
    const owner = await signUp(t.http);
    const compiledQuery = 'query($ulids: [String!]!) { projects(memberUlids: $ulids) { totalCount } }';
    const mutation = 'mutation($ulids: [String!]!) { setPlanConfigurations(ulid: "x", configurationUlids: $ulids) { configurationUlid } }';
    for (const query of [compiledQuery, mutation]) {
      const large = await graphql(t.http, owner, query, { ulids: { large: 'x'.repeat(1_000_000) } });
      const many = await graphql(t.http, owner, query, { ulids: Array.from({ length: 10_000 }, () => ({ nested: 'x' })) });
      expect(large.text.length).toBeLessThan(1_000);
      expect(many.text.length).toBeLessThan(32 * 1024);
      for (const response of [large, many]) {
        expect(response.status).toBe(400);
        expect(response.body.errors.every((error: GraphQLErrorBody) => error.extensions?.code === 'validation_failed')).toBe(true);
      }
    }
  });
});

describe('GraphQL: hostile transports', () => {
  it('answers a media type it does not take (415) or cannot answer (406) with the errors envelope', async () => {
    const owner = await signUp(t.http);
    const unreadable = await t.http.post('/graphql').set(owner.headers).set('Content-Type', 'text/plain').send('{ __typename }');
    const unanswerable = await t.http
      .post('/graphql')
      .set(owner.headers)
      .set('Accept', 'application/xml')
      .send({ query: '{ __typename }' });
    for (const [response, status] of [
      [unreadable, 415],
      [unanswerable, 406],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.errors[0].extensions.code).toBe('unsupported_media_type');
    }
    expect(unanswerable.body.errors[0].message).toContain('application/graphql-response+json');
  });
});

describe('GraphQL: hostile documents', () => {
  it('answers validation_failed, not internal_error, for a document nested too deeply to parse', async () => {
    const owner = await signUp(t.http);
    const selections = `query { ${'a { '.repeat(20_000)}b${' }'.repeat(20_000)} }`;
    const literal = `query { projects(q: ${'['.repeat(20_000)}${']'.repeat(20_000)}) { totalCount } }`;
    for (const query of [selections, literal]) {
      const response = await graphql(t.http, owner, query);
      expect(response.status).toBeLessThan(500);
      expect(response.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual(['validation_failed']);
    }
  });
});
