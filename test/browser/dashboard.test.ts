import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { inspectPage, useBrowser } from '../support/browser.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { dateRun, submitAt } from '../support/report-data.ts';
import { type CaseBody, createCase, createPlan, createRun, patchRunCase, putPlanCases, runCasesOf } from '../support/runs.ts';

/** `/dashboard` in Debian's chromium: panels read through the public GraphQL API, a live run, the shown queries. */
const PASSWORD = 'correct horse battery';
const t = useTestApp();
const live = useListeningApp(t);
const browser = useBrowser();

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/**
 * One organization for the whole file: a project whose plan's run has results over the last
 * days (a passing case, a failing one, a flaky one, one untested), a second run in progress to
 * mark while the page watches, and an empty second project.
 */
const data = {} as {
  owner: Caller;
  code: string;
  cases: CaseBody[];
  plan: { ulid: string };
  regression: { ulid: string };
  smoke: { ulid: string; runCaseUlids: string[] };
};

beforeAll(async () => {
  const owner = await signUp(t.http, { password: PASSWORD, organizationName: 'Dashboard Works' });
  const project = await createProject(t.http, owner, { name: 'Web shop' });
  await createProject(t.http, owner, { name: 'Mobile app' });
  const cases: CaseBody[] = [];
  for (const title of ['Checkout pays', 'Login works', 'Search finds', 'Cart keeps items']) {
    cases.push(await createCase(t.http, owner, project.id, { title }));
  }
  const plan = await createPlan(t.http, owner, project.id, { name: 'Release 2', status: 'active' });
  await putPlanCases(t.http, owner, plan.ulid, { caseUlids: cases.map((each) => each.ulid) });
  const regression = await createRun(t.http, owner, project.id, { name: 'Regression', planUlid: plan.ulid });
  await dateRun(regression.ulid, daysAgo(6));
  const [pays, login, search] = (await runCasesOf(t.http, owner, regression.ulid)).map((each) => each.ulid);
  await submitAt(t.http, owner, regression.ulid, [
    { runCaseUlid: pays!, status: 'passed', elapsedMs: 900, at: daysAgo(5) },
    { runCaseUlid: login!, status: 'failed', comment: 'Timeout on the sign-in button', at: daysAgo(5) },
    { runCaseUlid: search!, status: 'passed', at: daysAgo(5) },
    { runCaseUlid: search!, status: 'failed', at: daysAgo(4) },
    { runCaseUlid: search!, status: 'passed', at: daysAgo(3) },
    { runCaseUlid: search!, status: 'failed', at: daysAgo(2) },
    { runCaseUlid: login!, status: 'failed', comment: 'Timeout on the sign-in button', at: daysAgo(2) },
  ]);
  const smoke = await createRun(t.http, owner, project.id, { name: 'Smoke', caseUlids: [cases[0]!.ulid, cases[3]!.ulid] });
  const smokeCases = await runCasesOf(t.http, owner, smoke.ulid);
  Object.assign(data, {
    owner,
    code: project.id,
    cases,
    plan,
    regression,
    smoke: { ulid: smoke.ulid, runCaseUlids: smokeCases.map((each) => each.ulid) },
  });
});

/** A browser signed in as the owner by their session cookie, on the dashboard. */
async function ownerOnDashboard(locale: string): Promise<Page> {
  const page = await browser.person(locale);
  const cookies = data.owner.headers.Cookie!.split('; ').map((pair) => {
    const [name, ...value] = pair.split('=');
    return { name: name!, value: value.join('='), url: live.baseUrl };
  });
  await page.context().addCookies(cookies);
  await page.goto(`${live.baseUrl}/dashboard`);
  return page;
}

const text = (page: Page, selector: string) => page.locator(selector).first().textContent();

