import type { RequestContext } from '../foundation/context.ts';
import { tenantClient } from '../kernel/database/tenant.ts';
import { AppError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { logger } from '../kernel/logger.ts';
import { type PlanProgress, readPlanProgress } from '../plans/plan-progress.service.ts';
import { resolvePlan } from '../plans/plans.service.ts';
import { findRun, toRunResponse } from '../runs/runs.service.ts';
import { onRunChange } from './progress-signals.service.ts';

/** Neither a topic's reads nor one stream's events come closer together than this. */
const MIN_EVENT_INTERVAL_MS = 250;

/** The progress event of a run stream (contract §14): the counters of the run response. */
export type RunProgress = Pick<ReturnType<typeof toRunResponse>, 'state' | 'counts' | 'total' | 'passRate' | 'lastResultAt'> & {
  runUlid: string;
};

/** One event of a stream: its id (a ULID, the SSE `id`) and the progress it reports. */
export type ProgressEvent<T> = { id: string; data: T };

const eventOf = <T>(data: T): ProgressEvent<T> => ({ id: newId(), data });

/**
 * One client's stream: an async iterator of progress events that keeps only the latest unsent
 * one and hands out at most one per MIN_EVENT_INTERVAL_MS. `return()` (the client went away)
 * ends it at once, even while a `next()` waits, and takes it off its topic.
 */
export class ProgressStream<T> implements AsyncIterableIterator<ProgressEvent<T>> {
  private pending: ProgressEvent<T> | undefined;
  private waiting: ((result: IteratorResult<ProgressEvent<T>>) => void) | undefined;
  private lastSentAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  /** Whether an event was offered yet (the first read of a subscription yields to a later one). */
  offered = false;

  constructor(private readonly onEnd: (stream: ProgressStream<T>) => void) {}

  offer(event: ProgressEvent<T>): void {
    if (this.ended) return;
    this.offered = true;
    this.pending = event;
    this.deliver();
  }

  next(): Promise<IteratorResult<ProgressEvent<T>>> {
    if (this.ended && !this.pending) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }

  return(): Promise<IteratorResult<ProgressEvent<T>>> {
    this.pending = undefined;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** No more events after the one pending, if any. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    if (!this.pending) this.finish();
  }

  private deliver(): void {
    if (!this.pending || !this.waiting || this.timer) return;
    const wait = this.lastSentAt + MIN_EVENT_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.deliver();
      }, wait);
      return;
    }
    const [resolve, value] = [this.waiting, this.pending];
    this.waiting = this.pending = undefined;
    this.lastSentAt = Date.now();
    resolve({ done: false, value });
    if (this.ended) this.finish();
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ done: true, value: undefined });
  }
}

/**
 * The streams of this process for one run or plan. A change schedules one read: at once, or
 * MIN_EVENT_INTERVAL_MS after the previous read began; changes arriving meanwhile (a bulk mark's
 * run change and the automatic close it causes) join that read, one arriving during it gets one more.
 * The read is made once for all the topic's streams, in the organization (each stream was
 * authorized when it opened); when the run or plan is gone, or its project locked, the streams end.
 */
class Topic<T> {
  readonly streams = new Set<ProgressStream<T>>();
  private lastReadAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private changedDuringRead = false;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly dropped: () => void,
  ) {}

  changed(): void {
    if (this.reading) {
      this.changedDuringRead = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => void this.refresh(), Math.max(0, this.lastReadAt + MIN_EVENT_INTERVAL_MS - Date.now()));
  }

  remove(stream: ProgressStream<T>): void {
    this.streams.delete(stream);
    if (this.streams.size > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dropped();
  }

  private async refresh(): Promise<void> {
    this.timer = undefined;
    if (this.streams.size === 0) return;
    this.reading = true;
    this.lastReadAt = Date.now();
    try {
      const event = eventOf(await this.read());
      for (const stream of this.streams) stream.offer(event);
    } catch (error) {
      if (error instanceof AppError) for (const stream of [...this.streams]) stream.end();
      else logger.warn({ err: error }, 'live progress: reading the progress failed; the streams wait for the next change');
    } finally {
      this.reading = false;
      if (this.changedDuringRead) {
        this.changedDuringRead = false;
        this.changed();
      }
    }
  }
}

