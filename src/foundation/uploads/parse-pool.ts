import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { settings } from '../../kernel/config.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UploadedFile } from '../storage/storage.service.ts';
import type { ParseMessage } from './parse-task.ts';

/** Parse workers of one process; each parse has a worker to itself. */
export const PARSE_THREADS = Math.max(2, Math.min(4, os.availableParallelism() - 1));

/**
 * Run from a checkout (this module is TypeScript), a worker first registers tsx and then imports
 * the parse module; the build (scripts/build.mjs) gives each parse module its own bundle beside
 * the server's, which the worker runs directly.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const TYPESCRIPT_WORKER = new URL('./typescript-worker.mjs', import.meta.url).href;

let pool: { memoryMb: number; workers: Piscina } | undefined;

/**
 * The process's parse workers, started when first needed, each with an old generation of
 * TCMS_IMPORT_MEMORY_MB; idle ones end after 30 s and never keep the process alive. Another
 * setting starts a new pool: the old one's parses finish, then its workers idle out.
 */
function parsePool(memoryMb: number): Piscina {
  if (pool?.memoryMb !== memoryMb) {
    const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(32, memoryMb / 4) };
    pool = { memoryMb, workers: new Piscina({ maxThreads: PARSE_THREADS, minThreads: 0, idleTimeout: 30_000, resourceLimits }) };
  }
  return pool.workers;
}

/** Why a worker did not finish: the limit it hit, as the client reads it; anything else as it is. */
function workerFailure(error: unknown, limits: { memoryMb: number; timeoutMs: number }): unknown {
  const outOfMemory = error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY';
  if (outOfMemory) {
    return new AppError('parse_failed', `The file needs more than ${limits.memoryMb} MiB of memory to read`, {
      limit: 'memory',
      memoryMb: limits.memoryMb,
    });
  }
  const timedOut = error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
  if (timedOut)
    return new AppError('parse_failed', `The file takes longer than ${limits.timeoutMs} ms to read`, {
      limit: 'time',
      timeoutMs: limits.timeoutMs,
    });
  return error;
}

/**
 * Reads uploaded files in a worker thread of its own heap and time (TCMS_IMPORT_MEMORY_MB,
 * TCMS_IMPORT_TIMEOUT_MS): a hostile file exhausts a worker, never the process, and no parse holds
 * the event loop. `worker` is the parse module (its default export made by `parseTask`), named as
 * `new URL('./x-worker.ts', import.meta.url)`; `onItem` receives what it reads, batch by batch, on
 * this thread; the answer is its summary, or the AppError that stopped it.
 */
export async function parseInWorker<Options, Item, Summary>(
  worker: URL,
  files: UploadedFile[],
  options: Options,
  onItem: (item: Item) => void,
): Promise<Summary> {
  const { port1: answers, port2: port } = new MessageChannel();
  const ended = new Promise<Summary>((resolve, reject) => {
    answers.on('message', (message: ParseMessage<Item, Summary>) => {
      if ('items' in message) {
        try {
          message.items.forEach(onItem);
        } catch (error) {
          reject(error);
        }
      } else if ('done' in message) resolve(message.done);
      else reject(new AppError(message.failed.code, message.failed.message, message.failed.details));
    });
  });
  const filename = FROM_SOURCE ? TYPESCRIPT_WORKER : worker.href.replace(/\.ts$/, '.mjs');
  const task = { files, options, port, module: worker.href };
  const limits = settings().imports;
  const run = parsePool(limits.memoryMb).run(task, { filename, transferList: [port], signal: AbortSignal.timeout(limits.timeoutMs) });
  try {
    // The task settles after its last message was posted, but on another port: wait for both.
    const [, summary] = await Promise.all([run.catch((error: unknown) => Promise.reject(workerFailure(error, limits))), ended]);
    return summary;
  } finally {
    answers.close();
  }
}
