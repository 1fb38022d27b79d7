import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { TEST_DEFAULTS } from './app.ts';
import { newDataDir } from './data-directories.ts';

/**
 * Child processes for tests: spawn one, collect what it prints, wait for a line, and make sure
 * it does not outlive its time limit.
 */

/** The repository root: the working directory of every process started here, unless told. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type WatchedProcess = {
  process: ChildProcess;
  /** Everything printed so far, stdout and stderr together in the order it arrived. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** The first match of `pattern` in the output; rejects if the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Settles on the process's 'exit'. */
  exited: Promise<Exit>;
  /** Settles on 'close': the process has exited and its output streams have ended. Rejects if it could not start. */
  closed: Promise<Exit>;
};

export type SpawnOptions = {
  /** Laid over process.env; a variable given as undefined is left out of the child's environment. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The process is killed (SIGKILL) if it runs longer than this; no limit when absent. */
  limitMs?: number;
  /** 'pipe' to write to the process's stdin through `process.stdin`. */
  stdin?: 'pipe' | 'ignore';
};

export function spawnWatched(command: string, args: string[], options: SpawnOptions = {}): WatchedProcess {
  const { env = {}, cwd = ROOT, limitMs, stdin = 'ignore' } = options;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(command, args, { cwd, env: childEnv, stdio: [stdin, 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    output += text;
    changed();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr += text;
    output += text;
    changed();
  });
  const limit = limitMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      resolve({ code, signal });
      changed();
    });
  });
  const closed = new Promise<Exit>((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(limit);
      reject(error);
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  // A test that never asks for `closed` should not see its rejection as unhandled.
  closed.catch(() => {});

  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          finish();
          resolve(match);
        } else if (!isRunning(watched)) {
          finish();
          reject(new Error(`the process exited before printing ${pattern}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  const watched: WatchedProcess = {
    process: child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor,
    exited,
    closed,
  };
  return watched;
}

/** True until the process has exited or been ended by a signal. */
export function isRunning(child: WatchedProcess): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/** SIGKILL, unless the process has already exited; resolves once it has. */
export async function killNow(child: WatchedProcess): Promise<Exit> {
  if (isRunning(child)) child.process.kill('SIGKILL');
  return child.exited;
}

/** Resolves with the exit, or with 'timeout' if the process is still running after `ms`. */
export async function exitWithin(child: WatchedProcess, ms: number): Promise<Exit | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, ms, 'timeout');
  });
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A node process that runs TypeScript through tsx: `node --import tsx ...args`. */
export function spawnTsx(args: string[], options: SpawnOptions = {}): WatchedProcess {
  return spawnWatched(process.execPath, ['--import', 'tsx', ...args], options);
}

export type ServerOptions = {
  /** TCMS_DATA_DIR of the server. */
  dataDir: string;
  /** More variables, laid over process.env and the server's defaults (e.g. DATABASE_URL). */
  env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) if still running after this. */
  limitMs?: number;
};

/** The line the server logs once it accepts connections. */
const LISTENING = /listening on http:\/\/localhost:(\d+)/;

/** The server as `npm start` runs it: the build in dist/ (made by the tests' global setup). */
export const SERVER_ENTRY = ['--enable-source-maps', 'dist/server.mjs'];

/**
 * The server as it runs in production, in a process of its own, on an ephemeral port (PORT=0).
 * Returns at once; `untilListening` waits for it to accept connections.
 */
export function spawnServer({ dataDir, env = {}, limitMs = 120_000 }: ServerOptions): WatchedProcess {
  return spawnWatched(process.execPath, SERVER_ENTRY, {
    env: {
      PORT: '0',
      TCMS_DATA_DIR: dataDir,
      NODE_ENV: 'test',
      TCMS_LOG_REQUESTS: 'false',
      TCMS_LOG_LEVEL: 'info',
      ...TEST_DEFAULTS,
      ...env,
    },
    limitMs,
  });
}

export type Listening = { port: number; baseUrl: string };

/** Waits for the server's "listening on http://localhost:PORT" line. */
export async function untilListening(server: WatchedProcess, timeoutMs = 100_000): Promise<Listening> {
  const [, port] = await server.waitFor(LISTENING, timeoutMs);
  return { port: Number(port), baseUrl: `http://127.0.0.1:${port}` };
}

export type ServerProcess = WatchedProcess & Listening;

/**
 * `spawnServer`, then `untilListening`. A server that does not come up is killed before the
 * error is passed on, since the caller gets no handle to stop it.
 */
export async function startServer(options: ServerOptions & { listenTimeoutMs?: number }): Promise<ServerProcess> {
  const server = spawnServer(options);
  try {
    return Object.assign(server, await untilListening(server, options.listenTimeoutMs));
  } catch (error) {
    await killNow(server);
    throw error;
  }
}

/** The `msg` of every JSON log line in `output` (the service logs with pino), in order. */
export function logMessages(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: unknown };
      return typeof entry.msg === 'string' ? [entry.msg] : [];
    } catch {
      return [];
    }
  });
}

/** SIGTERM, and SIGKILL if the server has not exited 20 s later; resolves once it has. */
export async function stopServer(server: WatchedProcess): Promise<void> {
  if (!isRunning(server)) return;
  server.process.kill('SIGTERM');
  if ((await exitWithin(server, 20_000)) === 'timeout') server.process.kill('SIGKILL');
  await server.exited;
}

/**
 * A server process for the tests of one file, on a data directory of its own (and on the file's
 * PostgreSQL database when DATABASE_URL names one): started before them, stopped after them.
 */
export function useServerProcess(env: NodeJS.ProcessEnv = {}): { readonly current: ServerProcess } {
  const handle = {} as { current: ServerProcess; dataDir: string };
  beforeAll(async () => {
    handle.dataDir = await newDataDir('tcms-server-');
    handle.current = await startServer({ dataDir: handle.dataDir, env, limitMs: 240_000, listenTimeoutMs: 120_000 });
  }, 180_000);
  afterAll(async () => {
    if (handle.current) await stopServer(handle.current);
    if (handle.dataDir) await rm(handle.dataDir, { recursive: true, force: true });
  });
  return handle;
}
