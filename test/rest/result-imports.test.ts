import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, expectError, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { reportFixture as fixture, reportImporter, vitestJunitReport } from '../support/reports.ts';

const t = useTestApp();
const importRaw = reportImporter(t);

/** What an import could have written in the organization. */
async function writtenIn(orgId: string) {
  const [results, cases, runs, suites] = await Promise.all([
    prisma().testRunResult.count({ where: { orgId } }),
    prisma().testCase.count({ where: { orgId } }),
    prisma().testRun.count({ where: { orgId } }),
    prisma().suite.count({ where: { orgId } }),
  ]);
  return { results, cases, runs, suites };
}

const resultsOfRun = (runId: string) =>
  prisma().testRunResult.findMany({
    where: { runId },
    orderBy: { id: 'asc' },
    include: { testCase: { select: { title: true, automationKey: true, caseNumber: true } } },
  });

/** A JUnit report produced by vitest's own junit reporter, run on a small test file at test time. */
const vitestReport = () =>
  // The file vitest runs to write the report: its skipped test is the report's skipped testcase.
  vitestJunitReport({
    'cart.test.ts': `import { describe, expect, it } from 'vitest';
describe('cart', () => {
  it('adds an item', () => expect(1 + 1).toBe(2));
  it('refuses a negative quantity', () => expect(-1).toBeGreaterThan(0));
  it.skip('applies a coupon', () => {});
});
let calls = 0;
it('retries a flaky checkout', { retry: 2 }, () => { calls++; expect(calls).toBe(2); });
`,
  });

