import { describe, expect, it } from 'vitest';
import { graphql, signUp, useTestApp } from '../support/app.ts';
import type { GraphQLErrorBody } from '../support/graphql.ts';

/**
 * In production the schema is not a map handed to anyone who asks: no introspection, no "did you
 * mean" suggestions, no GraphiQL — for anonymous and signed-in callers alike.
 */

const t = useTestApp({ NODE_ENV: 'production' });

const errorsOf = (response: { body: { errors?: GraphQLErrorBody[] } }) => response.body.errors ?? [];

describe('GraphQL in production', () => {
  it.each([
    ['__schema', '{ __schema { types { name } } }'],
    ['__type', '{ __type(name: "Query") { fields { name } } }'],
  ])('refuses introspection through %s, signed in or not', async (_field, query) => {
    const owner = await signUp(t.http);
    for (const caller of [undefined, owner]) {
      const response = await graphql(t.http, caller, query);
      expect(response.status).toBeLessThan(500);
      const [error] = errorsOf(response);
      expect(error?.extensions?.code, JSON.stringify(response.body)).toBe('validation_failed');
      expect(error?.message).toMatch(/introspection has been disabled/i);
      expect(JSON.stringify(response.body)).not.toContain('"fields"');
    }
  });

  it('keeps __typename, which clients need to tell types apart', async () => {
    const response = await graphql(t.http, undefined, '{ __typename }');
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('suggests no field names for a misspelt query', async () => {
    const response = await graphql(t.http, undefined, '{ projcts { totalCount } organizaton { name } }');
    const errors = errorsOf(response);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.extensions?.code).toBe('validation_failed');
      expect(error.message).not.toMatch(/did you mean/i);
      expect(error.message).not.toMatch(/projects|organization"/);
    }
  });

  it('serves no GraphiQL page', async () => {
    const response = await t.http.get('/graphql').set('Accept', 'text/html');
    expect(response.text ?? '').not.toMatch(/graphiql/i);
  });
});
