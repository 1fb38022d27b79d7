import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage } from './serve.ts';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type ServiceProcess = {
  baseUrl: string;
  /** The service's process id (the export measures sample its resident memory). */
  pid: number;
  engine: string;
  location: string;
  /** The CPU time (user + system) the service process has used so far, in seconds. */
  cpuSeconds(): number;
  raiseLimits(orgId: string): Promise<void>;
  stop(): Promise<void>;
};

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const live = new Set<ChildProcess>();

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux for user space). */
const USER_HZ = 100;

function cpuSecondsOf(pid: number): number {
  // utime and stime are the 14th and 15th fields; the 2nd (the command) may hold spaces, so count after its ')'.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

/** Kills whatever service process is still running (used by the emergency exit path). */
export function killServices(): void {
  for (const child of live) child.kill('SIGKILL');
}

/**
 * Starts bench/serve.ts in its own Node process (tsx loader), with `env` as its whole
 * environment, and resolves once it listens on 127.0.0.1 (or rejects after startTimeoutMs).
 */
export async function startService(
  env: NodeJS.ProcessEnv,
  options: { startTimeoutMs?: number; nodeFlags?: string[] } = {},
): Promise<ServiceProcess> {
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const child = fork(SERVE, [], {
    cwd: ROOT,
    env,
    // nodeFlags (or BENCH_SERVICE_NODE_FLAGS): e.g. --cpu-prof, to look inside the service while it is under load.
    execArgv: ['--import', 'tsx', ...(options.nodeFlags ?? process.env.BENCH_SERVICE_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])],
    // The request log is off (TCMS_LOG_REQUESTS=false); anything else the service prints is a
    // warning or an error worth seeing, so stdout/stderr go to ours.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => live.delete(child));

  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  let nextId = 1;
  const ready = new Promise<Extract<ChildMessage, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'limits-raised') {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error));
        else waiter?.resolve();
      }
    });
    exited.then((code) => reject(new Error(`the service process exited (code ${code}) before listening`)));
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    try {
      await withTimeout(exited, 15_000, 'stopping the service');
    } catch {
      child.kill('SIGKILL');
      await exited;
    }
  };

  let started: Extract<ChildMessage, { type: 'ready' }>;
  try {
    started = await withTimeout(ready, startTimeoutMs, 'starting the service');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${started.port}`,
    pid: child.pid!,
    engine: started.engine,
    location: started.location,
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    raiseLimits: (orgId) =>
      withTimeout(
        new Promise<void>((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          child.send({ type: 'raise-limits', id, orgId } satisfies ParentMessage);
        }),
        15_000,
        'raising the organization limits',
      ),
    stop,
  };
}

/**
 * The environment of a bench's service: this process's, without any setting of the service's own
 * (DATABASE_URL, PORT, TCMS_*), in production mode, request lines off, a pool of `poolSize`
 * connections, then `extra`.
 */
export function serviceEnv(poolSize: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name === 'DATABASE_URL' || name === 'PORT' || name.startsWith('TCMS_')) delete env[name];
  }
  return { ...env, NODE_ENV: 'production', TCMS_LOG_REQUESTS: 'false', TCMS_DB_POOL_SIZE: String(poolSize), ...extra };
}

/** Runs `work` on a service over `env`, stopping it whatever happens. */
export async function withService<T>(env: NodeJS.ProcessEnv, work: (service: ServiceProcess) => Promise<T>): Promise<T> {
  const service = await startService(env);
  try {
    return await work(service);
  } finally {
    await service.stop();
  }
}

/** A scale factor from the environment variable `name` (else `fallback`), in (0, 1]. */
export function scaleOf(name: string, fallback: number): number {
  const scale = Number(process.env[name] ?? fallback);
  if (!(scale > 0 && scale <= 1)) throw new Error(`${name} must be a number in (0, 1]`);
  return scale;
}
