import { emitAudit } from '../audit/audit.service.ts';
import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { prisma, type Db } from '../database/client.ts';
import { afterRollback, inTransaction, isTransaction } from '../database/transactions.ts';
import { fileStorage } from '../storage/file-storage.ts';
import { chargeStorage, releaseObjects, type UploadedFile } from '../storage/storage.service.ts';
import { ATTACHMENTS_PER_STEP } from './attachments.schemas.ts';
import { deleteAttachmentRows, STAGING_PREFIX, STAGING_TTL_MS, stagingKeyOf } from './step-attachments.ts';
import { inCaseTransaction, resolveTestCase } from './test-cases.service.ts';

/**
 * Stores uploads under `staging/<orgUlid>/`, to be committed by a save of steps that lists them.
 * Their bytes are charged to the organization's quota (413 storage_quota_exceeded) before any is
 * written, each with a row of its own (name, type, size) that the commit or the sweep ends.
 */
export async function stageAttachments(ctx: RequestContext, caseUlid: string, files: UploadedFile[]) {
  authorize(ctx, 'attachment.write');
  await resolveTestCase(ctx, caseUlid);
  if (files.length > ATTACHMENTS_PER_STEP) {
    throw new AppError('too_many_attachments', `At most ${ATTACHMENTS_PER_STEP} files per request`);
  }
  const staged = files.map((file) => ({
    storageKey: stagingKeyOf(ctx.org.id),
    fileName: file.fileName || 'attachment',
    contentType: file.contentType || 'application/octet-stream',
    sizeBytes: file.sizeBytes,
  }));
  // The charge commits before the (possibly slow) writes, so that the quota row is not held meanwhile.
  await inTransaction(ctx.db, async (tx) => {
    await chargeStorage(tx, ctx.org, staged.reduce((sum, upload) => sum + upload.sizeBytes, 0));
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

async function findAttachment(db: Db, caseId: string, attachmentUlid: string) {
  const attachment = await db.stepAttachment.findFirst({ where: { id: attachmentUlid, caseId } });
  if (!attachment) throw notFound('Step attachment');
  return attachment;
}

/** The bytes of one committed attachment, for any member who can read the case. */
export async function readAttachment(ctx: RequestContext, caseUlid: string, attachmentUlid: string) {
  const testCase = await resolveTestCase(ctx, caseUlid);
  const attachment = await findAttachment(ctx.db, testCase.id, attachmentUlid);
  const data = await fileStorage().get(attachment.storageKey);
  if (!data) throw notFound('Step attachment');
  return { data, fileName: attachment.fileName, contentType: attachment.contentType };
}

/** Removes one committed attachment under its case's lock, as saves of steps do; its file goes once the deletion committed. */
export async function deleteAttachment(ctx: RequestContext, caseUlid: string, attachmentUlid: string): Promise<void> {
  authorize(ctx, 'attachment.write');
  await inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    const attachment = await findAttachment(tx, testCase.id, attachmentUlid);
    await deleteAttachmentRows(tx, ctx.org.id, [attachment]);
    await emitAudit(tx, ctx, {
      action: 'test_case.attachment_deleted',
      entityType: 'test_case',
      entityUlid: testCase.id,
      entityLabel: `${caseDisplayId(testCase.project.code, testCase.caseNumber)} · ${testCase.title}`,
      metadata: { attachmentUlid: attachment.id, stepUlid: attachment.stepId, fileName: attachment.fileName },
    });
  });
}

/**
 * Ends the staged uploads nobody committed within a day: their rows go and their bytes are given
 * back in one transaction (a row ends once, whichever process sweeps), then their objects. Objects
 * left without a row (a commit's staged copy whose removal failed …) go by age alone.
 */
export async function sweepStagedUploads(now = Date.now()): Promise<void> {
  const cutoff = new Date(now - STAGING_TTL_MS);
  await inTransaction(prisma(), async (tx) => {
    const swept = await tx.$queryRaw<Array<{ orgId: string; storageKey: string; sizeBytes: number }>>`
      DELETE FROM staged_uploads WHERE created_at < ${cutoff}
      RETURNING org_id AS "orgId", storage_key AS "storageKey", size_bytes AS "sizeBytes"`;
    for (const orgId of [...new Set(swept.map((row) => row.orgId))].sort()) {
      await releaseObjects(tx, orgId, swept.filter((row) => row.orgId === orgId));
    }
  });
  const storage = fileStorage();
  for await (const object of storage.list(`${STAGING_PREFIX}/`)) {
    if (object.lastModified < cutoff) await storage.delete(object.key);
  }
}
