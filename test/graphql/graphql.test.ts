import { createSchema, createYoga } from 'graphql-yoga';
import type { Response } from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { maskGraphQLError } from '../../schema/errors.ts';
import { onQuery } from '../../src/kernel/database/client.ts';
import { logger } from '../../src/kernel/logger.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { type Caller, createProject, graphql, joinAs, projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, type GraphQLErrorBody, onlyError } from '../support/graphql.ts';

const t = useTestApp();

const CREATE = `mutation($input: CreateProjectInput!) { createProject(input: $input) { ulid code name description } }`;
const UPDATE = `mutation($code: String!, $input: UpdateProjectInput!) { updateProject(code: $code, input: $input) { ulid code name description } }`;
const DELETE = `mutation($code: String!) { deleteProject(code: $code) }`;
const PROJECT = `query($code: String!) { project(code: $code) { ulid code name lockedAt } }`;
const PAGE = `query($first: Int, $after: String, $q: String) {
  projects(first: $first, after: $after, q: $q) {
    edges { cursor node { code name } }
    pageInfo { hasNextPage endCursor }
    totalCount
  }
}`;

const restProject = (caller: Caller, code: string) => t.http.get(`/api/v1/projects/${code}`).set(caller.headers);

describe('GraphQL: identity and authentication', () => {
  it('answers viewer and organization for a session (cookie + X-Organization-Id)', async () => {
    const owner = await signUp(t.http, { firstName: 'Ada', lastName: 'Lovelace', organizationName: 'Analytical' });
    const data = dataOf(
      await graphql(
        t.http,
        owner,
        `{ viewer { ulid email displayName role authenticatedBy organizations { ulid name role } }
           organization { ulid name plan createdAt } }`,
      ),
    );
    expect(data.viewer).toEqual({
      ulid: owner.userId,
      email: owner.email,
      displayName: 'Ada Lovelace',
      role: 'owner',
      authenticatedBy: 'session',
      organizations: [{ ulid: owner.orgId, name: 'Analytical', role: 'owner' }],
    });
    const rest = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(rest.status).toBe(200);
    expect(typeof data.organization.createdAt).toBe('number');
    expect(data.organization).toEqual({ ulid: owner.orgId, name: 'Analytical', plan: 'free', createdAt: rest.body.createdAt });
    expect(Math.abs(data.organization.createdAt - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('answers viewer and organization for a bearer token', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner, { role: 'member' });
    const data = dataOf(
      await graphql(t.http, token, '{ viewer { email role authenticatedBy organizations { ulid role } } organization { ulid plan } }'),
    );
    expect(data.viewer).toEqual({
      email: owner.email,
      role: 'member',
      authenticatedBy: 'api_token',
      organizations: [{ ulid: owner.orgId, role: 'owner' }],
    });
    expect(data.organization).toEqual({ ulid: owner.orgId, plan: 'free' });
  });

  it('acts in the organization named by X-Organization-Id and refuses one the caller is no member of', async () => {
    const owner = await signUp(t.http);
    const second = await t.http.post('/api/v1/orgs').set(owner.headers).send({ name: 'Second' });
    expect(second.status).toBe(201);
    const inSecond: Caller = { ...owner, orgId: second.body.ulid, headers: { ...owner.headers, 'X-Organization-Id': second.body.ulid } };
    const secondProject = await createProject(t.http, inSecond, { name: 'Only in second' });

    const data = dataOf(
      await graphql(
        t.http,
        inSecond,
        '{ organization { ulid name } viewer { organizations { ulid } } projects { totalCount edges { node { code } } } }',
      ),
    );
    expect(data.organization).toEqual({ ulid: second.body.ulid, name: 'Second' });
    expect(data.viewer.organizations.map((o: { ulid: string }) => o.ulid).sort()).toEqual([owner.orgId, second.body.ulid].sort());
    expect(data.projects.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual([secondProject.id]);
    expect(dataOf(await graphql(t.http, owner, '{ projects { totalCount } }')).projects.totalCount).toBe(0);

    const stranger = await signUp(t.http);
    const foreign = await graphql(
      t.http,
      { ...owner, headers: { ...owner.headers, 'X-Organization-Id': stranger.orgId } },
      '{ organization { ulid } }',
    );
    expect(codeOf(foreign)).toBe('not_found');
    expect(foreign.body.data).toBeNull();
  });

  it('answers unauthorized without credentials or with an unknown token', async () => {
    for (const query of ['{ viewer { email } }', '{ organization { ulid } }', '{ projects { totalCount } }']) {
      const anonymous = await graphql(t.http, undefined, query);
      expect(codeOf(anonymous)).toBe('unauthorized');
      expect(anonymous.body.data).toBeNull();
    }
    const anonymousCreate = await graphql(t.http, undefined, CREATE, { input: { name: 'X', code: projectCode() } });
    expect(codeOf(anonymousCreate)).toBe('unauthorized');
    const bogus = await graphql(
      t.http,
      { headers: { Authorization: 'Bearer tcms_not-a-real-token' }, orgId: '', userId: '', email: '' },
      '{ viewer { email } }',
    );
    expect(codeOf(bogus)).toBe('unauthorized');
  });

  it('applies the CSRF rule: a cookie-only POST needs X-Organization-Id or a same-origin Origin', async () => {
    const owner = await signUp(t.http);
    const cookieOnly = { Cookie: owner.headers.Cookie! };
    const body = { query: '{ viewer { email } }' };

    const bare = await t.http.post('/graphql').set(cookieOnly).send(body);
    expect(codeOf(bare)).toBe('forbidden');
    expect(bare.body.data).toBeNull();

    const crossSite = await t.http
      .post('/graphql')
      .set({ ...cookieOnly, Host: 'tcms.example', Origin: 'https://evil.example' })
      .send(body);
    expect(codeOf(crossSite)).toBe('forbidden');

    const code = projectCode();
    const crossSiteWrite = await t.http
      .post('/graphql')
      .set({ ...cookieOnly, Host: 'tcms.example', Origin: 'https://evil.example' })
      .send({ query: CREATE, variables: { input: { name: 'CSRF', code } } });
    expect(codeOf(crossSiteWrite)).toBe('forbidden');
    expect((await restProject(owner, code)).status).toBe(404);

    const sameOrigin = await t.http
      .post('/graphql')
      .set({ ...cookieOnly, Host: 'tcms.example', Origin: 'https://tcms.example' })
      .send(body);
    expect(dataOf(sameOrigin).viewer.email).toBe(owner.email);

    // A GET is safe: the cookie alone is enough, and the oldest membership is the active organization.
    const get = await t.http.get('/graphql').query({ query: '{ organization { ulid } }' }).set(cookieOnly);
    expect(dataOf(get).organization.ulid).toBe(owner.orgId);

    // Bearer requests are exempt.
    const token = await tokenFor(t.http, owner);
    const bearer = await t.http
      .post('/graphql')
      .set({ ...token.headers, Origin: 'https://evil.example' })
      .send(body);
    expect(dataOf(bearer).viewer.email).toBe(owner.email);
  });
});

describe('GraphQL: projects', () => {
  it('pages the projects connection oldest first with first/after, pageInfo and totalCount', async () => {
    const owner = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 10 });
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    const created = [];
    for (const name of names) created.push(await createProject(t.http, owner, { name }));
    const codes = created.map((p) => p.id);

    const first = dataOf(await graphql(t.http, owner, PAGE, { first: 2 })).projects;
    expect(first.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(codes.slice(0, 2));
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(first.pageInfo.endCursor).toBe(first.edges[1].cursor);
    expect(first.totalCount).toBe(5);

    const second = dataOf(await graphql(t.http, owner, PAGE, { first: 2, after: first.pageInfo.endCursor })).projects;
    expect(second.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(codes.slice(2, 4));
    expect(second.pageInfo.hasNextPage).toBe(true);
    expect(second.totalCount).toBe(5);

    const third = dataOf(await graphql(t.http, owner, PAGE, { first: 2, after: second.pageInfo.endCursor })).projects;
    expect(third.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(codes.slice(4));
    expect(third.pageInfo.hasNextPage).toBe(false);

    const all = dataOf(await graphql(t.http, owner, PAGE, {})).projects;
    expect(all.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(names);
    expect(all.pageInfo.hasNextPage).toBe(false);
  });

  it('filters by q (case-insensitive, name or code) and counts the filtered set', async () => {
    const owner = await signUp(t.http);
    const alpha = await createProject(t.http, owner, { name: 'Alpha web' });
    const beta = await createProject(t.http, owner, { name: 'Beta mobile' });
    const gamma = await createProject(t.http, owner, { name: 'Gamma WEB' });

    const byName = dataOf(await graphql(t.http, owner, PAGE, { q: 'wEb' })).projects;
    expect(byName.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual([alpha.id, gamma.id]);
    expect(byName.totalCount).toBe(2);

    const byCode = dataOf(await graphql(t.http, owner, PAGE, { q: beta.id.toLowerCase() })).projects;
    expect(byCode.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual([beta.id]);
    expect(byCode.totalCount).toBe(1);

    const paged = dataOf(await graphql(t.http, owner, PAGE, { q: 'web', first: 1 })).projects;
    expect(paged.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual([alpha.id]);
    expect(paged.pageInfo.hasNextPage).toBe(true);
    expect(paged.totalCount).toBe(2);
  });

  it('answers project(code) for tokens and sessions, not_found for an unknown code', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Web', description: 'shop' });
    const token = await tokenFor(t.http, owner, { role: 'viewer' });
    for (const caller of [owner, token]) {
      const data = dataOf(await graphql(t.http, caller, PROJECT, { code: project.id }));
      expect(data.project).toEqual({ ulid: project.ulid, code: project.id, name: 'Web', lockedAt: null });
    }
    const unknown = await graphql(t.http, owner, PROJECT, { code: 'NOSUCHPROJECT' });
    expect(codeOf(unknown)).toBe('not_found');
    expect(onlyError(unknown).path).toEqual(['project']);
    expect(unknown.body.data).toEqual({ project: null });
  });

  it('answers a NUL character in q with validation_failed and in a code with not_found, never internal_error', async () => {
    const owner = await signUp(t.http);
    expect(codeOf(await graphql(t.http, owner, PAGE, { q: 'a\u0000b' }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, PROJECT, { code: 'AB\u0000' }))).toBe('not_found');
    expect(codeOf(await graphql(t.http, owner, PROJECT, { code: 'lower-case' }))).toBe('not_found');
  });

  it('keeps every organization to its own projects (tenancy)', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    const theirs = await createProject(t.http, other, { name: 'Theirs' });
    const token = await tokenFor(t.http, owner);

    for (const caller of [owner, token]) {
      expect(codeOf(await graphql(t.http, caller, PROJECT, { code: theirs.id }))).toBe('not_found');
      expect(codeOf(await graphql(t.http, caller, UPDATE, { code: theirs.id, input: { name: 'Hijacked' } }))).toBe('not_found');
      expect(codeOf(await graphql(t.http, caller, DELETE, { code: theirs.id }))).toBe('not_found');
      const list = dataOf(await graphql(t.http, caller, PAGE, { q: theirs.id })).projects;
      expect(list.edges).toEqual([]);
      expect(list.totalCount).toBe(0);
    }
    // The same code may exist in both organizations without seeing each other.
    const mine = dataOf(await graphql(t.http, owner, CREATE, { input: { name: 'Mine', code: theirs.id } })).createProject;
    expect(mine.code).toBe(theirs.id);
    expect(mine.ulid).not.toBe(theirs.ulid);

    const untouched = await restProject(other, theirs.id);
    expect(untouched.status).toBe(200);
    expect(untouched.body).toMatchObject({ ulid: theirs.ulid, name: 'Theirs' });
  });
});

describe('GraphQL: project mutations', () => {
  it('create, update and delete go through the service: REST sees them and the audit log records them', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const code = projectCode();

    const created = dataOf(await graphql(t.http, token, CREATE, { input: { name: 'Web', code, description: 'Shop' } })).createProject;
    expect(created).toMatchObject({ code, name: 'Web', description: 'Shop' });
    const afterCreate = await restProject(owner, code);
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.body).toMatchObject({ ulid: created.ulid, id: code, name: 'Web', description: 'Shop' });

    const updated = dataOf(await graphql(t.http, owner, UPDATE, { code, input: { name: 'Web shop', description: null } })).updateProject;
    expect(updated).toMatchObject({ ulid: created.ulid, code, name: 'Web shop', description: null });
    const afterUpdate = await restProject(token, code);
    expect(afterUpdate.status).toBe(200);
    expect(afterUpdate.body).toMatchObject({ name: 'Web shop', description: null });

    expect(dataOf(await graphql(t.http, owner, DELETE, { code })).deleteProject).toBe(true);
    expect((await restProject(owner, code)).status).toBe(404);
    expect(codeOf(await graphql(t.http, owner, PROJECT, { code }))).toBe('not_found');

    const audit = await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(owner.headers);
    expect(audit.status).toBe(200);
    const events = (audit.body.events as Array<{ action: string; entityUlid: string; actor: { kind: string } }>).filter(
      (event) => event.entityUlid === created.ulid,
    );
    expect(events.map((event) => event.action)).toEqual(['project.deleted', 'project.updated', 'project.created']);
    expect(events.map((event) => event.actor.kind)).toEqual(['user', 'user', 'api_token']);
  });

  it('answers forbidden to viewers and members (sessions and tokens) and changes nothing', async () => {
    const owner = await signUp(t.http);
    const existing = await createProject(t.http, owner, { name: 'Existing' });
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const memberToken = await tokenFor(t.http, member);
    const viewerToken = await tokenFor(t.http, viewer);

    for (const caller of [member, viewer, memberToken, viewerToken]) {
      const code = projectCode();
      const create = await graphql(t.http, caller, CREATE, { input: { name: 'Nope', code } });
      expect(codeOf(create)).toBe('forbidden');
      expect(create.body.data).toBeNull();
      expect((await restProject(owner, code)).status).toBe(404);
      expect(codeOf(await graphql(t.http, caller, UPDATE, { code: existing.id, input: { name: 'Renamed' } }))).toBe('forbidden');
      expect(codeOf(await graphql(t.http, caller, DELETE, { code: existing.id }))).toBe('forbidden');
      // Reading is allowed.
      expect(dataOf(await graphql(t.http, caller, PROJECT, { code: existing.id })).project.name).toBe('Existing');
    }
    const still = await restProject(owner, existing.id);
    expect(still.status).toBe(200);
    expect(still.body.name).toBe('Existing');
  });

  it('answers validation_failed for invalid input and creates nothing', async () => {
    const owner = await signUp(t.http);
    const invalid = await graphql(t.http, owner, CREATE, { input: { name: 'Web', code: 'web' } });
    expect(codeOf(invalid)).toBe('validation_failed');
    expect(invalid.body.data).toBeNull();
    expect((await restProject(owner, 'web')).status).toBe(404);
    expect(dataOf(await graphql(t.http, owner, '{ projects { totalCount } }')).projects.totalCount).toBe(0);

    expect(codeOf(await graphql(t.http, owner, CREATE, { input: { name: '', code: projectCode() } }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, CREATE, { input: { name: 'x'.repeat(201), code: projectCode() } }))).toBe(
      'validation_failed',
    );

    const project = await createProject(t.http, owner, { name: 'Web' });
    expect(codeOf(await graphql(t.http, owner, UPDATE, { code: project.id, input: {} }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, UPDATE, { code: project.id, input: { name: '' } }))).toBe('validation_failed');
    expect((await restProject(owner, project.id)).body.name).toBe('Web');

    // Malformed paging arguments are invalid input too, never an internal error.
    expect(codeOf(await graphql(t.http, owner, PAGE, { first: -1 }))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, PAGE, { after: 'not-a-cursor' }))).toBe('validation_failed');
  });

  it('answers conflict for a duplicate code', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Web' });
    expect(codeOf(await graphql(t.http, owner, CREATE, { input: { name: 'Again', code: project.id } }))).toBe('conflict');
  });

  it('answers project_limit_exceeded for a 4th project on the free plan', async () => {
    const owner = await signUp(t.http);
    for (let i = 0; i < 3; i++) {
      dataOf(await graphql(t.http, owner, CREATE, { input: { name: `P${i}`, code: projectCode() } }));
    }
    const code = projectCode();
    const fourth = await graphql(t.http, owner, CREATE, { input: { name: 'Fourth', code } });
    expect(codeOf(fourth)).toBe('project_limit_exceeded');
    expect(fourth.body.data).toBeNull();
    expect((await restProject(owner, code)).status).toBe(404);
    expect(dataOf(await graphql(t.http, owner, '{ projects { totalCount } }')).projects.totalCount).toBe(3);
  });

  it('answers project_locked for a locked project, except for its deletion', async () => {
    const owner = await signUp(t.http);
    const older = await createProject(t.http, owner, { name: 'Older' });
    const newer = await createProject(t.http, owner, { name: 'Newer' });
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });

    const read = await graphql(t.http, owner, PROJECT, { code: older.id });
    expect(codeOf(read)).toBe('project_locked');
    expect(read.body.data).toEqual({ project: null });
    expect(codeOf(await graphql(t.http, owner, UPDATE, { code: older.id, input: { name: 'Renamed' } }))).toBe('project_locked');
    const rest = await restProject(owner, older.id);
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('project_locked');
    expect(dataOf(await graphql(t.http, owner, PROJECT, { code: newer.id })).project.lockedAt).toBeNull();

    const list = dataOf(await graphql(t.http, owner, '{ projects { edges { node { code lockedAt } } } }')).projects.edges;
    expect(list.map((e: { node: { code: string } }) => e.node.code)).toEqual([older.id, newer.id]);
    expect(typeof list[0].node.lockedAt).toBe('number');
    expect(list[1].node.lockedAt).toBeNull();

    // The refused update changed nothing: lifting the lock shows the old name.
    await overrideOrganizationLimits(owner.orgId, { maxProjects: null });
    expect(dataOf(await graphql(t.http, owner, PROJECT, { code: older.id })).project).toMatchObject({ name: 'Older', lockedAt: null });
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    expect(codeOf(await graphql(t.http, owner, PROJECT, { code: older.id }))).toBe('project_locked');

    expect(dataOf(await graphql(t.http, owner, DELETE, { code: older.id })).deleteProject).toBe(true);
    expect((await restProject(owner, older.id)).status).toBe(404);
  });
});