describe('POST /api/v1/projects/{projectId}/result-imports', () => {
  it('imports a report written by vitest: cases are created with their automation keys, results are source import', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const report = await vitestReport();
    const response = await importRaw(owner, code, report, 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 4, results: 4, createdCases: 4, matchedCases: 0, unmatched: [] });
    expect(response.body.runUlid).toMatch(/^[0-9A-Z]{26}$/);

    const run = await prisma().testRun.findUniqueOrThrow({ where: { id: response.body.runUlid } });
    expect(run.name).toMatch(/^junit import \d{4}-\d\d-\d\dT/);
    const results = await resultsOfRun(run.id);
    const byTitle = new Map(results.map((result) => [result.testCase!.title, result]));
    expect(byTitle.get('cart > adds an item')).toMatchObject({ status: 'passed', source: 'import', flaky: false });
    expect(byTitle.get('cart > refuses a negative quantity')).toMatchObject({ status: 'failed' });
    expect(byTitle.get('cart > refuses a negative quantity')!.comment).toContain('expected -1 to be greater than 0');
    expect(byTitle.get('cart > applies a coupon')).toMatchObject({ status: 'skipped' });
    expect(byTitle.get('cart > adds an item')!.testCase!.automationKey).toBe('cart.test.ts.cart > adds an item');
    // The file path is one suite (not split at its dots).
    const suite = await prisma().suite.findFirstOrThrow({ where: { project: { code }, name: 'cart.test.ts' } });
    expect(await prisma().testCase.count({ where: { suiteId: suite.id } })).toBe(4);

    const [event] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect((event!.metadata.bulkCases as { summary: unknown }).summary).toMatchObject({
      import: { format: 'junit', tests: 4, createdCases: 4 },
    });
    expect(await auditEvents(t.http, owner, { action: 'run.created' })).toHaveLength(1);

    // The same report again into a new run binds to the same cases by their automation keys.
    const second = await importRaw(owner, code, report, 'text/xml', { runName: 'Nightly' });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toMatchObject({ createdCases: 0, matchedCases: 4, results: 4 });
    expect((await prisma().testRun.findUniqueOrThrow({ where: { id: second.body.runUlid } })).name).toBe('Nightly');
  });

  it('binds pytest tests by tcms_case property, parameter sets to one case with their parameters, and maps statuses', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const existing = await t.http.post(`/api/v1/projects/${code}/test-cases`).set(owner.headers).send({ title: 'Pays by card' });
    expect(existing.status).toBe(201);
    const displayId = `${code}-1`;
    const report = (await fixture('pytest.xml')).replace('PLACEHOLDER', displayId);
    const response = await importRaw(owner, code, report, 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 5, results: 5, createdCases: 3, matchedCases: 1, attempts: 5 });

    const results = await resultsOfRun(response.body.runUlid);
    expect(results.filter((result) => result.caseId === existing.body.ulid)).toHaveLength(1);
    const added = results.filter((result) => result.testCase!.automationKey === 'test_pay.TestCard.test_add');
    expect(added.map((result) => result.parameters).sort()).toEqual(['1-2', '2-3']);
    expect(new Set(added.map((result) => result.caseId)).size).toBe(1);
    expect(added[0]!.testCase!.title).toBe('test_add');
    const declined = results.find((result) => result.testCase!.automationKey === 'test_pay.test_refund_declined')!;
    expect(declined.status).toBe('failed');
    expect(declined.comment).toMatch(/^AssertionError: refund was not declined/);
    expect(results.find((result) => result.testCase!.automationKey === 'test_pay.test_gateway')!.status).toBe('skipped');
    // Dotted classnames are suite paths: test_pay > TestCard.
    const parent = await prisma().suite.findFirstOrThrow({ where: { project: { code }, name: 'test_pay', parentId: null } });
    expect(await prisma().suite.count({ where: { parentId: parent.id, name: 'TestCard' } })).toBe(1);
  });

  it('keeps Surefire reruns as attempts, flags failed-then-passed as flaky, and binds a bracketed display ID', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await importRaw(owner, code, await fixture('surefire-flaky.xml'), 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 4, results: 7, createdCases: 3, attempts: 2 + 3 + 1 + 1 });
    const results = await resultsOfRun(response.body.runUlid);
    const byKey = (key: string) => results.filter((result) => result.testCase!.automationKey === key);
    const paid = byKey('com.acme.checkout.PaymentTest.paysByCard');
    expect(paid).toMatchObject([
      { attempt: 1, status: 'failed', flaky: false, comment: expect.stringContaining('expected: <200> but was: <503>') },
      { attempt: 2, status: 'passed', flaky: true, elapsedMs: 412 },
    ]);
    const refund = byKey('com.acme.checkout.PaymentTest.refundsTwice');
    expect(refund.map((result) => [result.attempt, result.status, result.flaky])).toEqual([
      [1, 'failed', false],
      [2, 'failed', false],
      [3, 'failed', false],
    ]);
    expect(byKey('com.acme.checkout.PaymentTest.sumsAmounts(int, int)').map((result) => result.parameters)).toEqual(['1', '2']);

    // A display ID in brackets wins over the automation key; foreign brackets are parameters.
    const named = `<testsuite name="s"><testcase classname="x.Y" name="[${code}-1] pays again" time="1"/></testsuite>`;
    const again = await importRaw(owner, code, named, 'application/xml', { runUlid: response.body.runUlid });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ createdCases: 0, matchedCases: 1, runUlid: response.body.runUlid });
    const latest = await prisma().testRunResult.findFirstOrThrow({ where: { runId: response.body.runUlid }, orderBy: { id: 'desc' } });
    expect(latest.caseId).toBe((await prisma().testCase.findFirstOrThrow({ where: { project: { code }, caseNumber: 1 } })).id);
  });

  it('imports CTRF (gzip, format detected) and go-junit-report in one multipart request; pending is skipped', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await t.http
      .post(`/api/v1/projects/${code}/result-imports`)
      .set(owner.headers)
      .attach('file', gzipSync(await fixture('ctrf.json')), { filename: 'ctrf.json.gz', contentType: 'application/gzip' })
      .attach('file', Buffer.from(await fixture('go-junit-report.xml')), { filename: 'go.xml', contentType: 'application/xml' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 7, results: 9, createdCases: 7, attempts: 9 });
    const results = await resultsOfRun(response.body.runUlid);
    const byKey = new Map(results.map((result) => [result.testCase!.automationKey, result]));
    expect(byKey.get('auth.spec.ts > login.logs in')).toMatchObject({ status: 'passed', flaky: true, elapsedMs: 1200, attempt: 3 });
    expect(byKey.get('auth.spec.ts > login.logs out')).toMatchObject({ status: 'failed', comment: 'Expected URL /\nat auth.spec.ts:20' });
    expect(byKey.get('auth.spec.ts > password.resets password')).toMatchObject({ status: 'skipped' });
    expect(byKey.get('search by tag')).toMatchObject({ parameters: { tag: 'smoke' } });
    expect(byKey.get('github.com/acme/shop/cart.TestAddItem/negative_quantity')).toMatchObject({ status: 'failed' });
    expect(byKey.get('github.com/acme/shop/cart.TestCheckout')).toMatchObject({ status: 'skipped' });
  });

  it('imports the reports jest (jest-junit and its CTRF reporter) and mocha wrote for one suite', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const junit = await importRaw(owner, code, await fixture('jest-junit.xml'), 'application/xml');
    expect(junit.status, JSON.stringify(junit.body)).toBe(201);
    expect(junit.body).toMatchObject({ tests: 6, results: 6, createdCases: 6, matchedCases: 0, attempts: 6 });
    const fromJunit = new Map((await resultsOfRun(junit.body.runUlid)).map((result) => [result.testCase!.title, result]));
    expect(fromJunit.get('Cart pays by card')).toMatchObject({ status: 'failed', source: 'import' });
    expect(fromJunit.get('Cart pays by card')!.comment).toContain('Expected: "paid"');
    expect(fromJunit.get('Cart ships abroad')).toMatchObject({ status: 'skipped' });
    expect(fromJunit.get('Cart sums 1 and 2')).toMatchObject({ status: 'passed' });

    // jest's CTRF reporter records the retries: the test that failed once and then passed is flaky.
    const ctrf = await importRaw(owner, code, await fixture('jest-ctrf.json'), 'application/json');
    expect(ctrf.status, JSON.stringify(ctrf.body)).toBe(201);
    expect(ctrf.body).toMatchObject({ tests: 6, results: 9, attempts: 9 });
    const fromCtrf = new Map((await resultsOfRun(ctrf.body.runUlid)).map((result) => [result.testCase!.title, result]));
    expect(fromCtrf.get('Cart loads the catalogue')).toMatchObject({ status: 'passed', flaky: true, attempt: 2 });
    expect(fromCtrf.get('Cart pays by card')).toMatchObject({ status: 'failed', flaky: false, attempt: 3 });
    expect(fromCtrf.get('Cart ships abroad')).toMatchObject({ status: 'skipped' });

    const mocha = await importRaw(owner, code, await fixture('mocha-junit.xml'), 'text/xml');
    expect(mocha.status, JSON.stringify(mocha.body)).toBe(201);
    expect(mocha.body).toMatchObject({ tests: 3, results: 3 });
    const fromMocha = (await resultsOfRun(mocha.body.runUlid)).map((result) => [result.testCase!.title, result.status]);
    expect(new Map(fromMocha as Array<[string, string]>)).toEqual(
      new Map([
        ['Cart adds an item', 'passed'],
        ['Cart pays by card', 'failed'],
        ['Cart loads the catalogue', 'passed'],
      ]),
    );
  });

  it('imports the JUnit report gotestsum wrote for a Go package: subtests are cases of their own, a skip is skipped', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await importRaw(owner, code, await fixture('gotestsum.xml'), 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 5, results: 5, createdCases: 5 });
    const byKey = new Map((await resultsOfRun(response.body.runUlid)).map((result) => [result.testCase!.automationKey, result.status]));
    expect(byKey).toEqual(
      new Map([
        ['github.com/acme/shop/cart.TestAddItem/negative_quantity', 'failed'],
        ['github.com/acme/shop/cart.TestAddItem', 'failed'],
        ['github.com/acme/shop/cart.TestCheckout', 'skipped'],
        ['github.com/acme/shop/cart.TestAddItem/positive_quantity', 'passed'],
        ['github.com/acme/shop/cart.TestTotal', 'passed'],
      ]),
    );
  });

  it('imports the report Maven Surefire 2.22 wrote with rerunFailingTestsCount: reruns are attempts, a flaky pass is flagged', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await importRaw(owner, code, await fixture('surefire-2.22.xml'), 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 4, results: 7, createdCases: 4, attempts: 7 });
    // The last result of each case is its final attempt.
    const byKey = new Map((await resultsOfRun(response.body.runUlid)).map((result) => [result.testCase!.automationKey, result]));
    expect(byKey.get('com.acme.shop.PaymentTest.loadsCatalogue')).toMatchObject({ status: 'passed', flaky: true, attempt: 2 });
    expect(byKey.get('com.acme.shop.PaymentTest.refundsOrder')).toMatchObject({ status: 'failed', flaky: false, attempt: 3 });
    expect(byKey.get('com.acme.shop.PaymentTest.refundsOrder')!.comment).toContain('expected:<[refund]ed> but was:<[declin]ed>');
    expect(byKey.get('com.acme.shop.PaymentTest.shipsAbroad')).toMatchObject({ status: 'skipped' });
    expect(byKey.get('com.acme.shop.PaymentTest.paysByCard')).toMatchObject({ status: 'passed', flaky: false });
  });

  it('createCases=false lists unknown tests as unmatched and creates nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const response = await importRaw(owner, code, await fixture('go-junit-report.xml'), 'application/xml', { createCases: 'false' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ results: 0, createdCases: 0, unmatched: [{ name: 'TestAddItem', reason: 'no_case' }, {}, {}] });
    expect(await prisma().testCase.count({ where: { orgId: owner.orgId } })).toBe(0);
  });

  it('imports text the database cannot store (NUL, a lone surrogate) as U+FFFD', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const report = {
      results: { tests: [{ name: 'prints\u0000binary', suite: ['io'], status: 'failed', message: 'got \ud800 and \u0000' }] },
    };
    const response = await importRaw(owner, code, JSON.stringify(report), 'application/json');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const [result] = await resultsOfRun(response.body.runUlid);
    expect(result!.testCase).toMatchObject({ title: 'prints\uFFFDbinary', automationKey: 'io.prints\uFFFDbinary' });
    expect(result!.comment).toBe('got \uFFFD and \uFFFD');
  });

  it('replays the same report with the same Idempotency-Key and counts against the monthly ceiling', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner);
    const gz = gzipSync(await fixture('go-junit-report.xml'));
    const headers = { 'Idempotency-Key': 'ci-4711', 'Content-Encoding': 'gzip' };
    const first = await importRaw(token, code, gz, 'application/xml', {}, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const replay = await importRaw(token, code, gz, 'application/xml', {}, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await writtenIn(owner.orgId)).toMatchObject({ results: 3, runs: 1 });

    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 4 });
    const before = await writtenIn(owner.orgId);
    expectError(await importRaw(token, code, gz, 'application/xml', {}, { 'Content-Encoding': 'gzip' }), 409, 'api_result_limit_exceeded');
    expect(await writtenIn(owner.orgId)).toEqual(before);
  });

  describe('refuses hostile and broken reports, writing nothing', () => {
    const cases: Array<
      [string, string | Buffer, string, number, string, ((body: { error: { details?: Record<string, unknown> } }) => void)?]
    > = [
      [
        'malformed XML',
        '<testsuite name="a">\n  <testcase name="x">\n  </testsuite>',
        'application/xml',
        422,
        'parse_failed',
        (body) => expect(body.error.details).toMatchObject({ line: 3, column: expect.any(Number) }),
      ],
      [
        'billion laughs',
        `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<testsuite><testcase name="&lol2;"/></testsuite>`,
        'application/xml',
        422,
        'parse_failed',
        (body) => expect(body.error.details).toMatchObject({ line: 2 }),
      ],
      [
        'an external entity',
        `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&xxe;"/></testsuite>`,
        'application/xml',
        422,
        'parse_failed',
      ],
      ['an undeclared entity', '<testsuite><testcase name="&xxe;"/></testsuite>', 'application/xml', 422, 'parse_failed'],
      [
        'malformed JSON',
        '{"results": {"tests": [\n{"name": "a", "status": "passed"},\n{"name": x}]}}',
        'application/json',
        422,
        'parse_failed',
        (body) => expect(body.error.details).toEqual({ line: 3, column: 10 }),
      ],
      [
        'JSON missing an array element',
        '{\n  "results": {\n    "tests": [\n      {"name": "a", "status": "passed"},\n      ,\n      {"name": "b"}\n    ]\n  }\n}',
        'application/json',
        422,
        'parse_failed',
        (body) => expect(body.error.details).toEqual({ line: 5, column: 7 }),
      ],
      ['an empty JUnit report', '<testsuites><testsuite name="none" tests="0"/></testsuites>', 'application/xml', 422, 'empty_import'],
      ['an empty CTRF report', '{"results":{"tool":{"name":"x"},"tests":[]}}', 'application/json', 422, 'empty_import'],
      ['a wrong content type', '<testsuite/>', 'text/plain', 415, 'unsupported_media_type'],
      ['neither XML nor JSON', 'name,status\nx,passed', 'application/json', 415, 'unsupported_media_type'],
      ['an XML document that is no JUnit report', '<html><body/></html>', 'application/xml', 415, 'unsupported_media_type'],
      ['a corrupt gzip stream', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), 'application/xml', 422, 'parse_failed'],
    ];
    it.each(cases)('%s', async (_label, body, type, status, code, check) => {
      const { owner, code: project } = await ownerWithProject(t.http);
      const response = await importRaw(owner, project, body, type);
      expectError(response, status, code);
      check?.(response.body);
      expect(await writtenIn(owner.orgId)).toEqual({ results: 0, cases: 0, runs: 0, suites: 0 });
    });

    it('a body over 100 MiB: 413 file_too_large; new-run parameters beside runUlid: 422', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const huge = Buffer.alloc(100 * 1024 * 1024 + 1, 0x20);
      expectError(await importRaw(owner, code, huge, 'application/xml'), 413, 'file_too_large');
      const run = (await importRaw(owner, code, await fixture('go-junit-report.xml'), 'application/xml')).body.runUlid;
      const before = await writtenIn(owner.orgId);
      expectError(
        await importRaw(owner, code, await fixture('go-junit-report.xml'), 'application/xml', { runUlid: run, runName: 'x' }),
        422,
        'validation_failed',
      );
      expect(await writtenIn(owner.orgId)).toEqual(before);
    });

    it('more than 20 files: 422', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const request = t.http.post(`/api/v1/projects/${code}/result-imports`).set(owner.headers);
      const report = Buffer.from(await fixture('go-junit-report.xml'));
      for (let index = 0; index < 21; index++)
        request.attach('file', report, { filename: `r${index}.xml`, contentType: 'application/xml' });
      expectError(await request, 422, 'validation_failed');
      expect(await writtenIn(owner.orgId)).toEqual({ results: 0, cases: 0, runs: 0, suites: 0 });
    });

    it('more than 50,000 tests: too_many_cases', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const report = `<testsuite name="big">${Array.from({ length: 50_001 }, (_, index) => `<testcase classname="c" name="t${index}"/>`).join('')}</testsuite>`;
      const response = await importRaw(owner, code, gzipSync(report), 'application/xml', {}, { 'Content-Encoding': 'gzip' });
      expectError(response, 422, 'too_many_cases');
      expect(await writtenIn(owner.orgId)).toEqual({ results: 0, cases: 0, runs: 0, suites: 0 });
    });

    it('a failure after cases were matched and created rolls everything back (a run of another project)', async () => {
      const { owner, code } = await ownerWithProject(t.http);
      const other = await importRaw(owner, code, await fixture('go-junit-report.xml'), 'application/xml');
      const second = await t.http
        .post('/api/v1/projects')
        .set(owner.headers)
        .send({ name: 'Other', id: `Q${code.slice(1)}` });
      const before = await writtenIn(owner.orgId);
      const response = await importRaw(owner, second.body.id, await fixture('pytest.xml'), 'application/xml', {
        runUlid: other.body.runUlid,
      });
      expectError(response, 404, 'not_found');
      expect(await writtenIn(owner.orgId)).toEqual(before);
    });
  });
});
