import { describe, expect, it } from 'vitest';
import { expectError, graphql, signUp, useTestApp } from '../support/app.ts';

/** With an explicit allowlist (TCMS_CORS_ORIGINS) and a metrics token (TCMS_METRICS_TOKEN). */

const ALLOWED = 'https://app.example.com';
const METRICS_TOKEN = 'scrape-me-please-0123456789';
const t = useTestApp({ TCMS_CORS_ORIGINS: `${ALLOWED},http://localhost:5173`, TCMS_METRICS_TOKEN: METRICS_TOKEN });

describe('CORS with an allowlist', () => {
  it('grants listed origins, with credentials and the headers a client must read', async () => {
    const owner = await signUp(t.http);
    const rest = await t.http.get('/api/v1/projects').set(owner.headers).set('Origin', ALLOWED);
    expect(rest.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(rest.headers['access-control-allow-credentials']).toBe('true');
    expect(rest.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Remaining/);
    expect(rest.headers['access-control-expose-headers']).toMatch(/Idempotency-Replayed/);

    // A browser MCP client reads where to get an OAuth token from the 401 of /mcp.
    const mcp = await t.http.post('/mcp').set('Origin', ALLOWED).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(mcp.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);

    const graph = await graphql(t.http, owner, '{ organization { name } }').set('Origin', ALLOWED);
    expect(graph.headers['access-control-allow-origin']).toBe(ALLOWED);

    const preflight = await t.http
      .options('/api/v1/projects')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-organization-id,idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('grants nothing to an origin off the list', async () => {
    const owner = await signUp(t.http);
    const rest = await t.http.get('/api/v1/projects').set(owner.headers).set('Origin', 'https://app.example.com.evil.example');
    expect(rest.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.http.options('/graphql').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GET /metrics with a metrics token', () => {
  it('answers 401 in the error envelope without the token, and the metrics with it', async () => {
    expectError(await t.http.get('/metrics'), 401, 'unauthorized');
    expectError(await t.http.get('/metrics').set('Authorization', 'Bearer not-the-token-at-all'), 401, 'unauthorized');
    const response = await t.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/^tcms_http_requests_total\{/m);
  });
});
