import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('schema/schema.graphql', () => {
  it('is the printed live schema (run `npm run schema:print` after changing schema/)', async () => {
    // The script runs in its own process, exactly as `npm run schema:print` does, so that the
    // schema is printed by the same copy of `graphql` that built it.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/print-schema.ts', '--stdout'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    const checkedIn = await readFile(path.join(root, 'schema/schema.graphql'), 'utf8').catch(() => '');
    expect(stdout.length, 'the schema printed nothing').toBeGreaterThan(0);
    expect(checkedIn, 'schema/schema.graphql is out of date with the live schema: run `npm run schema:print`').toBe(stdout);
  });
});
