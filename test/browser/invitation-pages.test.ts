import { afterAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, signUp, uniqueEmail, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { invite } from '../support/invitations.ts';
import { mailedLink, signInOnPage } from '../support/page-flows.ts';
import { startSmtpServer } from '../support/smtp.ts';

/** `/invitations/accept?token=` in Debian's chromium: the link of the invitation mail, followed signed out and signed in. */

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const t = useTestApp({ TCMS_SMTP_URL: smtp.url });
const live = useListeningApp(t);
const browser = useBrowser();

const ACCEPT_PATH = '/invitations/accept';
const PASSWORD = 'correct horse battery';

async function membersOf(owner: Caller) {
  const response = await t.http.get(`/api/v1/orgs/${owner.orgId}/members`).set(owner.headers);
  expect(response.status).toBe(200);
  return (response.body.items as Array<{ email: string; role: string }>).map(({ email, role }) => ({ email, role }));
}

/** An invitation to `email` (as a viewer, who takes no seat, unless told), and the path of the link its mail carries. */
async function invitedLink(owner: Caller, email: string, role: 'admin' | 'member' | 'viewer' = 'viewer') {
  const invitation = await invite(t.http, owner, { email, role });
  return { invitation, link: await mailedLink(smtp, email, ACCEPT_PATH) };
}

/** A person signed in, in a browser of their own, as a user who signed up through the API. */
async function signedIn(email = uniqueEmail('member')) {
  const user = await signUp(t.http, { email, password: PASSWORD });
  const page = await browser.person();
  await signInOnPage(page, live.baseUrl, email, PASSWORD);
  return { user, page };
}

const alertOf = (page: Awaited<ReturnType<typeof browser.person>>) => page.getByRole('alert').textContent();

describe('the invitation page', () => {
  it('takes an invited stranger through sign-up, address filled in, into the organization', async () => {
    const owner = await signUp(t.http, { organizationName: 'Lighthouse Labs' });
    const email = uniqueEmail('invited');
    const { link } = await invitedLink(owner, email, 'member');

    const page = await browser.person();
    const opened = await page.goto(`${live.baseUrl}${link}`);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('main').textContent()).toContain(
      `You are invited to join Lighthouse Labs as a member. The invitation was sent to ${email}.`,
    );
    await inspectPage(page, 'invitation-signed-out');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signup');
    expect(await page.getByLabel('Email address').inputValue()).toBe(email);
    expect(await page.getByLabel('Organization name').count()).toBe(0);
    await page.getByLabel('First name').fill('Ida');
    await page.getByLabel('Last name').fill('Rhodes');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 3 }).textContent()).toBe('Lighthouse Labs');

    expect(await membersOf(owner)).toContainEqual({ email, role: 'member' });
    browser.expectCleanConsole(page);
  });

  it('lets a signed-in person accept with a button, and the link works once', async () => {
    const owner = await signUp(t.http, { organizationName: 'Tidewater' });
    const { user, page } = await signedIn();
    const { link } = await invitedLink(owner, user.email);

    await page.goto(`${live.baseUrl}${link}`);
    await inspectPage(page, 'invitation-signed-in');
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You are now a member of Tidewater, as a viewer.');
    expect(await page.locator('h1').textContent()).toBe('Welcome to Tidewater');
    await inspectPage(page, 'invitation-accepted');
    expect(await membersOf(owner)).toContainEqual({ email: user.email, role: 'viewer' });

    await page.getByRole('link', { name: 'Go to your organizations' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 3 }).allTextContents()).toContain('Tidewater');

    const again = await page.goto(`${live.baseUrl}${link}`);
    expect(again?.status()).toBe(404);
    expect(await alertOf(page)).toContain('This invitation has already been used.');
    browser.expectCleanConsole(page);
  });

  it('says in a sentence why an invitation cannot be accepted', async () => {
    const owner = await signUp(t.http, { organizationName: 'Harbour Works' });
    const stranger = await browser.person();

    const revokedAddress = uniqueEmail('revoked');
    const revoked = await invitedLink(owner, revokedAddress);
    const revoking = await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${revoked.invitation.ulid}`).set(owner.headers);
    expect(revoking.status).toBe(204);
    expect((await stranger.goto(`${live.baseUrl}${revoked.link}`))?.status()).toBe(404);
    expect(await alertOf(stranger)).toContain('This invitation was withdrawn by Harbour Works.');
    expect(await stranger.getByRole('button').count()).toBe(0);
    await inspectPage(stranger, 'invitation-revoked');

    const expired = await invitedLink(owner, uniqueEmail('expired'));
    await prisma().invitation.update({ where: { id: expired.invitation.ulid }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await stranger.goto(`${live.baseUrl}${expired.link}`);
    expect(await alertOf(stranger)).toContain('This invitation has expired. Ask an admin of Harbour Works to send it again.');

    await stranger.goto(`${live.baseUrl}${ACCEPT_PATH}?token=not-a-token`);
    expect(await alertOf(stranger)).toContain('This invitation link does not work');

    const { user, page } = await signedIn();
    const someoneElse = uniqueEmail('someone-else');
    const elsewhere = await invitedLink(owner, someoneElse);
    expect((await page.goto(`${live.baseUrl}${elsewhere.link}`))?.status()).toBe(403);
    expect(await alertOf(page)).toContain(
      `This invitation was sent to ${someoneElse}, but you are signed in as ${user.email}. Sign out, then open the link again and sign in as ${someoneElse}.`,
    );
    await inspectPage(page, 'invitation-another-address');

    // Joined meanwhile by other means: the page offers the button, the acceptance says why not.
    const member = await signedIn();
    const meanwhile = await invitedLink(owner, member.user.email);
    await prisma().membership.create({ data: { id: newId(), orgId: owner.orgId, userId: member.user.userId, role: 'viewer' } });
    await member.page.goto(`${live.baseUrl}${meanwhile.link}`);
    await member.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect.poll(() => alertOf(member.page)).toContain('You are already a member of Harbour Works.');

    const latecomer = await signedIn();
    const full = await invitedLink(owner, latecomer.user.email, 'member');
    // Only the owner's seat: the invitation stops reserving one as it is used, and none is left.
    await prisma().organization.update({ where: { id: owner.orgId }, data: { maxSeatsOverride: 1 } });
    await latecomer.page.goto(`${live.baseUrl}${full.link}`);
    await latecomer.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect.poll(() => alertOf(latecomer.page)).toContain('Harbour Works has no free seat for another member.');
    await inspectPage(latecomer.page, 'invitation-seat-limit');

    for (const each of [stranger, page, member.page, latecomer.page]) browser.expectCleanConsole(each);
  });

  it('speaks Spanish to a browser that asks for it', async () => {
    const owner = await signUp(t.http, { organizationName: 'Faro' });
    const { link } = await invitedLink(owner, uniqueEmail('invitada'), 'admin');
    const page = await browser.person('es-ES');
    await page.goto(`${live.baseUrl}${link}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('main').textContent()).toContain('Te han invitado a unirte a Faro como administrador.');
    expect(await page.getByRole('link', { name: 'Crear una cuenta' }).count()).toBe(1);
    await inspectPage(page, 'invitation-es');
    browser.expectCleanConsole(page);
  });
});
