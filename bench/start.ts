/**
 * Start-up time (`BENCH_ONLY=start`): the built server as `npm start` runs it (`node
 * --enable-source-maps dist/server.mjs`), from its spawn to the first 200 of GET /api/v1/health,
 * polled every POLL_MS. On a new database (an empty data directory; an empty database on the
 * PostgreSQL server), then on that same database again; START_RUNS of each, the median reported.
 * Beside the wall time, the CPU time (user + system) the server process used until then: a busy
 * machine stretches the wall time far more than it does that.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const START_RUNS = 3;
const POLL_MS = 100;
/** A start that takes longer than this fails the row. */
const START_BOUND_MS = 120_000;
/** Clock ticks per second of /proc/<pid>/stat's times. */
const USER_HZ = 100;

export type StartFigures = { ms: number; cpuMs: number };
export type StartRow = { engine: string; database: 'new' | 'existing'; runs: StartFigures[] };

/** A port nobody listens on now; the server binds it a moment later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function cpuMsOf(pid: number): number {
  // utime and stime are the 14th and 15th fields; the 2nd (the command) may hold spaces, so count after its ')'.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / USER_HZ) * 1000;
}

const live = new Set<ChildProcess>();

/** Kills whatever server this module started and is still running (the bench's emergency exit). */
export function killStartedServers(): void {
  for (const child of live) child.kill('SIGKILL');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/** The built server, running and healthy. */
export type BuiltServer = {
  baseUrl: string;
  pid: number;
  /** From the spawn to the first 200 of GET /api/v1/health. */
  startMs: number;
  /** The CPU time (user + system) the server process has used so far. */
  cpuMs(): number;
  stop(): Promise<void>;
};

/**
 * The built server started as `npm start` runs it, with `env` (its whole environment but PORT),
 * once GET /api/v1/health answers 200; `nodeFlags` go before the script.
 */
export async function startBuiltServer(env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Promise<BuiltServer> {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', ...nodeFlags, 'dist/server.mjs'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    while (performance.now() - startedAt < START_BOUND_MS) {
      if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it was healthy:\n${output}`);
      const status = await fetch(`${baseUrl}/api/v1/health`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) {
        const startMs = performance.now() - startedAt;
        // Its lines are not kept past the start: a long run would pile them up here.
        child.stdout!.removeAllListeners('data').resume();
        return { baseUrl, pid: child.pid!, startMs, cpuMs: () => cpuMsOf(child.pid!), stop: () => stop(child) };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`the server was not healthy within ${START_BOUND_MS / 1000} s:\n${output}`);
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** One start of the server with `env` (its whole environment but PORT): its figures once health answers 200. */
export async function timeStart(env: NodeJS.ProcessEnv): Promise<StartFigures> {
  const server = await startBuiltServer(env);
  try {
    return { ms: server.startMs, cpuMs: server.cpuMs() };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export function startReport(rows: StartRow[]): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    '',
    `tcms bench: start-up, \`node --enable-source-maps dist/server.mjs\` from spawn to the first 200 of GET /api/v1/health (median of ${START_RUNS});`,
    '  new = an empty data directory (PGlite) or an empty database on the server, so every migration runs; existing = the same again;',
    '  cpu = user + system time of the server process until then (all its threads)',
    ...rows.map((row) =>
      [
        row.engine.padEnd(8),
        row.database.padEnd(8),
        `${seconds(median(row.runs.map((run) => run.ms))).padStart(8)}`,
        `cpu ${seconds(median(row.runs.map((run) => run.cpuMs))).padStart(8)}`,
        `| runs ${row.runs.map((run) => seconds(run.ms)).join(', ')}`,
      ].join('  '),
    ),
    '',
  ].join('\n');
}
