import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import {
  type Caller,
  createProject,
  joinAs,
  projectCode,
  sessionCaller,
  signUp,
  tokenFor,
  uniqueEmail,
  useTestApp,
} from '../support/app.ts';

const t = useTestApp();

const PASSWORD = 'correct horse battery';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const cookiesOf = (response: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []);
const sessionCookieLine = (response: { headers: Record<string, unknown> }) => {
  const line = cookiesOf(response).find((value) => value.startsWith('tcms_session='));
  if (!line) throw new Error(`no tcms_session cookie in ${JSON.stringify(cookiesOf(response))}`);
  return line;
};
/** `tcms_session=<value>`, ready for a Cookie header. */
const cookiePair = (response: { headers: Record<string, unknown> }) => sessionCookieLine(response).split(';')[0] as string;

function expectError(response: { status: number; body: unknown }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ error: { code, message: expect.any(String) } });
  expect((response.body as { error: { message: string } }).error.message.length).toBeGreaterThan(0);
}

const signupBody = (fields: Record<string, unknown> = {}) => ({
  email: uniqueEmail('signup'),
  password: PASSWORD,
  firstName: 'Ada',
  lastName: 'Lovelace',
  ...fields,
});

/** Cookie only: no X-Organization-Id (the CSRF and default-organization tests need that). */
const cookieOnly = (caller: Caller) => ({ Cookie: caller.headers.Cookie as string });

