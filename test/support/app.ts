import { rm } from 'node:fs/promises';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { afterAll, beforeAll, expect } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { newDataDir } from './data-directories.ts';

export type TestApp = { app: App; http: TestAgent; dataDir: string };

/**
 * What test apps and server processes leave out unless a test asks for it: sending webhook
 * deliveries. On the server database every app would otherwise send every file's deliveries,
 * with its own settings (a refusing one, one with long retries).
 */
export const TEST_DEFAULTS = { TCMS_WEBHOOK_DISPATCH: 'false' };

/**
 * Starts the real app once per test file: on the PostgreSQL server named by DATABASE_URL, or
 * else on an embedded database of its own in a temporary directory (a copy of the migrated one). Files never share state except
 * the server database, where every test works in organizations of its own. `env` adds to (or
 * overrides) the environment the app is configured from.
 */
export function useTestApp(env: NodeJS.ProcessEnv = {}): TestApp {
  const handle = {} as TestApp;
  beforeAll(async () => {
    handle.dataDir = await newDataDir();
    handle.app = await createApp(loadConfig({ ...process.env, TCMS_DATA_DIR: handle.dataDir, NODE_ENV: 'test', ...TEST_DEFAULTS, ...env }));
    handle.http = request(handle.app.express);
  });
  afterAll(async () => {
    await handle.app?.close();
    await rm(handle.dataDir, { recursive: true, force: true });
  });
  return handle;
}

export type Caller = {
  /** Headers that authenticate this caller (cookie + X-Organization-Id, or a bearer token). */
  headers: Record<string, string>;
  orgId: string;
  userId: string;
  email: string;
};

export const uniqueEmail = (label = 'user') => `${label}-${newId().toLowerCase()}@example.test`;

/** Signs up a new user with an organization of their own; returns a session caller. */
export async function signUp(
  http: TestAgent,
  fields: Partial<{ email: string; password: string; firstName: string; lastName: string; organizationName: string }> = {},
): Promise<Caller> {
  const email = fields.email ?? uniqueEmail();
  const response = await http
    .post('/api/v1/auth/signup')
    .send({ password: 'correct horse battery', firstName: 'Test', lastName: 'User', ...fields, email });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${JSON.stringify(response.body)}`);
  return sessionCaller(response, email);
}

export function sessionCaller(response: request.Response, email: string): Caller {
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
  const orgId = response.body.organization?.ulid ?? response.body.organizations[0].ulid;
  return { headers: { Cookie: cookie, 'X-Organization-Id': orgId }, orgId, userId: response.body.user.ulid, email };
}

/** Creates an API token for `session` (role defaults to the server's choice) and returns a bearer caller. */
export async function tokenFor(
  http: TestAgent,
  session: Caller,
  body: Record<string, unknown> = {},
): Promise<Caller & { token: string; tokenUlid: string }> {
  const response = await http
    .post('/api/v1/me/api-tokens')
    .set(session.headers)
    .send({ name: 'ci token', ...body });
  if (response.status !== 201) throw new Error(`token creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return {
    headers: { Authorization: `Bearer ${response.body.token}` },
    orgId: session.orgId,
    userId: session.userId,
    email: session.email,
    token: response.body.token,
    tokenUlid: response.body.ulid,
  };
}

export const projectCode = () => `P${newId().slice(-8)}`;

export async function createProject(http: TestAgent, caller: Caller, fields: Record<string, unknown> = {}) {
  const response = await http
    .post('/api/v1/projects')
    .set(caller.headers)
    .send({ name: 'Project', id: projectCode(), ...fields });
  if (response.status !== 201) throw new Error(`project creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { ulid: string; id: string; name: string };
}

/** An owner with a project of their own; `code` is the project's id, as URLs name it. */
export async function ownerWithProject(http: TestAgent) {
  const owner = await signUp(http);
  const project = await createProject(http, owner);
  return { owner, project, code: project.id };
}

/** A suite in the project (named "Suite" unless `body` names it). */
export async function createSuite(http: TestAgent, caller: Caller, projectCode: string, body: Record<string, unknown> = {}) {
  const response = await http
    .post(`/api/v1/projects/${projectCode}/suites`)
    .set(caller.headers)
    .send({ name: 'Suite', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { ulid: string };
}

/** A milestone in the project (named "Release 1" unless `body` names it). */
export async function createMilestone(http: TestAgent, caller: Caller, projectCode: string, body: Record<string, unknown> = {}) {
  const response = await http
    .post(`/api/v1/projects/${projectCode}/milestones`)
    .set(caller.headers)
    .send({ name: 'Release 1', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as {
    ulid: string;
    projectUlid: string;
    name: string;
    description: string | null;
    dueAt: number | null;
    completedAt: number | null;
    createdAt: number;
    updatedAt: number;
  };
}

/** A REST error answer: `status`, `error.code` and a message that is not blank. */
export function expectError(response: request.Response, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.message.trim()).not.toBe('');
}

/** One event of GET /api/v1/orgs/{orgUlid}/audit-events. */
export type AuditEventBody = {
  ulid: string;
  action: string;
  actor: { kind: string; ulid?: string | null; email?: string | null; displayName?: string | null; name?: string | null };
  entityType: string;
  entityUlid: string;
  entityLabel: string;
  runUlid: string | null;
  metadata: Record<string, unknown>;
  createdAt: number;
};

/**
 * The latest 100 audit events of the caller's organization, newest first, keeping only those
 * that match every filter given: exactly `action`, an action starting with `actionPrefix`, `entityUlid`.
 */
export async function auditEvents(
  http: TestAgent,
  caller: Caller,
  filter: { action?: string; actionPrefix?: string; entityUlid?: string } = {},
): Promise<AuditEventBody[]> {
  const response = await http.get(`/api/v1/orgs/${caller.orgId}/audit-events?limit=100`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.events as AuditEventBody[]).filter(
    (event) =>
      (filter.action === undefined || event.action === filter.action) &&
      (filter.actionPrefix === undefined || event.action.startsWith(filter.actionPrefix)) &&
      (filter.entityUlid === undefined || event.entityUlid === filter.entityUlid),
  );
}

export function graphql(http: TestAgent, caller: Caller | undefined, query: string, variables: Record<string, unknown> = {}) {
  return http
    .post('/graphql')
    .set(caller?.headers ?? {})
    .send({ query, variables });
}

/**
 * A new user who joins `org` with `role`. The membership row is written directly, as a scenario
 * fixture that bypasses the seat limit; `inviteAndJoin` (test/support/invitations.ts) goes
 * through an invitation instead.
 */
export async function joinAs(
  http: TestAgent,
  org: Caller,
  role: 'admin' | 'member' | 'viewer',
  fields: Parameters<typeof signUp>[1] = {},
): Promise<Caller> {
  const person = await signUp(http, fields);
  await prisma().membership.create({ data: { id: newId(), orgId: org.orgId, userId: person.userId, role } });
  return { ...person, orgId: org.orgId, headers: { ...person.headers, 'X-Organization-Id': org.orgId } };
}
