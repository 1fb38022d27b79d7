import { emitAudit } from '../foundation/audit/audit.service.ts';
import { clipSnapshot } from '../foundation/audit/clip.ts';
import type { RequestContext } from '../foundation/context.ts';
import { fileStorage } from '../foundation/storage/file-storage.ts';
import { claimStaged, copyStaged, stageUploads } from '../foundation/storage/staged-uploads.ts';
import { releaseObjects, type UploadedFile } from '../foundation/storage/storage.service.ts';
import type { Db } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { ATTACHMENTS_PER_STEP } from '../test-cases/attachments.schemas.ts';
import type { RunCaseRecord } from './internal/run-case-record.ts';
import { lockRunCase, type RunOfCaseMutation } from './run-access.service.ts';
import type { CommitResultAttachmentsInput } from './run-cases.schemas.ts';
import { getRunCase, type RunCaseRef } from './run-cases.service.ts';
import { caseSnapshot, runCaseEvent, runCaseStepLabel } from './run-events.service.ts';

/** A result attempt as REST names it: within its run case, within its run. */
export type ResultRef = RunCaseRef & { resultUlid: string };

type ResultAttachmentRow = Awaited<ReturnType<Db['resultAttachment']['findFirstOrThrow']>>;

export const toResultAttachment = (row: ResultAttachmentRow) => ({
  ulid: row.id,
  resultUlid: row.resultId,
  stepUlid: row.runCaseStepId,
  fileName: row.fileName,
  contentType: row.contentType,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt.getTime(),
});

async function findResult(db: Db, runCase: { id: string; runId: string }, resultUlid: string) {
  const result = await db.testRunResult.findFirst({
    where: { id: resultUlid, runId: runCase.runId, runCaseId: runCase.id },
    select: { id: true },
  });
  if (!result) throw notFound('Result');
  return result;
}

/** The gate of a result attachment write: the case gate (lockRunCase: role, aborted and closed runs, the case), then the result. */
async function lockResult(tx: Db, ctx: RequestContext, ref: ResultRef) {
  const { run, runCase } = await lockRunCase(tx, ctx, ref, 'result.execute');
  return { run, runCase, result: await findResult(tx, runCase, ref.resultUlid) };
}

async function findAttachment(db: Db, result: { id: string }, attachmentUlid: string) {
  const attachment = await db.resultAttachment.findFirst({ where: { id: attachmentUlid, resultId: result.id } });
  if (!attachment) throw notFound('Result attachment');
  return attachment;
}

/**
 * The event of attachments committed to or deleted from one result: about the run case, or about
 * its step when they are attached at one; file names are snapshots, clipped like any.
 */
async function emitAttachmentEvent(
  tx: Db,
  ctx: RequestContext,
  action: 'run.result_attachment_committed' | 'run.result_attachment_deleted',
  run: RunOfCaseMutation,
  runCase: RunCaseRecord,
  rows: ResultAttachmentRow[],
) {
  const step = runCase.steps.find((each) => each.id === rows[0]!.runCaseStepId) ?? null;
  const attachments = rows.map((row) => {
    const fileName = clipSnapshot(row.fileName);
    return {
      ulid: row.id,
      fileName: fileName.text,
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      ...(fileName.truncated ? { truncated: true } : {}),
    };
  });
  await emitAudit(tx, ctx, {
    action,
    ...(step
      ? { entityType: 'test_run_case_step', entityUlid: step.id, entityLabel: runCaseStepLabel(run, runCase, step), runId: run.id }
      : runCaseEvent(run, runCase)),
    metadata: { ...caseSnapshot(run, runCase), stepUlid: step?.id ?? null, stepPosition: step?.position ?? null, attachments },
  });
}

/**
 * Stages uploads for a result (see stageUploads), to be committed by commitResultAttachments. The
 * run gate applies already: a viewer, an aborted run or a closed one stores nothing.
 */
export async function stageResultAttachments(ctx: RequestContext, ref: ResultRef, files: UploadedFile[]) {
  return stageUploads(ctx, files, { maxFiles: ATTACHMENTS_PER_STEP, gate: (tx) => lockResult(tx, ctx, ref) });
}

