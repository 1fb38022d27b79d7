import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useListeningApp } from '../support/event-streams.ts';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.join(import.meta.dirname, '../../test-artifacts/docs-try-it-out.png');

const t = useTestApp();
const live = useListeningApp(t);
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`The /docs browser test needs chromium at ${CHROMIUM}: apt-get install chromium`);
  profile = await mkdtemp(path.join(os.tmpdir(), 'tcms-chromium-'));
  // A fresh profile (--user-data-dir) for every run.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** Swagger UI renders only the operations near the viewport: scrolls down until `selector` is rendered. */
async function scrolledTo(page: Page, selector: string): Promise<Locator> {
  const target = page.locator(selector);
  for (let screens = 0; screens < 200 && (await target.count()) === 0; screens++) {
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    await page.waitForTimeout(50);
  }
  await target.scrollIntoViewIfNeeded();
  return target;
}

type Parameter = { name: string; in: string; required?: boolean; schema?: unknown };

describe('Swagger UI at /docs', () => {
  it('answers "Try it out" of GET /api/v1/projects with 200 for a bearer token', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner, { name: 'Tried out' });
    const { token } = await tokenFor(t.http, owner);
    const page = await browser.newPage();
    await page.goto(`${live.baseUrl}/docs/`);

    await page.locator('.auth-wrapper button.authorize').click();
    const bearer = page.locator('.auth-container').filter({ hasText: '(http, Bearer)' });
    await bearer.locator('input').fill(token);
    await bearer.locator('button.authorize').click();
    await bearer.locator('button.btn-done').click();

    const operation = await scrolledTo(page, '#operations-Projects-listProjects');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await expect.poll(() => operation.locator('tr[data-param-name="X-Organization-Id"] input').inputValue()).toBe('');
    await operation.locator('button.execute').click();

    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('200');
    expect(await operation.locator('.live-responses-table tbody .response-col_description').first().textContent()).toContain(project.ulid);
    expect(await operation.locator('.curl-command').textContent()).not.toContain('X-Organization-Id');

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await operation.screenshot({ path: SCREENSHOT });
  });

  it('prefills no optional parameter with an example (Swagger UI would send it)', async () => {
    const document = (await t.http.get('/openapi/v1.json')).body as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
    const prefilled = Object.entries(document.paths).flatMap(([route, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((parameter) => !parameter.required && JSON.stringify(parameter).includes('"example"'))
          .map((parameter) => `${method} ${route} ${parameter.in} ${parameter.name}`),
      ),
    );
    expect(prefilled).toEqual([]);
    const displayId = document.paths['/api/v1/projects/{projectId}/suites/by-display-id/{displayId}']!.get!.parameters!;
    expect(displayId.find((parameter) => parameter.name === 'displayId')?.schema).toMatchObject({ example: 'WEB-S3' });
  });
});
