import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { patchRunCase, runWithCases } from '../support/runs.ts';

const t = useTestApp();
const live = useListeningApp(t);
const browser = useBrowser();

describe('the share page in a browser', () => {
  it('shows the counts and the chart, and follows a result marked through the API', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    const created = await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send({});
    expect(created.status).toBe(201);
    const page = await browser.person();
    const response = await page.goto(`${live.baseUrl}/share/runs/${created.body.token}`);
    expect(response?.status()).toBe(200);

    await expect.poll(() => page.locator('h1').textContent()).toBe('Nightly');
    expect(await page.locator('#count-untested').textContent()).toBe('4');
    expect(await page.locator('#count-passed').textContent()).toBe('0');
    expect(Number(await page.locator('#bar-passed').getAttribute('width'))).toBe(0);
    expect(await page.locator('#cases tr').count()).toBe(4);
    expect(await page.locator('#pass-rate').textContent()).toBe('0%');

    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' })).status).toBe(200);
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[1]!.ulid, { status: 'failed' })).status).toBe(200);

    await expect.poll(() => page.locator('#count-passed').textContent(), { timeout: 10_000 }).toBe('1');
    await expect.poll(() => page.locator('#count-failed').textContent(), { timeout: 10_000 }).toBe('1');
    expect(await page.locator('#count-untested').textContent()).toBe('2');
    expect(await page.locator('#pass-rate').textContent()).toBe('25%');
    expect(Number(await page.locator('#bar-passed').getAttribute('width'))).toBeCloseTo(150);
    expect(Number(await page.locator('#bar-failed').getAttribute('x'))).toBeCloseTo(150);
    // The table is read again (at most every 2 s) after a change.
    await expect.poll(() => page.locator('#cases tr:nth-child(2) td.status-failed').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('#cases tr:first-child td.status-passed').count()).toBe(1);

    // Every control is reachable by keyboard: the scrollable table region takes focus.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('region');
    browser.expectCleanConsole(page);
    await inspectPage(page, 'share-page');
  });
});
