import autocannon from 'autocannon';
import { type Measurement, machineBusyMeter, summarize } from './stats.ts';

export type HttpLoad = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fresh body for every request (unique project ids); GETs have none. */
  body?: () => string;
  /** Method, path and body chosen per request, for loads whose path varies (a PATCH of many cases, the pages of a list). */
  next?: () => { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: string };
  /** A 2xx answer whose body this refuses counts as failed (GraphQL answers its errors with 200). */
  accept?: (body: string) => boolean;
  requests: number;
  concurrency: number;
  /** Hard bound: the run is stopped (and marked truncated) past this. */
  maxMs: number;
  /** The service process's CPU time so far (ServiceProcess.cpuSeconds), for the figures' serviceCpu. */
  cpuSeconds?: () => number;
};

/**
 * Drives the service with autocannon: exactly `requests` requests over `concurrency` keep-alive
 * connections, one request in flight per connection (no pipelining).
 *
 * autocannon's own summary is not used for the figures: its latency histogram has 1 ms
 * resolution and it only notices the end of a fixed-count run on its next 1-second tick, which
 * would understate throughput. Instead every response's exact duration (autocannon measures it
 * with hrtime) is collected from its `response` event, and the elapsed time runs from the start
 * to the last response.
 */
export async function runHttpLoad(load: HttpLoad): Promise<Measurement> {
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let lastResponseAt = 0;
  const { pathname, search } = new URL(load.url);
  const request: autocannon.Request = { method: load.method, path: `${pathname}${search}` };
  const { body, next, accept } = load;
  if (next) request.setupRequest = (prepared) => ({ ...prepared, ...next() });
  else if (body) request.setupRequest = (prepared) => ({ ...prepared, body: body() });
  // onResponse runs just before the 'response' event of the same response (synchronously).
  let rejected = false;
  if (accept) request.onResponse = (status, answer) => (rejected = status < 300 && !accept(String(answer)));

  let finish: (error: unknown) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve());
  });
  const busy = machineBusyMeter();
  const cpuBefore = load.cpuSeconds?.();
  const started = performance.now();
  const instance = autocannon(
    {
      url: load.url,
      connections: load.concurrency,
      pipelining: 1,
      amount: load.requests,
      timeout: 10,
      headers: load.headers,
      requests: [request],
    },
    (error) => finish(error),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    lastResponseAt = performance.now();
    if (statusCode >= 200 && statusCode < 300 && !rejected) latencies.push(responseTime);
    else {
      failed++;
      firstFailure ??= rejected ? `HTTP ${statusCode} with a rejected body` : `HTTP ${statusCode}`;
    }
    rejected = false;
  });
  instance.on('reqError', (error) => {
    failed++;
    firstFailure ??= String(error);
  });
  let truncated = false;
  const bound = setTimeout(() => {
    truncated = true;
    instance.stop();
  }, load.maxMs);
  try {
    await finished;
  } finally {
    clearTimeout(bound);
  }
  if (firstFailure) console.error(`  ! ${load.method} ${load.url}: ${failed} failed, first: ${firstFailure}`);
  const measurement = summarize(latencies, failed, (lastResponseAt || performance.now()) - started, truncated, busy());
  if (cpuBefore === undefined) return measurement;
  return { ...measurement, serviceCpu: (load.cpuSeconds!() - cpuBefore) / (measurement.elapsedMs / 1000) };
}
