import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { OrganizationLimits } from '../../kernel/billing-tiers.ts';
import type { Config } from '../../kernel/config.ts';
import { ensureDataDirectory, errorCode, notWritable } from '../../kernel/data-directory.ts';
import type { Db } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { afterCommit } from '../../kernel/database/transactions.ts';
import { AppError, notFound } from '../../kernel/errors.ts';
import { assertSafeKey, fileStorage, LocalDirectoryStorage, useFileStorage } from './file-storage.ts';

/**
 * Files go to the configured S3-compatible bucket, else to `files/` under the data directory,
 * which must be a directory this process can write (a ConfigurationError at start-up otherwise).
 */
export async function openFileStorage(config: Pick<Config, 's3' | 'dataDir'>): Promise<void> {
  // The AWS SDK is loaded only where a bucket is configured.
  if (config.s3) return useFileStorage(new (await import('./s3-storage.ts')).S3Storage(config.s3));
  await ensureDataDirectory(config.dataDir);
  const root = path.join(config.dataDir, 'files');
  try {
    // Not recursive: the data directory exists, and a recursive mkdir never returns under /proc.
    await mkdir(root).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
    await access(root, constants.W_OK);
  } catch (error) {
    throw notWritable(config.dataDir, error);
  }
  useFileStorage(new LocalDirectoryStorage(root));
}

/**
 * One multipart file part as a transport received it: a temporary local file, which the
 * transport removes once the request has ended.
 */
export type UploadedFile = { path: string; fileName: string; contentType: string; sizeBytes: number; sha256: string };

/**
 * Counts `bytes` against the organization's storage quota before they are written, inside `tx`
 * (a rollback gives them back). One conditional upsert: concurrent callers, in any process, queue
 * on the organization's row and the usage never passes the quota. Over it: 413
 * storage_quota_exceeded. The row stays locked until commit: keep `tx` short after the charge.
 */
export async function chargeStorage(tx: Db, org: { id: string; limits: OrganizationLimits }, bytes: number): Promise<void> {
  if (bytes === 0) return;
  const limit = org.limits.maxStorageBytes;
  const exceeded = () => new AppError('storage_quota_exceeded', 'The organization has used up its storage quota');
  if (limit !== null && bytes > limit) throw exceeded();
  // The tenant filter is written out: raw SQL does not pass through the confined client.
  const rows = await queryRaw<unknown[]>(
    tx,
    sql`
    INSERT INTO storage_usage AS usage (org_id, used_bytes)
    VALUES (${org.id}, ${bytes}::bigint)
    ON CONFLICT (org_id) DO UPDATE SET used_bytes = usage.used_bytes + EXCLUDED.used_bytes
    WHERE ${limit}::bigint IS NULL OR usage.used_bytes + EXCLUDED.used_bytes <= ${limit}::bigint
    RETURNING 1`,
  );
  if (rows.length === 0) throw exceeded();
}

/** Gives back `bytes` the organization no longer keeps, inside `tx` (a rollback keeps them counted). */
export async function releaseStorage(tx: Db, orgId: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await tx.storageUsage.updateMany({ where: { orgId }, data: { usedBytes: { decrement: bytes } } });
}

/** Objects of one organization that `tx` stops keeping: their bytes go back in `tx`, their files once it committed. */
export async function releaseObjects(tx: Db, orgId: string, objects: Array<{ storageKey: string; sizeBytes: number }>): Promise<void> {
  await releaseStorage(
    tx,
    orgId,
    objects.reduce((sum, object) => sum + object.sizeBytes, 0),
  );
  afterCommit(tx, () => Promise.all(objects.map((object) => fileStorage().delete(object.storageKey))));
}

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
