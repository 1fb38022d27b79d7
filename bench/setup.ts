import { randomBytes } from 'node:crypto';
import type { ServiceProcess } from './child.ts';

/** An organization of its own, reached with an API token (the integrator path). */
export type Integrator = { orgId: string; userId: string; token: string; tokenId: string; tokenName: string };

const REQUEST_TIMEOUT_MS = 15_000;

async function call(
  service: ServiceProcess,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; setCookie: string[] }> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, setCookie: response.headers.getSetCookie() };
}

function expect(status: number, result: { status: number; body: unknown }, what: string) {
  if (result.status !== status) throw new Error(`${what}: HTTP ${result.status} ${JSON.stringify(result.body)}`);
}

/**
 * Signs up a new person (who gets an organization of their own), creates an API token with the
 * session, and raises the organization's ceilings so that neither the project count nor the
 * per-minute request ceiling interferes with the measurement.
 */
export async function newIntegrator(service: ServiceProcess, label: string): Promise<Integrator> {
  const email = `bench-${label}-${randomBytes(6).toString('hex')}@example.test`;
  const signup = await call(service, 'POST', '/api/v1/auth/signup', {
    email,
    password: 'correct horse battery staple',
    firstName: 'Bench',
    lastName: label,
    organizationName: `bench ${label}`,
  });
  expect(201, signup, 'signup');
  const cookie = signup.setCookie.map((line) => line.split(';')[0]).join('; ');
  const orgId: string = signup.body.organization?.ulid ?? signup.body.organizations[0].ulid;
  const tokenName = `bench ${label}`;
  const created = await call(service, 'POST', '/api/v1/me/api-tokens', { name: tokenName, role: 'admin' }, {
    cookie,
    'x-organization-id': orgId,
  });
  expect(201, created, 'API token creation');
  await service.raiseLimits(orgId);
  return { orgId, userId: signup.body.user.ulid, token: created.body.token, tokenId: created.body.ulid, tokenName };
}

/** Creates projects through the API (the list benchmark's page). */
export async function seedProjects(service: ServiceProcess, who: Integrator, count: number, codeOf: (i: number) => string) {
  for (let i = 0; i < count; i++) {
    const result = await call(service, 'POST', '/api/v1/projects', { id: codeOf(i), name: `Seeded project ${i}` }, {
      authorization: `Bearer ${who.token}`,
    });
    expect(201, result, 'seeding a project');
  }
}

/** One authenticated GET, to check the page shape before measuring. */
export async function getJson(service: ServiceProcess, path: string, who: Integrator) {
  const result = await call(service, 'GET', path, undefined, { authorization: `Bearer ${who.token}` });
  expect(200, result, `GET ${path}`);
  return result.body;
}
