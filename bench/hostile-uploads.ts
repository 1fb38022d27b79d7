/**
 * The hostile uploads of issue 28 against a server process, one after another, each measured:
 * the answer and its time, the server's peak heap (its /metrics) and resident memory (/proc), the
 * slowest /api/v1/health answer while the upload was being read, the longest the server's event
 * loop was held meanwhile (its /metrics), and whether the process lived.
 *
 *   npx tsx bench/hostile-uploads.ts [--root <checkout with dist/>] [--timeout-ms 600000] [--only <substring>]
 *
 * DATABASE_URL is passed on (a PostgreSQL server), else the server runs on a new embedded
 * database. A case that kills the server is reported as such and the server is started again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as hostile from '../test/support/hostile-uploads.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    'timeout-ms': { type: 'string', default: '600000' },
    only: { type: 'string' },
  },
});
const root = path.resolve(values.root!);
const timeoutMs = Number(values['timeout-ms']);
const MIB = 1024 * 1024;

type Server = { child: ChildProcess; baseUrl: string; dataDir: string; exited: Promise<void> };

async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-hostile-'));
  const child = spawn(process.execPath, ['dist/server.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      TCMS_DATA_DIR: dataDir,
      TCMS_LOG_REQUESTS: 'false',
      TCMS_WEBHOOK_DISPATCH: 'false',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`the server exited:\n${output}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, dataDir, exited };
}

async function stopServer(server: Server) {
  server.child.kill('SIGKILL');
  await server.exited;
  await rm(server.dataDir, { recursive: true, force: true });
}

async function projectOf(server: Server) {
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, any>>;
  };
  const email = `hostile-${Date.now()}@example.test`;
  const signup = await fetch(`${server.baseUrl}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', firstName: 'H', lastName: 'U' }),
  });
  const cookie = signup.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const orgId = (await json(signup)).organization.ulid;
  const session = { Cookie: cookie, 'X-Organization-Id': orgId, 'Content-Type': 'application/json' };
  const { token } = await json(
    await fetch(`${server.baseUrl}/api/v1/me/api-tokens`, { method: 'POST', headers: session, body: JSON.stringify({ name: 'h' }) }),
  );
  const code = `H${Date.now().toString(36).toUpperCase().slice(-6)}`;
  await json(
    await fetch(`${server.baseUrl}/api/v1/projects`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: code, id: code }),
    }),
  );
  return { token: token as string, code };
}

const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The server's heap in use, and the longest its event loop was held since the last scrape. */
async function scrape(baseUrl: string): Promise<{ heap: number; lagSeconds: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { heap: gauge('tcms_nodejs_heap_size_used_bytes'), lagSeconds: gauge('tcms_nodejs_eventloop_lag_max_seconds') };
}

async function measure(server: Server, target: { token: string; code: string }, upload: hostile.HostileUpload) {
  let heapPeak = 0;
  let rssPeak = 0;
  let lagMax = 0;
  let slowestHealthMs = 0;
  let done = false;
  const sampleMemory = async () => {
    while (!done) {
      try {
        rssPeak = Math.max(rssPeak, residentBytes(server.child.pid!));
        const { heap, lagSeconds } = await scrape(server.baseUrl);
        heapPeak = Math.max(heapPeak, heap);
        lagMax = Math.max(lagMax, lagSeconds);
      } catch {
        // The process is gone, or too busy to answer within the sample's timeout.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const probeHealth = async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${server.baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
      if (!done) slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await scrape(server.baseUrl).catch(() => undefined);
  const samplers = [sampleMemory(), probeHealth()];
  const started = performance.now();
  let answer: string;
  try {
    const response = await fetch(`${server.baseUrl}/api/v1/projects/${target.code}/${upload.route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': upload.contentType, ...upload.headers },
      body: new Uint8Array(upload.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
    answer = `${response.status} ${body.error?.code ?? ''}`.trim();
  } catch (error) {
    answer = `no answer (${(error as Error).name === 'TimeoutError' ? `timeout after ${timeoutMs} ms` : (error as Error).message})`;
  }
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await Promise.all(samplers);
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  return { answer, seconds, heapPeakMib: heapPeak / MIB, rssPeakMib: rssPeak / MIB, slowestHealthMs, lagMaxMs: lagMax * 1000, alive };
}

const cases: hostile.HostileUpload[] = [
  hostile.nestedJunit(50 * MIB),
  hostile.nestedJunitGzip(1024),
  hostile.nestedCtrf(50 * MIB),
  hostile.nestedTestRail(70 * 1024),
  hostile.nestedTestRail(210 * 1024),
  hostile.nestedTestRail(700 * 1024),
  hostile.gzipMultipart(20, 100),
  hostile.textNodeGzip(1024),
  hostile.unclosedCsvCell(45 * MIB),
  hostile.wideCsv(1_000_000),
].filter((upload) => !values.only || upload.name.includes(values.only));

console.log(`root ${root}, ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded database'}, load ${os.loadavg()[0]!.toFixed(1)}`);
console.log('| case | sent | answer | time | peak heap | peak RSS | slowest health | longest event-loop hold | alive |');
console.log('|---|---|---|---|---|---|---|---|---|');
let server = await startServer();
let target = await projectOf(server);
for (const upload of cases) {
  const result = await measure(server, target, upload);
  const sent = upload.body.length >= MIB ? `${(upload.body.length / MIB).toFixed(1)} MiB` : `${Math.round(upload.body.length / 1024)} KiB`;
  console.log(
    `| ${upload.name} | ${sent} | ${result.answer} | ${result.seconds.toFixed(1)} s | ${result.heapPeakMib.toFixed(0)} MiB | ${result.rssPeakMib.toFixed(0)} MiB | ${result.slowestHealthMs.toFixed(0)} ms | ${result.lagMaxMs.toFixed(0)} ms | ${result.alive ? 'yes' : 'no'} |`,
  );
  if (!result.alive) {
    await stopServer(server);
    server = await startServer();
    target = await projectOf(server);
  } else if (!result.answer.startsWith('4')) {
    // A server still busy with the last upload would skew the next case.
    await stopServer(server);
    server = await startServer();
    target = await projectOf(server);
  }
}
await stopServer(server);
