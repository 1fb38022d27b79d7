import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

/*
 * The embedded database's statements run synchronously on the event loop, and PGlite hands its
 * mutex from one waiter to the next within a turn of the loop. Under load one turn then runs the
 * database work of every request it read, back to back, and Node accepts about one waiting
 * connection per turn: a client that connects meanwhile waits many turns for its first answer
 * (docs/decisions.md, "The embedded database is taken in turns"). So the process client takes the
 * database in turns — one statement, or one transaction from its start to its end — in the order
 * asked, each on a turn of the event loop of its own, and connections are accepted and requests
 * read between them.
 */

/** A FIFO of holders, each let in on a later turn of the event loop than the one before it let go. */
class Turns {
  private last: Promise<unknown> = Promise.resolve();

  /** Resolves once every earlier holder has let go, with the function that lets go. */
  take(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const granted = this.last.then(() => nextTurn()).then(() => release);
    this.last = released;
    return granted;
  }

  async during<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.take();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** `factory`'s adapter, taken in turns (see above). */
export function takingTurns(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => inTurns(await factory.connect(), new Turns()),
  };
}

function inTurns(adapter: SqlDriverAdapter, turns: Turns): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query: SqlQuery) => turns.during(() => adapter.queryRaw(query)),
    executeRaw: (query: SqlQuery) => turns.during(() => adapter.executeRaw(query)),
    executeScript: (script: string) => turns.during(() => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    startTransaction: async (isolationLevel?: IsolationLevel) => {
      const release = await turns.take();
      try {
        return untilEnded(await adapter.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/** `transaction`, whose end (commit or rollback, even a failed one) calls `release`. */
function untilEnded(transaction: Transaction, release: () => void): Transaction {
  const ending = async (end: () => Promise<void>) => {
    try {
      await end();
    } finally {
      release();
    }
  };
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    commit: () => ending(() => transaction.commit()),
    rollback: () => ending(() => transaction.rollback()),
  };
}
