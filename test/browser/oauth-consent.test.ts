import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';

/**
 * An OAuth client (the MCP SDK's helpers) sends a person to /authorize in Debian's chromium: they
 * sign in, consent, and the browser lands on the client's redirect URI, a real HTTP receiver.
 * TCMS_PUBLIC_URL names another address than the one the browser reaches the service at.
 */
const PUBLIC_URL = 'http://localhost:4781';
const PASSWORD = 'correct horse battery';
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_TRUST_PROXY: 'true' });
const live = useListeningApp(t);
const browser = useBrowser();

/** The client's side: its registration calls reach the listening app from an address of its own (the registration budget). */
const address = `10.${randomBytes(3).join('.')}`;
const fetchFn = (url: string | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  headers.set('X-Forwarded-For', address);
  return fetch(String(url).replace(PUBLIC_URL, live.baseUrl), { ...init, headers });
};

/** The redirect URI: answers every request and keeps the query it was called with. */
let receiver: Server;
let redirectUri: string;
const callbacks: URLSearchParams[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const url = new URL(req.url!, 'http://receiver');
    if (url.pathname === '/callback') callbacks.push(url.searchParams);
    res.writeHead(url.pathname === '/callback' ? 200 : 404, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Done</title>');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

/** Registration and an authorization request with PKCE, as an MCP client makes them. */
async function startFlow(state: string) {
  const metadata = (await discoverAuthorizationServerMetadata(PUBLIC_URL, { fetchFn }))!;
  const clientInformation = await registerClient(PUBLIC_URL, {
    metadata,
    clientMetadata: { client_name: 'Browser agent', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'] },
    fetchFn,
  });
  const started = await startAuthorization(PUBLIC_URL, {
    metadata,
    clientInformation,
    redirectUrl: redirectUri,
    state,
    resource: new URL(`${PUBLIC_URL}/mcp`),
  });
  const inBrowser = `${live.baseUrl}${started.authorizationUrl.pathname}${started.authorizationUrl.search}`;
  return { metadata, clientInformation, codeVerifier: started.codeVerifier, inBrowser };
}

/** The authorization request an address names, whatever the order of its parameters. */
const authorizationRequestOf = (address: string) => {
  const url = new URL(address, live.baseUrl);
  return { origin: url.origin, path: url.pathname, params: Object.fromEntries(url.searchParams) };
};

const callbackWith = async (state: string) => {
  await expect.poll(() => callbacks.some((query) => query.get('state') === state)).toBe(true);
  return callbacks.find((query) => query.get('state') === state)!;
};

describe('the OAuth consent in a browser', () => {
  it('signs a signed-out person in, shows the consent and hands the client a code that it exchanges for a working token', async () => {
    const owner = await signUp(t.http, { password: PASSWORD, organizationName: 'Agents Inc' });
    const flow = await startFlow('approve-state');
    const page = await browser.person();

    await page.goto(flow.inBrowser);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    expect(authorizationRequestOf(new URL(page.url()).searchParams.get('next')!)).toEqual(authorizationRequestOf(flow.inBrowser));
    await inspectPage(page, 'oauth-signin');
    await page.getByLabel('Email address').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect.poll(() => authorizationRequestOf(page.url())).toEqual(authorizationRequestOf(flow.inBrowser));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Authorize Browser agent');
    expect(await page.getByLabel('Organization').inputValue()).toBe(owner.orgId);
    await inspectPage(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Approve' }).click();

    const callback = await callbackWith('approve-state');
    expect(page.url().startsWith(`${redirectUri}?code=`)).toBe(true);
    const tokens = await exchangeAuthorization(PUBLIC_URL, {
      metadata: flow.metadata,
      clientInformation: flow.clientInformation,
      authorizationCode: callback.get('code')!,
      codeVerifier: flow.codeVerifier,
      redirectUri,
      resource: new URL(`${PUBLIC_URL}/mcp`),
      fetchFn,
    });
    const projects = await fetch(`${live.baseUrl}/api/v1/projects`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(projects.status).toBe(200);
    browser.expectCleanConsole(page);
  });

  it('answers a denial with error=access_denied at the redirect URI, in Spanish on the way', async () => {
    const owner = await signUp(t.http, { password: PASSWORD });
    const flow = await startFlow('deny-state');
    const page = await browser.person('es-ES');
    await page.goto(flow.inBrowser);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('Correo electrónico').fill(owner.email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => authorizationRequestOf(page.url())).toEqual(authorizationRequestOf(flow.inBrowser));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Autorizar a Browser agent');
    await page.getByRole('button', { name: 'Denegar' }).click();

    const callback = await callbackWith('deny-state');
    expect(callback.get('error')).toBe('access_denied');
    expect(callback.has('code')).toBe(false);
    browser.expectCleanConsole(page);
  });
});