const topics = new Map<string, Topic<unknown>>();
let draining = false;

const runTopicKey = (orgId: string, runId: string) => `${orgId}/run/${runId}`;
const planTopicKey = (orgId: string, planId: string) => `${orgId}/plan/${planId}`;

onRunChange((change) => {
  topics.get(runTopicKey(change.orgId, change.runId))?.changed();
  if (change.planId) topics.get(planTopicKey(change.orgId, change.planId))?.changed();
});

const readRunProgress = async (ctx: RequestContext, runUlid: string): Promise<RunProgress> => {
  const { ulid, state, counts, total, passRate, lastResultAt } = toRunResponse(await findRun(ctx, runUlid));
  return { runUlid: ulid, state, counts, total, passRate, lastResultAt };
};

const readPlanProgressOf = async (ctx: RequestContext, planUlid: string): Promise<PlanProgress> => {
  const plan = await resolvePlan(ctx, planUlid);
  return (await readPlanProgress(ctx, [plan.id])).get(plan.id)!;
};

/**
 * A stream on the topic `key`, whose first event is the caller's own read (which also authorizes
 * them: it fails exactly as reading the run or plan would, and then nothing is left behind). The
 * stream joins its topic before that read, so no change committed meanwhile is missed.
 */
async function subscribe<T>(ctx: RequestContext, key: string, read: (ctx: RequestContext) => Promise<T>): Promise<ProgressStream<T>> {
  let topic = topics.get(key) as Topic<T> | undefined;
  if (!topic) {
    // The organization's view, without this caller's private-project filter: the topic reads for all its streams.
    const reader: RequestContext = { ...ctx, db: tenantClient(ctx.org.id), hiddenProjectIds: [] };
    const created = new Topic(
      () => read(reader),
      () => topics.delete(key),
    );
    topics.set(key, created as Topic<unknown>);
    topic = created;
  }
  const joined = topic;
  const stream = new ProgressStream<T>((ended) => joined.remove(ended));
  joined.streams.add(stream);
  try {
    const first = await read(ctx);
    if (!stream.offered) stream.offer(eventOf(first));
  } catch (error) {
    stream.end();
    throw error;
  }
  if (draining) stream.end();
  return stream;
}

/** The progress of a run the caller may read: now, then after each change (contract §14). */
export const subscribeToRunProgress = (ctx: RequestContext, runUlid: string) =>
  subscribe(ctx, runTopicKey(ctx.org.id, runUlid), (reader) => readRunProgress(reader, runUlid));

/** The progress of a plan the caller may read (its `progress` object): now, then after each change of its runs. */
export const subscribeToPlanProgress = (ctx: RequestContext, planUlid: string) =>
  subscribe(ctx, planTopicKey(ctx.org.id, planUlid), (reader) => readPlanProgressOf(reader, planUlid));

/** Streams open in this process (the `tcms_live_streams` gauge). */
export function openStreamCount(): number {
  let count = 0;
  for (const topic of topics.values()) count += topic.streams.size;
  return count;
}

/** Every topic reads again: the fan-out was disconnected and its streams may have missed changes. */
export function refreshAllStreams(): void {
  for (const topic of topics.values()) topic.changed();
}

/** Streams are served again: an app starts in this process (after another one's shutdown, in tests). */
export function acceptStreams(): void {
  draining = false;
}

/**
 * Ends every open stream after the event it has pending, so that the HTTP server can close, and
 * from now on ends new ones after their first event: the process is shutting down.
 */
export function endAllStreams(): void {
  draining = true;
  for (const topic of [...topics.values()]) for (const stream of [...topic.streams]) stream.end();
}