/**
 * Commits staged uploads as attachments of one result, after those it has (at most 10 in all:
 * 422 too_many_attachments), optionally at one of the case's steps; one
 * run.result_attachment_committed. A key committed before answers 409 staging_already_committed,
 * an unknown one 404, and then nothing is committed.
 */
export async function commitResultAttachments(ctx: RequestContext, ref: ResultRef, input: CommitResultAttachmentsInput) {
  return inTransaction(ctx.db, async (tx) => {
    const { run, runCase, result } = await lockResult(tx, ctx, ref);
    const step = input.stepUlid ? runCase.steps.find((each) => each.id === input.stepUlid) : null;
    if (step === undefined) throw notFound('Step');
    const keys = input.attachments.map((attachment) => attachment.key);
    if (new Set(keys).size !== keys.length) throw validationFailed('An attachment is listed twice', { path: ['attachments'] });
    const held = await tx.resultAttachment.count({ where: { resultId: result.id } });
    if (held + keys.length > ATTACHMENTS_PER_STEP) {
      throw new AppError('too_many_attachments', `A result holds at most ${ATTACHMENTS_PER_STEP} attachments`);
    }
    const staged = await claimStaged(tx, ctx, keys);
    const rows: ResultAttachmentRow[] = [];
    for (const [index, key] of keys.entries()) {
      const upload = staged.get(key)!;
      const id = newId();
      const storageKey = `attachments/${ctx.org.id}/${run.id}/${id}`;
      await copyStaged(tx, upload, storageKey);
      const { fileName, contentType, sizeBytes } = upload;
      rows.push(
        await tx.resultAttachment.create({
          data: {
            id,
            orgId: ctx.org.id,
            runId: run.id,
            resultId: result.id,
            runCaseStepId: step?.id ?? null,
            stagedKey: key,
            storageKey,
            fileName,
            contentType,
            sizeBytes,
            position: held + index,
          },
        }),
      );
    }
    await emitAttachmentEvent(tx, ctx, 'run.result_attachment_committed', run, runCase, rows);
    return { items: rows.map(toResultAttachment) };
  });
}

/** The bytes of one result attachment, for any member who can read the run. */
export async function readResultAttachment(ctx: RequestContext, ref: ResultRef & { attachmentUlid: string }) {
  const { runCase } = await getRunCase(ctx, ref);
  const attachment = await findAttachment(ctx.db, await findResult(ctx.db, runCase, ref.resultUlid), ref.attachmentUlid);
  const data = await fileStorage().get(attachment.storageKey);
  if (!data) throw notFound('Result attachment');
  return { data, fileName: attachment.fileName, contentType: attachment.contentType };
}

/**
 * Removes one result attachment under the run's lock (as run deletion takes it), so its bytes are
 * given back once: a count that falls short (a project deletion got there first) answers 404.
 */
export async function deleteResultAttachment(ctx: RequestContext, ref: ResultRef & { attachmentUlid: string }): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const { run, runCase, result } = await lockResult(tx, ctx, ref);
    const attachment = await findAttachment(tx, result, ref.attachmentUlid);
    const { count } = await tx.resultAttachment.deleteMany({ where: { id: attachment.id } });
    if (count !== 1) throw notFound('Result attachment');
    await releaseObjects(tx, ctx.org.id, [attachment]);
    await emitAttachmentEvent(tx, ctx, 'run.result_attachment_deleted', run, runCase, [attachment]);
  });
}

/** The attachments of a run case's results: by result in history order, then in their order within it. */
export async function listRunCaseAttachments(db: Db, runCase: { id: string }) {
  const rows = await db.resultAttachment.findMany({
    where: { result: { runCaseId: runCase.id } },
    orderBy: [{ result: { executedAt: 'asc' } }, { resultId: 'asc' }, { position: 'asc' }],
  });
  return rows.map(toResultAttachment);
}

/**
 * Deletes every result attachment of a run before the run goes (the cascade would not give their
 * bytes back); their files go after commit.
 */
export async function releaseRunAttachments(tx: Db, orgId: string, runId: string): Promise<void> {
  const rows = await queryRaw<Array<{ storageKey: string; sizeBytes: number }>>(
    tx,
    sql`
    DELETE FROM result_attachments WHERE org_id = ${orgId} AND run_id = ${runId}
    RETURNING storage_key AS "storageKey", size_bytes AS "sizeBytes"`,
  );
  await releaseObjects(tx, orgId, rows);
}
