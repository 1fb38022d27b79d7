import { expect, it } from 'vitest';
import { expectError, ownerWithProject, useTestApp } from '../support/app.ts';

/**
 * The last line of defence behind the readers' bounds: each import reads its files in a worker
 * thread of its own heap (TCMS_IMPORT_MEMORY_MB, small here). A file that needs more ends its
 * worker with 422, and the service goes on. (The time limit: parse-worker-time.test.ts.)
 */
const t = useTestApp({ TCMS_IMPORT_MEMORY_MB: '48' });

it('a report that needs more memory than the parse worker has answers 422, and the next import works', async () => {
  const { owner, code } = await ownerWithProject(t.http);
  const importReport = (body: string, type: string) =>
    t.http.post(`/api/v1/projects/${code}/result-imports`).set(owner.headers).set('Content-Type', type).send(body);
  // One test whose parameters hold nearly five million numbers: within every bound, but all held at once.
  const heavy = `{"results":{"tests":[{"name":"t","status":"passed","parameters":[0${',0'.repeat(4_900_000)}]}]}}`;
  const response = await importReport(heavy, 'application/json');
  expectError(response, 422, 'parse_failed');
  expect(response.body.error.details).toEqual({ limit: 'memory', memoryMb: 48 });

  const next = await importReport('<testsuite name="s"><testcase classname="after.Memory" name="t"/></testsuite>', 'application/xml');
  expect(next.status, JSON.stringify(next.body)).toBe(201);
});
