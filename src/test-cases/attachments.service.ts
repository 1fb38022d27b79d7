import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { fileStorage } from '../foundation/storage/file-storage.ts';
import { stageUploads } from '../foundation/storage/staged-uploads.ts';
import type { UploadedFile } from '../foundation/storage/storage.service.ts';
import type { Db } from '../kernel/database/client.ts';
import { notFound } from '../kernel/errors.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { ATTACHMENTS_PER_STEP } from './attachments.schemas.ts';
import { deleteAttachmentRows } from './step-attachments.ts';
import { inCaseTransaction, resolveTestCase } from './test-cases.service.ts';

/** Stages uploads to be committed by a save of steps that lists them (see stageUploads). */
export async function stageAttachments(ctx: RequestContext, caseUlid: string, files: UploadedFile[]) {
  authorize(ctx, 'attachment.write');
  await resolveTestCase(ctx, caseUlid);
  return stageUploads(ctx, files, { maxFiles: ATTACHMENTS_PER_STEP });
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
