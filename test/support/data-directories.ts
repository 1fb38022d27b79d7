import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { pgdataOf } from '../../src/kernel/database/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory whose embedded database is migrated (test/support/global-setup.ts); absent on a PostgreSQL server. */
    migratedDataDir?: string;
  }
}

/**
 * A new data directory for an app or a server process of a test. On the embedded database it
 * holds a copy of the migrated database the global set-up made once, so that a file starts in
 * about a second instead of creating and migrating a database of its own (6 to 10 s); `fresh`
 * leaves it empty, for the tests of creating and migrating one.
 */
export async function newDataDir(prefix = 'tcms-test-', options: { fresh?: boolean } = {}): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const template = inject('migratedDataDir');
  if (template && !options.fresh) await cp(pgdataOf(template), pgdataOf(dataDir), { recursive: true });
  return dataDir;
}
