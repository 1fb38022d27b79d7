import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { XML_ATTRIBUTES_MAX, XML_DEPTH_MAX, XML_ELEMENTS_MAX, XML_TAG_MAX, XML_TEXT_MAX } from '../../src/foundation/uploads/xml.ts';
import { CTRF_BOUNDS } from '../../src/result-imports/ctrf.ts';
import { ATTEMPTS_MAX } from '../../src/result-imports/report.ts';
import { CSV_CELLS_MAX, CSV_RECORD_MAX } from '../../src/test-case-imports/csv-reader.ts';
import { IMPORT_WARNINGS_MAX } from '../../src/test-case-imports/imported-case.ts';
import { type Caller, expectError, ownerWithProject, useTestApp } from '../support/app.ts';
import { repeatedGzip } from '../support/hostile-uploads.ts';

/**
 * Each bound of the upload readers, just inside and just past it, through the import routes: past
 * a bound the answer is the contract's error naming where the file broke it.
 */
const t = useTestApp();
let owner: Caller;
let code: string;

beforeAll(async () => {
  ({ owner, code } = await ownerWithProject(t.http));
});

const post = (route: string, body: string | Buffer, type: string, headers: Record<string, string> = {}) =>
  t.http
    .post(`/api/v1/projects/${code}/${route}`)
    .set(owner.headers)
    .set({ 'Content-Type': type, ...headers })
    .send(body);
const junit = (body: string | Buffer, headers?: Record<string, string>) => post('result-imports', body, 'application/xml', headers);
const ctrf = (body: string | Buffer, headers?: Record<string, string>) => post('result-imports', body, 'application/json', headers);
const csv = (body: string | Buffer) => post('test-case-imports?dryRun=true', body, 'text/csv');
const gzip = { 'Content-Encoding': 'gzip' };

const nestedIn = (levels: number) => `${'<x>'.repeat(levels)}${'</x>'.repeat(levels)}`;
const report = (inside: string) =>
  `<testsuites><testsuite name="s"><testcase classname="bounds.Test" name="t">${inside}</testcase></testsuite></testsuites>`;

describe('XML reports', () => {
  it(`elements nest ${XML_DEPTH_MAX} levels deep, not deeper (422 naming the line and column)`, async () => {
    // The report's own three levels count.
    expect((await junit(report(nestedIn(XML_DEPTH_MAX - 3)))).status).toBe(201);
    const response = await junit(report(nestedIn(XML_DEPTH_MAX - 2)));
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain(`nest deeper than ${XML_DEPTH_MAX} levels`);
    expect(response.body.error.details).toEqual({ line: 1, column: expect.any(Number) });
  });

  it(`holds at most ${XML_ELEMENTS_MAX} elements`, async () => {
    const response = await junit(
      `<testsuites><testsuite name="s"><properties>${'<p/>'.repeat(XML_ELEMENTS_MAX)}</properties></testsuite></testsuites>`,
    );
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain(`more than ${XML_ELEMENTS_MAX} elements`);
  });

  it(`an element has at most ${XML_ATTRIBUTES_MAX} attributes`, async () => {
    const attributes = (count: number) => Array.from({ length: count }, (_, index) => `a${index}="v"`).join(' ');
    expect((await junit(report(`<properties ${attributes(XML_ATTRIBUTES_MAX)}/>`))).status).toBe(201);
    const response = await junit(report(`<properties ${attributes(XML_ATTRIBUTES_MAX + 1)}/>`));
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain(`more than ${XML_ATTRIBUTES_MAX} attributes`);
  });

  it(`a run of text is at most ${XML_TEXT_MAX} characters, a tag ${XML_TAG_MAX}; a comment and a CDATA section count as text`, async () => {
    const long = 'a'.repeat(XML_TEXT_MAX + 1);
    for (const inside of [`<failure>${long}</failure>`, `<!--${long}-->`, `<system-out><![CDATA[${long}]]></system-out>`]) {
      const response = await junit(report(inside));
      expectError(response, 422, 'parse_failed');
      expect(response.body.error.message).toContain(`longer than ${XML_TEXT_MAX} characters`);
    }
    const tag = await junit(report(`<properties name="${'n'.repeat(XML_TAG_MAX)}"/>`));
    expectError(tag, 422, 'parse_failed');
    expect(tag.body.error.message).toContain(`a tag is longer than ${XML_TAG_MAX} characters`);
  });

  it('markup split across chunks is measured as one piece: a comment ending in the next chunk closes there', async () => {
    // 64 KiB chunks: the comment's closer straddles a chunk boundary, then the report goes on.
    const padding = ' '.repeat(64 * 1024 - 60);
    const response = await junit(
      `<testsuites>${padding}<!-- ${'x'.repeat(40)} -->${nestedIn(3)}<testsuite name="s"><testcase name="after"/></testsuite></testsuites>`,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.tests).toBe(1);
  });

  it('a DOCTYPE is refused before anything of it is kept, internal subset or not', async () => {
    const response = await junit(`<!DOCTYPE testsuites [${'<!ENTITY e "x">'.repeat(10_000)}]><testsuites/>`);
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain('DOCTYPE is not accepted');
  });

  it(`a test keeps at most ${ATTEMPTS_MAX} attempts`, async () => {
    const reruns = '<rerunFailure message="again"/>'.repeat(ATTEMPTS_MAX + 20);
    const response = await junit(report(`<failure message="first"/>${reruns}`));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.attempts).toBe(ATTEMPTS_MAX);
  });
});

