import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(import.meta.dirname, '../../test-artifacts');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * One headless chromium for a test file; each `person()` is a fresh context (its own cookies), so
 * two people can be signed in at once. Every page collects what the browser refused (CSP) and
 * script errors, which `expectCleanConsole` asserts empty.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  let profile: string | undefined;
  const refusals = new WeakMap<Page, string[]>();
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`The browser tests need chromium at ${CHROMIUM}: apt-get install chromium`);
    profile = await mkdtemp(path.join(os.tmpdir(), 'tcms-chromium-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
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
  return {
    /** A new person with an empty cookie jar, speaking `locale`. */
    async person(locale = 'en-US'): Promise<Page> {
      const context = await browser!.newContext({ locale });
      const page = await context.newPage();
      const seen: string[] = [];
      refusals.set(page, seen);
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.push(message.text());
      });
      page.on('pageerror', (error) => seen.push(error.message));
      return page;
    },
    expectCleanConsole(page: Page): void {
      expect(refusals.get(page)).toEqual([]);
    },
  };
}

/** axe-core's serious and critical violations of the page as it is now (none expected). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }
    ).axe.run();
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, count: violation.nodes.length }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.count})`);
}

/** Checks the page with axe-core and keeps a screenshot of it in test-artifacts/. */
export async function inspectPage(page: Page, name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
