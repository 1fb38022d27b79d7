import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UploadedFile } from '../../src/foundation/storage/storage.service.ts';
import { ReadBudget, uploadedBytes } from '../../src/foundation/uploads/upload-bytes.ts';

/**
 * The bytes one request may read from its files are counted together, inflated, against one
 * budget (an import's is 256 MiB; a small one here).
 */
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-upload-bytes-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

async function file(name: string, bytes: Buffer): Promise<UploadedFile> {
  const target = path.join(directory, name);
  await writeFile(target, bytes);
  return { path: target, fileName: name, contentType: 'application/octet-stream', sizeBytes: bytes.length, sha256: '' };
}

const readAll = async (source: AsyncIterable<Buffer>) => {
  let total = 0;
  for await (const chunk of source) total += chunk.length;
  return total;
};

it('the files of a request share one budget, counted after inflation', async () => {
  const plain = await file('plain.xml', Buffer.alloc(600_000, 0x20));
  const packed = await file('packed.xml.gz', gzipSync(Buffer.alloc(600_000, 0x20)));
  const budget = new ReadBudget(1_000_000);
  expect(await readAll(uploadedBytes(plain, budget))).toBe(600_000);
  await expect(readAll(uploadedBytes(packed, budget))).rejects.toMatchObject({ code: 'file_too_large', details: { limit: 1_000_000 } });
  // Each file alone fits.
  expect(await readAll(uploadedBytes(packed, new ReadBudget(1_000_000)))).toBe(600_000);
});