describe('GraphQL: malformed requests', () => {
  it('answers a syntax error, an unknown field and a mistyped variable with validation_failed', async () => {
    const owner = await signUp(t.http);
    const cases: Array<[string, Record<string, unknown>, number, string | undefined]> = [
      ['{ viewer { ', {}, 200, 'GRAPHQL_PARSE_FAILED'],
      ['{ nope }', {}, 200, 'GRAPHQL_VALIDATION_FAILED'],
      ['query($first: Int) { projects(first: $first) { totalCount } }', { first: 'many' }, 400, undefined],
    ];
    for (const [query, variables, status, graphqlCode] of cases) {
      const response = await graphql(t.http, owner, query, variables);
      expect(response.status, query).toBe(status);
      expect(response.body.errors, query).toHaveLength(1);
      const error = response.body.errors[0] as GraphQLErrorBody;
      expect(error.extensions?.code, query).toBe('validation_failed');
      expect(error.extensions?.graphqlCode, query).toBe(graphqlCode);
      expect(error.message.length).toBeGreaterThan(0);
    }
  });
});

describe('GraphQL: per-minute ceiling', () => {
  it('counts token requests to /graphql against the ceiling; sessions are not metered', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 2 });
    // The window is a fixed minute: start at the beginning of one so that all three requests share it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 50));

    expect(dataOf(await graphql(t.http, token, '{ viewer { email } }')).viewer.email).toBe(owner.email);
    expect(dataOf(await graphql(t.http, token, '{ projects { totalCount } }')).projects.totalCount).toBe(0);
    const third = await graphql(t.http, token, '{ viewer { email } }');
    expect(codeOf(third)).toBe('too_many_requests');
    expect(third.body.data).toBeNull();
    const retryAfter = (onlyError(third).extensions?.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Same counter as REST.
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(429);
    expect(dataOf(await graphql(t.http, owner, '{ viewer { authenticatedBy } }')).viewer.authenticatedBy).toBe('session');
  }, 90_000);
});

