import { AppError } from '../../kernel/errors.ts';
import { PARSE_THREADS } from './parse-pool.ts';

/** Imports one process runs at once: one parse worker each, and what they read held until written. */
export const IMPORT_SLOTS = PARSE_THREADS;
/** Imports one organization runs at once in one process, so that another always finds a slot. */
export const IMPORT_SLOTS_PER_ORGANIZATION = Math.max(1, Math.floor(IMPORT_SLOTS / 2));
/** Imports that may wait for a slot, per organization and in all. */
export const IMPORTS_WAITING_PER_ORGANIZATION = 8;
export const IMPORTS_WAITING_MAX = 64;
/** The longest an import waits for a slot before it is refused. */
export const IMPORT_WAIT_MAX_MS = 60_000;
const RETRY_AFTER_SECONDS = 5;

const busy = () =>
  new AppError('too_many_requests', 'Too many imports are running; try again shortly', { retryAfterSeconds: RETRY_AFTER_SECONDS });

/**
 * The import slots of this process, shared fairly: an organization runs at most its share at
 * once, and a freed slot goes to the organizations waiting in turn (round robin), not to whoever
 * queued most. Past the waiting limits, or after IMPORT_WAIT_MAX_MS, an import answers 429 with
 * Retry-After. Slots guard this process's threads and memory, so they are counted here, not in
 * the database: each process has its own.
 */
class FairSlots {
  private running = 0;
  private readonly runningByOrg = new Map<string, number>();
  /** Waiters by organization; the map's order is the turn order. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private waitingCount = 0;

  async run<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    if (this.mayStart(orgId)) this.start(orgId);
    else await this.wait(orgId);
    try {
      return await work();
    } finally {
      this.running--;
      this.runningByOrg.set(orgId, this.runningByOrg.get(orgId)! - 1);
      if (this.runningByOrg.get(orgId) === 0) this.runningByOrg.delete(orgId);
      this.wakeNext();
    }
  }

  private mayStart(orgId: string): boolean {
    return this.running < IMPORT_SLOTS && (this.runningByOrg.get(orgId) ?? 0) < IMPORT_SLOTS_PER_ORGANIZATION;
  }

  private start(orgId: string): void {
    this.running++;
    this.runningByOrg.set(orgId, (this.runningByOrg.get(orgId) ?? 0) + 1);
  }

  /** Resolves once a slot was taken for the caller (by `wakeNext`). */
  private wait(orgId: string): Promise<void> {
    const queue = this.waiting.get(orgId) ?? [];
    if (queue.length >= IMPORTS_WAITING_PER_ORGANIZATION || this.waitingCount >= IMPORTS_WAITING_MAX) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const started = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.remove(orgId, started);
        reject(busy());
      }, IMPORT_WAIT_MAX_MS);
      queue.push(started);
      this.waiting.set(orgId, queue);
      this.waitingCount++;
    });
  }

  private remove(orgId: string, waiter: () => void): void {
    const queue = this.waiting.get(orgId) ?? [];
    queue.splice(queue.indexOf(waiter), 1);
    this.waitingCount--;
    if (queue.length === 0) this.waiting.delete(orgId);
  }

  private wakeNext(): void {
    for (const [orgId, queue] of this.waiting) {
      if (!this.mayStart(orgId)) continue;
      const next = queue[0]!;
      this.remove(orgId, next);
      // The organization served goes to the back of the turn order.
      if (queue.length > 0) {
        this.waiting.delete(orgId);
        this.waiting.set(orgId, queue);
      }
      this.start(orgId);
      next();
      return;
    }
  }
}

const slots = new FairSlots();

/** Runs an import (reading its files and writing what they hold) in one of this process's import slots. */
export const withImportSlot = <T>(orgId: string, work: () => Promise<T>): Promise<T> => slots.run(orgId, work);
