import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type TestAgent from 'supertest/lib/agent';
import type { Caller } from './app.ts';

/** A report saved from a real runner (or written by hand: test/fixtures/reports/README.md). */
export const reportFixture = (name: string) => readFile(path.join(import.meta.dirname, '../fixtures/reports', name), 'utf8');

/** POST /projects/{code}/result-imports through the test app's agent, the report as the raw body; the response is the caller's to check. */
export const reportImporter =
  (app: { http: TestAgent }) =>
  (
    caller: Caller,
    code: string,
    body: string | Buffer,
    type: string,
    query: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) =>
    app.http
      .post(`/api/v1/projects/${code}/result-imports`)
      .query(query)
      .set(caller.headers)
      .set(headers)
      .set('Content-Type', type)
      .send(body);

/**
 * The JUnit report vitest's own reporter writes for `files` (file name → source), run at test
 * time in a new temporary directory outside the checkout, with a configuration of its own (so
 * this project's is not picked up) and `args` added (e.g. `--retry=2`). Failing tests are expected.
 */
export async function vitestJunitReport(files: Record<string, string>, args: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tcms-vitest-report-'));
  try {
    await writeFile(path.join(dir, 'vitest.config.mjs'), 'export default {};\n');
    for (const [name, source] of Object.entries(files)) await writeFile(path.join(dir, name), source);
    const output = path.join(dir, 'report.xml');
    const vitest = path.join(process.cwd(), 'node_modules/vitest/vitest.mjs');
    const command = [vitest, 'run', '--root', dir, '--config', 'vitest.config.mjs', '--reporter=junit', `--outputFile=${output}`, ...args];
    await promisify(execFile)(process.execPath, command, { cwd: dir }).catch((error: { code?: number }) => {
      if (error.code !== 1) throw error; // a failing test makes vitest exit 1
    });
    return await readFile(output, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
