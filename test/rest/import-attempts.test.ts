import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, expectError, graphql, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { reportFixture, reportImporter, vitestJunitReport } from '../support/reports.ts';
import { type ResultBody, runCasesOf, runOf } from '../support/runs.ts';

/** Attempts are results (docs/decisions.md): every run of an imported test is a result of its run case's history. */

const t = useTestApp();
const importReport = reportImporter(t);

/** Imports a report (201 expected) and answers the import. */
async function imported(caller: Caller, code: string, report: string, type: string, query: Record<string, string> = {}) {
  const response = await importReport(caller, code, report, type, query);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { runUlid: string; tests: number; results: number; attempts: number };
}

/** The run case titled `title` and its history, oldest first, as REST answers them. */
async function historyOf(caller: Caller, runUlid: string, title: string) {
  const runCase = (await runCasesOf(t.http, caller, runUlid)).find((each) => each.title === title)!;
  const response = await t.http.get(`/api/v1/runs/${runUlid}/results`).query({ runCaseUlid: runCase.ulid }).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { runCase, results: response.body.items as ResultBody[] };
}

const outline = (results: ResultBody[]) => results.map(({ attempt, status, flaky }) => ({ attempt, status, flaky }));

describe('attempts of imported tests are results', () => {
  it('Surefire 2.22 (a real Maven run): flakyFailure then a pass is failed, passed; failure and two rerunFailure are three failed', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const { runUlid, ...counts } = await imported(owner, code, await reportFixture('surefire-2.22.xml'), 'application/xml');
    expect(counts).toMatchObject({ tests: 4, results: 7, attempts: 7 });

    const catalogue = await historyOf(owner, runUlid, 'loadsCatalogue');
    expect(outline(catalogue.results)).toEqual([
      { attempt: 1, status: 'failed', flaky: false },
      { attempt: 2, status: 'passed', flaky: true },
    ]);
    expect(catalogue.results[0]).toMatchObject({
      source: 'import',
      parameters: null,
      comment: expect.stringMatching(/^first attempt times out\s+java\.lang\.AssertionError/),
    });
    expect(catalogue.runCase.status).toBe('passed');

    const refund = await historyOf(owner, runUlid, 'refundsOrder');
    expect(outline(refund.results)).toEqual([1, 2, 3].map((attempt) => ({ attempt, status: 'failed', flaky: false })));
    expect(refund.results.map((result) => result.comment)).toEqual(Array(3).fill(expect.stringContaining('expected:<[refund]ed>')));
    expect(refund.runCase.status).toBe('failed');

    // The counters count cases by their final status; the durations are the attempts' (reruns carry none).
    const run = await runOf(t.http, owner, runUlid);
    expect(run).toMatchObject({ counts: { passed: 2, failed: 1, skipped: 1, untested: 0 }, totalDurationMs: 15 });
    // One event for the import, each test listed once with its final status.
    const [event, ...more] = await auditEvents(t.http, owner, { action: 'run.cases_bulk_marked' });
    expect(more).toHaveLength(0);
    const bulkCases = event!.metadata.bulkCases as { cases: Array<{ caseDisplayId: string; toStatus: string }>; summary: unknown };
    expect(bulkCases.summary).toMatchObject({ affected: 4, unchanged: 0 });
    expect(bulkCases.cases.find((entry) => entry.caseDisplayId === catalogue.runCase.displayId)).toMatchObject({
      fromStatus: 'untested',
      toStatus: 'passed',
    });

    // A result not from an import is attempt 1, not flaky, without parameters.
    const marked = await t.http
      .patch(`/api/v1/runs/${runUlid}/cases/${catalogue.runCase.ulid}`)
      .set(owner.headers)
      .send({ status: 'blocked' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const after = await historyOf(owner, runUlid, 'loadsCatalogue');
    expect(after.results.at(-1)).toMatchObject({ attempt: 1, flaky: false, parameters: null, source: 'manual', status: 'blocked' });
  });

  it("CTRF from jest's reporter: retries 2 on a failure are three failed results, retries 1 then a pass is failed, passed", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const { runUlid, ...counts } = await imported(owner, code, await reportFixture('jest-ctrf.json'), 'application/json');
    expect(counts).toMatchObject({ tests: 6, results: 9, attempts: 9 });
    const paid = await historyOf(owner, runUlid, 'Cart pays by card');
    expect(outline(paid.results)).toEqual([1, 2, 3].map((attempt) => ({ attempt, status: 'failed', flaky: false })));
    // The report carries only the final attempt's message and duration.
    expect(paid.results.map(({ comment, elapsedMs }) => [comment !== null, elapsedMs])).toEqual([
      [false, null],
      [false, null],
      [true, 2],
    ]);
    const catalogue = await historyOf(owner, runUlid, 'Cart loads the catalogue');
    expect(outline(catalogue.results)).toEqual([
      { attempt: 1, status: 'failed', flaky: false },
      { attempt: 2, status: 'passed', flaky: true },
    ]);
    expect(catalogue.runCase.status).toBe('passed');
    expect((await runOf(t.http, owner, runUlid)).counts).toMatchObject({ passed: 4, failed: 1, skipped: 1 });
  });

  it('CTRF retryAttempts (written by hand after the specification): each attempt keeps its own outcome; GraphQL shows them', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const test = {
      name: 'logs in',
      status: 'passed',
      duration: 140,
      suite: ['auth.spec.ts', 'login'],
      retries: 2,
      flaky: true,
      parameters: { browser: 'firefox' },
      retryAttempts: [
        { attempt: 1, status: 'failed', duration: 120, message: 'Connection timeout' },
        { attempt: 2, status: 'failed', duration: 130, message: 'Connection reset' },
      ],
    };
    const report = { reportFormat: 'CTRF', specVersion: '0.0.0', results: { tool: { name: 'playwright' }, tests: [test] } };
    const { runUlid } = await imported(owner, code, JSON.stringify(report), 'application/json');
    const { runCase, results } = await historyOf(owner, runUlid, 'logs in');
    expect(results).toMatchObject([
      { attempt: 1, status: 'failed', flaky: false, elapsedMs: 120, comment: 'Connection timeout', parameters: { browser: 'firefox' } },
      { attempt: 2, status: 'failed', flaky: false, elapsedMs: 130, comment: 'Connection reset', parameters: { browser: 'firefox' } },
      { attempt: 3, status: 'passed', flaky: true, elapsedMs: 140, comment: null, parameters: { browser: 'firefox' } },
    ]);
    expect(runCase).toMatchObject({ status: 'passed', elapsedMs: 140 });

    const query = `query($run: String!, $runCase: String) { run(ulid: $run) { results(runCaseUlid: $runCase) {
      edges { node { attempt flaky parameters source status } } } } }`;
    const data = dataOf(await graphql(t.http, owner, query, { run: runUlid, runCase: runCase.ulid }));
    expect(data.run.results.edges.map((edge: { node: unknown }) => edge.node)).toEqual([
      { attempt: 1, flaky: false, parameters: { browser: 'firefox' }, source: 'import', status: 'failed' },
      { attempt: 2, flaky: false, parameters: { browser: 'firefox' }, source: 'import', status: 'failed' },
      { attempt: 3, flaky: true, parameters: { browser: 'firefox' }, source: 'import', status: 'passed' },
    ]);
  });

  it('vitest --retry through its JUnit reporter: a retry that passed leaves no trace in the report, so one passed result', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    // Fails on its first try and passes on the second: the count of tries is kept in a file.
    const source = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
const tries = new URL('./tries', import.meta.url);
it('pays on the second try', () => {
  const attempt = existsSync(tries) ? Number(readFileSync(tries, 'utf8')) + 1 : 1;
  writeFileSync(tries, String(attempt));
  expect(attempt).toBe(2);
});
it('never pays', () => expect('declined').toBe('paid'));
`;
    const report = await vitestJunitReport({ 'checkout.test.ts': source }, ['--retry=2']);
    // vitest writes one <failure> per error of every try: a test that never passed has three, as
    // many as expect.soft would write for one try, so they are one failed result, not attempts.
    expect(report.match(/<failure /g)).toHaveLength(3);
    const { runUlid, ...counts } = await imported(owner, code, report, 'application/xml');
    expect(counts).toMatchObject({ tests: 2, results: 2, attempts: 2 });
    expect(outline((await historyOf(owner, runUlid, 'pays on the second try')).results)).toEqual([
      { attempt: 1, status: 'passed', flaky: false },
    ]);
    expect(outline((await historyOf(owner, runUlid, 'never pays')).results)).toEqual([{ attempt: 1, status: 'failed', flaky: false }]);
  });

  it('a defect links a failed attempt; the flaky-tests list counts the attempts of two imports', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const report = await reportFixture('surefire-2.22.xml');
    const first = await imported(owner, code, report, 'application/xml');
    await imported(owner, code, report, 'application/xml', { runName: 'Nightly 2' });

    const { runCase, results } = await historyOf(owner, first.runUlid, 'loadsCatalogue');
    const defect = await t.http
      .post(`/api/v1/projects/${code}/defects`)
      .set(owner.headers)
      .send({ title: 'Catalogue times out', resultUlids: [results[0]!.ulid] });
    expect(defect.status, JSON.stringify(defect.body)).toBe(201);
    const detail = await t.http.get(`/api/v1/runs/${first.runUlid}/cases/${runCase.ulid}`).set(owner.headers);
    expect(detail.body.linkedDefects).toMatchObject([{ ulid: defect.body.ulid }]);

    // loadsCatalogue failed, passed, failed, passed: 3 flips and two flaky passes; refundsOrder never flips.
    const flaky = await t.http.get(`/api/v1/projects/${code}/flaky-tests`).set(owner.headers);
    expect(flaky.status, JSON.stringify(flaky.body)).toBe(200);
    expect(flaky.body.items).toHaveLength(1);
    expect(flaky.body.items[0]).toMatchObject({ title: 'loadsCatalogue', flips: 3, resultsInWindow: 4, flaggedFlaky: 2 });
    expect(flaky.body.items[0].lastResults.map(({ status, flaky }: ResultBody) => [status, flaky])).toEqual([
      ['passed', true],
      ['failed', false],
      ['passed', true],
      ['failed', false],
    ]);
  });

  it('every attempt counts against the monthly result ceiling, as every entry of a bulk submit does', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const token = await tokenFor(t.http, owner);
    const report = await reportFixture('surefire-2.22.xml');
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 6 });
    expectError(await importReport(token, code, report, 'application/xml'), 409, 'api_result_limit_exceeded');

    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 7 });
    await imported(token, code, report, 'application/xml');
    const usage = await t.http.get(`/api/v1/orgs/${owner.orgId}/api-result-usage`).set(owner.headers);
    expect(usage.body).toMatchObject({ used: 7, limit: 7 });
  });
});
