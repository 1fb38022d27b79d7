import type { Db } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { afterCommit, afterRollback, inTransaction, isTransaction } from '../../kernel/database/transactions.ts';
import { AppError, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import type { RequestContext } from '../context.ts';
import { fileStorage } from './file-storage.ts';
import { chargeStorage, releaseObjects, type UploadedFile } from './storage.service.ts';

/**
 * Staged uploads: files stored under `staging/<orgUlid>/` with a row each, charged to the quota,
 * until a commit turns them into attachments (of a test case's step, or of a result attempt) or
 * the sweep ends them.
 */

/** Staged objects nobody committed are swept after this long. */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

const STAGING_PREFIX = 'staging';
const stagingKeyOf = (orgId: string) => `${STAGING_PREFIX}/${orgId}/${newId()}`;

export type StagedUploadRow = Awaited<ReturnType<Db['stagedUpload']['findFirstOrThrow']>>;

/**
 * Stores uploads under `staging/<orgUlid>/`. `gate` runs first in the charging transaction (a
 * lock, a state check); then more than `maxFiles` files answer 422 too_many_attachments. The bytes
 * are charged to the organization's quota (413 storage_quota_exceeded) before any is written, each
 * upload with a row of its own (name, type, size) that a commit or the sweep ends.
 */
export async function stageUploads(
  ctx: RequestContext,
  files: UploadedFile[],
  options: { maxFiles: number; gate?: (tx: Db) => Promise<unknown> },
) {
  const staged = files.map((file) => ({
    storageKey: stagingKeyOf(ctx.org.id),
    fileName: file.fileName || 'attachment',
    contentType: file.contentType || 'application/octet-stream',
    sizeBytes: file.sizeBytes,
  }));
  // The charge commits before the (possibly slow) writes, so that the quota row is not held meanwhile.
  await inTransaction(ctx.db, async (tx) => {
    await options.gate?.(tx);
    if (files.length > options.maxFiles) throw new AppError('too_many_attachments', `At most ${options.maxFiles} files per request`);
    await chargeStorage(
      tx,
      ctx.org,
      staged.reduce((sum, upload) => sum + upload.sizeBytes, 0),
    );
    await tx.stagedUpload.createMany({ data: staged.map((upload) => ({ ...upload, orgId: ctx.org.id })) });
  });
  // A keyed request is one transaction, which may yet be undone: the objects go with it.
  if (isTransaction(ctx.db)) afterRollback(ctx.db, () => Promise.all(staged.map((upload) => fileStorage().delete(upload.storageKey))));
  try {
    await Promise.all(files.map((file, index) => fileStorage().putFile(staged[index]!.storageKey, file.path)));
  } catch (error) {
    await inTransaction(ctx.db, async (tx) => {
      await tx.stagedUpload.deleteMany({ where: { storageKey: { in: staged.map((upload) => upload.storageKey) } } });
      await releaseObjects(tx, ctx.org.id, staged);
    });
    throw error;
  }
  return { items: staged.map(({ storageKey, ...meta }) => ({ key: storageKey, ...meta })) };
}

/**
 * Takes the rows of the staged uploads about to be committed: each ends exactly once, here or in
 * the sweep, and its quota charge passes to the attachment. A key committed before (as a step's or
 * a result's attachment) answers 409 staging_already_committed; one with no row (never staged,
 * swept, taken meanwhile, another organization's) 404.
 */
export async function claimStaged(tx: Db, ctx: RequestContext, keys: string[]): Promise<Map<string, StagedUploadRow>> {
  if (keys.length === 0) return new Map();
  if (keys.some((key) => !key.startsWith(`${STAGING_PREFIX}/${ctx.org.id}/`))) throw notFound('Staged attachment');
  const where = { stagedKey: { in: keys } };
  const committed =
    (await tx.stepAttachment.findFirst({ where, select: { stagedKey: true } })) ??
    (await tx.resultAttachment.findFirst({ where, select: { stagedKey: true } }));
  if (committed) {
    throw new AppError('staging_already_committed', `The staged upload ${committed.stagedKey} was already committed`);
  }
  const rows = await tx.stagedUpload.findMany({ where: { storageKey: { in: keys } } });
  const { count } = await tx.stagedUpload.deleteMany({ where: { storageKey: { in: keys } } });
  if (rows.length !== keys.length || count !== keys.length) throw notFound('Staged attachment');
  return new Map(rows.map((row) => [row.storageKey, row]));
}

/**
 * Copies a claimed staged upload to `storageKey`, within the storage: the copy is removed if `tx`
 * rolls back, the staged object once it committed.
 */
export async function copyStaged(tx: Db, staged: StagedUploadRow, storageKey: string): Promise<void> {
  if (!(await fileStorage().copy(staged.storageKey, storageKey))) throw notFound('Staged attachment');
  afterRollback(tx, () => fileStorage().delete(storageKey));
  afterCommit(tx, () => fileStorage().delete(staged.storageKey));
}

/**
 * Ends the staged uploads nobody committed within a day: their rows go and their bytes are given
 * back in one transaction (a row ends once, whichever process sweeps), then their objects. Objects
 * left without a row (a commit's staged copy whose removal failed …) go by age alone.
 */
export async function sweepStagedUploads(client: Db, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - STAGING_TTL_MS);
  await inTransaction(client, async (tx) => {
    const swept = await queryRaw<Array<{ orgId: string; storageKey: string; sizeBytes: number }>>(
      tx,
      sql`
      DELETE FROM staged_uploads WHERE created_at < ${cutoff}
      RETURNING org_id AS "orgId", storage_key AS "storageKey", size_bytes AS "sizeBytes"`,
    );
    for (const orgId of [...new Set(swept.map((row) => row.orgId))].sort()) {
      await releaseObjects(
        tx,
        orgId,
        swept.filter((row) => row.orgId === orgId),
      );
    }
  });
  const storage = fileStorage();
  for await (const object of storage.list(`${STAGING_PREFIX}/`)) {
    if (object.lastModified < cutoff) await storage.delete(object.key);
  }
}