describe('CTRF reports', () => {
  const tests = (inside: string) => `{"results":{"tests":[{"name":"t","status":"passed","parameters":${inside}}]}}`;

  it(`arrays and objects nest ${CTRF_BOUNDS.depth} levels deep, not deeper`, async () => {
    // The report's own four levels count.
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect((await ctrf(tests(nested(CTRF_BOUNDS.depth - 4)))).status).toBe(201);
    const response = await ctrf(tests(nested(CTRF_BOUNDS.depth - 3)));
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain(`nest deeper than ${CTRF_BOUNDS.depth} levels`);
    const column = '{"results":{"tests":[{"name":"t","status":"passed","parameters":'.length + CTRF_BOUNDS.depth - 3;
    expect(response.body.error.details).toEqual({ line: 1, column });
  });

  it(`holds at most ${CTRF_BOUNDS.values} values, and a string of at most ${CTRF_BOUNDS.token} bytes`, async () => {
    const many = await ctrf(`{"results":{"tests":[]},"extra":[0${',0'.repeat(CTRF_BOUNDS.values)}]}`);
    expectError(many, 422, 'parse_failed');
    expect(many.body.error.message).toContain(`more than ${CTRF_BOUNDS.values} values`);

    const long = await ctrf(tests(`"${'a'.repeat(CTRF_BOUNDS.token)}"`));
    expectError(long, 422, 'parse_failed');
    expect(long.body.error.message).toContain(`longer than ${CTRF_BOUNDS.token} bytes`);
  });
});

describe('gzip', () => {
  it('a gzip report may inflate to 100 times its size (and 1 MiB more), not further: 413', async () => {
    const noise = randomBytes(2 * 1024 * 1024).toString('hex');
    const within = await junit(gzipSync(report(`<system-out>${noise}</system-out>`)), gzip);
    expect(within.status, JSON.stringify(within.body)).toBe(201);
    const beyond = repeatedGzip(
      '<testsuites><testsuite name="s"><testcase name="t"/>',
      `<p/>${' '.repeat(1024 * 1024 - 4)}`,
      200,
      '</testsuite></testsuites>',
    );
    const response = await junit(beyond, gzip);
    expectError(response, 413, 'file_too_large');
    expect(response.body.error.details).toEqual({ inflationRatioMax: 100 });
  });

  it('a test case import is inflated too', async () => {
    const response = await post('test-case-imports?dryRun=true', gzipSync('title\nInflated case\n'), 'text/csv', gzip);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.createdCases).toBe(1);
  });
});

describe('CSV imports', () => {
  it(`a record has at most ${CSV_CELLS_MAX} cells (commas inside quotes are not separators)`, async () => {
    const header = `title,${Array.from({ length: CSV_CELLS_MAX - 1 }, (_, index) => `c${index}`).join(',')}`;
    expect((await csv(`${header}\n"a, b, c",x\n`)).status).toBe(200);
    const response = await csv(`${header}\n"a\nb",${','.repeat(CSV_CELLS_MAX)}\n`);
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toBe(`The file is malformed at line 3, column 1: a record has more than ${CSV_CELLS_MAX} cells`);
  });

  it(`a record is at most ${CSV_RECORD_MAX} characters (an unclosed quote ends there)`, async () => {
    const response = await csv(`title\n"${'a'.repeat(CSV_RECORD_MAX + 1024)}`);
    expectError(response, 422, 'parse_failed');
    expect(response.body.error.message).toContain(`record exceed the maximum number of tolerated bytes of ${CSV_RECORD_MAX}`);
  });
});

describe('TestRail XML imports', () => {
  it(`lists at most ${IMPORT_WARNINGS_MAX} warnings, then how many more there were`, async () => {
    const emptySteps = '<step><content></content></step>'.repeat(IMPORT_WARNINGS_MAX + 5);
    const file = `<suite><sections><section><name>S</name><cases><case><title>t</title><custom><steps_separated>${emptySteps}</steps_separated></custom></case></cases></section></sections></suite>`;
    const response = await post('test-case-imports?dryRun=true', file, 'application/xml');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.warnings).toHaveLength(IMPORT_WARNINGS_MAX + 1);
    expect(response.body.warnings.at(-1)).toEqual({ row: 0, message: '5 more warnings are not listed' });
  });
});
