import { logger } from '../../kernel/logger.ts';

export type OutboxWorker = {
  /** Looks for work now (something was queued, or fell due). */
  wake(): void;
  /** Claims nothing more and waits for the work under way. */
  stop(): Promise<void>;
};

export type OutboxWorkerOptions<T> = {
  /** What the outbox holds, for its log lines ("webhook", "mail"). */
  name: string;
  /** Items processed side by side at most. */
  concurrency: number;
  /** How often to look for work nobody woke the worker for; undefined: only when woken. */
  pollMs?: number;
  /** The tenant an item belongs to, when the slots are shared out between tenants (see `claim`). */
  tenantOf?(item: T): string;
  /**
   * Claims up to `limit` items (so that no other worker takes them), in one statement; `held`
   * counts the slots each tenant holds now, so that the claim can keep each to its share.
   */
  claim(limit: number, held: ReadonlyMap<string, number>): Promise<T[]>;
  /** Sends one claimed item and records its outcome; never rejects. */
  process(item: T): Promise<void>;
};

/**
 * The loop of an outbox table that every server process works on: claim what is due, process
 * each item in a slot of its own, and claim again as soon as a slot frees, so that one slow item
 * never holds the others back. Woken by `wake`, by a finished item, and every `pollMs`. A
 * database that cannot be reached is logged once, and once again when it is back.
 */
export function startOutboxWorker<T>(options: OutboxWorkerOptions<T>): OutboxWorker {
  const underWay = new Set<Promise<void>>();
  const held = new Map<string, number>();
  let stopped = false;
  let claiming: Promise<void> | undefined;
  let wokenWhileClaiming = false;
  let unreachable = false;

  const wake = () => {
    if (claiming) wokenWhileClaiming = true;
    else claiming = claimWhileFree().finally(() => (claiming = undefined));
  };

  const claimWhileFree = async () => {
    try {
      do {
        wokenWhileClaiming = false;
        while (!stopped && underWay.size < options.concurrency) {
          const claimed = await options.claim(options.concurrency - underWay.size, held);
          for (const item of claimed) start(item);
          if (claimed.length === 0) break;
        }
      } while (wokenWhileClaiming && !stopped);
      if (unreachable) logger.info(`the ${options.name} outbox can be read again`);
      unreachable = false;
    } catch (error) {
      // What is due is claimed once the database is back.
      if (!unreachable) logger.warn({ err: error }, `the ${options.name} outbox cannot be read`);
      unreachable = true;
    }
  };

  const start = (item: T) => {
    const tenant = options.tenantOf?.(item);
    if (tenant !== undefined) held.set(tenant, (held.get(tenant) ?? 0) + 1);
    const work = options.process(item).finally(() => {
      underWay.delete(work);
      if (tenant !== undefined) release(tenant);
      wake();
    });
    underWay.add(work);
  };

  const release = (tenant: string) => {
    const slots = held.get(tenant)! - 1;
    if (slots === 0) held.delete(tenant);
    else held.set(tenant, slots);
  };

  const poll = options.pollMs === undefined ? undefined : setInterval(wake, options.pollMs);
  poll?.unref();
  wake();

  return {
    wake,
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      await claiming;
      await Promise.all(underWay);
    },
  };
}
