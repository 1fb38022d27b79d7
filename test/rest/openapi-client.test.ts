import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from '../../scripts/openapi-types.ts';
import { projectCode, uniqueEmail, useTestApp } from '../support/app.ts';
import type { paths } from '../support/openapi-v1.d.ts';

const t = useTestApp();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = t.app.express.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the typed client generated from /openapi/v1.json', () => {
  it('is checked in as generated from the served document', async () => {
    const { body: document } = await t.http.get('/openapi/v1.json');
    expect(readFileSync(OPENAPI_TYPES_FILE, 'utf8'), 'run `npm run openapi:types`').toBe(await renderOpenApiTypes(document));
  });

  it('drives a workflow from sign-up to plan progress, numbers as numbers', async () => {
    const api = createClient<paths>({ baseUrl });
    const signup = await api.POST('/api/v1/auth/signup', {
      body: { email: uniqueEmail('client'), password: 'correct horse battery', firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(signup.response.status).toBe(201);
    const session = {
      params: { header: { 'X-Organization-Id': signup.data!.organization.ulid } },
      headers: {
        Cookie: signup.response.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; '),
      },
    };
    const created = await api.POST('/api/v1/me/api-tokens', { ...session, body: { name: 'typed client', role: 'admin' } });
    expect(created.response.status).toBe(201);

    const ci = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${created.data!.token}` } });
    const project = await ci.POST('/api/v1/projects', { body: { name: 'Typed', id: projectCode() } });
    expect(project.response.status).toBe(201);
    const projectId = project.data!.id;
    const suite = await ci.POST('/api/v1/projects/{projectId}/suites', { params: { path: { projectId } }, body: { name: 'Checkout' } });
    const testCase = await ci.POST('/api/v1/projects/{projectId}/test-cases', {
      params: { path: { projectId } },
      body: { title: 'Pay by card', suiteUlid: suite.data!.ulid, steps: [{ action: 'Pay', expectedResult: 'Paid' }] },
    });
    expect(testCase.response.status).toBe(201);
    const caseUlid = testCase.data!.ulid;

    const plan = await ci.POST('/api/v1/projects/{projectId}/plans', { params: { path: { projectId } }, body: { name: 'Release 1' } });
    const planUlid = plan.data!.ulid;
    const selection = await ci.PUT('/api/v1/plans/{planUlid}/cases', { params: { path: { planUlid } }, body: { caseUlids: [caseUlid] } });
    expect(selection.data!.items.map((item) => item.caseUlid)).toEqual([caseUlid]);
    const run = await ci.POST('/api/v1/projects/{projectId}/runs', {
      params: { path: { projectId } },
      body: { name: 'Nightly', planUlid },
    });
    expect(run.response.status).toBe(201);

    const results = await ci.POST('/api/v1/runs/{runUlid}/results/bulk', {
      params: { path: { runUlid: run.data!.ulid }, header: { 'Idempotency-Key': `typed-${caseUlid}` } },
      body: { results: [{ caseUlid, status: 'passed', elapsedMs: 1200 }] },
    });
    expect(results.data).toMatchObject({ affected: 1, unchanged: 0 });
    expect(results.response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);

    const progress = await ci.GET('/api/v1/plans/{planUlid}', { params: { path: { planUlid } } });
    expect(progress.data!.progress).toMatchObject({ totalRuns: 1, counts: { passed: 1, untested: 0 } });

    const projects = await ci.GET('/api/v1/projects', { params: { query: { page: 1, pageSize: 10 } } });
    expect(projects.data).toMatchObject({ page: 1, pageSize: 10, total: 1 });
    expect(projects.data!.items.map((item) => item.id)).toEqual([projectId]);

    const refused = await ci.GET('/api/v1/projects', { params: { query: { pageSize: 500 } } });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.error.code).toBe('validation_failed');
  });
});
