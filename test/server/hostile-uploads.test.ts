import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createProject, signUp, tokenFor } from '../support/app.ts';
import * as hostile from '../support/hostile-uploads.ts';
import { isRunning, useServerProcess } from '../support/processes.ts';

/**
 * Issue 28's hostile uploads against a server process (the production build, on this run's
 * database), each generated here: every reader answers the contract's 4xx within seconds, the
 * server's heap stays bounded, its event loop is never held long (health answers meanwhile), and
 * it is alive and importing afterwards. Before the readers were bounded, the nested reports and
 * the 700 KB TestRail file ran the process out of memory, and the wide CSV held it for 40 s.
 * The hostile bodies are gzip-compressed (the readers inflate them) so that sending them costs this
 * process next to nothing while it measures the server. `npx tsx bench/hostile-uploads.ts` runs
 * the same cases, raw ones too, and prints their figures.
 */

const server = useServerProcess();
const MIB = 1024 * 1024;
/** The server's heap (garbage not yet collected included) while hostile uploads are refused: idle it uses about 150 MiB; unbounded readers took it to 4 GiB. */
const HEAP_BOUND = 384 * MIB;
/** How long a refusal may take on a loaded machine (they take 0.1–7 s here). */
const ANSWER_BOUND_MS = 20_000;
/**
 * A health check while an upload is refused, and the longest the server's event loop may be held
 * (prom-client's event loop delay). On a quiet machine they stay under 200 and 100 ms
 * (bench/hostile-uploads.ts); the bounds leave room for the other test files that share CI's two
 * cores, and are still a tenth of what the unbounded readers took (2–30 s).
 */
const HEALTH_BOUND_MS = 1_000;
const EVENT_LOOP_HOLD_BOUND_MS = 250;

let owner: Caller;
let code: string;
const http = () => request(server.current.baseUrl);

/** A valid report: imported first, so that what is measured is the hostile input, not the first import's warm-up, and again last. */
const validImport = (name: string) =>
  http()
    .post(`/api/v1/projects/${code}/result-imports`)
    .set(owner.headers)
    .set('Content-Type', 'application/xml')
    .send(`<testsuites><testsuite name="s"><testcase classname="valid.Report" name="${name}"/></testsuite></testsuites>`);

beforeAll(async () => {
  const session = await signUp(http());
  owner = await tokenFor(http(), session);
  code = (await createProject(http(), owner)).id;
  expect((await validImport('before')).status).toBe(201);
});

/** The server's heap in use, and the longest its event loop was held since the last scrape (prom-client resets it). */
async function scrape(): Promise<{ heap: number; holdMs: number }> {
  const text = (await http().get('/metrics')).text;
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  return { heap: gauge('tcms_nodejs_heap_size_used_bytes'), holdMs: gauge('tcms_nodejs_eventloop_lag_max_seconds') * 1000 };
}

const gzipped = (upload: hostile.HostileUpload): hostile.HostileUpload =>
  upload.headers?.['Content-Encoding']
    ? upload
    : { ...upload, body: gzipSync(upload.body), headers: { ...upload.headers, 'Content-Encoding': 'gzip' } };

async function send(upload: hostile.HostileUpload) {
  await scrape();
  let done = false;
  const healthTimes: number[] = [];
  let heapPeak = 0;
  let holdMs = 0;
  const sample = async () => {
    const { heap, holdMs: held } = await scrape();
    heapPeak = Math.max(heapPeak, heap);
    holdMs = Math.max(holdMs, held);
  };
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const health = await fetch(`${server.current.baseUrl}/api/v1/health`);
      healthTimes.push(performance.now() - started);
      expect(health.status).toBe(200);
      await sample();
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.current.baseUrl}/api/v1/projects/${code}/${upload.route}`, {
    method: 'POST',
    headers: { ...owner.headers, 'Content-Type': upload.contentType, ...upload.headers },
    body: new Uint8Array(upload.body),
  });
  const elapsedMs = performance.now() - started;
  const body = (await response.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
  done = true;
  await probe;
  await sample();
  return { status: response.status, error: body.error, elapsedMs, healthTimes, heapPeak, holdMs };
}

const cases: Array<{ upload: hostile.HostileUpload; status: number; code: string; message: RegExp }> = [
  { upload: hostile.nestedJunitGzip(1024), status: 422, code: 'parse_failed', message: /nest deeper than 64 levels/ },
  { upload: gzipped(hostile.nestedCtrf(64 * MIB)), status: 422, code: 'parse_failed', message: /nest deeper than 64 levels/ },
  { upload: gzipped(hostile.nestedTestRail(700 * 1024)), status: 422, code: 'parse_failed', message: /nest deeper than 64 levels/ },
  { upload: hostile.textNodeGzip(1024), status: 422, code: 'parse_failed', message: /longer than 16777216 characters/ },
  { upload: hostile.gzipMultipart(20, 100), status: 413, code: 'file_too_large', message: /inflates to more than 100 times its size/ },
  {
    upload: gzipped(hostile.unclosedCsvCell(45 * MIB)),
    status: 413,
    code: 'file_too_large',
    message: /inflates to more than 100 times its size/,
  },
  { upload: gzipped(hostile.wideCsv(1_000_000)), status: 422, code: 'parse_failed', message: /more than 500 cells/ },
];

describe('hostile uploads against a server process', () => {
  it.each(cases)(
    '$upload.name: $status $code, the server unharmed',
    { timeout: 60_000 },
    async ({ upload, status, code: errorCode, message }) => {
      const answer = await send(upload);
      console.info(
        `${upload.name}: ${answer.status} in ${Math.round(answer.elapsedMs)} ms, heap peak ${Math.round(answer.heapPeak / MIB)} MiB, ` +
          `slowest health ${Math.round(Math.max(...answer.healthTimes))} ms, event loop held ${Math.round(answer.holdMs)} ms at most`,
      );
      expect(answer.status, JSON.stringify(answer.error)).toBe(status);
      expect(answer.error.code).toBe(errorCode);
      expect(answer.error.message).toMatch(message);
      expect(answer.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      expect(answer.heapPeak).toBeLessThan(HEAP_BOUND);
      expect(Math.max(...answer.healthTimes)).toBeLessThan(HEALTH_BOUND_MS);
      expect(answer.holdMs).toBeLessThan(EVENT_LOOP_HOLD_BOUND_MS);
      expect(isRunning(server.current)).toBe(true);
    },
  );

  it('still imports a report afterwards', async () => {
    const response = await validImport('after');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ tests: 1, results: 1, createdCases: 1 });
  });
});
