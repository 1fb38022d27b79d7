import { describe, expect, it } from 'vitest';
import { createHttpServer, SERVER_TIMEOUTS } from '../../app/http-server.ts';
import { SERVICE_VERSION } from '../../src/kernel/version.ts';
import { createProject, graphql, signUp, tokenFor, useTestApp } from '../support/app.ts';

/** What an operator and a load balancer see of the service: probes, metrics, CORS, timeouts. */

const t = useTestApp();

describe('probes', () => {
  it('answers liveness and readiness while the database answers', async () => {
    expect((await t.http.get('/api/v1/health')).body).toEqual({ status: 'ok', version: SERVICE_VERSION });
    const ready = await t.http.get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'up' } });
  });
});

describe('GET /metrics', () => {
  it('counts requests by route template and status, with latency histograms', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const project = await createProject(t.http, owner);
    await t.http.get(`/api/v1/projects/${project.id}`).set(token.headers).expect(200);
    await t.http.get('/api/v1/projects/NOPE').set(token.headers).expect(404);
    await graphql(t.http, token, '{ organization { name } }').expect(200);
    await t.http.get('/no/such/path').expect(404);

    const response = await t.http.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.text;
    const count = (labels: string) => Number(new RegExp(`^tcms_http_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('method="GET",route="/api/v1/projects/\\{projectId\\}",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="/api/v1/projects/\\{projectId\\}",status="404"')).toBeGreaterThanOrEqual(1);
    expect(count('method="POST",route="/graphql",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="unmatched",status="404"')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /^tcms_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/v1\/projects\/\{projectId\}",status="200"\} \d+$/m,
    );
    expect(text).toMatch(/^tcms_http_requests_in_flight \d+$/m);
    expect(text).toMatch(/^tcms_process_resident_memory_bytes \d+/m);
    // Concrete paths never become labels: the number of series stays bounded.
    expect(text).not.toContain(project.id);
    if (t.app.database.engine === 'postgres') {
      expect(text).toMatch(/^tcms_db_pool_connections\{state="open"\} \d+$/m);
      expect(text).toMatch(/^tcms_db_pool_waiting_requests \d+$/m);
    } else {
      expect(text).not.toMatch(/^tcms_db_pool_connections\{/m);
    }
  });
});

describe('CORS', () => {
  it('is off by default: no origin is granted, for REST or GraphQL, with or without credentials', async () => {
    const owner = await signUp(t.http);
    const origin = 'https://evil.example';
    const rest = await t.http.get('/api/v1/projects').set(owner.headers).set('Origin', origin);
    expect(rest.headers['access-control-allow-origin']).toBeUndefined();
    const graph = await graphql(t.http, owner, '{ organization { name } }').set('Origin', origin);
    expect(graph.headers['access-control-allow-origin']).toBeUndefined();
    expect(graph.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.http.options('/graphql').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the HTTP server behind a load balancer', () => {
  it('keeps idle connections longer than the usual 60 s proxy timeout and bounds headers and requests', () => {
    const server = createHttpServer(t.app);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeout);
  });
});
