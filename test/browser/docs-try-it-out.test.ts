import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';

const SCREENSHOT = path.join(import.meta.dirname, '../../test-artifacts/docs-try-it-out.png');

const t = useTestApp();
const live = useListeningApp(t);
const browser = useBrowser();

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
    const page = await browser.person();
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
