import path from 'node:path';
import { ROOT, spawnWatched } from '../support/processes.ts';

const BIN = path.join(ROOT, 'bin', 'tcms.mjs');

export type TcmsRun = { code: number | null; stdout: string; stderr: string };

/** Runs `node bin/tcms.mjs` as a real process on the embedded database of `dataDir`. */
export async function runTcms(dataDir: string, args: string[]): Promise<TcmsRun> {
  const child = spawnWatched(process.execPath, [BIN, ...args], {
    env: { TCMS_DATA_DIR: dataDir, DATABASE_URL: undefined },
    limitMs: 120_000,
  });
  const { code } = await child.closed;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}
