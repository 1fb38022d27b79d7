/**
 * The result-import measures of `npm run bench` (`BENCH_ONLY=import`): POST
 * /api/v1/projects/{code}/result-imports of a gzip-compressed JUnit report of IMPORT_TESTS tests
 * (100 classes of 100 tests, one in ten failing), first into a project without cases (every
 * test creates its case and its suite path), then the same report into a new run (every test
 * binds to its case by automation key). Figures are results per second of the whole request.
 *
 * The raw floor: the same rows straight into the database in one transaction, each table one
 * INSERT … SELECT unnest (cases, the run, its run cases, the results, the audit event) and the
 * run's counters updated once; no parsing, no HTTP, no Prisma.
 *
 * Memory: a child process reads a generated report of REPORT_MB MB (gzip-compressed on disk,
 * every test with a 4 KiB system-out) through the import's reader, and reports its peak RSS.
 */
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import { newId } from '../src/kernel/ids.ts';
import type { ServiceProcess } from './child.ts';
import type { Sql } from './raw.ts';
import { bearer, createProjectThroughApi, type Integrator } from './setup.ts';

export const IMPORT_TESTS = 10_000;
export const REPORT_MB = 200;

/** A JUnit report of `tests` tests in 100 classes, every tenth failing. */
export function junitReport(tests: number): string {
  const cases: string[] = [];
  for (let index = 0; index < tests; index++) {
    const classname = `com.acme.bench.Class${index % 100}`;
    const failure =
      index % 10 === 0 ? `<failure message="expected 1 but was 2">java.lang.AssertionError: expected 1 but was 2</failure>` : '';
    cases.push(`<testcase classname="${classname}" name="test${index}" time="0.0${index % 10}">${failure}</testcase>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="bench" tests="${tests}">${cases.join('')}</testsuite></testsuites>`;
}

export type ImportFigures = { ms: number; resultsPerSecond: number };

/** One import through the service; throws unless every test got its result. */
export async function serviceImport(
  service: ServiceProcess,
  who: Integrator,
  code: string,
  body: Buffer,
  runName: string,
): Promise<ImportFigures & { createdCases: number }> {
  const started = performance.now();
  const response = await fetch(`${service.baseUrl}/api/v1/projects/${code}/result-imports?runName=${encodeURIComponent(runName)}`, {
    method: 'POST',
    headers: { ...bearer(who), 'content-type': 'application/xml', 'content-encoding': 'gzip' },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(300_000),
  });
  const answer = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 201 || answer.results !== IMPORT_TESTS)
    throw new Error(`import: HTTP ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
  return { ms, resultsPerSecond: (IMPORT_TESTS / ms) * 1000, createdCases: answer.createdCases };
}

export async function importProject(service: ServiceProcess, who: Integrator, code: string) {
  return { projectId: await createProjectThroughApi(service, who, code, `Import ${code}`), body: gzipSync(junitReport(IMPORT_TESTS)) };
}

/** The floor of a first import: cases, a run, its cases and their results, written set-based in one transaction. */
export async function rawImport(sql: Sql, who: Integrator, projectId: string): Promise<ImportFigures> {
  const n = IMPORT_TESTS;
  const caseIds = Array.from({ length: n }, () => newId());
  const runCaseIds = Array.from({ length: n }, () => newId());
  const resultIds = Array.from({ length: n }, () => newId());
  const titles = Array.from({ length: n }, (_, index) => `test${index}`);
  const keys = titles.map((title, index) => `com.acme.raw.Class${index % 100}.${title}`);
  const statuses = titles.map((_, index) => (index % 10 === 0 ? 'failed' : 'passed'));
  const elapsed = titles.map((_, index) => index % 10);
  const runId = newId();
  const now = new Date();
  const started = performance.now();
  await sql.transaction(async (query) => {
    const numbered = (await query('UPDATE projects SET last_case_number = last_case_number + $2 WHERE id = $1 RETURNING last_case_number', [
      projectId,
      n,
    ])) as { rows: Array<{ last_case_number: number }> };
    const first = numbered.rows[0]!.last_case_number - n + 1;
    await query(
      `INSERT INTO test_cases (id, org_id, project_id, case_number, title, automation_key, created_at, updated_at)
       SELECT c.id, $1, $2, $3::int + c.ordinal - 1, c.title, c.key, $6, $6 FROM unnest($4::char(26)[], $5::text[], $7::text[]) WITH ORDINALITY AS c(id, title, key, ordinal)`,
      [who.orgId, projectId, first, caseIds, titles, now, keys],
    );
    await query(
      `INSERT INTO test_runs (id, org_id, project_id, name, combo_key, author_kind, author_id, author_name, created_at, updated_at)
       VALUES ($1, $2, $3, 'raw import', '', 'api_token', $4, 'bench', $5, $5)`,
      [runId, who.orgId, projectId, who.tokenId, now],
    );
    await query(
      `INSERT INTO test_run_cases (id, org_id, run_id, case_id, case_number, title, position, status, created_at, updated_at)
       SELECT r.id, $1, $2, r.case_id, $5::int + r.ordinal - 1, r.title, r.ordinal - 1, r.status, $6, $6
       FROM unnest($3::char(26)[], $4::char(26)[], $7::text[], $8::text[]) WITH ORDINALITY AS r(id, case_id, title, status, ordinal)`,
      [who.orgId, runId, runCaseIds, caseIds, first, now, titles, statuses],
    );
    await query(
      `INSERT INTO test_run_results (id, org_id, run_id, run_case_id, case_id, status, elapsed_ms, source, executed_at, executed_by_id, author_kind, author_id, author_name)
       SELECT r.id, $1, $2, r.run_case_id, r.case_id, r.status, r.elapsed, 'import', $7, $8, 'api_token', $9, 'bench'
       FROM unnest($3::char(26)[], $4::char(26)[], $5::char(26)[], $6::text[], $10::int[]) AS r(id, run_case_id, case_id, status, elapsed)`,
      [who.orgId, runId, resultIds, runCaseIds, caseIds, statuses, now, who.userId, who.tokenId, elapsed],
    );
    await query(
      `UPDATE test_runs SET count_passed = $2, count_failed = $3, total_duration_ms = $4, first_result_at = $5, last_result_at = $5 WHERE id = $1`,
      [
        runId,
        statuses.filter((status) => status === 'passed').length,
        statuses.filter((status) => status === 'failed').length,
        elapsed.reduce((a, b) => a + b, 0),
        now,
      ],
    );
    await query(
      `INSERT INTO audit_events (id, org_id, actor_kind, actor_token_id, actor_name, action, entity_type, entity_ulid, entity_label, run_id, metadata, created_at)
       VALUES ($1, $2, 'api_token', $3, 'bench', 'run.cases_bulk_marked', 'test_run', $4, 'raw import', $4, '{}'::jsonb, $5)`,
      [newId(), who.orgId, who.tokenId, runId, now],
    );
  });
  const ms = performance.now() - started;
  return { ms, resultsPerSecond: (n / ms) * 1000 };
}

/** Writes a gzip-compressed report of about `megabytes` MB (streamed: never whole in memory); answers its uncompressed size. */
async function writeLargeReport(file: string, megabytes: number): Promise<number> {
  const output = 'x'.repeat(4096);
  const tests = Math.min(Math.floor((megabytes * 1024 * 1024) / (4096 + 200)), 50_000);
  let bytes = 0;
  function* report() {
    const emit = (text: string) => {
      bytes += Buffer.byteLength(text);
      return text;
    };
    yield emit('<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="memory">');
    for (let index = 0; index < tests; index++) {
      const failure = index % 10 === 0 ? '<failure message="boom">stack</failure>' : '';
      yield emit(
        `<testcase classname="com.acme.memory.Class${index % 100}" name="test${index}" time="0.01">${failure}<system-out>${output}</system-out></testcase>\n`,
      );
    }
    yield emit('</testsuite></testsuites>');
  }
  await pipeline(Readable.from(report()), createGzip(), createWriteStream(file));
  return bytes;
}

/** Peak RSS of a child process that reads a REPORT_MB MB report through the import's reader. */
export async function peakRssOfLargeReport() {
  const file = path.join(os.tmpdir(), `tcms-bench-report-${process.pid}.xml.gz`);
  try {
    const reportBytes = await writeLargeReport(file, REPORT_MB);
    const script = fileURLToPath(new URL('./import-memory.ts', import.meta.url));
    const child = fork(script, [file], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`import memory child exited ${code}: ${output}`);
    const figures = JSON.parse(output) as { tests: number; baselineRssMb: number; peakRssMb: number; ms: number };
    return { reportBytes, ...figures };
  } finally {
    await rm(file, { force: true });
  }
}
