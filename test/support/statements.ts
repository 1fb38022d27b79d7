import { onQuery } from '../../src/kernel/database/client.ts';

/**
 * The SQL statements the process's Prisma client sends while `work` runs (raw ones included),
 * in order, with what `work` answered: tests compare their number to prove that an answer costs
 * a fixed number of statements, however much it holds.
 */
export async function recordStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = onQuery((event) => statements.push(event.query));
  try {
    return { result: await work(), statements };
  } finally {
    stop();
  }
}
