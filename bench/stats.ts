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
};

/** Nearest-rank percentile of `sorted` (ascending), in the same unit. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(latenciesMs: number[], failed: number, elapsedMs: number, truncated: boolean): Measurement {
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
  };
}