describe('/dashboard in a browser', () => {
  let page: Page;

  it('sends a person who is not signed in to sign in, and back to the dashboard', async () => {
    page = await browser.person();
    page.setDefaultTimeout(5_000);
    await page.goto(`${live.baseUrl}/dashboard`);
    expect(page.url()).toBe(`${live.baseUrl}/signin?next=%2Fdashboard`);
    await page.getByLabel('Email address').fill(data.owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.url()).toBe(`${live.baseUrl}/dashboard`);
    expect((await t.http.get('/').set(data.owner.headers)).text).toContain('<a href="/dashboard">');
  });

  it('shows the projects, open plans, runs in progress, trend, burn-up, failing and flaky tests made through the API', async () => {
    const { code, cases, plan, regression, smoke } = data;
    await expect.poll(() => text(page, '#organization-name')).toBe('Dashboard Works');
    await expect.poll(() => text(page, '#projects-content tbody')).toContain(`Web shop (${code})`);
    const webShop = page.locator('#projects-content tbody tr', { hasText: code });
    expect(await webShop.locator('td').allTextContents()).toEqual(['4', '2', '2', '0', '0']);

    await expect.poll(() => text(page, `#plan-${plan.ulid}`)).toContain('Release 2');
    expect(await text(page, `#plan-${plan.ulid}`)).toContain('3 of 4 cases executed; 0 of 1 runs closed.');
    expect(await page.locator(`#plan-${plan.ulid} a`).getAttribute('href')).toBe(`/api/v1/plans/${plan.ulid}`);

    await expect.poll(() => text(page, `#run-${smoke.ulid} .summary`)).toBe('0 of 2 executed, pass rate 0%.');
    expect(await text(page, `#run-${regression.ulid} .counts`)).toBe('Passed: 1 · Failed: 2 · Blocked: 0 · Skipped: 0 · Untested: 1');
    expect(await page.locator(`#run-${smoke.ulid} a`).getAttribute('href')).toBe(`/api/v1/runs/${smoke.ulid}`);
    await expect.poll(() => text(page, '#live-status')).toBe('Following 2 runs live.');

    // The reports are about the project with the most runs in progress, the burn-up about its open plan.
    expect(await page.getByLabel('Project', { exact: true }).inputValue()).toBe(code);
    await expect.poll(() => page.getByLabel('Burn-up of').inputValue()).toBe(plan.ulid);
    const trend = page.locator('#trend-content');
    await expect.poll(() => trend.locator('svg[role=img] title').textContent()).toBe('Pass rate per day');
    expect(await trend.locator('figcaption p').textContent()).toMatch(
      /4 days with results: the latest pass rate 0%, the lowest 0%, the highest 100%\.$/,
    );
    expect(await trend.locator('details tbody tr').count()).toBe(4);
    expect(await trend.locator('path[data-series=passRate]').getAttribute('d')).toMatch(/^M[\d. ]+( [ML][\d. ]+)+$/);

    const burnUp = page.locator('#burn-up-content');
    await expect.poll(() => burnUp.locator('figcaption p').textContent()).toMatch(/: 3 of 4 cases executed, 1 passed\.$/);
    expect(await burnUp.locator('path').count()).toBe(3);
    expect(JSON.parse((await text(page, '#burn-up-query-variables'))!)).toMatchObject({ code, planUlid: plan.ulid });

    const failing = page.locator('#failing-content tbody tr');
    await expect.poll(() => failing.count()).toBe(2);
    expect(await failing.first().locator('th a').getAttribute('href')).toBe(`/api/v1/test-cases/${cases[1]!.ulid}`);
    expect(await failing.first().textContent()).toContain('Timeout on the sign-in button');

    const flaky = page.locator('#flaky-content tbody tr');
    await expect.poll(() => flaky.count()).toBe(1);
    expect(await flaky.locator('th').textContent()).toBe(`${cases[2]!.displayId} Search finds`);
    expect(await flaky.locator('td a').getAttribute('href')).toBe(`/api/v1/runs/${regression.ulid}`);

    // A case's link leads to its resource, which the browser reads with its session.
    const caseResource = await page.context().request.get(`${live.baseUrl}/api/v1/test-cases/${cases[1]!.ulid}`);
    expect(caseResource.status()).toBe(200);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.baseUrl });
    await page.getByRole('region', { name: 'Projects', exact: true }).getByRole('button', { name: 'Copy this query' }).click();
    await expect.poll(() => text(page, '#projects-query-copied')).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await text(page, '#projects-query'));

    browser.expectCleanConsole(page);
    await inspectPage(page, 'dashboard');
  });

  it('moves the live panel when a result is marked through the API, without reloading', async () => {
    const { owner, smoke } = data;
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    expect((await patchRunCase(t.http, owner, smoke.ulid, smoke.runCaseUlids[0]!, { status: 'passed' })).status).toBe(200);
    await expect.poll(() => text(page, `#run-${smoke.ulid} .summary`), { timeout: 10_000 }).toBe('1 of 2 executed, pass rate 50%.');
    expect(await text(page, `#run-${smoke.ulid} .counts`)).toBe('Passed: 1 · Failed: 0 · Blocked: 0 · Skipped: 0 · Untested: 1');
    expect(Number(await page.locator(`#run-${smoke.ulid} rect[data-status=passed]`).getAttribute('width'))).toBeCloseTo(50);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    browser.expectCleanConsole(page);
    await inspectPage(page, 'dashboard-live');
  });

  it('shows queries that answer without errors when an integrator sends them as they are, with an API token', async () => {
    const token = await tokenFor(t.http, data.owner);
    const shown = await page.locator('.query code[id$="-query"]').evaluateAll((nodes) =>
      nodes.map((node) => ({
        id: node.id,
        query: node.textContent!,
        variables: document.getElementById(`${node.id}-variables`)?.textContent || '{}',
      })),
    );
    expect(shown.map((each) => each.id)).toEqual([
      'projects-query',
      'plans-query',
      'live-query',
      'trend-query',
      'burn-up-query',
      'failing-query',
      'flaky-query',
    ]);
    for (const { id, query, variables } of shown) {
      const answer = await t.http
        .post('/graphql')
        .set(token.headers)
        .send({ query, variables: JSON.parse(variables) });
      expect(answer.status, id).toBe(200);
      expect(answer.body.errors, id).toBeUndefined();
      expect(
        Object.values(answer.body.data).every((value) => value !== null),
        id,
      ).toBe(true);
    }

    const subscription = await text(page, '#live-subscription');
    const variables = JSON.parse((await text(page, '#live-subscription-variables'))!);
    const stream = await live.open('/graphql', {
      method: 'POST',
      headers: { ...token.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: subscription, variables }),
    });
    const first = await stream.nextEvent();
    expect(first.event).toBe('next');
    expect(JSON.parse(first.data!)).toEqual({ data: { runProgress: expect.objectContaining({ runUlid: variables.runUlid }) } });
  });

  it('is in Spanish for a browser that asks for Spanish', async () => {
    const spanish = await ownerOnDashboard('es-ES');
    expect(await spanish.locator('html').getAttribute('lang')).toBe('es');
    expect(await spanish.locator('h1').textContent()).toBe('Panel');
    expect(await spanish.locator('h2').allTextContents()).toEqual([
      'Proyectos',
      'Planes abiertos',
      'Ejecuciones en curso',
      'Informes de un proyecto',
    ]);
    await expect
      .poll(() => text(spanish, `#run-${data.regression.ulid} .counts`))
      .toBe('Superados: 1 · Fallidos: 2 · Bloqueados: 0 · Omitidos: 0 · Sin probar: 1');
    await expect.poll(() => text(spanish, '#trend-content svg title')).toBe('Tasa de aprobados por día');
    expect(await spanish.getByRole('button', { name: 'Copiar esta consulta' }).count()).toBe(7);
    browser.expectCleanConsole(spanish);
    await inspectPage(spanish, 'dashboard-es');
    await spanish.close();
  });
});