describe('signup', () => {
  it('creates a user, an owned organization with the default name, and a session cookie', async () => {
    const body = signupBody({ firstName: 'Grace', lastName: 'Hopper' });
    const response = await t.http.post('/api/v1/auth/signup').send(body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.user).toEqual({
      ulid: expect.stringMatching(ULID),
      email: body.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Grace Hopper',
      avatarKey: null,
      emailVerified: false,
    });
    expect(response.body.organization).toEqual({
      ulid: expect.stringMatching(ULID),
      name: "Grace's organization",
      plan: 'free',
      createdAt: expect.any(Number),
    });
    expect(response.body.organizations).toEqual([{ ulid: response.body.organization.ulid, name: "Grace's organization", role: 'owner' }]);
    expect(JSON.stringify(response.body)).not.toContain(PASSWORD);

    const line = sessionCookieLine(response);
    const attributes = line.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes[0]).toMatch(/^tcms_session=.{20,}/);
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');

    const session = await t.http.get('/api/v1/auth/session').set('Cookie', cookiePair(response));
    expect(session.status).toBe(200);
    expect(session.body.user.ulid).toBe(response.body.user.ulid);
    expect(session.body.organizations).toEqual(response.body.organizations);
  });

  it('uses organizationName when given', async () => {
    const response = await t.http.post('/api/v1/auth/signup').send(signupBody({ organizationName: 'Analytical Engines' }));
    expect(response.status).toBe(201);
    expect(response.body.organization.name).toBe('Analytical Engines');
    expect(response.body.organizations).toEqual([{ ulid: response.body.organization.ulid, name: 'Analytical Engines', role: 'owner' }]);
  });

  it('repairs: the same email with the right password answers 200 with a new session and no new organization', async () => {
    const body = signupBody();
    const first = await t.http.post('/api/v1/auth/signup').send(body);
    expect(first.status).toBe(201);

    const again = await t.http.post('/api/v1/auth/signup').send({ ...body, email: body.email.toUpperCase(), firstName: 'Other' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.user.ulid).toBe(first.body.user.ulid);
    expect(again.body.user.firstName).toBe('Ada');
    expect(again.body.organization.ulid).toBe(first.body.organization.ulid);
    expect(again.body.organizations).toEqual(first.body.organizations);
    expect(await prisma().membership.count({ where: { userId: first.body.user.ulid } })).toBe(1);

    const newCookie = cookiePair(again);
    expect(newCookie).not.toBe(cookiePair(first));
    const session = await t.http.get('/api/v1/auth/session').set('Cookie', newCookie);
    expect(session.status).toBe(200);
    expect(session.body.user.ulid).toBe(first.body.user.ulid);
    // The earlier session stays valid: repair adds a session, it does not replace one.
    expect((await t.http.get('/api/v1/auth/session').set('Cookie', cookiePair(first))).status).toBe(200);
  });

  it('repairs: a user without any membership gets a new owned organization', async () => {
    const body = signupBody({ firstName: 'Orphan' });
    const first = await t.http.post('/api/v1/auth/signup').send(body);
    expect(first.status).toBe(201);
    const userId = first.body.user.ulid as string;
    // Fixture: the user has lost every membership.
    await prisma().membership.deleteMany({ where: { userId } });

    const again = await t.http.post('/api/v1/auth/signup').send({ ...body, organizationName: 'Rebuilt' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.user.ulid).toBe(userId);
    expect(again.body.organization.ulid).toMatch(ULID);
    expect(again.body.organization.ulid).not.toBe(first.body.organization.ulid);
    expect(again.body.organization.name).toBe('Rebuilt');
    expect(again.body.organizations).toEqual([{ ulid: again.body.organization.ulid, name: 'Rebuilt', role: 'owner' }]);
    const memberships = await prisma().membership.findMany({ where: { userId } });
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({ orgId: again.body.organization.ulid, role: 'owner' });

    // The repaired session acts as owner of the new organization.
    const caller = sessionCaller(again, body.email);
    const project = await t.http.post('/api/v1/projects').set(caller.headers).send({ name: 'After repair', id: projectCode() });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
  });

  it('answers 409 conflict for a known email with another password, and changes nothing', async () => {
    const body = signupBody();
    const first = await t.http.post('/api/v1/auth/signup').send(body);
    expect(first.status).toBe(201);
    const response = await t.http.post('/api/v1/auth/signup').send({ ...body, password: 'a different password' });
    expectError(response, 409, 'conflict');
    expect(cookiesOf(response).some((line) => line.startsWith('tcms_session=') && !line.startsWith('tcms_session=;'))).toBe(false);
    expect(await prisma().membership.count({ where: { userId: first.body.user.ulid } })).toBe(1);
    // The original password still works, the other one does not.
    expect((await t.http.post('/api/v1/auth/login').send({ email: body.email, password: PASSWORD })).status).toBe(200);
    expect((await t.http.post('/api/v1/auth/login').send({ email: body.email, password: 'a different password' })).status).toBe(401);
  });

  it.each([
    ['a short password', { password: 'short7!' }, 'password'],
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['a missing firstName', { firstName: undefined }, 'firstName'],
    ['an empty lastName', { lastName: '' }, 'lastName'],
  ])('answers 422 validation_failed with details.path for %s', async (_label, fields, field) => {
    const body = signupBody(fields);
    const response = await t.http.post('/api/v1/auth/signup').send(body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual([field]);
    expect(cookiesOf(response)).toHaveLength(0);
    if (typeof body.email === 'string') expect(await prisma().user.count({ where: { email: body.email.toLowerCase() } })).toBe(0);
  });

  it('answers 422 validation_failed naming an unknown key', async () => {
    const body = signupBody({ isAdmin: true });
    const response = await t.http.post('/api/v1/auth/signup').send(body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(['isAdmin']);
    expect(await prisma().user.count({ where: { email: body.email } })).toBe(0);
  });
});

describe('login, logout and the session', () => {
  it('logs in with 200, the user, the organizations and a session cookie', async () => {
    const owner = await signUp(t.http, { firstName: 'Linus' });
    const response = await t.http.post('/api/v1/auth/login').send({ email: owner.email, password: PASSWORD });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.user).toMatchObject({ ulid: owner.userId, email: owner.email, firstName: 'Linus' });
    expect(response.body.organizations).toEqual([{ ulid: owner.orgId, name: "Linus's organization", role: 'owner' }]);
    const attributes = sessionCookieLine(response)
      .split(';')
      .map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    const session = await t.http.get('/api/v1/auth/session').set('Cookie', cookiePair(response));
    expect(session.status).toBe(200);
    expect(session.body.user.ulid).toBe(owner.userId);
  });

  it('answers the identical 401 for an unknown email and for a wrong password', async () => {
    const owner = await signUp(t.http);
    const unknown = await t.http.post('/api/v1/auth/login').send({ email: uniqueEmail('nobody'), password: PASSWORD });
    const wrong = await t.http.post('/api/v1/auth/login').send({ email: owner.email, password: 'wrong password!' });
    expectError(unknown, 401, 'unauthorized');
    expectError(wrong, 401, 'unauthorized');
    expect(wrong.body).toEqual(unknown.body);
    expect(cookiesOf(unknown)).toHaveLength(0);
    expect(cookiesOf(wrong)).toHaveLength(0);
  });

  it('logs out with 204; the old cookie then answers 401', async () => {
    const owner = await signUp(t.http);
    expect((await t.http.get('/api/v1/auth/session').set(owner.headers)).status).toBe(200);
    const logout = await t.http.post('/api/v1/auth/logout').set(owner.headers);
    expect(logout.status).toBe(204);
    // The cookie is cleared in the browser ...
    expect(sessionCookieLine(logout).toLowerCase()).toMatch(/^tcms_session=;|max-age=0/);
    // ... and destroyed on the server: replaying the old value fails.
    expectError(await t.http.get('/api/v1/auth/session').set(owner.headers), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/projects').set(owner.headers), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/auth/logout').set(owner.headers), 401, 'unauthorized');
  });

  it('logging out one session leaves the other sessions of the user alive', async () => {
    const owner = await signUp(t.http);
    const second = await t.http.post('/api/v1/auth/login').send({ email: owner.email, password: PASSWORD });
    expect((await t.http.post('/api/v1/auth/logout').set(owner.headers)).status).toBe(204);
    expect((await t.http.get('/api/v1/auth/session').set('Cookie', cookiePair(second))).status).toBe(200);
  });

  it('GET /auth/session answers 401 without a cookie and with an unknown cookie', async () => {
    expectError(await t.http.get('/api/v1/auth/session'), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/auth/session').set('Cookie', 'tcms_session=forged-value'), 401, 'unauthorized');
  });

  it('an idle session older than 30 days answers 401', async () => {
    const owner = await signUp(t.http);
    await prisma().session.updateMany({
      where: { userId: owner.userId },
      data: { lastSeenAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) },
    });
    expectError(await t.http.get('/api/v1/auth/session').set(owner.headers), 401, 'unauthorized');
  });
});

describe('organizations', () => {
  it('POST /orgs creates an organization owned by the caller', async () => {
    const owner = await signUp(t.http);
    const response = await t.http.post('/api/v1/orgs').set(owner.headers).send({ name: 'Second org' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({ ulid: expect.stringMatching(ULID), name: 'Second org', plan: 'free', createdAt: expect.any(Number) });
    const session = await t.http.get('/api/v1/auth/session').set(owner.headers);
    expect(session.body.organizations).toEqual([
      { ulid: owner.orgId, name: "Test's organization", role: 'owner' },
      { ulid: response.body.ulid, name: 'Second org', role: 'owner' },
    ]);
    // Owner in the new organization: may create a project there.
    const project = await t.http
      .post('/api/v1/projects')
      .set({ ...owner.headers, 'X-Organization-Id': response.body.ulid })
      .send({ name: 'In second', id: projectCode() });
    expect(project.status).toBe(201);
  });

  it('POST /orgs answers 422 for a missing name', async () => {
    const owner = await signUp(t.http);
    const response = await t.http.post('/api/v1/orgs').set(owner.headers).send({});
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(['name']);
  });

  it('GET /orgs/{orgUlid} answers a member, and 404 to a non-member session or token', async () => {
    const owner = await signUp(t.http, { organizationName: 'Visible org' });
    const member = await joinAs(t.http, owner, 'viewer');
    const own = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ ulid: owner.orgId, name: 'Visible org', plan: 'free', createdAt: expect.any(Number) });
    const asMember = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(member.headers);
    expect(asMember.status).toBe(200);
    expect(asMember.body.ulid).toBe(owner.orgId);
    const memberToken = await tokenFor(t.http, member);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(memberToken.headers)).status).toBe(200);

    const stranger = await signUp(t.http);
    const strangerToken = await tokenFor(t.http, stranger);
    const bySession = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(cookieOnly(stranger));
    expectError(bySession, 404, 'not_found');
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(stranger.headers), 404, 'not_found');
    const byToken = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(strangerToken.headers);
    expectError(byToken, 404, 'not_found');
    // Indistinguishable from an organization that does not exist.
    const missing = await t.http.get('/api/v1/orgs/01ARZ3NDEKTSV4RRFFQ69G5FAV').set(cookieOnly(stranger));
    expectError(missing, 404, 'not_found');
    expect(bySession.body).toEqual(missing.body);
    expect(JSON.stringify(bySession.body)).not.toContain('Visible org');
  });
});

