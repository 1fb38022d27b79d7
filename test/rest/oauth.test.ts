import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { REGISTRATIONS_PER_HOUR } from '../../rest/oauth.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { sha256 } from '../../src/kernel/secrets.ts';
import { setMemberSuspension } from '../../src/members/members.service.ts';
import { setAccessMode } from '../support/access-fixtures.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { patchRunCase, runWithCases } from '../support/runs.ts';

const PUBLIC_URL = 'http://localhost:4780';
const RESOURCE = `${PUBLIC_URL}/mcp`;
const REDIRECT_URI = 'http://127.0.0.1:33418/callback';
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_TRUST_PROXY: 'true' });

/** A client address of its own per test, so that registrations of other tests (and runs) never count against it. */
const newAddress = () => `10.${randomBytes(3).join('.')}`;

type Client = { client_id: string; client_name?: string; redirect_uris: string[] };
type Tokens = { access_token: string; refresh_token: string; expires_in: number; token_type: string };

async function register(body: Record<string, unknown> = {}): Promise<Client> {
  const response = await t.http
    .post('/register')
    .set('X-Forwarded-For', newAddress())
    .send({ client_name: 'Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Client;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const authorizationParams = (client: Client, challenge: string, state = 'state-1') => ({
  client_id: client.client_id,
  redirect_uri: REDIRECT_URI,
  response_type: 'code',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state,
  resource: RESOURCE,
});

/**
 * The pages' CSRF pair (rest/pages/pages-router.ts), as a browser shown the consent page holds it:
 * the cookie and the form's hidden field carry the same token.
 */
const CSRF_TOKEN = 'c'.repeat(43);
const withCsrfCookie = (caller?: Caller) => [caller?.headers.Cookie, `tcms_csrf=${CSRF_TOKEN}`].filter(Boolean).join('; ');

/** The consent form's POST, as the page sends it from the service's own origin. */
const consent = (caller: Caller, client: Client, challenge: string, fields: Record<string, string> = {}) =>
  t.http
    .post('/authorize')
    .set('Cookie', withCsrfCookie(caller))
    .set('Origin', PUBLIC_URL)
    .type('form')
    .send({ ...authorizationParams(client, challenge), approve: 'true', organizationUlid: caller.orgId, _csrf: CSRF_TOKEN, ...fields });

function redirectedTo(response: Response): URL {
  expect(response.status, response.text).toBe(302);
  const location = new URL(response.headers.location!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  return location;
}

const exchange = (client: Client, code: string, verifier: string) =>
  t.http
    .post('/token')
    .type('form')
    .send({ grant_type: 'authorization_code', client_id: client.client_id, code, code_verifier: verifier, redirect_uri: REDIRECT_URI });

const refresh = (client: Client, refreshToken: string) =>
  t.http.post('/token').type('form').send({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: refreshToken });

/** The whole flow through HTTP: registration, consent in `caller`'s organization, the code exchange. */
async function authorizedTokens(caller: Caller, client?: Client): Promise<{ client: Client; tokens: Tokens }> {
  const registered = client ?? (await register());
  const { verifier, challenge } = pkce();
  const code = redirectedTo(await consent(caller, registered, challenge)).searchParams.get('code')!;
  const response = await exchange(registered, code, verifier);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { client: registered, tokens: response.body as Tokens };
}

const bearer = (tokens: Tokens) => ({ Authorization: `Bearer ${tokens.access_token}` });
const listProjects = (tokens: Tokens) => t.http.get('/api/v1/projects').set(bearer(tokens));

describe('metadata (RFC 8414, RFC 9728)', () => {
  it('names the issuer, the endpoints and the protected resource /mcp', async () => {
    const server = await t.http.get('/.well-known/oauth-authorization-server');
    expect(server.status).toBe(200);
    expect(server.body).toMatchObject({
      issuer: PUBLIC_URL,
      authorization_endpoint: `${PUBLIC_URL}/authorize`,
      token_endpoint: `${PUBLIC_URL}/token`,
      registration_endpoint: `${PUBLIC_URL}/register`,
      revocation_endpoint: `${PUBLIC_URL}/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const resource = await t.http.get(path);
      expect(resource.status, path).toBe(200);
      expect(resource.body).toMatchObject({ resource: RESOURCE, authorization_servers: [PUBLIC_URL] });
    }
  });
});

describe('POST /register (RFC 7591)', () => {
  it('answers 201 with a public client and stores no secret', async () => {
    const client = await register({ token_endpoint_auth_method: 'client_secret_post', client_name: 'Claude' });
    expect(client).toMatchObject({ client_name: 'Claude', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    expect(client.client_id).toMatch(/^[0-9A-Z]{26}$/);
    expect(client).not.toHaveProperty('client_secret');
    const row = await prisma().oAuthClient.findUniqueOrThrow({ where: { id: client.client_id } });
    expect(JSON.stringify(row.metadata)).not.toContain('client_secret"');
  });

  it('refuses invalid metadata with the RFC 7591 error body', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: undefined }, 'invalid_client_metadata'],
      [{ redirect_uris: ['not a url'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://attacker.example/callback'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/callback#fragment'] }, 'invalid_redirect_uri'],
      [{ client_name: 'x'.repeat(201) }, 'invalid_client_metadata'],
      // Text the database cannot store.
      [{ client_name: 'A\u0000gent' }, 'invalid_client_metadata'],
      [{ client_name: 'Agent \udbff' }, 'invalid_client_metadata'],
    ];
    for (const [fields, error] of cases) {
      const response = await t.http
        .post('/register')
        .set('X-Forwarded-For', newAddress())
        .send({ client_name: 'Agent', redirect_uris: [REDIRECT_URI], ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.body.error).toBe(error);
      expect(typeof response.body.error_description).toBe('string');
    }
  });

  it('clips an error_description that would echo every issue of the metadata', async () => {
    const response = await t.http
      .post('/register')
      .set('X-Forwarded-For', newAddress())
      .send({ client_name: 'Agent', redirect_uris: new Array(5_000).fill(null) });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_client_metadata');
    expect(response.body.error_description.length).toBeLessThanOrEqual(501);
  });

  it("answers a body over the registration parser's limit with 413 naming that limit", async () => {
    const response = await t.http
      .post('/register')
      .set('X-Forwarded-For', newAddress())
      .send({ client_name: 'x'.repeat(200_000), redirect_uris: [REDIRECT_URI] });
    expectError(response, 413, 'validation_failed');
    expect(response.body.error.message).toBe('The request body exceeds 102400 bytes');
  });

  it(`limits registrations to ${REGISTRATIONS_PER_HOUR} per address and hour, in the database`, async () => {
    const address = newAddress();
    const registerFrom = () =>
      t.http
        .post('/register')
        .set('X-Forwarded-For', address)
        .send({ redirect_uris: [REDIRECT_URI] });
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) expect((await registerFrom()).status).toBe(201);
    const refused = await registerFrom();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(
      (
        await t.http
          .post('/register')
          .set('X-Forwarded-For', newAddress())
          .send({ redirect_uris: [REDIRECT_URI] })
      ).status,
    ).toBe(201);
  });
});

describe('GET /authorize: the consent page', () => {
  it('sends a visitor without a session to sign in, and back to this very request', async () => {
    const client = await register();
    const params = authorizationParams(client, pkce().challenge);
    const response = await t.http.get('/authorize').query(params);
    expect(response.status).toBe(303);
    expect(response.headers['x-frame-options']).toBe('DENY');
    const signIn = new URL(response.headers.location!, PUBLIC_URL);
    expect(signIn.pathname).toBe('/signin');
    expect(signIn.searchParams.get('next')).toBe(`/authorize?${new URLSearchParams(params)}`);
  });

  it('shows the consent in the frame of the pages: the client named escaped, no script, no framing, a CSRF token', async () => {
    const owner = await signUp(t.http);
    const client = await register({ client_name: '<script>alert(1)</script>' });
    const response = await t.http
      .get('/authorize')
      .set('Cookie', owner.headers.Cookie!)
      .query(authorizationParams(client, pkce().challenge));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['content-security-policy']).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:33418; .*frame-ancestors 'none'/);
    expect(response.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.text).not.toContain('<script>');
    expect(response.text).not.toMatch(/<(link|img|script)\b/);
    const token = /name="_csrf" value="([\w-]{43})"/.exec(response.text)?.[1];
    expect(response.headers['set-cookie']?.[0]).toContain(`tcms_csrf=${token};`);
  });

  it("shows a signed-in user the client and a choice among their organizations' active memberships", async () => {
    const owner = await signUp(t.http, { organizationName: 'Home Org' });
    const other = await signUp(t.http, { organizationName: 'Other Org' });
    const member = await joinAs(t.http, other, 'member');
    await prisma().membership.create({ data: { id: newId(), orgId: owner.orgId, userId: member.userId, role: 'viewer' } });
    await setMemberSuspension(owner.orgId, member.userId, true);
    const client = await register({ client_name: 'Claude Code' });
    const response = await t.http
      .get('/authorize')
      .set('Cookie', member.headers.Cookie!)
      .query(authorizationParams(client, pkce().challenge, 'xyz'));
    expect(response.status).toBe(200);
    expect(response.text).toContain('Claude Code');
    expect(response.text).toContain(`<option value="${other.orgId}">Other Org (as member)</option>`);
    expect(response.text).toContain(`<option value="${member.orgId}">`);
    expect(response.text).not.toContain(owner.orgId);
    expect(response.text).toContain('name="approve" value="true"');
    expect(response.text).toContain('<input type="hidden" name="state" value="xyz">');
  });

  it('answers an unknown client or an unregistered redirect_uri directly, without redirecting', async () => {
    const client = await register();
    const unknown = await t.http.get('/authorize').query({ ...authorizationParams(client, 'c'), client_id: '01J00000000000000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_client');
    const elsewhere = await t.http
      .get('/authorize')
      .query({ ...authorizationParams(client, 'c'), redirect_uri: 'http://127.0.0.1:1/other' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('invalid_request');
  });

  it('takes a redirect_uri only exactly as registered (a loopback one on any port), else a direct 400 on GET and POST', async () => {
    const owner = await signUp(t.http);
    const loopback = await register();
    const web = await register({ redirect_uris: ['https://agent.example/cb?app=1'] });
    const refused: Array<[Client, string]> = [
      [loopback, `${REDIRECT_URI}#fragment`],
      [loopback, 'http://127.0.0.1:1/callback#fragment'],
      [loopback, 'http://user@127.0.0.1:33418/callback'],
      [loopback, 'HTTP://127.0.0.1:33418/callback'],
      [loopback, 'http://127.1:33418/callback'],
      [loopback, 'http://127.0.0.1:33418/./callback'],
      [loopback, 'http://127.0.0.1:33418/callback?'],
      [loopback, 'http://127.0.0.1:33418/callback/'],
      [loopback, 'http://localhost:33418/callback'],
      [web, 'https://agent.example/cb?app=1#fragment'],
      [web, 'https://agent.example:443/cb?app=1'],
      [web, 'https://AGENT.example/cb?app=1'],
      [web, 'https://agent.example/cb?app=2'],
    ];
    for (const [client, redirectUri] of refused) {
      const params = { ...authorizationParams(client, pkce().challenge), redirect_uri: redirectUri };
      const page = await t.http.get('/authorize').set('Cookie', owner.headers.Cookie!).query(params);
      const decision = await consent(owner, client, pkce().challenge, { redirect_uri: redirectUri });
      for (const response of [page, decision]) {
        expect(response.status, redirectUri).toBe(400);
        expect(response.headers.location, redirectUri).toBeUndefined();
        expect(response.body).toMatchObject({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
      }
    }
    expect(await prisma().oAuthGrant.count({ where: { clientId: { in: [loopback.client_id, web.client_id] } } })).toBe(0);

    for (const [client, redirectUri] of [
      [loopback, REDIRECT_URI],
      [loopback, 'http://127.0.0.1:5555/callback'],
      [web, 'https://agent.example/cb?app=1'],
    ] as const) {
      const response = await consent(owner, client, pkce().challenge, { redirect_uri: redirectUri });
      expect(response.status, redirectUri).toBe(302);
      expect(
        response.headers.location!.startsWith(`${redirectUri}${redirectUri.includes('?') ? '&' : '?'}code=`),
        response.headers.location,
      ).toBe(true);
    }
  });

  it('redirects a request for another resource with invalid_target', async () => {
    const owner = await signUp(t.http);
    const client = await register();
    const response = await t.http
      .get('/authorize')
      .set('Cookie', owner.headers.Cookie!)
      .query({ ...authorizationParams(client, pkce().challenge), resource: 'https://elsewhere.example/mcp' });
    expect(redirectedTo(response).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('POST /authorize: the decision', () => {
  it('approves: 302 to redirect_uri with code and state, audited as oauth.authorized in the organization', async () => {
    const owner = await signUp(t.http);
    const client = await register({ client_name: 'Agent X' });
    const location = redirectedTo(await consent(owner, client, pkce().challenge));
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('state-1');
    const [event] = await auditEvents(t.http, owner, { action: 'oauth.authorized' });
    expect(event).toMatchObject({
      actor: { kind: 'user', ulid: owner.userId },
      entityType: 'oauth_grant',
      entityLabel: 'Agent X',
      metadata: { clientUlid: client.client_id, clientName: 'Agent X', redirectUri: REDIRECT_URI, role: 'admin' },
    });
    const stored = await prisma().oAuthAuthorizationCode.findUniqueOrThrow({
      where: { codeHash: sha256(location.searchParams.get('code')!) },
    });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(60_000);
  });

  it('denies: 302 with error=access_denied and the state', async () => {
    const owner = await signUp(t.http);
    const client = await register();
    const location = redirectedTo(await consent(owner, client, pkce().challenge, { approve: 'false' }));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('answers a POST that is not a form with a 400 of its own, never a 500', async () => {
    for (const [type, body] of [
      ['text/plain', 'x'],
      ['application/json', '{"client_id":"x"}'],
    ]) {
      const response = await t.http.post('/authorize').set('Content-Type', type!).send(body);
      expect(response.status, type).toBe(400);
    }
  });

  it('refuses a POST without the CSRF token, a cross-origin one, or one without Origin and Referer, and grants nothing', async () => {
    const owner = await signUp(t.http);
    const client = await register();
    const form = { ...authorizationParams(client, pkce().challenge), approve: 'true', organizationUlid: owner.orgId, _csrf: CSRF_TOKEN };
    // A browser at the public address whose CSRF cookie is gone (a restored tab): the consent again, with a new token.
    const withoutToken = await t.http
      .post('/authorize')
      .set('Cookie', owner.headers.Cookie!)
      .set('Host', new URL(PUBLIC_URL).host)
      .set('Origin', PUBLIC_URL)
      .type('form')
      .send(form);
    expect(withoutToken.status).toBe(403);
    expect(withoutToken.text).toContain('This form expired');
    expect(withoutToken.text).toContain('name="approve" value="true"');
    const crossSite = await t.http
      .post('/authorize')
      .set('Cookie', withCsrfCookie(owner))
      .set('Origin', 'https://evil.example')
      .type('form')
      .send(form);
    expect(crossSite.status).toBe(403);
    const crossReferer = await t.http
      .post('/authorize')
      .set('Cookie', withCsrfCookie(owner))
      .set('Referer', 'http://localhost:4781/authorize')
      .type('form')
      .send(form);
    expect(crossReferer.status).toBe(403);
    const bare = await t.http.post('/authorize').set('Cookie', withCsrfCookie(owner)).type('form').send(form);
    expect(bare.status).toBe(403);
    const sameReferer = await t.http
      .post('/authorize')
      .set('Cookie', withCsrfCookie(owner))
      .set('Referer', `${PUBLIC_URL}/authorize?x=1`)
      .type('form')
      .send(form);
    expect(sameReferer.status).toBe(302);
    expect(await prisma().oAuthGrant.count({ where: { clientId: client.client_id } })).toBe(1);
  });

  it('needs a session and an organization the user is an active member of', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    const client = await register();
    const form = { ...authorizationParams(client, pkce().challenge), approve: 'true', organizationUlid: owner.orgId, _csrf: CSRF_TOKEN };
    expect((await t.http.post('/authorize').set('Cookie', withCsrfCookie()).set('Origin', PUBLIC_URL).type('form').send(form)).status).toBe(
      401,
    );
    expect((await consent(stranger, client, pkce().challenge, { organizationUlid: owner.orgId })).status).toBe(404);
    const member = await joinAs(t.http, owner, 'member');
    await setMemberSuspension(owner.orgId, member.userId, true);
    expect((await consent(member, client, pkce().challenge)).status).toBe(403);
    expect(await prisma().oAuthGrant.count({ where: { clientId: client.client_id } })).toBe(0);
  });
});

describe('POST /token', () => {
  it('exchanges a code only with the PKCE verifier, once; a second exchange revokes what the first issued', async () => {
    const owner = await signUp(t.http);
    const client = await register();
    const { verifier, challenge } = pkce();
    const code = redirectedTo(await consent(owner, client, challenge)).searchParams.get('code')!;
    const wrong = await exchange(client, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const otherClient = await register();
    expect((await exchange(otherClient, code, verifier)).body.error).toBe('invalid_grant');

    const issued = await exchange(client, code, verifier);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    const tokens = issued.body as Tokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(tokens.access_token).toMatch(/^tcmsat_/);
    expect(tokens.refresh_token).toMatch(/^tcmsrt_/);
    expect((await listProjects(tokens)).status).toBe(200);

    const again = await exchange(client, code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expectError(await listProjects(tokens), 401, 'unauthorized');
  });

  it('refuses an expired code', async () => {
    const owner = await signUp(t.http);
    const client = await register();
    const { verifier, challenge } = pkce();
    const code = redirectedTo(await consent(owner, client, challenge)).searchParams.get('code')!;
    await prisma().oAuthAuthorizationCode.update({ where: { codeHash: sha256(code) }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await exchange(client, code, verifier)).body.error).toBe('invalid_grant');
  });

  it('stores only digests of codes and tokens', async () => {
    const owner = await signUp(t.http);
    const { client, tokens } = await authorizedTokens(owner);
    const grant = await prisma().oAuthGrant.findFirstOrThrow({
      where: { clientId: client.client_id },
      include: { accessTokens: true, refreshTokens: true },
    });
    expect(grant.accessTokens.map((row) => row.tokenHash)).toEqual([sha256(tokens.access_token)]);
    expect(grant.refreshTokens.map((row) => row.tokenHash)).toEqual([sha256(tokens.refresh_token)]);
  });

  it('leaves expired codes and tokens to the maintenance sweep', async () => {
    const owner = await signUp(t.http);
    const { client } = await authorizedTokens(owner);
    const grant = await prisma().oAuthGrant.findFirstOrThrow({ where: { clientId: client.client_id } });
    const past = new Date(Date.now() - 1);
    await prisma().oAuthAuthorizationCode.updateMany({ where: { grantId: grant.id }, data: { expiresAt: past } });
    await prisma().oAuthAccessToken.updateMany({ where: { grantId: grant.id }, data: { expiresAt: past } });
    await prisma().oAuthRefreshToken.updateMany({ where: { grantId: grant.id }, data: { expiresAt: past } });
    await sweepExpired(prisma());
    const left = await prisma().oAuthGrant.findUniqueOrThrow({
      where: { id: grant.id },
      include: { codes: true, accessTokens: true, refreshTokens: true },
    });
    expect([left.codes, left.accessTokens, left.refreshTokens]).toEqual([[], [], []]);
  });

  it('rotates refresh tokens: each use answers a new pair, a used one is refused and its reuse revokes the family', async () => {
    const owner = await signUp(t.http);
    const { client, tokens: first } = await authorizedTokens(owner);
    const rotated = await refresh(client, first.refresh_token);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const second = rotated.body as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await listProjects(second)).status).toBe(200);

    const otherClient = await register();
    expect((await refresh(otherClient, second.refresh_token)).body.error).toBe('invalid_grant');

    const reused = await refresh(client, first.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expectError(await listProjects(second), 401, 'unauthorized');
    expect((await refresh(client, second.refresh_token)).body.error).toBe('invalid_grant');
    expect(await prisma().oAuthGrant.count({ where: { clientId: client.client_id } })).toBe(0);
  });
});

describe('OAuth access tokens on the API', () => {
  it('act in the chosen organization, metered against the per-minute ceiling like API tokens', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    const member = await joinAs(t.http, other, 'member');
    const project = await createProject(t.http, other);
    const { tokens } = await authorizedTokens(member);
    const response = await listProjects(tokens);
    expect(response.status).toBe(200);
    expect(response.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([project.ulid]);
    expect(response.headers['x-ratelimit-limit']).toBe('60');
    expect(response.headers['x-ratelimit-remaining']).toBe('59');
    expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    const session = await t.http.get('/api/v1/projects').set(member.headers);
    expect(session.headers).not.toHaveProperty('x-ratelimit-limit');
    expectError(await t.http.get('/api/v1/projects').set({ ...bearer(tokens), 'X-Organization-Id': owner.orgId }), 404, 'not_found');
  });

  it("act with the user's role capped at admin: an owner's token cannot do what only an owner can", async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const { tokens } = await authorizedTokens(owner);
    const promote = (headers: Record<string, string>) =>
      t.http.patch(`/api/v1/orgs/${owner.orgId}/members/${admin.userId}`).set(headers).send({ role: 'owner' });
    expectError(await promote(bearer(tokens)), 403, 'forbidden');
    expect((await promote(owner.headers)).status).toBe(200);
  });

  it('are refused on session-only routes, like API tokens', async () => {
    const owner = await signUp(t.http);
    const { tokens } = await authorizedTokens(owner);
    expectError(await t.http.get('/api/v1/me/api-tokens').set(bearer(tokens)), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/me/api-tokens').set(bearer(tokens)).send({ name: 'escalate' }), 401, 'unauthorized');
  });

  it("keep their Idempotency-Keys apart from their user's session", async () => {
    const owner = await signUp(t.http);
    const { tokens } = await authorizedTokens(owner);
    const key = `key-${newId()}`;
    const create = (headers: Record<string, string>, id: string) =>
      t.http.post('/api/v1/projects').set(headers).set('Idempotency-Key', key).send({ name: 'Same key', id });
    const viaAgent = await create(bearer(tokens), `A${newId().slice(-8)}`);
    expect(viaAgent.status).toBe(201);
    const viaSession = await create(owner.headers, `S${newId().slice(-8)}`);
    expect(viaSession.status).toBe(201);
    expect(viaSession.headers['idempotency-replayed']).toBeUndefined();
    expect(viaSession.body.ulid).not.toBe(viaAgent.body.ulid);
  });

  it("are their user as a run case's assignee and as a project's owner, where an API token is not", async () => {
    const { owner, code, run, runCases } = await runWithCases(t.http, 2);
    const assignee = await joinAs(t.http, owner, 'member');
    const [first, second] = runCases;
    for (const runCase of [first!, second!]) {
      expect((await patchRunCase(t.http, owner, run.ulid, runCase.ulid, { assigneeUlid: assignee.userId })).status).toBe(200);
    }
    expect((await t.http.patch(`/api/v1/projects/${code}/access`).set(owner.headers).send({ ownerUlid: assignee.userId })).status).toBe(
      200,
    );
    const { tokens } = await authorizedTokens(assignee);
    const apiToken = await tokenFor(t.http, assignee);
    const lock = (headers: Record<string, string>) =>
      t.http.patch(`/api/v1/projects/${code}/run-settings`).set(headers).send({ assigneeResultLock: true });
    expectError(await lock(apiToken.headers), 403, 'forbidden');
    expect((await lock(bearer(tokens))).status).toBe(200);
    expectError(await patchRunCase(t.http, apiToken, run.ulid, first!.ulid, { status: 'passed' }), 403, 'run_case_assignee_locked');
    expect(
      (await patchRunCase(t.http, { ...assignee, headers: bearer(tokens) }, run.ulid, second!.ulid, { status: 'passed' })).status,
    ).toBe(200);
  });

  it('are the user in audit events', async () => {
    const owner = await signUp(t.http);
    const { tokens } = await authorizedTokens(owner);
    const project = await createProject(t.http, { ...owner, headers: bearer(tokens) });
    const [event] = await auditEvents(t.http, owner, { action: 'project.created', entityUlid: project.ulid });
    expect(event?.actor).toMatchObject({ kind: 'user', ulid: owner.userId, email: owner.email });
  });

  it('see only what their user sees: a private project hidden from a member stays hidden', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const open = await createProject(t.http, owner);
    const hidden = await createProject(t.http, owner);
    await setAccessMode(owner.orgId, hidden, 'private');
    const { tokens } = await authorizedTokens(member);
    const response = await listProjects(tokens);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([open.ulid]);
    // An API token of the same member is never evaluated against the allowlist (contract §10).
    const apiToken = await tokenFor(t.http, member);
    const viaApiToken = await t.http.get('/api/v1/projects').set(apiToken.headers);
    expect(viaApiToken.body.items.map((item: { ulid: string }) => item.ulid).sort()).toEqual([open.ulid, hidden.ulid].sort());
  });

  it('expire after an hour', async () => {
    const owner = await signUp(t.http);
    const { tokens } = await authorizedTokens(owner);
    const row = await prisma().oAuthAccessToken.findUniqueOrThrow({ where: { tokenHash: sha256(tokens.access_token) } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(3600_000);
    await prisma().oAuthAccessToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expectError(await listProjects(tokens), 401, 'unauthorized');
  });

  it('are revoked at POST /revoke (RFC 7009) with their whole grant; unknown tokens answer 200 too', async () => {
    const owner = await signUp(t.http);
    const { client, tokens } = await authorizedTokens(owner);
    const otherClient = await register();
    const foreign = await t.http.post('/revoke').type('form').send({ client_id: otherClient.client_id, token: tokens.access_token });
    expect(foreign.status).toBe(200);
    expect((await listProjects(tokens)).status).toBe(200);
    const revoked = await t.http.post('/revoke').type('form').send({ client_id: client.client_id, token: tokens.access_token });
    expect(revoked.status).toBe(200);
    expectError(await listProjects(tokens), 401, 'unauthorized');
    expect((await refresh(client, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await t.http.post('/revoke').type('form').send({ client_id: client.client_id, token: 'nothing' })).status).toBe(200);
  });

  it('stop working when the membership is removed or suspended', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const suspended = await joinAs(t.http, owner, 'member');
    const { tokens } = await authorizedTokens(member);
    const { tokens: suspendedTokens } = await authorizedTokens(suspended);
    expect((await listProjects(tokens)).status).toBe(200);

    await setMemberSuspension(owner.orgId, suspended.userId, true);
    expectError(await listProjects(suspendedTokens), 403, 'forbidden');

    expect((await t.http.delete(`/api/v1/orgs/${owner.orgId}/members/${member.userId}`).set(owner.headers)).status).toBe(204);
    expect(await prisma().oAuthGrant.count({ where: { userId: member.userId } })).toBe(0);
    // Rejoining revives nothing.
    await prisma().membership.create({ data: { id: newId(), orgId: owner.orgId, userId: member.userId, role: 'member' } });
    expectError(await listProjects(tokens), 401, 'unauthorized');
  });
});

describe('an MCP client (the SDK) end to end', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = t.app.express.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The network: the service's public address reaches this listening app, from an address of its own. */
  const address = newAddress();
  const fetchFn = (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('X-Forwarded-For', address);
    return fetch(String(url).replace(PUBLIC_URL, origin), { ...init, headers });
  };

  it('discovers, registers, is authorized in the browser, exchanges, calls MCP tools with the token and refreshes', async () => {
    const owner = await signUp(t.http);
    const resourceMetadata = await discoverOAuthProtectedResourceMetadata(RESOURCE, {}, fetchFn);
    expect(resourceMetadata.resource).toBe(RESOURCE);
    const authorizationServer = resourceMetadata.authorization_servers![0]!;
    const metadata = (await discoverAuthorizationServerMetadata(authorizationServer, { fetchFn }))!;
    const clientInformation = await registerClient(authorizationServer, {
      metadata,
      clientMetadata: { client_name: 'SDK client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'] },
      fetchFn,
    });
    const { authorizationUrl, codeVerifier } = await startAuthorization(authorizationServer, {
      metadata,
      clientInformation,
      redirectUrl: REDIRECT_URI,
      state: 'sdk-state',
      resource: new URL(RESOURCE),
    });

    // The browser: the consent page, then its form.
    const page = await t.http.get(`${authorizationUrl.pathname}${authorizationUrl.search}`).set('Cookie', owner.headers.Cookie!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('SDK client');
    const callback = redirectedTo(
      await t.http
        .post(authorizationUrl.pathname)
        .set('Cookie', withCsrfCookie(owner))
        .set('Origin', PUBLIC_URL)
        .type('form')
        .send({ ...Object.fromEntries(authorizationUrl.searchParams), approve: 'true', organizationUlid: owner.orgId, _csrf: CSRF_TOKEN }),
    );
    expect(callback.searchParams.get('state')).toBe('sdk-state');

    const tokens = await exchangeAuthorization(authorizationServer, {
      metadata,
      clientInformation,
      authorizationCode: callback.searchParams.get('code')!,
      codeVerifier,
      redirectUri: REDIRECT_URI,
      resource: new URL(RESOURCE),
      fetchFn,
    });
    expect((await t.http.get('/api/v1/projects').set('Authorization', `Bearer ${tokens.access_token}`)).status).toBe(200);

    // The token on the MCP server, through the SDK's own client.
    const mcp = new McpClient({ name: 'oauth-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    try {
      expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('list_projects');
      const projects = await mcp.callTool({ name: 'list_projects', arguments: {} });
      expect(projects.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }

    const refreshed = await refreshAuthorization(authorizationServer, {
      metadata,
      clientInformation,
      refreshToken: tokens.refresh_token!,
      fetchFn,
    });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await t.http.get('/api/v1/projects').set('Authorization', `Bearer ${refreshed.access_token}`)).status).toBe(200);
    await expect(
      refreshAuthorization(authorizationServer, { metadata, clientInformation, refreshToken: tokens.refresh_token!, fetchFn }),
    ).rejects.toThrow();
  });
});

describe('/api/v1/me/oauth-grants: the applications a user authorized', () => {
  it('lists them in the active organization and disconnects one, audited as oauth.revoked', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    const { client, tokens } = await authorizedTokens(owner, await register({ client_name: 'Desk agent' }));
    await authorizedTokens(other);
    const listed = await t.http.get('/api/v1/me/oauth-grants').set(owner.headers);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      { ulid: expect.any(String), clientUlid: client.client_id, clientName: 'Desk agent', createdAt: expect.any(Number) },
    ]);
    const grantUlid = listed.body.items[0].ulid as string;

    expectError(await t.http.get('/api/v1/me/oauth-grants').set(bearer(tokens)), 401, 'unauthorized');
    expectError(await t.http.delete(`/api/v1/me/oauth-grants/${grantUlid}`).set(other.headers), 404, 'not_found');
    expect((await listProjects(tokens)).status).toBe(200);

    expect(
      (await t.http.delete(`/api/v1/me/oauth-grants/${grantUlid}`).set(owner.headers).set('Idempotency-Key', 'disconnect-1')).status,
    ).toBe(204);
    expectError(await listProjects(tokens), 401, 'unauthorized');
    expect((await refresh(client, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await t.http.get('/api/v1/me/oauth-grants').set(owner.headers)).body.items).toEqual([]);
    const [event] = await auditEvents(t.http, owner, { action: 'oauth.revoked' });
    expect(event).toMatchObject({ actor: { kind: 'user', ulid: owner.userId }, entityUlid: grantUlid, entityLabel: 'Desk agent' });
    expectError(await t.http.delete(`/api/v1/me/oauth-grants/${grantUlid}`).set(owner.headers), 404, 'not_found');
  });
});

describe('a public address OAuth 2.1 does not allow', () => {
  const plain = useTestApp({ TCMS_PUBLIC_URL: 'http://tcms.example' });
  it('turns OAuth off (API tokens stay) instead of failing to start', async () => {
    expectError(await plain.http.get('/.well-known/oauth-authorization-server'), 404, 'not_found');
    expectError(await plain.http.post('/register').send({ redirect_uris: [REDIRECT_URI] }), 404, 'not_found');
    expect((await plain.http.get('/api/v1/health')).status).toBe(200);
  });
});
