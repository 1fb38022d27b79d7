import { chmod } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { type PGlite, protocol } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';

/** The PostgreSQL name for a server's socket, so that `psql -h <dataDir> -U postgres` finds it. */
const SOCKET_NAME = '.s.PGSQL.5432';

/** The longest Unix socket path the platform takes (sun_path, without its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** Where the owner of the embedded database in `dataDir` serves it. */
export const socketPathOf = (dataDir: string) => path.join(dataDir, SOCKET_NAME);

/** Whether a Unix socket can be bound at `socketPath`: the platform limits its length. */
export const fitsSocketLimit = (socketPath: string) => Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES;

/** A `pg` connection string reaching the owner's socket in `dataDir`. */
export function socketConnectionString(dataDir: string): string {
  const url = new URL('postgresql://postgres@localhost/postgres');
  url.searchParams.set('host', dataDir);
  return url.toString();
}

type Session = {
  /** The session's messages run one after the other, in the order they arrived. */
  tail: Promise<unknown>;
  /** Set while the session holds PGlite's transaction mutex. */
  release?: () => void;
  /** Set once the client is gone: its transaction rolled back and the mutex let go. */
  ended?: Promise<void>;
};

const SYNC = 'S'.charCodeAt(0);
const QUERY = 'Q'.charCodeAt(0);

/**
 * Ends an exchange: after it the client waits for an answer, not for more of a statement.
 * Startup-phase messages have no type byte; their length makes their first byte 0.
 */
const endsExchange = (message: Uint8Array) => message[0] === 0 || message[0] === SYNC || message[0] === QUERY;

/**
 * The queue of pglite-socket's handlers, with the isolation its own queue lacks. PGlite is one
 * backend: a transaction a client opens is open for every statement that runs meanwhile. The
 * app's statements (PGlite's query, exec, transaction) take PGlite's transaction mutex, while
 * pglite-socket's queue takes only the query mutex; with it a client's statements could run inside
 * an app transaction, and the app's inside a client's, which a client rolling back would swallow.
 * Here a client holds the transaction mutex from its first message until a Sync or a simple Query
 * leaves the backend outside a transaction block (an extended-protocol exchange is in an implicit
 * transaction until its Sync); a client that disconnects inside one has it rolled back first.
 */
class ExclusiveSessions {
  private readonly sessions = new Map<number, Session>();

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const session = this.sessionOf(handlerId);
    const done = session.tail.then(async () => {
      session.release ??= await this.holdTransactionMutex();
      let answered = 0;
      await this.execute(message, (data) => {
        answered += data.length;
        onData(data);
      });
      if (endsExchange(message) && !this.db.isInTransaction()) this.releaseOf(session);
      return answered;
    });
    session.tail = done.catch(() => {});
    return done;
  }

  /**
   * Messages a client sent before it left still run, as PostgreSQL runs them;
   * clearTransactionIfNeeded then undoes whatever they leave open.
   */
  clearQueueForHandler(): void {}

  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    const session = this.sessions.get(handlerId);
    if (!session) return Promise.resolve();
    session.ended ??= this.windUp(session).finally(() => this.sessions.delete(handlerId));
    return session.ended;
  }

  /** Resolves once every session that was told to end has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.ended));
  }

  private async windUp(session: Session): Promise<void> {
    await session.tail;
    if (!session.release) return;
    try {
      // ROLLBACK ends an explicit or implicit transaction; after an error in an extended-protocol
      // exchange the backend ignores everything up to a Sync, so a Sync and a second ROLLBACK follow.
      await this.execute(protocol.serialize.query('ROLLBACK'));
      await this.execute(protocol.serialize.sync());
      if (this.db.isInTransaction()) await this.execute(protocol.serialize.query('ROLLBACK'));
    } finally {
      this.releaseOf(session);
    }
  }

  private sessionOf(handlerId: number): Session {
    let session = this.sessions.get(handlerId);
    if (!session) {
      session = { tail: Promise.resolve() };
      this.sessions.set(handlerId, session);
    }
    return session;
  }

  /** Resolves once the mutex is held, with the function that lets it go. */
  private holdTransactionMutex(): Promise<() => void> {
    return new Promise((held) => {
      void this.db._runExclusiveTransaction(() => new Promise<void>((release) => held(release)));
    });
  }

  private releaseOf(session: Session): void {
    session.release?.();
    session.release = undefined;
  }

  private execute(message: Uint8Array, onRawData: (data: Uint8Array) => void = () => {}): Promise<void> {
    return this.db.runExclusive(() => this.db.execProtocolRawStream(message, { onRawData }));
  }
}

export type SocketService = { close(): Promise<void> };

/**
 * Serves `db` over the PostgreSQL protocol on the Unix socket `socketPath`, for local clients of
 * the owner (the `tcms` command, psql). The socket is the owner's user's alone: there is no password.
 */
export async function serveOnSocket(db: PGlite, socketPath: string): Promise<SocketService> {
  const sessions = new ExclusiveSessions(db);
  // The option's type is pglite-socket's own queue class; the handler calls only its three methods.
  const queryQueue = sessions as unknown as PGLiteSocketHandlerOptions['queryQueue'];
  const handlers = new Set<PGLiteSocketHandler>();
  const server: Server = createServer((socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    void handler.attach(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  return {
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      await Promise.allSettled([...handlers].map((handler) => handler.detach(true)));
      // Clients that left just before are still being wound up; the database closes after them.
      await sessions.settled();
      await closed;
    },
  };
}
