import { expect, it } from 'vitest';
import { expectError, ownerWithProject, useTestApp } from '../support/app.ts';

/**
 * Each import reads its files in a worker thread that may take TCMS_IMPORT_TIMEOUT_MS (short
 * here): a parse still running then ends with 422. (The memory limit: parse-worker-memory.test.ts.)
 */
const t = useTestApp({ TCMS_IMPORT_TIMEOUT_MS: '500' });

it('a report that takes longer to read than the parse worker may answers 422', async () => {
  const { owner, code } = await ownerWithProject(t.http);
  const slow = `<testsuites><testsuite name="s"><properties>${'<p/>'.repeat(4_900_000)}</properties></testsuite></testsuites>`;
  const response = await t.http
    .post(`/api/v1/projects/${code}/result-imports`)
    .set(owner.headers)
    .set('Content-Type', 'application/xml')
    .send(slow);
  expectError(response, 422, 'parse_failed');
  expect(response.body.error.details).toEqual({ limit: 'time', timeoutMs: 500 });
});