describe('GraphQL: bounded SQL', () => {
  const LIST = '{ projects(first: 50) { edges { node { code name } } totalCount } }';

  async function countQueries(caller: Caller) {
    await graphql(t.http, caller, LIST); // warm-up: session touch and other once-a-minute writes happen here
    const statements: string[] = [];
    const stop = onQuery((event) => statements.push(event.query));
    let response: Response;
    try {
      response = await graphql(t.http, caller, LIST);
    } finally {
      stop();
    }
    return { statements, projects: dataOf(response).projects };
  }

  it('lists 3 and 30 projects with the same number of SQL queries', async () => {
    const small = await signUp(t.http);
    for (let i = 0; i < 3; i++) await createProject(t.http, small, { name: `Small ${i}` });
    const large = await signUp(t.http);
    await overrideOrganizationLimits(large.orgId, { maxProjects: 30 });
    for (let i = 0; i < 30; i++) await createProject(t.http, large, { name: `Large ${i}` });

    const few = await countQueries(small);
    const many = await countQueries(large);
    expect(few.projects.edges).toHaveLength(3);
    expect(few.projects.totalCount).toBe(3);
    expect(many.projects.edges).toHaveLength(30);
    expect(many.projects.totalCount).toBe(30);
    expect(few.statements.length).toBeGreaterThan(0);
    expect(many.statements.length, many.statements.join('\n')).toBe(few.statements.length);
    const projectStatements = many.statements.filter((sql) => /from "public"\."projects"/i.test(sql));
    expect(projectStatements.length, projectStatements.join('\n')).toBeLessThanOrEqual(2);
  });
});

describe('GraphQL: error masking', () => {
  // No request against the real app provokes an unexpected error on purpose, so the app's mask
  // function runs in a Yoga server of its own whose resolver fails like a broken database would.
  it('masks an unexpected error as internal_error without its message or stack, in development mode too', async () => {
    const secret = new Error('connection to db.internal:5432 failed for user admin');
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { broken: Int }', resolvers: { Query: { broken: () => Promise.reject(secret) } } }),
      logging: false,
      // isDev is what Yoga sets with NODE_ENV=development: it must not unmask anything.
      maskedErrors: { maskError: maskGraphQLError, isDev: true },
    });
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      const response = await yoga.fetch('http://tcms.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ broken }' }),
      });
      const text = await response.text();
      const body = JSON.parse(text);
      expect(body.data).toEqual({ broken: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].message).toBe('Unexpected error.');
      expect(body.errors[0].extensions).toEqual({ code: 'internal_error' });
      expect(text).not.toContain('db.internal');
      expect(text).not.toMatch(/stack|\.ts:\d+/);
      expect(spy).toHaveBeenCalledWith({ err: secret }, expect.any(String)); // logged for the operator, like REST's 500s
    } finally {
      spy.mockRestore();
    }
  });
});
