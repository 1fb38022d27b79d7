import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestSmtpServer } from './smtp.ts';

/** What people do on the pages for people again and again: follow a mailed link, sign in. */

const linksTo = (text: string, path: string) =>
  [...text.matchAll(/https?:\/\/\S+/g)]
    .map(([link]) => new URL(link))
    .filter((url) => url.pathname === path)
    .map((url) => `${url.pathname}${url.search}`);

/**
 * The `nth` (1-based) link to `path` in the mail the test's SMTP server received for `address`, as
 * a path and query: mailed links name TCMS_PUBLIC_URL's origin, a test opens them on its own server.
 */
export async function mailedLink(smtp: TestSmtpServer, address: string, path: string, nth = 1): Promise<string> {
  const links = () => smtp.messagesTo(address).flatMap((message) => linksTo(message.parsed.text ?? '', path));
  await expect.poll(() => links().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(nth);
  return links()[nth - 1]!;
}

/** Signs in on /signin and waits for the home page it leads to. */
export async function signInOnPage(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.url()).toBe(`${baseUrl}/`);
}
