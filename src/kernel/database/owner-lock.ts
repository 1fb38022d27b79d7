import { randomUUID } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, notWritable } from '../data-directory.ts';

/**
 * The file in the data directory that names the process owning the embedded database: its PID
 * on the first line, and on Linux its start time on the second.
 */
export const OWNER_LOCK_FILE = 'tcms.pid';

export type OwnerLock = { release(): Promise<void> };

/** The lock, or the PID of the live process that holds it. */
export type LockAttempt = { lock: OwnerLock } | { ownerPid: number };

/**
 * Takes the owner lock of `dataDir`. A lock whose process is gone (killed, crashed) is stale and
 * taken over at once. So is a lock whose PID now belongs to a process that started later: PIDs are
 * reused, and a restarted container often gives the new process the PID of the old one.
 */
export async function lockDataDirectory(dataDir: string): Promise<LockAttempt> {
  const lockPath = path.join(dataDir, OWNER_LOCK_FILE);
  // Written aside and linked into place, so no process ever reads a lock file without its PID.
  const draft = `${lockPath}.${randomUUID()}`;
  try {
    await writeFile(draft, `${process.pid}\n${(await processStat(process.pid))?.started ?? ''}\n`);
  } catch (error) {
    throw notWritable(dataDir, error);
  }
  try {
    for (;;) {
      try {
        await link(draft, lockPath);
        return { lock: { release: () => rm(lockPath, { force: true }) } };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const holder = await readHolder(lockPath);
      if (!holder) continue;
      if (await isAlive(holder)) return { ownerPid: holder.pid };
      // Stale. As with PostgreSQL's postmaster.pid, two processes taking over the same stale lock
      // at the same instant could both succeed; one process starting at a time never races.
      await rm(lockPath, { force: true });
    }
  } finally {
    await rm(draft, { force: true });
  }
}

type Holder = { pid: number; started: string };

/** Who the lock file names (a NaN PID if it is unreadable); undefined if the file is gone. */
async function readHolder(lockPath: string): Promise<Holder | undefined> {
  let content: string;
  try {
    content = await readFile(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const [pid = '', started = ''] = content.split('\n');
  return { pid: Number(pid), started };
}

async function isAlive({ pid, started }: Holder): Promise<boolean> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') return false;
  }
  const now = await processStat(pid);
  if (!now) return true; // no /proc: the PID is all there is to go by
  return now.state !== 'Z' && (started === '' || now.started === started);
}

/**
 * The state (Z: a zombie, which has exited) and start time (clock ticks after boot) of a process,
 * from /proc/<pid>/stat; undefined where there is no /proc.
 */
async function processStat(pid: number): Promise<{ state: string; started: string } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name in parentheses may hold spaces; the fields after it (from the 3rd) do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', started: fields[22 - 3] ?? '' };
}
