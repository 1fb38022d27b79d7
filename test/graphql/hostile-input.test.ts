import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../../src/validation.ts';
import { createProject, graphql, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { onlyError } from '../support/graphql.ts';
import { createRun, createRunField } from '../support/runs.ts';

/** The hostile-input reproducers through GraphQL variables and documents: never internal_error. */
const t = useTestApp();

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
      await postRaw(owner.headers, `{"query":${JSON.stringify(UPDATE_PROJECT)},"variables":{"code":"${project.id}","input":{"name":"a\\ud800"}}}`),
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
