import { Prisma } from '../../../prisma/generated/client/client.ts';
import { logger } from '../logger.ts';
import type { Db, PrismaClient } from './client.ts';
import { executeRaw, transaction } from './raw-sql.ts';

type Effect = () => Promise<unknown> | unknown;
type Effects = { committed: Effect[]; rolledBack: Effect[] };

/** The transactions in progress, with the effects waiting for their outcome. */
const open = new WeakMap<object, Effects>();

/**
 * Runs `work` in one database transaction. When `db` already is a transaction (a service called
 * inside another's, or a request that runs in one), `work` joins it: everything commits or rolls
 * back together. Effects registered with `afterCommit` / `afterRollback` run once the outermost
 * transaction has settled.
 */
export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  if (open.has(db)) return work(db);
  const effects: Effects = { committed: [], rolledBack: [] };
  let result: T;
  try {
    result = await transaction(db as PrismaClient, async (tx) => {
      open.set(tx, effects);
      return work(tx);
    });
  } catch (error) {
    await settle(effects.rolledBack);
    throw error;
  }
  await settle(effects.committed);
  return result;
}

/** Whether `db` is a transaction in progress (opened by `inTransaction`). */
export const isTransaction = (db: Db) => open.has(db);

const effectsOf = (tx: Db): Effects => {
  const effects = open.get(tx);
  if (!effects) throw new Error('Not inside a transaction opened by inTransaction()');
  return effects;
};

/**
 * Runs `effect` once the transaction `tx` belongs to has committed (files it stopped referencing, …).
 * Outside a transaction, where the statement that calls for the effect has committed alone, at once.
 */
export function afterCommit(tx: Db, effect: Effect): void {
  const effects = open.get(tx);
  if (effects) effects.committed.push(effect);
  else void settle([effect]);
}

/** Runs `effect` if the work done so far in `tx` is undone (files written for rows that never were, …). */
export function afterRollback(tx: Db, effect: Effect): void {
  effectsOf(tx).rolledBack.push(effect);
}

let savepoints = 0;

/**
 * Runs `work` inside `tx` so that a failure undoes only what `work` did: the transaction goes on
 * and the error is passed on. Effects `work` registered follow its fate.
 */
export async function withSavepoint<T>(tx: Db, work: () => Promise<T>): Promise<T> {
  const effects = effectsOf(tx);
  const marks = { committed: effects.committed.length, rolledBack: effects.rolledBack.length };
  const name = `tcms_${++savepoints}`;
  await executeRaw(tx, Prisma.raw(`SAVEPOINT ${name}`));
  try {
    const result = await work();
    await executeRaw(tx, Prisma.raw(`RELEASE SAVEPOINT ${name}`));
    return result;
  } catch (error) {
    await executeRaw(tx, Prisma.raw(`ROLLBACK TO SAVEPOINT ${name}`));
    effects.committed.splice(marks.committed);
    await settle(effects.rolledBack.splice(marks.rolledBack));
    throw error;
  }
}

/** Effects are clean-ups: one that fails must not keep the others from running. */
async function settle(effects: Effect[]): Promise<void> {
  await Promise.all(
    effects.map(async (effect) => {
      try {
        await effect();
      } catch (error) {
        logger.warn({ err: error }, 'a clean-up after a transaction failed');
      }
    }),
  );
}