describe('API tokens', () => {
  it('creates a token shown once; the list never shows the secret', async () => {
    const owner = await signUp(t.http);
    const created = await t.http.post('/api/v1/me/api-tokens').set(owner.headers).send({ name: 'CI' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      ulid: expect.stringMatching(ULID),
      name: 'CI',
      role: 'admin',
      token: expect.stringMatching(/^tcms_/),
      prefix: expect.stringMatching(/^tcms_/),
      createdAt: expect.any(Number),
      expiresAt: null,
    });
    const secret = created.body.token as string;
    expect(secret.length).toBeGreaterThanOrEqual('tcms_'.length + 43);
    expect(secret.startsWith(created.body.prefix)).toBe(true);
    expect(created.body.prefix.length).toBeLessThan(secret.length);

    const used = await t.http.get('/api/v1/projects').set('Authorization', `Bearer ${secret}`);
    expect(used.status).toBe(200);

    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    const [item] = list.body.items;
    expect(Object.keys(item).sort()).toEqual(['createdAt', 'expiresAt', 'lastUsedAt', 'name', 'prefix', 'role', 'ulid']);
    expect(item).toEqual({
      ulid: created.body.ulid,
      name: 'CI',
      role: 'admin',
      prefix: created.body.prefix,
      createdAt: created.body.createdAt,
      lastUsedAt: expect.any(Number),
      expiresAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it("the list holds only the caller's tokens of the active organization", async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const mine = await tokenFor(t.http, owner, { name: 'mine' });
    await tokenFor(t.http, admin, { name: 'theirs' });
    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([mine.tokenUlid]);
    // The admin's own organization has none of the admin's tokens made in the owner's organization.
    const adminHome = await t.http.get('/api/v1/me/api-tokens').set(cookieOnly(admin));
    expect(adminHome.status).toBe(200);
    expect(adminHome.body.items).toEqual([]);
  });

  it('stores only the SHA-256 of the secret', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const rows = await prisma().$queryRawUnsafe<Array<Record<string, unknown>>>('SELECT * FROM api_tokens WHERE id = $1', token.tokenUlid);
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(String(row.token_hash).trim()).toBe(sha256(token.token));
    for (const [column, value] of Object.entries(row)) {
      expect(String(value instanceof Date ? value.toISOString() : JSON.stringify(value)), `column ${column}`).not.toContain(
        token.token.slice(5),
      );
    }
  });

  it("defaults the role to the creator's role capped at admin", async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const roleOf = async (caller: Caller) => {
      const response = await t.http.post('/api/v1/me/api-tokens').set(caller.headers).send({ name: 'default role' });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.role;
    };
    expect(await roleOf(owner)).toBe('admin');
    expect(await roleOf(admin)).toBe('admin');
    expect(await roleOf(member)).toBe('member');
    expect(await roleOf(viewer)).toBe('viewer');
  });

  it('a token cannot hold a role above its creator (403), a lower one is fine', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await t.http.post('/api/v1/me/api-tokens').set(member.headers).send({ name: 'x', role: 'admin' }), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/me/api-tokens').set(viewer.headers).send({ name: 'x', role: 'member' }), 403, 'forbidden');
    expect(await prisma().apiToken.count({ where: { userId: { in: [member.userId, viewer.userId] } } })).toBe(0);
    const lower = await t.http.post('/api/v1/me/api-tokens').set(member.headers).send({ name: 'x', role: 'viewer' });
    expect(lower.status).toBe(201);
    expect(lower.body.role).toBe('viewer');
    // An owner may mint a lower-role token, and that token is held to its own role.
    const owned = await t.http.post('/api/v1/me/api-tokens').set(owner.headers).send({ name: 'ro', role: 'viewer' });
    expect(owned.body.role).toBe('viewer');
    const asViewerToken = await t.http
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${owned.body.token}`)
      .send({ name: 'x', id: projectCode() });
    expectError(asViewerToken, 403, 'forbidden');
    // 'owner' is not a token role at all.
    const ownerRole = await t.http.post('/api/v1/me/api-tokens').set(owner.headers).send({ name: 'x', role: 'owner' });
    expectError(ownerRole, 422, 'validation_failed');
    expect(ownerRole.body.error.details.path).toEqual(['role']);
  });

  it("a token acts no higher than its creator's current role", async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const token = await tokenFor(t.http, admin);
    expect((await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'ok', id: projectCode() })).status).toBe(201);
    await prisma().membership.updateMany({ where: { orgId: owner.orgId, userId: admin.userId }, data: { role: 'member' } });
    expectError(await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'no', id: projectCode() }), 403, 'forbidden');
  });

  it('validates the create body', async () => {
    const owner = await signUp(t.http);
    const empty = await t.http.post('/api/v1/me/api-tokens').set(owner.headers).send({ name: '' });
    expectError(empty, 422, 'validation_failed');
    expect(empty.body.error.details.path).toEqual(['name']);
    const long = await t.http
      .post('/api/v1/me/api-tokens')
      .set(owner.headers)
      .send({ name: 'x'.repeat(101) });
    expectError(long, 422, 'validation_failed');
    const past = await t.http
      .post('/api/v1/me/api-tokens')
      .set(owner.headers)
      .send({ name: 'old', expiresAt: Date.now() - 1000 });
    expectError(past, 422, 'validation_failed');
    expect(past.body.error.details.path).toEqual(['expiresAt']);
    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.body.items).toEqual([]);
  });

  it('revokes with 204; the token then answers 401 and a second revoke 404', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const keep = await tokenFor(t.http, owner, { name: 'keep' });
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    const revoke = await t.http.delete(`/api/v1/me/api-tokens/${token.tokenUlid}`).set(owner.headers);
    expect(revoke.status).toBe(204);
    expect(revoke.text).toBe('');
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
    expectError(await t.http.delete(`/api/v1/me/api-tokens/${token.tokenUlid}`).set(owner.headers), 404, 'not_found');
    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([keep.tokenUlid]);
    expect((await t.http.get('/api/v1/projects').set(keep.headers)).status).toBe(200);
  });

  it("cannot revoke another user's token (404) and the token keeps working", async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const adminToken = await tokenFor(t.http, admin);
    expectError(await t.http.delete(`/api/v1/me/api-tokens/${adminToken.tokenUlid}`).set(owner.headers), 404, 'not_found');
    expect((await t.http.get('/api/v1/projects').set(adminToken.headers)).status).toBe(200);
  });

  it('an expired token answers 401', async () => {
    const owner = await signUp(t.http);
    const expiresAt = Date.now() + 1500;
    const token = await tokenFor(t.http, owner, { expiresAt });
    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.body.items[0].expiresAt).toBe(expiresAt);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 100));
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
  });

  it('a token stops working when its creator leaves the organization', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const token = await tokenFor(t.http, member);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    await prisma().membership.deleteMany({ where: { orgId: owner.orgId, userId: member.userId } });
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(token.headers), 401, 'unauthorized');
  });

  it("records a token's use at most once a minute, and never a use it refused", async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const lastUsedAt = async () =>
      (await prisma().apiToken.findUniqueOrThrow({ where: { id: token.tokenUlid } })).lastUsedAt?.getTime() ?? null;
    const setLastUsedAt = (at: number | null) =>
      prisma().apiToken.update({ where: { id: token.tokenUlid }, data: { lastUsedAt: at === null ? null : new Date(at) } });
    const use = async () => expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);

    expect(await lastUsedAt()).toBeNull();
    const before = Date.now();
    await use();
    const first = await lastUsedAt();
    expect(first).toBeGreaterThanOrEqual(before - 1000);
    await use();
    expect(await lastUsedAt()).toBe(first);

    const minuteAgo = Date.now() - 61_000;
    await setLastUsedAt(minuteAgo);
    await use();
    expect(await lastUsedAt()).toBeGreaterThan(minuteAgo + 60_000);

    await prisma().membership.updateMany({ where: { orgId: owner.orgId, userId: owner.userId }, data: { suspendedAt: new Date() } });
    await setLastUsedAt(null);
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 403, 'forbidden');
    expect(await lastUsedAt()).toBeNull();
    await prisma().membership.updateMany({ where: { orgId: owner.orgId, userId: owner.userId }, data: { suspendedAt: null } });

    await prisma().apiToken.update({ where: { id: token.tokenUlid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
    expect(await lastUsedAt()).toBeNull();
    await prisma().apiToken.update({ where: { id: token.tokenUlid }, data: { expiresAt: null, revokedAt: new Date() } });
    expectError(await t.http.get('/api/v1/projects').set(token.headers), 401, 'unauthorized');
    expect(await lastUsedAt()).toBeNull();
  });

  it('session-only routes answer 401 to a bearer token', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const other = await tokenFor(t.http, owner, { name: 'other' });
    const bearer = token.headers;
    expectError(await t.http.get('/api/v1/me/api-tokens').set(bearer), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/me/api-tokens').set(bearer).send({ name: 'minted by a token' }), 401, 'unauthorized');
    expectError(await t.http.delete(`/api/v1/me/api-tokens/${other.tokenUlid}`).set(bearer), 401, 'unauthorized');
    expectError(await t.http.get('/api/v1/auth/session').set(bearer), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/orgs').set(bearer).send({ name: 'by token' }), 401, 'unauthorized');
    expectError(await t.http.post('/api/v1/auth/logout').set(bearer), 401, 'unauthorized');
    // None of them did anything.
    const list = await t.http.get('/api/v1/me/api-tokens').set(owner.headers);
    expect(list.body.items.map((item: { name: string }) => item.name).sort()).toEqual(['ci token', 'other']);
    expect((await t.http.get('/api/v1/projects').set(other.headers)).status).toBe(200);
    expect(await prisma().membership.count({ where: { userId: owner.userId } })).toBe(1);
  });

  it('malformed or unknown Authorization headers answer 401', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const headers = [
      `Basic ${Buffer.from(`${owner.email}:${PASSWORD}`).toString('base64')}`,
      'Bearer',
      'Bearer ',
      token.token,
      `Token ${token.token}`,
      `Bearer ${token.token} extra`,
      `Bearer ${token.token.slice(5)}`,
      `Bearer ${token.token}x`,
      'Bearer tcms_doesnotexist',
    ];
    for (const authorization of headers) {
      const response = await t.http.get('/api/v1/projects').set('Authorization', authorization);
      expectError(response, 401, 'unauthorized');
    }
    expect((await t.http.get('/api/v1/projects').set('Authorization', `bearer ${token.token}`)).status).toBe(200);
  });
});

describe('active organization (X-Organization-Id)', () => {
  it('a session naming an organization it does not belong to gets 404 not_found', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    const headers = { ...stranger.headers, 'X-Organization-Id': owner.orgId };
    expectError(await t.http.get('/api/v1/projects').set(headers), 404, 'not_found');
    expectError(await t.http.post('/api/v1/projects').set(headers).send({ name: 'x', id: projectCode() }), 404, 'not_found');
    expectError(await t.http.get('/api/v1/projects').set({ ...stranger.headers, 'X-Organization-Id': 'not-a-ulid' }), 404, 'not_found');
    expect(await prisma().project.count({ where: { orgId: owner.orgId } })).toBe(0);
  });

  it('without the header a session acts in its oldest membership', async () => {
    const owner = await signUp(t.http);
    const second = await t.http.post('/api/v1/orgs').set(owner.headers).send({ name: 'Newer' });
    expect(second.status).toBe(201);
    const inFirst = await createProject(t.http, owner, { name: 'first-org project' });
    const inSecond = await createProject(
      t.http,
      { ...owner, headers: { ...owner.headers, 'X-Organization-Id': second.body.ulid } },
      { name: 'second-org project' },
    );

    const implicit = await t.http.get('/api/v1/projects').set(cookieOnly(owner));
    expect(implicit.status).toBe(200);
    expect(implicit.body.items.map((p: { ulid: string }) => p.ulid)).toEqual([inFirst.ulid]);
    const explicit = await t.http.get('/api/v1/projects').set({ ...cookieOnly(owner), 'X-Organization-Id': second.body.ulid });
    expect(explicit.body.items.map((p: { ulid: string }) => p.ulid)).toEqual([inSecond.ulid]);

    // Once the oldest membership is gone, the next one becomes the default.
    await prisma().membership.deleteMany({ where: { userId: owner.userId, orgId: owner.orgId } });
    const fallback = await t.http.get('/api/v1/projects').set(cookieOnly(owner));
    expect(fallback.body.items.map((p: { ulid: string }) => p.ulid)).toEqual([inSecond.ulid]);
  });

  it('a joined member defaults to their own, older organization', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const member = await joinAs(t.http, owner, 'member');
    const implicit = await t.http.get('/api/v1/projects').set(cookieOnly(member));
    expect(implicit.body.items).toEqual([]);
    const explicit = await t.http.get('/api/v1/projects').set(member.headers);
    expect(explicit.body.items.map((p: { ulid: string }) => p.ulid)).toEqual([project.ulid]);
  });

  it('a token with X-Organization-Id of another organization gets 404; its own organization is fine', async () => {
    const owner = await signUp(t.http);
    const other = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const response = await t.http.get('/api/v1/projects').set({ ...token.headers, 'X-Organization-Id': other.orgId });
    expectError(response, 404, 'not_found');
    const write = await t.http
      .post('/api/v1/projects')
      .set({ ...token.headers, 'X-Organization-Id': other.orgId })
      .send({ name: 'x', id: projectCode() });
    expectError(write, 404, 'not_found');
    expect(await prisma().project.count({ where: { orgId: { in: [owner.orgId, other.orgId] } } })).toBe(0);
    expect((await t.http.get('/api/v1/projects').set({ ...token.headers, 'X-Organization-Id': owner.orgId })).status).toBe(200);
  });
});

describe('CSRF defence for cookie-authenticated writes', () => {
  const HOST = 'tcms.example.test:8080';

  it('a cookie-only POST, PATCH or DELETE without Origin answers 403 and writes nothing', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Original' });
    const token = await tokenFor(t.http, owner);
    const cookie = cookieOnly(owner);

    expectError(await t.http.post('/api/v1/projects').set(cookie).send({ name: 'csrf', id: projectCode() }), 403, 'forbidden');
    expectError(await t.http.patch(`/api/v1/projects/${project.id}`).set(cookie).send({ name: 'csrf' }), 403, 'forbidden');
    expectError(await t.http.delete(`/api/v1/projects/${project.id}`).set(cookie), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/me/api-tokens').set(cookie).send({ name: 'csrf' }), 403, 'forbidden');
    expectError(await t.http.delete(`/api/v1/me/api-tokens/${token.tokenUlid}`).set(cookie), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/orgs').set(cookie).send({ name: 'csrf' }), 403, 'forbidden');
    expectError(await t.http.post('/api/v1/auth/logout').set(cookie), 403, 'forbidden');

    const after = await t.http.get(`/api/v1/projects/${project.id}`).set(owner.headers);
    expect(after.body.name).toBe('Original');
    const list = await t.http.get('/api/v1/projects').set(owner.headers);
    expect(list.body.total).toBe(1);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(200);
    expect((await t.http.get('/api/v1/auth/session').set(cookie)).status).toBe(200);
    expect(await prisma().membership.count({ where: { userId: owner.userId } })).toBe(1);
  });

  it('a cross-origin Origin answers 403, a malformed one too', async () => {
    const owner = await signUp(t.http);
    for (const origin of ['https://evil.example', `http://${HOST}.evil.example`, 'http://tcms.example.test:9090', 'null', 'not a url']) {
      const response = await t.http
        .post('/api/v1/projects')
        .set({ ...cookieOnly(owner), Host: HOST, Origin: origin })
        .send({ name: 'csrf', id: projectCode() });
      expectError(response, 403, 'forbidden');
    }
    expect(await prisma().project.count({ where: { orgId: owner.orgId } })).toBe(0);
  });

  it('a same-origin Origin (matching Host) is allowed without X-Organization-Id', async () => {
    const owner = await signUp(t.http);
    const response = await t.http
      .post('/api/v1/projects')
      .set({ ...cookieOnly(owner), Host: HOST, Origin: `http://${HOST}` })
      .send({ name: 'same origin', id: projectCode() });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const stored = await prisma().project.findUnique({ where: { id: response.body.ulid } });
    expect(stored?.orgId).toBe(owner.orgId);
    const logout = await t.http.post('/api/v1/auth/logout').set({ ...cookieOnly(owner), Host: HOST, Origin: `https://${HOST}` });
    expect(logout.status).toBe(204);
  });

  it('X-Organization-Id alone satisfies the rule', async () => {
    const owner = await signUp(t.http);
    const response = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'with header', id: projectCode() });
    expect(response.status).toBe(201);
  });

  it('bearer requests are exempt, even with a cross-origin Origin', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const response = await t.http
      .post('/api/v1/projects')
      .set({ ...token.headers, Host: HOST, Origin: 'https://evil.example' })
      .send({ name: 'by token', id: projectCode() });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const patch = await t.http.patch(`/api/v1/projects/${response.body.id}`).set(token.headers).send({ name: 'renamed' });
    expect(patch.status).toBe(200);
  });

  it('GET is not affected', async () => {
    const owner = await signUp(t.http);
    const response = await t.http.get('/api/v1/projects').set({ ...cookieOnly(owner), Origin: 'https://evil.example' });
    expect(response.status).toBe(200);
    expect((await t.http.get('/api/v1/me/api-tokens').set(cookieOnly(owner))).status).toBe(200);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(cookieOnly(owner))).status).toBe(200);
  });

  it('signup and login need no CSRF header (they carry no session)', async () => {
    const body = signupBody();
    const response = await t.http.post('/api/v1/auth/signup').set({ Origin: 'https://elsewhere.example' }).send(body);
    expect(response.status).toBe(201);
    const login = await t.http.post('/api/v1/auth/login').send({ email: body.email, password: PASSWORD });
    expect(login.status).toBe(200);
  });
});

