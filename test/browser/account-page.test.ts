import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, signUp, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';

/** `/account` in Debian's chromium: API tokens, a connected app, the profile, signing out everywhere. */
const PUBLIC_URL = 'http://localhost:4782';
const PASSWORD = 'correct horse battery';
const REDIRECT_URI = 'http://127.0.0.1:33418/callback';
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_TRUST_PROXY: 'true' });
const live = useListeningApp(t);
const browser = useBrowser();

/** An application the owner connected (registration, consent with the pages' CSRF pair, code exchange): its access token. */
async function connectedApp(owner: Caller, clientName: string): Promise<string> {
  const client = await t.http
    .post('/register')
    .set('X-Forwarded-For', `10.${randomBytes(3).join('.')}`)
    .send({ client_name: clientName, redirect_uris: [REDIRECT_URI] });
  const verifier = randomBytes(32).toString('base64url');
  const authorization = {
    client_id: client.body.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  const csrf = 'c'.repeat(43);
  const consent = await t.http
    .post('/authorize')
    .set({ Cookie: `${owner.headers.Cookie}; tcms_csrf=${csrf}`, Origin: PUBLIC_URL })
    .type('form')
    .send({ ...authorization, approve: 'true', organizationUlid: owner.orgId, _csrf: csrf });
  const code = new URL(consent.headers.location!).searchParams.get('code');
  const tokens = await t.http.post('/token').type('form').send({
    grant_type: 'authorization_code',
    client_id: client.body.client_id,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return tokens.body.access_token;
}

const projectsWith = (token: string) => fetch(`${live.baseUrl}/api/v1/projects`, { headers: { Authorization: `Bearer ${token}` } });

/** A new browser of the owner's, signed in through /signin and sent on to /account. */
async function signedInAtAccount(email: string): Promise<Page> {
  const page = await browser.person();
  await page.goto(`${live.baseUrl}/account`);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.url()).toBe(`${live.baseUrl}/account`);
  return page;
}

describe('/account in a browser', () => {
  it('creates an API token shown once, revokes it, disconnects an app, saves the profile and signs out everywhere', async () => {
    const owner = await signUp(t.http, { password: PASSWORD, organizationName: 'Token Works' });
    const appToken = await connectedApp(owner, 'Desk agent');
    const page = await signedInAtAccount(owner.email);
    const elsewhere = await signedInAtAccount(owner.email);
    expect(await page.getByRole('heading', { name: 'API tokens in Token Works' }).count()).toBe(1);
    await inspectPage(page, 'account');

    // The service's refusal is shown in the error summary, the form kept.
    await page.getByLabel('Name', { exact: true }).fill('Browser CI');
    await page.getByLabel('Expires on (optional)').fill('2001-02-03');
    await page.getByRole('button', { name: 'Create the token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The expiry date must be a day to come.');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Browser CI');
    await page.getByLabel('Expires on (optional)').fill('');

    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Create the token' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('The token “Browser CI” was created');
    const secret = (await page.locator('.secret').textContent())!;
    expect(secret).toMatch(/^tcms_/);
    await inspectPage(page, 'account-token-created');
    expect((await projectsWith(secret)).status).toBe(200);
    await page.goto(`${live.baseUrl}/account`);
    expect(await page.locator('.secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke Browser CI' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('The token was revoked: it no longer works.');
    expect((await projectsWith(secret)).status).toBe(401);

    expect((await projectsWith(appToken)).status).toBe(200);
    await page.getByRole('button', { name: 'Disconnect Desk agent' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('The app was disconnected: its tokens no longer work.');
    expect((await projectsWith(appToken)).status).toBe(401);
    expect(await page.getByText('No connected apps.').count()).toBe(1);

    await page.getByLabel('First name').fill('Ada');
    await page.getByRole('button', { name: 'Save the profile' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your profile was saved.');
    expect(await page.getByRole('navigation').textContent()).toContain('Ada User');
    const actions = (await auditEvents(t.http, owner)).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['api_token.created', 'api_token.revoked', 'oauth.revoked', 'user.updated']));
    await inspectPage(page, 'account-after-changes');

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    await elsewhere.reload();
    await expect.poll(() => new URL(elsewhere.url()).pathname).toBe('/signin');
    expect((await t.http.get('/api/v1/auth/session').set(owner.headers)).status).toBe(401);
    browser.expectCleanConsole(page);
    browser.expectCleanConsole(elsewhere);
  });
});
