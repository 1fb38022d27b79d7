import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT, runResults } from '../../app/results-upload.ts';

/**
 * What the uploader prints and answers when the server is down or answers "not now": against a
 * stand-in server on a port, with the waits between attempts recorded instead of slept.
 */

const REPORT = path.join(import.meta.dirname, '../fixtures/reports/pytest.xml');
const RUN_ULID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

type Received = { method: string; url: string; key: string | undefined; bytes: number };
type Answer = { status: number; headers?: Record<string, string>; body: unknown };

let server: Server | undefined;
const stop = async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
};
afterEach(stop);

const listen = async (handle: (req: IncomingMessage, res: ServerResponse) => void) => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A server that answers the uploads with `answers` in turn and the run with its counts; records what it received. */
async function standIn(answers: Answer[]) {
  const received: Received[] = [];
  const baseUrl = await listen(async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    received.push({ method: req.method!, url: req.url!, key: req.headers['idempotency-key'] as string | undefined, bytes });
    const answer = req.method === 'GET' ? { status: 200, body: { counts: { passed: 3, failed: 1, skipped: 1 } } } : answers.shift()!;
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
  });
  return { baseUrl, received };
}

const imported = {
  status: 201,
  body: { runUlid: RUN_ULID, tests: 5, results: 5, attempts: 5, matchedCases: 0, createdCases: 5, unmatched: [] },
};

/** `tcms results upload <pytest report> --project WEB` against `baseUrl`, waiting for nothing. */
async function upload(baseUrl: string) {
  const out: string[] = [];
  const err: string[] = [];
  const pauses: number[] = [];
  const code = await runResults(
    ['upload', REPORT, '--project', 'WEB'],
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { TCMS_URL: baseUrl, TCMS_TOKEN: 'tcms_test' },
    { pause: async (seconds) => void pauses.push(seconds) },
  );
  return { code, out, err, pauses };
}

describe('tcms results upload when the server is not there or not ready', () => {
  it('says nothing was uploaded when no server listens, retries with its reason and exits 1', async () => {
    // A port that was just free: nothing listens there any more.
    const baseUrl = await listen(() => undefined);
    await stop();

    const run = await upload(baseUrl);
    expect(run.code).toBe(EXIT.failed);
    expect(run.out.filter((line) => /\buploaded\b/.test(line))).toEqual([]);
    expect(run.out.slice(1)).toEqual(
      [2, 3, 4, 5, 6].map((next, index) => `network error (ECONNREFUSED): retrying in ${2 ** index}s (attempt ${next} of 6)`),
    );
    expect(run.pauses).toEqual([1, 2, 4, 8, 16]);
    expect(run.err).toEqual([`tcms: upload failed: ${baseUrl} could not be reached in 6 attempts (last: network error (ECONNREFUSED))`]);
  });

  it.each([
    ['a 503 with Retry-After', { status: 503, headers: { 'Retry-After': '3' } }, 'server unavailable (503): retrying in 3s', 3],
    ['a 502 without it', { status: 502 }, 'server unavailable (502): retrying in 1s', 1],
    [
      "a 409 of the key's attempt still in flight",
      { status: 409, headers: { 'Retry-After': '1' } },
      'an earlier attempt is still being imported (409): retrying in 1s',
      1,
    ],
  ])('retries after %s with the same key, printing why, and reports the upload only once answered', async (_, refusal, reason, pause) => {
    const { baseUrl, received } = await standIn([{ ...refusal, body: { error: { code: 'x', message: 'not now' } } }, imported]);

    const run = await upload(baseUrl);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(EXIT.ok);
    const [first, second] = received;
    expect(second!.key).toBe(first!.key);
    expect(run.out).toEqual([
      expect.stringMatching(/^uploading 1 report \(\d+ bytes compressed\) to project WEB$/),
      `${reason} (attempt 2 of 6)`,
      `uploaded ${second!.bytes} bytes`,
      `run: ${baseUrl}/api/v1/runs/${RUN_ULID}`,
      'tests 5, results 5, attempts 5, matched cases 0, created cases 5, unmatched 0',
      'run cases: passed 3, failed 1, skipped 1',
    ]);
    expect(run.pauses).toEqual([pause]);
  });

  it('takes any other refusal as final: one attempt, its error printed, exit 1', async () => {
    const { baseUrl, received } = await standIn([{ status: 409, body: { error: { code: 'conflict', message: 'The run is closed' } } }]);
    const run = await upload(baseUrl);
    expect(run.code).toBe(EXIT.failed);
    expect(received).toHaveLength(1);
    expect(run.out.filter((line) => /\buploaded\b/.test(line))).toEqual([]);
    expect(run.err).toEqual(['tcms: upload failed: 409 conflict The run is closed']);
  });

  it('takes a TCMS_URL that is no http(s) address as a usage error, before any attempt', async () => {
    const run = await upload('localhost:3000');
    expect(run.code).toBe(EXIT.usage);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual(['tcms: TCMS_URL must be the server\'s http(s) address, not "localhost:3000" (see "tcms help")']);
  });
});
