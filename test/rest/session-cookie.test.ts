import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { httpSettings } from '../../rest/http-settings.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { type Caller, graphql, uniqueEmail, useTestApp } from '../support/app.ts';

/**
 * Decisions §1: behind an https TCMS_PUBLIC_URL the session cookie is `__Host-tcms_session` with
 * Secure whatever NODE_ENV says (here `test`), and every door that reads it reads that name.
 */

const PUBLIC_URL = 'https://tcms.example.test';
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_TRUST_PROXY: 'true' });

const setCookieLines = (response: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []);
const attributesOf = (line: string) => line.split(';').map((part) => part.trim().toLowerCase());

async function signUpOverHttps(): Promise<Caller & { line: string }> {
  const email = uniqueEmail('secure');
  const response = await t.http
    .post('/api/v1/auth/signup')
    .send({ email, password: 'correct horse battery', firstName: 'Ada', lastName: 'Lovelace' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const [line] = setCookieLines(response);
  const orgId = response.body.organization.ulid as string;
  return {
    line: line!,
    headers: { Cookie: line!.split(';')[0]!, 'X-Organization-Id': orgId },
    orgId,
    userId: response.body.user.ulid,
    email,
  };
}

describe('the session cookie behind an https TCMS_PUBLIC_URL, NODE_ENV=test', () => {
  it('is __Host-tcms_session with Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain; logout clears that name', async () => {
    const owner = await signUpOverHttps();
    const attributes = attributesOf(owner.line);
    expect(owner.line).toMatch(/^__Host-tcms_session=[^;]{20,};/);
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);

    const logout = await t.http.post('/api/v1/auth/logout').set(owner.headers);
    expect(logout.status).toBe(204);
    const [cleared] = setCookieLines(logout);
    expect(cleared).toMatch(/^__Host-tcms_session=;/);
    expect(attributesOf(cleared!)).toEqual(expect.arrayContaining(['secure', 'max-age=0']));
  });

  it('is read under that name by REST, GraphQL and the OAuth consent page; the plain name is not read', async () => {
    const owner = await signUpOverHttps();
    const plain = { ...owner, headers: { ...owner.headers, Cookie: owner.headers.Cookie!.replace(/^__Host-/, '') } };

    expect((await t.http.get('/api/v1/auth/session').set(owner.headers)).status).toBe(200);
    expect((await t.http.get('/api/v1/auth/session').set(plain.headers)).status).toBe(401);

    expect((await graphql(t.http, owner, '{ viewer { authenticatedBy } }')).body.data).toEqual({ viewer: { authenticatedBy: 'session' } });
    expect((await graphql(t.http, plain, '{ viewer { authenticatedBy } }')).body.errors?.[0]?.extensions?.code).toBe('unauthorized');

    const redirectUri = 'https://agent.example.test/callback';
    const client = await t.http
      .post('/register')
      .set('X-Forwarded-For', `10.${randomBytes(3).join('.')}`)
      .send({ client_name: 'Agent', redirect_uris: [redirectUri] });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    const consentPage = (cookie: string) =>
      t.http
        .get('/authorize')
        .set('Cookie', cookie)
        .query({
          client_id: client.body.client_id,
          redirect_uri: redirectUri,
          response_type: 'code',
          code_challenge: createHash('sha256').update('verifier').digest('base64url'),
          code_challenge_method: 'S256',
        });
    const signedIn = await consentPage(owner.headers.Cookie!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toContain(`<option value="${owner.orgId}">`);
    // The plain name is not a session here: the consent sends its visitor to sign in first.
    const signedOut = await consentPage(plain.headers.Cookie!);
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.location).toMatch(/^\/signin\?next=%2Fauthorize%3F/);
  });
});

describe('which cookie a configuration gets', () => {
  const settingsOf = (env: NodeJS.ProcessEnv) => httpSettings(loadConfig({ PORT: '3000', ...env }));

  it.each([
    ['https, development', { NODE_ENV: 'development', TCMS_PUBLIC_URL: 'https://tcms.example.test' }, '__Host-tcms_session', true],
    ['https, test', { NODE_ENV: 'test', TCMS_PUBLIC_URL: 'https://tcms.example.test' }, '__Host-tcms_session', true],
    [
      'http, production (production forces Secure)',
      { NODE_ENV: 'production', TCMS_PUBLIC_URL: 'http://localhost:3000' },
      '__Host-tcms_session',
      true,
    ],
    ['no public URL, production', { NODE_ENV: 'production' }, '__Host-tcms_session', true],
    ['http, development', { NODE_ENV: 'development', TCMS_PUBLIC_URL: 'http://localhost:3000' }, 'tcms_session', false],
    ['no public URL, test', { NODE_ENV: 'test' }, 'tcms_session', false],
  ])('%s', (_label, env, sessionCookieName, secureCookies) => {
    expect(settingsOf(env)).toEqual({ sessionCookieName, secureCookies });
  });
});
