import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESETS_PER_ADDRESS } from '../../src/accounts/password-reset.service.ts';
import { signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { HOUR_MS, windowWithRoom } from '../support/fixed-windows.ts';
import { mailedLink, signInOnPage } from '../support/page-flows.ts';
import { startSmtpServer } from '../support/smtp.ts';

/** `/verify-email?token=`, `/password-reset` and `/password-reset/confirm?token=` in Debian's chromium, from the mails' links. */

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
// The password reset budgets per client address outlive a run on the server database: each
// browser here comes from an address of its own (the app trusts X-Forwarded-For in this file).
const t = useTestApp({ TCMS_SMTP_URL: smtp.url, TCMS_TRUST_PROXY: 'true' });
const live = useListeningApp(t);
const browser = useBrowser();

const runPrefix = `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
let nextIp = 1;
const freshIp = () => `${runPrefix}::${(nextIp++).toString(16)}`;

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

async function person(): Promise<Page> {
  const page = await browser.person();
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': freshIp() });
  return page;
}

const alertOf = (page: Page) => page.getByRole('alert').textContent();
const noticeOf = (page: Page) => page.getByRole('status').textContent();
const sessionOf = (page: Page) => page.request.get(`${live.baseUrl}/api/v1/auth/session`);

describe('verifying an email address through its page', () => {
  it('verifies with the button of the mailed link, and offers a new mail for a link that does not work', async () => {
    const page = await person();
    const email = uniqueEmail('verify');
    await page.goto(`${live.baseUrl}/signup`);
    await page.getByLabel('First name').fill('Vera');
    await page.getByLabel('Last name').fill('Fied');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/`);

    const stranger = await person();
    await stranger.goto(`${live.baseUrl}/verify-email?token=not-a-token`);
    await stranger.getByRole('button', { name: 'Verify my email address' }).click();
    await expect.poll(() => alertOf(stranger)).toContain('This verification link does not work');
    const signIn = stranger.locator('main').getByRole('link', { name: 'Sign in' });
    expect(await signIn.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent('/verify-email?token=not-a-token')}`);
    await inspectPage(stranger, 'verify-email-unknown-signed-out');

    await page.goto(`${live.baseUrl}/verify-email?token=not-a-token`);
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.getByRole('button', { name: 'Send a new verification mail' }).click();
    await expect.poll(() => noticeOf(page)).toBe(`A new verification mail is on its way to ${email}. Its link works for 7 days.`);
    await inspectPage(page, 'verify-email-resent');

    // Opening the link verifies nothing (mail scanners open links too): its button does.
    const link = await mailedLink(smtp, email, '/verify-email', 2);
    await page.goto(`${live.baseUrl}${link}`);
    expect((await (await sessionOf(page)).json()).user.emailVerified).toBe(false);
    await inspectPage(page, 'verify-email');
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await expect.poll(() => noticeOf(page)).toBe(`Your email address ${email} is verified.`);
    await inspectPage(page, 'verify-email-verified');
    expect((await (await sessionOf(page)).json()).user.emailVerified).toBe(true);

    for (const each of [page, stranger]) browser.expectCleanConsole(each);
  });
});

describe('resetting a password through its pages', () => {
  it('sets a new password from the mailed link, which signs in, and ends the sessions from before', async () => {
    const user = await signUp(t.http, { password: PASSWORD });
    const before = await person();
    await signInOnPage(before, live.baseUrl, user.email, PASSWORD);

    const page = await person();
    await page.goto(`${live.baseUrl}/signin`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/password-reset`);
    await inspectPage(page, 'password-reset');
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await expect
      .poll(() => noticeOf(page))
      .toBe(
        `If an account has the address ${user.email}, a mail with a link to choose a new password is on its way. The link works once, for 1 hour.`,
      );
    await inspectPage(page, 'password-reset-sent');

    const link = await mailedLink(smtp, user.email, '/password-reset/confirm');
    await page.goto(`${live.baseUrl}${link}`);
    await inspectPage(page, 'password-reset-confirm');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => alertOf(page)).toContain('password');
    expect(await page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    await inspectPage(page, 'password-reset-confirm-refused');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => noticeOf(page)).toBe('Your password is changed, and every session of your account has ended.');
    await inspectPage(page, 'password-reset-done');

    await page.getByRole('link', { name: 'Sign in with your new password' }).click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/signin`);
    await signInOnPage(page, live.baseUrl, user.email, NEW_PASSWORD);
    expect(await page.locator('h1').textContent()).toBe('Welcome');

    await before.goto(`${live.baseUrl}/`);
    expect(await before.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await before.locator('h1').textContent()).toBe('tcms');
    expect((await sessionOf(before)).status()).toBe(401);

    await page.goto(`${live.baseUrl}${link}`);
    await page.getByLabel('New password').fill(`${NEW_PASSWORD} again`);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => alertOf(page)).toContain('This link does not work');
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/password-reset');
    await inspectPage(page, 'password-reset-link-used');

    for (const each of [page, before]) browser.expectCleanConsole(each);
  });

  it('says how long to wait once the address had its requests of the hour', async () => {
    await windowWithRoom(HOUR_MS, 20_000);
    const email = uniqueEmail('nobody');
    for (let request = 0; request < PASSWORD_RESETS_PER_ADDRESS; request++) {
      const answer = await t.http.post('/api/v1/auth/password-reset').set('X-Forwarded-For', freshIp()).send({ email });
      expect(answer.status).toBe(202);
    }
    const page = await person();
    await page.goto(`${live.baseUrl}/password-reset`);
    await page.getByLabel('Email address').fill(email);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Mail me a link' }).click(),
    ]);
    expect(answer.status()).toBe(429);
    expect(await alertOf(page)).toMatch(/Too many attempts\. Please try again in \d+ minutes\./);
    await inspectPage(page, 'password-reset-too-many');
    browser.expectCleanConsole(page);
  });
});
