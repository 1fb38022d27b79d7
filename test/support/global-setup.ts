// Vitest global setup, once before any test file runs: the build the spawned servers run (dist/)
// brought up to date, and on the embedded database a migrated data directory that each file's
// app copies (test/support/data-directories.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error the build script is plain JavaScript without type declarations
import { ensureBuilt } from '../../scripts/build.mjs';
import { loadConfig } from '../../src/kernel/config.ts';
import { openDatabase } from '../../src/kernel/database/client.ts';

async function migratedDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-migrated-'));
  const database = await openDatabase(loadConfig({ ...process.env, TCMS_DATA_DIR: dataDir, NODE_ENV: 'test' }));
  await database.close();
  return dataDir;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await ensureBuilt();
  if (process.env.DATABASE_URL) return async () => undefined;
  const dataDir = await migratedDataDir();
  project.provide('migratedDataDir', dataDir);
  return () => rm(dataDir, { recursive: true, force: true });
}
