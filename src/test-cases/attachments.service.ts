import { emitAudit } from '../audit/audit.service.ts';
import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { fileStorage } from '../storage/file-storage.ts';
import type { UploadedFile } from '../storage/storage.service.ts';
import { ATTACHMENTS_PER_STEP } from './attachments.schemas.ts';
import { metaKeyOf, STAGING_PREFIX, STAGING_TTL_MS, stagingKeyOf, type StagedMeta } from './step-attachments.ts';
import { resolveTestCase } from './test-cases.service.ts';
import { afterCommit, inTransaction } from '../database/transactions.ts';

/** Stores uploads under `staging/<orgUlid>/` with no database row; saving steps that list them commits them. */
export async function stageAttachments(ctx: RequestContext, caseUlid: string, files: UploadedFile[]) {
  authorize(ctx, 'attachment.write');
  await resolveTestCase(ctx, caseUlid);
  if (files.length > ATTACHMENTS_PER_STEP) {
    throw new AppError('too_many_attachments', `At most ${ATTACHMENTS_PER_STEP} files per request`);
  }
  const items = await Promise.all(
    files.map(async (file) => {
      const key = stagingKeyOf(ctx.org.id);
      const meta: StagedMeta = {
        fileName: file.fileName || 'attachment',
        contentType: file.contentType || 'application/octet-stream',
        sizeBytes: file.buffer.length,
      };
      await fileStorage().put(key, file.buffer);
      await fileStorage().put(metaKeyOf(key), Buffer.from(JSON.stringify(meta)));
      return { key, ...meta };
    }),
  );
  return { items };
}

async function findAttachment(ctx: RequestContext, caseUlid: string, attachmentUlid: string) {
  const testCase = await resolveTestCase(ctx, caseUlid);
  const attachment = await ctx.db.stepAttachment.findFirst({ where: { id: attachmentUlid, caseId: testCase.id } });
  if (!attachment) throw notFound('Step attachment');
  return { testCase, attachment };
}

/** The bytes of one committed attachment, for any member who can read the case. */
export async function readAttachment(ctx: RequestContext, caseUlid: string, attachmentUlid: string) {
  const { attachment } = await findAttachment(ctx, caseUlid, attachmentUlid);
  const data = await fileStorage().get(attachment.storageKey);
  if (!data) throw notFound('Step attachment');
  return { data, fileName: attachment.fileName, contentType: attachment.contentType };
}

/** Removes one committed attachment; its file goes once the deletion committed. */
export async function deleteAttachment(ctx: RequestContext, caseUlid: string, attachmentUlid: string): Promise<void> {
  authorize(ctx, 'attachment.write');
  const { testCase, attachment } = await findAttachment(ctx, caseUlid, attachmentUlid);
  await inTransaction(ctx.db, async (tx) => {
      await tx.stepAttachment.delete({ where: { id: attachment.id } });
      await emitAudit(tx, ctx, {
        action: 'test_case.attachment_deleted',
        entityType: 'test_case',
        entityUlid: testCase.id,
        entityLabel: `${caseDisplayId(testCase.project.code, testCase.caseNumber)} · ${testCase.title}`,
        metadata: { attachmentUlid: attachment.id, stepUlid: attachment.stepId, fileName: attachment.fileName },
      });
      afterCommit(tx, () => fileStorage().delete(attachment.storageKey));
  });
}

/** Staged objects are never referenced by a row (a commit copies them), so age alone decides. */
export async function sweepStagedUploads(now = Date.now()): Promise<void> {
  const storage = fileStorage();
  for await (const object of storage.list(`${STAGING_PREFIX}/`)) {
    if (object.lastModified.getTime() < now - STAGING_TTL_MS) await storage.delete(object.key);
  }
}