describe('roles', () => {
  async function png() {
    const sharp = (await import('sharp')).default;
    return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
  }

  it.each(['member', 'viewer'] as const)('a %s gets 403 forbidden on project create, PATCH, DELETE and avatar', async (role) => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Guarded' });
    const caller = await joinAs(t.http, owner, role);
    const image = await png();
    for (const who of [caller, await tokenFor(t.http, caller)]) {
      expectError(await t.http.post('/api/v1/projects').set(who.headers).send({ name: 'nope', id: projectCode() }), 403, 'forbidden');
      expectError(await t.http.patch(`/api/v1/projects/${project.id}`).set(who.headers).send({ name: 'nope' }), 403, 'forbidden');
      expectError(await t.http.delete(`/api/v1/projects/${project.id}`).set(who.headers), 403, 'forbidden');
      expectError(
        await t.http.post(`/api/v1/projects/${project.id}/avatar`).set(who.headers).attach('file', image, 'a.png'),
        403,
        'forbidden',
      );
      expectError(await t.http.delete(`/api/v1/projects/${project.id}/avatar`).set(who.headers), 403, 'forbidden');
      // Reading is allowed.
      expect((await t.http.get(`/api/v1/projects/${project.id}`).set(who.headers)).status).toBe(200);
    }
    const after = await t.http.get(`/api/v1/projects/${project.id}`).set(owner.headers);
    expect(after.body).toMatchObject({ name: 'Guarded', avatarKey: null, avatarVersion: 0 });
    expect((await t.http.get('/api/v1/projects').set(owner.headers)).body.total).toBe(1);
  });

  it.each(['member', 'viewer'] as const)('a %s gets 403 forbidden on the organization audit log', async (role) => {
    const owner = await signUp(t.http);
    const caller = await joinAs(t.http, owner, role);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(caller.headers), 403, 'forbidden');
    // The organization named by the path, without X-Organization-Id: still the caller's role there.
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(cookieOnly(caller)), 403, 'forbidden');
    const token = await tokenFor(t.http, caller);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(token.headers), 403, 'forbidden');
  });

  it('an admin may create, change, decorate and delete projects and read the audit log', async () => {
    const owner = await signUp(t.http);
    const admin = await joinAs(t.http, owner, 'admin');
    const created = await t.http.post('/api/v1/projects').set(admin.headers).send({ name: 'By admin', id: projectCode() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code = created.body.id as string;
    const patched = await t.http.patch(`/api/v1/projects/${code}`).set(admin.headers).send({ name: 'Renamed by admin' });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Renamed by admin');
    const avatar = await t.http
      .post(`/api/v1/projects/${code}/avatar`)
      .set(admin.headers)
      .attach('file', await png(), 'a.png');
    expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
    expect(avatar.body).toEqual({ avatarKey: `avatars/projects/${created.body.ulid}.webp`, avatarVersion: 1 });
    const removed = await t.http.delete(`/api/v1/projects/${code}/avatar`).set(admin.headers);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ avatarKey: null, avatarVersion: 2 });
    const audit = await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(admin.headers);
    expect(audit.status).toBe(200);
    const actions = audit.body.events.map((event: { action: string }) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining(['project.created', 'project.updated', 'project.avatar_updated', 'project.avatar_removed']),
    );
    const byAdmin = audit.body.events.find((event: { action: string }) => event.action === 'project.created');
    expect(byAdmin.actor).toMatchObject({ kind: 'user', ulid: admin.userId, email: admin.email });
    expect((await t.http.delete(`/api/v1/projects/${code}`).set(admin.headers)).status).toBe(204);
    expectError(await t.http.get(`/api/v1/projects/${code}`).set(owner.headers), 404, 'not_found');

    const adminToken = await tokenFor(t.http, admin);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(adminToken.headers)).status).toBe(200);
  });
});
