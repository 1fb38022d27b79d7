import { existsSync } from 'node:fs';
import { cp, rename, rm, rmdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'pino';
import { ConfigurationError } from '../config.ts';
import { ensureDataDirectory, isDataDirectory } from '../data-directory.ts';
import { logger } from '../logger.ts';
import { fitsSocketLimit, type SocketService, serveOnSocket, socketConnectionString, socketPathOf } from './embedded-socket.ts';
import { lockDataDirectory, type OwnerLock } from './owner-lock.ts';

/**
 * The embedded database (PGlite in TCMS_DATA_DIR/pgdata) has exactly one owner process, named by
 * the lock file of the data directory; two PGlite instances on one directory lose writes and can
 * leave it unreadable. The owner serves it to local clients (the `tcms` command, psql) over the
 * PostgreSQL protocol on a Unix socket in the data directory.
 */

/** This process owns the database; close() lets it go. */
export type OwnedDatabase = { database: PGlite; close(): Promise<void> };

/** Another process owns the database and serves it on its socket. */
export type ServedDatabase = { connectionString: string };

/** Where PGlite keeps the embedded database of `dataDir`. */
export const pgdataOf = (dataDir: string) => path.join(dataDir, 'pgdata');

/**
 * How the embedded database runs in this process. `sharedBuffersMb`: its shared_buffers, which
 * PGlite keeps in this process's memory (else the data directory's postgresql.conf, 128 MB).
 */
export type EmbeddedOptions = { sharedBuffersMb?: number };

/**
 * The server: owns the database of `dataDir` (creating both if needed) and serves it on the
 * socket; `log` hears whether it opens or creates the database, and how long that took.
 */
export async function serveEmbeddedDatabase(dataDir: string, options: EmbeddedOptions & { log?: Logger } = {}): Promise<OwnedDatabase> {
  await ensureDataDirectory(dataDir);
  const attempt = await lockDataDirectory(dataDir);
  if ('ownerPid' in attempt) {
    throw new ConfigurationError(
      `the embedded database in ${dataDir} is in use by process ${attempt.ownerPid} (stop it, or set TCMS_DATA_DIR or DATABASE_URL)`,
    );
  }
  return openOwned(dataDir, attempt.lock, { ...options, serve: true });
}

/**
 * The `tcms` command: the owner's socket while a server owns the database, else the database
 * itself, owned for as long as the command runs. Never creates a database.
 */
export async function reachEmbeddedDatabase(dataDir: string, options: EmbeddedOptions = {}): Promise<OwnedDatabase | ServedDatabase> {
  if (!(await holdsDatabase(dataDir))) {
    throw new ConfigurationError(`no tcms database in ${dataDir}: start the server once to create it`);
  }
  const attempt = await lockDataDirectory(dataDir);
  if ('lock' in attempt) return openOwned(dataDir, attempt.lock, { ...options, serve: false });
  if (!(await accepts(socketPathOf(dataDir)))) {
    throw new ConfigurationError(
      `the embedded database in ${dataDir} is in use by process ${attempt.ownerPid}, which does not serve it on a socket (stop it and try again, or set DATABASE_URL)`,
    );
  }
  return { connectionString: socketConnectionString(dataDir) };
}

async function openOwned(
  dataDir: string,
  lock: OwnerLock,
  { serve, log, sharedBuffersMb }: EmbeddedOptions & { serve: boolean; log?: Logger },
): Promise<OwnedDatabase> {
  let database: PGlite | undefined;
  let socket: SocketService | undefined;
  try {
    // A socket file left by an owner that was killed.
    await rm(socketPathOf(dataDir), { force: true });
    const startedAt = performance.now();
    const existing = await holdsDatabase(dataDir);
    log?.info(`${existing ? 'opening' : 'creating'} the embedded database in ${pgdataOf(dataDir)}`);
    if (!existing) await copyEmptyDatabase(pgdataOf(dataDir));
    const startParams = sharedBuffersMb ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] : undefined;
    database = await PGlite.create(pgdataOf(dataDir), { startParams });
    log?.info(`embedded database ${existing ? 'open' : 'created'} in ${Math.round(performance.now() - startedAt)} ms`);
    if (serve) socket = await serveSocket(database, dataDir);
  } catch (error) {
    await database?.close();
    await lock.release();
    throw error;
  }
  const opened = database;
  return {
    database: opened,
    close: async () => {
      try {
        await socket?.close();
        await opened.close();
      } finally {
        await lock.release();
      }
    },
  };
}

/**
 * The empty database the build made with the installed PGlite (scripts/build.mjs names it by
 * PGlite's version), looked for in the package's dist/ from this module, in src/ or in the bundle.
 */
function emptyDatabaseOfTheBuild(): string | undefined {
  const require = createRequire(import.meta.url);
  const manifest = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const name = `pgdata-template-${(require(manifest) as { version: string }).version}`;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', name);
    if (existsSync(path.join(candidate, 'PG_VERSION'))) return candidate;
  }
  return undefined;
}

/**
 * A new database as a copy of the build's empty one: PGlite's initdb takes most of a first start.
 * Copied aside, then renamed into place, so that a start killed meanwhile leaves no half database
 * (the owner lock keeps any other process from copying meanwhile). Without a copy (no build's, an
 * unreadable one, `pgdata` not empty) PGlite runs initdb itself.
 */
async function copyEmptyDatabase(pgdata: string): Promise<void> {
  const template = emptyDatabaseOfTheBuild();
  if (!template) return;
  const partial = `${pgdata}.partial`;
  try {
    // An empty directory in its place is no database; anything else there stays for PGlite to judge.
    await rmdir(pgdata).catch(() => undefined);
    // What a start killed while copying left.
    await rm(partial, { recursive: true, force: true });
    await cp(template, partial, { recursive: true });
    await rename(partial, pgdata);
  } catch (error) {
    logger.debug({ err: error }, "the build's empty database was not copied: PGlite runs initdb");
    await rm(partial, { recursive: true, force: true });
  }
}

async function serveSocket(database: PGlite, dataDir: string): Promise<SocketService | undefined> {
  const socketPath = socketPathOf(dataDir);
  if (fitsSocketLimit(socketPath)) return serveOnSocket(database, socketPath);
  logger.warn(
    { dataDir },
    'the embedded database is not served on a socket: the path of the data directory is too long for one, so the tcms command cannot run while the server does',
  );
  return undefined;
}

/** Whether `dataDir` is a directory that holds a database: a PostgreSQL data directory has PG_VERSION. */
async function holdsDatabase(dataDir: string): Promise<boolean> {
  if (!(await isDataDirectory(dataDir))) return false;
  return stat(path.join(pgdataOf(dataDir), 'PG_VERSION')).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** Whether a server answers on the Unix socket `socketPath`. */
function accepts(socketPath: string): Promise<boolean> {
  if (!fitsSocketLimit(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
