import type { Server } from 'node:http';
import request from 'supertest';
import { type Answer, answerProblem, type Envelope, untilFirstEvent } from './answers.ts';

/** One request of a walk, built whole before it is sent (so that a seed replays it). */
export type WalkRequest = {
  /** The operation it exercises: the unit of the walk's coverage. */
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** The operation's first request: a caller and values that reach it past authentication, whatever the seed. */
  wellFormed: boolean;
  envelopes: readonly Envelope[];
  description: string;
};

/** A request whose answer broke a rule (`problem`), with what it answered. */
export type WalkFailure = { problem: string; request: WalkRequest; answer: string };

export type WalkReport = {
  sent: number;
  statuses: Map<number, number>;
  failures: WalkFailure[];
  /** Operations whose validation or service answered. */
  reached: Set<string>;
  slowest: { ms: number; description: string };
  largestError: number;
  seconds: number;
};

export type WalkRules = {
  concurrency: number;
  /** Whether the answer came from the operation's validation or service (not from authentication, a budget or the transport). */
  reached(request: WalkRequest, answer: Answer): boolean;
  /** A surface's own rule beyond its envelope (GraphQL's errors in a 200), or null. */
  problem?(request: WalkRequest, answer: Answer): string | null;
};

/**
 * Sends the requests of each phase in order (a phase starts when the previous one is answered),
 * `concurrency` at a time, and collects what the assertions need.
 */
export async function walk(server: Server, phases: WalkRequest[][], rules: WalkRules): Promise<WalkReport> {
  const report: WalkReport = {
    sent: 0,
    statuses: new Map(),
    failures: [],
    reached: new Set(),
    slowest: { ms: 0, description: '' },
    largestError: 0,
    seconds: 0,
  };
  const started = performance.now();
  const send = async (hostile: WalkRequest) => {
    const begun = performance.now();
    const pending = request(server)[hostile.method as 'get'](hostile.url).set(hostile.headers);
    // superagent hands a parser Node's IncomingMessage, which its types call Response.
    pending.buffer(true).parse(untilFirstEvent as unknown as Parameters<typeof pending.parse>[0]);
    let response: request.Response;
    try {
      response = await (hostile.body === undefined ? pending : pending.serialize((raw: string) => raw).send(hostile.body as string));
    } catch (error) {
      report.failures.push({ problem: 'no answer', request: hostile, answer: (error as Error).message });
      return;
    }
    const answer: Answer = { status: response.status, headers: response.headers, text: response.text ?? '', body: response.body };
    const ms = performance.now() - begun;
    report.sent++;
    if (ms > report.slowest.ms) report.slowest = { ms, description: hostile.description };
    report.statuses.set(answer.status, (report.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 400) report.largestError = Math.max(report.largestError, answer.text.length);
    if (rules.reached(hostile, answer)) report.reached.add(hostile.operation);
    const problem = answerProblem(answer, hostile.envelopes) ?? rules.problem?.(hostile, answer) ?? null;
    if (problem) report.failures.push({ problem, request: hostile, answer: `${answer.status} ${answer.text.slice(0, 300)}` });
  };
  for (const phase of phases) {
    const queue = [...phase];
    await Promise.all(
      Array.from({ length: rules.concurrency }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await send(next);
      }),
    );
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** The first failures, each with its request, then how many of each kind (`5xx`, `internal_error`…): what a failed assertion shows. */
export function failuresOf(seed: number, failures: WalkFailure[]) {
  const kinds: Record<string, number> = {};
  for (const { problem } of failures) kinds[problem] = (kinds[problem] ?? 0) + 1;
  return {
    failures: failures.slice(0, 20).map(({ problem, request, answer }) => `${problem}: ${request.description} → ${answer}`),
    message: `seed ${seed}: ${failures.length} failures ${JSON.stringify(kinds)}`,
  };
}

/** The one line a walk prints: enough to judge its coverage and replay it. */
export const summaryOf = (name: string, seed: number, operations: number, report: WalkReport) =>
  `${name} seed ${seed}: ${report.sent} requests to ${operations} operations in ${report.seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(report.statuses))}; largest error ${report.largestError} bytes; slowest ${report.slowest.ms.toFixed(0)} ms (${report.slowest.description.slice(0, 160)})`;
