import { readFileSync } from 'node:fs';

/** What one measured run produced: a fixed number of operations at a fixed concurrency. */
export type Measurement = {
  /** Operations that completed successfully (2xx for HTTP). */
  ok: number;
  /** Failed operations (non-2xx, socket errors, thrown queries). */
  failed: number;
  /** Wall time from the first operation's start to the last one's end. */
  elapsedMs: number;
  /** Successful operations per second over `elapsedMs`. */
  perSecond: number;
  p50: number;
  p99: number;
  /** True when the time bound stopped the run before the fixed count was reached. */
  truncated: boolean;
  /** For a load on the service: its process's CPU time over `elapsedMs` (1 = one core busy throughout). */
  serviceCpu?: number;
  /** The share of all the machine's cores that was busy during the run (/proc/stat), whatever kept them busy. */
  machineBusy: number;
};

/** Nearest-rank percentile of `sorted` (ascending), in the same unit. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function summarize(latenciesMs: number[], failed: number, elapsedMs: number, truncated: boolean, machineBusy: number): Measurement {
  const sorted = Float64Array.from(latenciesMs).sort();
  const values = Array.from(sorted);
  return {
    ok: values.length,
    failed,
    elapsedMs,
    perSecond: elapsedMs > 0 ? (values.length * 1000) / elapsedMs : 0,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    truncated,
    machineBusy,
  };
}

/** The machine's CPU time so far, busy and in all (the first line of /proc/stat, in ticks). */
function machineTicks(): { busy: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, each) => sum + each, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

/** Starts measuring how busy the machine's cores are; the returned function answers the share since then. */
export function machineBusyMeter(): () => number {
  const start = machineTicks();
  return () => {
    const now = machineTicks();
    return (now.busy - start.busy) / Math.max(1, now.total - start.total);
  };
}
