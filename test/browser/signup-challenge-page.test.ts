import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { uniqueEmail, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';

/**
 * A bot-check provider on another origin, as Turnstile is: its widget script fills the element
 * the page names and adds its answer to the form; its siteverify endpoint accepts that answer.
 */
const answers: string[] = [];
const provider = http.createServer((request, response) => {
  if (request.url === '/widget.js') {
    response.writeHead(200, { 'Content-Type': 'text/javascript' });
    return void response.end(`for (const element of document.querySelectorAll('.cf-turnstile')) {
      const answer = document.createElement('input');
      answer.type = 'hidden';
      answer.name = 'cf-turnstile-response';
      answer.value = 'pass-' + element.dataset.sitekey;
      element.closest('form').append(answer);
      element.textContent = 'Verified';
    }`);
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const token = new URLSearchParams(body).get('response') ?? '';
    answers.push(token);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: token === 'pass-site-key' }));
  });
});
provider.listen(0, '127.0.0.1');
await once(provider, 'listening');
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
afterAll(() => {
  provider.closeAllConnections();
  provider.close();
});

const t = useTestApp({
  TCMS_CHALLENGE_VERIFY_URL: `${providerUrl}/siteverify`,
  TCMS_CHALLENGE_SECRET: 'secret',
  TCMS_CHALLENGE_SITE_KEY: 'site-key',
  TCMS_CHALLENGE_SCRIPT_URL: `${providerUrl}/widget.js`,
});
const live = useListeningApp(t);
const browser = useBrowser();

describe('the signup page with the bot check configured', () => {
  it("loads the provider's widget under its CSP and signs up with the widget's answer", async () => {
    const page = await browser.person();
    const shown = await page.goto(`${live.baseUrl}/signup`);
    expect(shown?.headers()['content-security-policy']).toContain(`script-src ${providerUrl}; frame-src ${providerUrl}`);
    await expect.poll(() => page.locator('.cf-turnstile').textContent()).toBe('Verified');
    const email = uniqueEmail('challenged');
    await page.getByLabel('First name').fill('Alan');
    await page.getByLabel('Last name').fill('Turing');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await inspectPage(page, 'signup-with-challenge');
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expect(answers).toEqual(['pass-site-key']);
    expect(await prisma().user.count({ where: { email } })).toBe(1);
    browser.expectCleanConsole(page);
  });

  it('shows a failed check as a sentence and creates nothing', async () => {
    const page = await browser.person();
    await page.route(`${providerUrl}/widget.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
    await page.goto(`${live.baseUrl}/signup`);
    const email = uniqueEmail('unchallenged');
    await page.getByLabel('First name').fill('Bot');
    await page.getByLabel('Last name').fill('Net');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The check that you are a person did not pass.');
    expect(await prisma().user.count({ where: { email } })).toBe(0);
  });
});
