/**
 * Resident memory of the built server (`npx tsx bench/memory.ts`), on the embedded database and on
 * the PostgreSQL server of BENCH_PG_URL (a temporary database on it), each in a new data directory:
 *
 * - idle: VmRSS SETTLE_MS after GET /api/v1/health first answered 200 (the server as it starts);
 * - warm: VmRSS SETTLE_MS after a few requests of each everyday kind (sign-up, a token, a project
 *   of RUN_CASES cases, a run, its pages, a GraphQL read, single marks);
 * - peak: VmHWM while MARK_CLIENTS clients mark the run's cases (bench/runs.ts's sequence) for
 *   MARK_MS, the high-water mark reset just before (/proc/<pid>/clear_refs, Linux 4.0+);
 * - ratio: peak / idle, the bar (≤ 1.3).
 *
 * BENCH_MEMORY_ENGINE=pglite or postgres measures one engine; MEMORY_MARK_MS bounds the marks. Node flags
 * for the server (e.g. --heap-prof) can be given as MEMORY_NODE_FLAGS.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
// @ts-expect-error the build script is plain JavaScript without type declarations
import { ensureBuilt } from '../scripts/build.mjs';
import type { ServiceProcess } from './child.ts';
import { markSequence, newRun, runsProject } from './runs.ts';
import { getJson, graphqlData, newIntegrator } from './setup.ts';
import { type BuiltServer, killStartedServers, startBuiltServer } from './start.ts';
import { runVaryingLoad } from './test-design.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long the server is left alone before its idle memory is read. */
const SETTLE_MS = 5_000;
const MARK_CLIENTS = 50;
const MARK_MS = Number(process.env.MEMORY_MARK_MS ?? 30_000);
const MiB = 1024 * 1024;

type EngineFigures = { engine: string; idleMiB: number; warmMiB: number; peakMiB: number; marksPerSecond: number; failed: number };

