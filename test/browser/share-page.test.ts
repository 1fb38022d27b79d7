import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { patchRunCase, runWithCases } from '../support/runs.ts';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.join(import.meta.dirname, '../../test-artifacts/share-page.png');

const t = useTestApp();
const live = useListeningApp(t);
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`The share page's browser test needs chromium at ${CHROMIUM}: apt-get install chromium`);
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

describe('the share page in a browser', () => {
  it('shows the counts and the chart, and follows a result marked through the API', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 4);
    const created = await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send({});
    expect(created.status).toBe(201);
    const page = await browser.newPage();
    const violations: string[] = [];
    // Refusals of the Content-Security-Policy and script errors (the browser's own favicon request may 404).
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(error.message));
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
    expect(violations).toEqual([]);

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});
