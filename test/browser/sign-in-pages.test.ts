import { describe, expect, it } from 'vitest';
import { signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';

/** The home, sign-up, sign-in and sign-out pages, clicked in Debian's chromium with the keyboard and the mouse. */
const t = useTestApp();
const live = useListeningApp(t);
const browser = useBrowser();

describe('signing up, out and in through the pages', () => {
  it('takes a stranger from / to an account of their own and back, without JavaScript', async () => {
    const page = await browser.person();
    await page.goto(`${live.baseUrl}/`);
    await inspectPage(page, 'home-signed-out');
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/signup`);

    // A first try with a short password: the summary names the field and the field says why.
    const email = uniqueEmail('page');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Organization name').fill('Compilers');
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('password');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await inspectPage(page, 'signup-error');

    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Password').press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 3 }).textContent()).toBe('Compilers');
    await inspectPage(page, 'home-signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBeGreaterThan(0);

    await page.goto(`${live.baseUrl}/signin?next=${encodeURIComponent('/?signed=in')}`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await inspectPage(page, 'signin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/?signed=in`);
    expect(await page.getByRole('heading', { level: 3 }).textContent()).toBe('Compilers');
    browser.expectCleanConsole(page);
  });

  it('reaches every control of the sign-in form by keyboard, in order, and announces a refusal', async () => {
    const user = await signUp(t.http, { password: 'the right password' });
    const page = await browser.person('es-ES');
    await page.goto(`${live.baseUrl}/signin`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Saltar al contenido');
    await page.getByLabel('Correo electrónico').focus();
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('a wrong password');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Iniciar sesión');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('El correo electrónico o la contraseña no son correctos.');
    await inspectPage(page, 'signin-refused-es');
    browser.expectCleanConsole(page);
  });
});
