import { randomBytes } from 'node:crypto';
import type { ServiceProcess } from './child.ts';

/** An organization of its own, reached with an API token (the integrator path); `session` is its owner's, who made the token. */
export type Integrator = { orgId: string; userId: string; token: string; tokenId: string; tokenName: string; session: SessionPerson };

/** The headers that authenticate `who` (an API token: Authorization: Bearer). */
export const bearer = (who: Integrator) => ({ authorization: `Bearer ${who.token}` });

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

/** A person signed up through the API, with their session (the cookie header and its token). */
export type SessionPerson = { orgId: string; userId: string; cookie: string; sessionToken: string };

/** Signs up a new person, who gets an organization of their own and a session. */
export async function signUpPerson(service: ServiceProcess, label: string): Promise<SessionPerson> {
  const email = `bench-${label}-${randomBytes(6).toString('hex')}@example.test`;
  const signup = await call(service, 'POST', '/api/v1/auth/signup', {
    email,
    password: 'correct horse battery staple',
    firstName: 'Bench',
    lastName: label,
    organizationName: `bench ${label}`,
  });
  expect(201, signup, 'signup');
  // The one cookie signup sets is the session's.
  const [name, value] = signup.setCookie[0]!.split(';')[0]!.split('=') as [string, string];
  return {
    orgId: signup.body.organization?.ulid ?? signup.body.organizations[0].ulid,
    userId: signup.body.user.ulid,
    cookie: `${name}=${value}`,
    sessionToken: decodeURIComponent(value),
  };
}

/** The headers of `person`'s session acting in `orgId` (the browser path: never metered). */
export const sessionHeaders = (person: SessionPerson, orgId: string) => ({ cookie: person.cookie, 'x-organization-id': orgId });

/**
 * Signs up a new person (who gets an organization of their own), creates an API token with the
 * session, and raises the organization's ceilings so that neither the project count nor the
 * per-minute request ceiling interferes with the measurement.
 */
export async function newIntegrator(service: ServiceProcess, label: string): Promise<Integrator> {
  const person = await signUpPerson(service, label);
  const tokenName = `bench ${label}`;
  const created = await call(
    service,
    'POST',
    '/api/v1/me/api-tokens',
    { name: tokenName, role: 'admin' },
    sessionHeaders(person, person.orgId),
  );
  expect(201, created, 'API token creation');
  await service.raiseLimits(person.orgId);
  return { orgId: person.orgId, userId: person.userId, token: created.body.token, tokenId: created.body.ulid, tokenName, session: person };
}

/** Creates projects through the API (the list benchmark's page). */
export async function seedProjects(service: ServiceProcess, who: Integrator, count: number, codeOf: (i: number) => string) {
  for (let i = 0; i < count; i++) {
    const result = await call(service, 'POST', '/api/v1/projects', { id: codeOf(i), name: `Seeded project ${i}` }, bearer(who));
    expect(201, result, 'seeding a project');
  }
}

/** One authenticated GET, to check an answer before measuring. */
export async function getJsonAs(service: ServiceProcess, path: string, headers: Record<string, string>) {
  const result = await call(service, 'GET', path, undefined, headers);
  expect(200, result, `GET ${path}`);
  return result.body;
}

/** One GET with `who`'s token. */
export const getJson = (service: ServiceProcess, path: string, who: Integrator) => getJsonAs(service, path, bearer(who));

/** Creates one project through the API; returns its ULID. */
export async function createProjectThroughApi(service: ServiceProcess, who: Integrator, code: string, name: string): Promise<string> {
  const result = await call(service, 'POST', '/api/v1/projects', { id: code, name }, bearer(who));
  expect(201, result, `creating project ${code}`);
  return result.body.ulid;
}

/** A select field of the organization and its option ULIDs, found by systemKey (GET …/custom-fields?q=). */
export type SelectField = { fieldUlid: string; optionUlids: string[] };

export async function systemSelectField(service: ServiceProcess, who: Integrator, systemKey: string): Promise<SelectField> {
  const page = await getJson(service, `/api/v1/orgs/${who.orgId}/custom-fields?q=${encodeURIComponent(systemKey)}`, who);
  const field = (page.items as Array<{ ulid: string; systemKey: string | null; options: Array<{ ulid: string }> }>).find(
    (item) => item.systemKey === systemKey,
  );
  if (!field || field.options.length < 2) throw new Error(`no system field ${systemKey} with two options: ${JSON.stringify(page)}`);
  return { fieldUlid: field.ulid, optionUlids: field.options.map((option) => option.ulid) };
}

/** Creates one suite (under `parentUlid`, else at the root) through the API; returns its ULID. */
export async function createSuiteThroughApi(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  name: string,
  parentUlid?: string,
): Promise<string> {
  const result = await call(service, 'POST', `/api/v1/projects/${code}/suites`, { name, parentUlid }, bearer(who));
  expect(201, result, `creating suite ${name}`);
  return result.body.ulid;
}

/** A created test case as far as the benchmark needs it. */
export type CreatedCase = {
  ulid: string;
  caseNumber: number;
  title: string;
  steps: Array<{ ulid: string; action: string; expectedResult: string | null }>;
};

/**
 * Creates `count` test cases through the API, `concurrency` at a time (creates in one project
 * queue on its case counter anyway); `bodyOf(i)` is the i-th request body. Returns them in order.
 */
export async function seedCases(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  count: number,
  bodyOf: (index: number) => unknown,
  concurrency = 4,
): Promise<CreatedCase[]> {
  const cases: CreatedCase[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const result = await call(service, 'POST', `/api/v1/projects/${code}/test-cases`, bodyOf(index), bearer(who));
      expect(201, result, 'seeding a test case');
      cases[index] = result.body;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return cases;
}

/** Every active case of a project (ULID, caseNumber, title, steps), through the cursor-paged list. */
export async function listCases(service: ServiceProcess, who: Integrator, code: string): Promise<CreatedCase[]> {
  const cases: CreatedCase[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: CreatedCase[]; nextCursor: string | null } = await getJson(
      service,
      `/api/v1/projects/${code}/test-cases?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      who,
    );
    cases.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return cases;
}

/** One GraphQL request with the token; throws on an HTTP error or a GraphQL error. */
export async function graphqlData(service: ServiceProcess, who: Integrator, query: string, variables: Record<string, unknown>) {
  const result = await call(service, 'POST', '/graphql', { query, variables }, bearer(who));
  expect(200, result, 'GraphQL request');
  if (result.body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(result.body.errors)}`);
  return result.body.data;
}

/**
 * The organization's newest audit events while they carry `action` (newest first, paged through
 * the audit feed): what a run of one kind of mutation recorded after everything before it.
 */
export async function newestEventsOf(service: ServiceProcess, who: Integrator, action: string) {
  const events: Array<{ action: string; entityUlid: string; metadata: Record<string, unknown> }> = [];
  let cursor: string | null = null;
  do {
    const page: { events: typeof events; nextCursor: string | null } = await getJson(
      service,
      `/api/v1/orgs/${who.orgId}/audit-events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      who,
    );
    const other = page.events.findIndex((event) => event.action !== action);
    events.push(...(other < 0 ? page.events : page.events.slice(0, other)));
    cursor = other < 0 ? page.nextCursor : null;
  } while (cursor);
  return events;
}
