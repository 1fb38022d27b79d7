import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { AppError } from '../../kernel/errors.ts';
import type { UploadedFile } from '../storage/storage.service.ts';

/** A gzip file may inflate to at most this many times its size (plus INFLATION_ALLOWANCE). */
export const INFLATION_RATIO_MAX = 100;
/** What any gzip file may inflate to whatever its size, so that a tiny report never trips the ratio. */
const INFLATION_ALLOWANCE = 1024 * 1024;

/**
 * The bytes one request may read from its uploaded files together, after inflation: each file's
 * bytes are counted against it as they are read, not each file against a limit of its own.
 */
export class ReadBudget {
  private remaining: number;

  constructor(readonly total: number) {
    this.remaining = total;
  }

  /** Counts bytes read; 413 file_too_large once the budget is spent. */
  take(bytes: number): void {
    this.remaining -= bytes;
    if (this.remaining < 0) {
      throw new AppError('file_too_large', `The uploaded files amount to more than ${this.total} bytes, inflated`, { limit: this.total });
    }
  }
}

const isZlibError = (error: unknown) =>
  Boolean(error && typeof error === 'object' && 'errno' in error && String((error as { code?: string }).code).startsWith('Z_'));

/**
 * The bytes of an uploaded file as they stream from disk; a gzip file (recognized by its magic
 * number, whatever the headers say) is inflated on the way. Reading stops with 413
 * file_too_large once `budget` is spent, or once a gzip file has inflated past
 * INFLATION_RATIO_MAX times its size; a corrupt gzip stream is 422 parse_failed.
 */
export async function* uploadedBytes(file: UploadedFile, budget: ReadBudget): AsyncGenerator<Buffer> {
  const handle = await open(file.path);
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0).finally(() => handle.close());
  const source = createReadStream(file.path);
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
  const stream = gzip ? pipeline(source, createGunzip(), () => undefined) : source;
  const inflationMax = file.sizeBytes * INFLATION_RATIO_MAX + INFLATION_ALLOWANCE;
  let inflated = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (gzip && inflated > inflationMax) {
        throw new AppError('file_too_large', `A gzip file inflates to more than ${INFLATION_RATIO_MAX} times its size`, {
          inflationRatioMax: INFLATION_RATIO_MAX,
        });
      }
      budget.take(chunk.length);
      yield chunk;
    }
  } catch (error) {
    if (isZlibError(error)) throw new AppError('parse_failed', 'The gzip stream is corrupt', { line: 1, column: 1 });
    throw error;
  } finally {
    source.destroy();
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The first byte of a file past a UTF-8 byte order mark and whitespace (null when there is none,
 * a blank file), read ahead of `chunks`; `bytes` are all of them again from the start.
 */
export async function firstSignificantByte(
  chunks: AsyncGenerator<Buffer>,
): Promise<{ first: number | null; bytes: AsyncIterable<Buffer> }> {
  const head: Buffer[] = [];
  let first: number | null = null;
  // Read by hand: leaving a for-await loop would end the generator.
  while (first === null) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value;
    head.push(chunk);
    let at = head.length === 1 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    while (at < chunk.length && WHITESPACE.has(chunk[at]!)) at++;
    if (at < chunk.length) first = chunk[at]!;
  }
  const bytes = (async function* () {
    yield* head;
    yield* chunks;
  })();
  return { first, bytes };
}
