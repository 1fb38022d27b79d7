import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Uploads are received into temporary files of the OS temporary directory, named with this
 * prefix, and removed once their response is over. A process killed meanwhile leaves them behind;
 * the sweep removes those older than TEMPORARY_UPLOAD_TTL_MS: no request lives that long (a
 * request must arrive within 5 minutes, and an import waits and reads for 3 at most), so a file
 * of another process still running on the same machine is never taken.
 */
const PREFIX = 'tcms-upload-';
export const TEMPORARY_UPLOAD_TTL_MS = 60 * 60 * 1000;

/** A new temporary file's path for an upload (the directory is read at each call: tests point TMPDIR elsewhere). */
export const temporaryUploadPath = () => path.join(os.tmpdir(), `${PREFIX}${randomUUID()}`);

/** Removes the temporary upload files last written before `now - TEMPORARY_UPLOAD_TTL_MS`; answers how many. */
export async function sweepTemporaryUploads(now = Date.now()): Promise<number> {
  const directory = os.tmpdir();
  const names = (await readdir(directory)).filter((name) => name.startsWith(PREFIX));
  let removed = 0;
  for (const name of names) {
    const file = path.join(directory, name);
    const written = await stat(file).then(
      (info) => info.mtimeMs,
      () => now,
    );
    if (written < now - TEMPORARY_UPLOAD_TTL_MS) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
