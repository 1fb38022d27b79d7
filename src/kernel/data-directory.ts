import { mkdir, stat } from 'node:fs/promises';
import { ConfigurationError } from './config.ts';

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Whether `dataDir` is a directory; missing is false, a file in its place a ConfigurationError. */
export async function isDataDirectory(dataDir: string): Promise<boolean> {
  try {
    if ((await stat(dataDir)).isDirectory()) return true;
  } catch (error) {
    // Missing, or under a file: either way there is no such directory.
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
  throw new ConfigurationError(`TCMS_DATA_DIR ${dataDir} is not a directory`);
}

/** TCMS_DATA_DIR as a directory, created when missing; a ConfigurationError when it cannot be. */
export async function ensureDataDirectory(dataDir: string): Promise<void> {
  if (await isDataDirectory(dataDir)) return;
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigurationError(`cannot create the data directory ${dataDir} (${errorCode(error) ?? String(error)})`);
  }
}

/** The one line for a data directory this process cannot write in. */
export const notWritable = (dataDir: string, error: unknown) =>
  new ConfigurationError(`the data directory ${dataDir} is not writable (${errorCode(error) ?? String(error)})`);
