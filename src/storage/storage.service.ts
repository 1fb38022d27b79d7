import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.ts';
import { notFound } from '../errors.ts';
import { assertSafeKey, fileStorage, LocalDirectoryStorage, useFileStorage } from './file-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** Files go to the configured S3-compatible bucket, else to `files/` under the data directory. */
export function openFileStorage(config: Pick<Config, 's3' | 'dataDir'>): void {
  useFileStorage(config.s3 ? new S3Storage(config.s3) : new LocalDirectoryStorage(path.join(config.dataDir, 'files')));
}

/** One multipart file part as a transport received it. */
export type UploadedFile = { buffer: Buffer; fileName: string; contentType: string; sha256: string };

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };

/**
 * A public file (a project avatar) by its key, for anyone: its bytes, type and a strong ETag.
 * Keys outside the public prefix, unsafe keys and missing objects are all 404.
 */
export async function readPublicAsset(key: string) {
  let data: Buffer | null = null;
  try {
    assertSafeKey(key);
    if (key.startsWith('avatars/')) data = await fileStorage().get(key);
  } catch {
    data = null;
  }
  if (!data) throw notFound('Asset');
  return {
    data,
    contentType: CONTENT_TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`,
  };
}
