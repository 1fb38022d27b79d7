import { describe, expect, it } from 'vitest';
import { graphql, useTestApp } from '../support/app.ts';

/** In development, GraphiQL works offline: its page and scripts come from the service itself. */

const t = useTestApp({ NODE_ENV: 'development' });

describe('GraphiQL in development', () => {
  it('serves a page that loads nothing from another host', async () => {
    const response = await t.http.get('/graphql').set('Accept', 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toMatch(/graphiql/i);
    const externalUrls = [...response.text.matchAll(/(?:src|href)\s*=\s*["'](https?:\/\/[^"']+)/g)].map((match) => match[1]);
    expect(externalUrls).toEqual([]);
    expect(response.text).not.toMatch(/unpkg\.com|jsdelivr|cdn\./);
  });

  it('answers introspection outside production', async () => {
    const response = await graphql(t.http, undefined, '{ __schema { queryType { name } } }');
    expect(response.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});
