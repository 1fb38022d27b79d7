/** One SQL statement as Prisma reports it (the `query` log event). */
export type QueryEvent = { query: string; params: string; duration: number; target: string };

const listeners = new Set<(event: QueryEvent) => void>();

/**
 * Subscribes to every SQL statement the process client sends (tests count them to prove that
 * a list costs a bounded number of queries). Returns the unsubscribe function.
 */
export function onQuery(listener: (event: QueryEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const isQueryHeard = () => listeners.size > 0;

export function emitQuery(event: QueryEvent): void {
  for (const listener of listeners) listener(event);
}