const log = (line: string) => process.stderr.write(`[memory] ${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return (Number(match[1]) * 1024) / MiB;
}

/**
 * The environment of the server as an operator runs it, but for the request log (off, as in every
 * bench). TCMS_* variables given to the bench reach it (TCMS_EMBEDDED_SHARED_BUFFERS_MB=128, say, to compare).
 */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'PORT', 'TCMS_DATA_DIR'].includes(name)));
  return { NODE_ENV: 'production', TCMS_LOG_REQUESTS: 'false', ...env, ...extra };
}

/**
 * The operator command against the same database (through the server's socket on the embedded
 * one): the only way to raise an organization's ceilings. From dist/ as built at the start, as
 * bin/tcms.mjs would rebuild it first when a source changed meanwhile.
 */
function tcmsCommand(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const script = `const { runCli } = await import('./dist/tcms.mjs');
process.exit(await runCli(${JSON.stringify(args)}, { out: () => {}, err: (line) => process.stderr.write(line + '\\n') }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tcms ${args.join(' ')} exited with ${code}: ${errors}`))));
  });
}

/** The built server as the bench's helpers address a service. */
function asService(server: BuiltServer, engine: string, env: NodeJS.ProcessEnv): ServiceProcess {
  return {
    baseUrl: server.baseUrl,
    pid: server.pid,
    engine,
    location: engine,
    cpuSeconds: () => server.cpuMs() / 1000,
    raiseLimits: (orgId) =>
      tcmsCommand(env, [
        'org',
        'override',
        orgId,
        '--projects',
        '1000000',
        '--requests-per-minute',
        '1000000000',
        '--results-per-month',
        '1000000000',
      ]),
    stop: server.stop,
  };
}

async function measureEngine(engine: string, env: NodeJS.ProcessEnv): Promise<EngineFigures> {
  const nodeFlags = (process.env.MEMORY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const server = await startBuiltServer(env, nodeFlags);
  try {
    const service = asService(server, engine, env);
    await pause(SETTLE_MS);
    const idleMiB = statusMiB(server.pid, 'VmRSS');
    log(`${engine}: healthy in ${(server.startMs / 1000).toFixed(1)} s, idle RSS ${idleMiB.toFixed(0)} MiB`);

    const who = await newIntegrator(service, `memory-${engine}`);
    const project = await runsProject(service, who, 'MEM');
    const run = await newRun(service, project, 'memory');
    await getJson(service, `/api/v1/projects/${project.code}/test-cases?limit=50`, who);
    await getJson(service, `/api/v1/runs/${run.ulid}`, who);
    await graphqlData(service, who, 'query($code: String!) { project(code: $code) { name } }', { code: project.code });
    const next = markSequence([run]);
    const markLoad = () => {
      const { run, runCaseUlid, status, elapsedMs } = next();
      return {
        method: 'PATCH' as const,
        path: `/api/v1/runs/${run.ulid}/cases/${runCaseUlid}`,
        body: JSON.stringify({ status, elapsedMs }),
      };
    };
    await runVaryingLoad(service, who, { concurrency: 1, maxMs: 30_000 }, 50, markLoad);
    await pause(SETTLE_MS);
    const warmMiB = statusMiB(server.pid, 'VmRSS');
    log(`${engine}: warm RSS ${warmMiB.toFixed(0)} MiB; ${MARK_CLIENTS} clients mark for ${MARK_MS / 1000} s`);

    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const marks = await runVaryingLoad(service, who, { concurrency: MARK_CLIENTS, maxMs: MARK_MS }, 100_000_000, markLoad);
    const peakMiB = statusMiB(server.pid, 'VmHWM');
    log(`${engine}: peak RSS ${peakMiB.toFixed(0)} MiB at ${marks.perSecond.toFixed(0)} marks/s (${marks.failed} failed)`);
    return { engine, idleMiB, warmMiB, peakMiB, marksPerSecond: marks.perSecond, failed: marks.failed };
  } finally {
    await server.stop();
  }
}

async function onPglite(): Promise<EngineFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-memory-'));
  try {
    return await measureEngine('pglite', serverEnv({ TCMS_DATA_DIR: dataDir }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(): Promise<EngineFigures> {
  const adminUrl = new URL(process.env.BENCH_PG_URL ?? DEFAULT_PG_URL);
  const database = `tcms_memory_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 10_000 });
  await admin.connect();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-memory-'));
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${database}`;
    return await measureEngine('postgres', serverEnv({ DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir }));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function memoryReport(rows: EngineFigures[]): string {
  const mib = (value: number) => `${value.toFixed(0)} MiB`.padStart(8);
  return [
    '',
    `tcms bench: resident memory of the built server (NODE_ENV=production); idle = ${SETTLE_MS / 1000} s after healthy, warm = ${SETTLE_MS / 1000} s after a few requests of each kind,`,
    `  peak = VmHWM during ${MARK_MS / 1000} s of ${MARK_CLIENTS} clients marking one run of 500 cases; ratio = peak / idle (bar: ≤ 1.3)`,
    ...rows.map((row) =>
      [
        row.engine.padEnd(8),
        `idle ${mib(row.idleMiB)}`,
        `warm ${mib(row.warmMiB)}`,
        `peak ${mib(row.peakMiB)}`,
        `ratio ${(row.peakMiB / row.idleMiB).toFixed(2)}`,
        `| ${row.marksPerSecond.toFixed(0)} marks/s, ${row.failed} failed`,
      ].join('  '),
    ),
    '',
  ].join('\n');
}

export async function benchMemory(): Promise<EngineFigures[]> {
  await ensureBuilt();
  const only = process.env.BENCH_MEMORY_ENGINE;
  const rows: EngineFigures[] = [];
  if (!only || only === 'pglite') rows.push(await onPglite());
  if (!only || only === 'postgres') rows.push(await onPostgres());
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on('SIGINT', () => {
    killStartedServers();
    process.exit(130);
  });
  try {
    process.stdout.write(memoryReport(await benchMemory()));
  } catch (error) {
    killStartedServers();
    throw error;
  }
}
