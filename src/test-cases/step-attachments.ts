import type { RequestContext } from '../foundation/context.ts';
import { claimStaged, copyStaged, type StagedUploadRow } from '../foundation/storage/staged-uploads.ts';
import { releaseObjects } from '../foundation/storage/storage.service.ts';
import type { Db } from '../kernel/database/client.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { ATTACHMENTS_PER_STEP, type AttachmentRef } from './attachments.schemas.ts';

type AttachmentRow = Awaited<ReturnType<Db['stepAttachment']['findFirstOrThrow']>>;

export const toStepAttachment = (row: AttachmentRow) => ({
  ulid: row.id,
  fileName: row.fileName,
  contentType: row.contentType,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt.getTime(),
});

/**
 * Makes each listed step's `refs` its attachments, in order: `{ ulid }` keeps (or moves here) an
 * attachment of the same case, `{ key }` commits a staged upload of this organization, and the
 * listed steps' attachments referenced nowhere are removed. Steps not listed keep theirs. A key
 * that was committed before answers 409 staging_already_committed; one that names nothing
 * (never staged, swept, another tenant's) 404. Everything is checked before anything is written.
 */
export async function setStepAttachments(
  tx: Db,
  ctx: RequestContext,
  caseId: string,
  steps: Array<{ stepId: string; refs: AttachmentRef[] }>,
): Promise<void> {
  if (steps.length === 0) return;
  const refs = steps.flatMap((step) => step.refs);
  if (steps.some((step) => step.refs.length > ATTACHMENTS_PER_STEP)) {
    throw new AppError('too_many_attachments', `A step holds at most ${ATTACHMENTS_PER_STEP} attachments`);
  }
  const keptIds = refs.flatMap((ref) => ('ulid' in ref ? [ref.ulid] : []));
  const stagedKeys = refs.flatMap((ref) => ('key' in ref ? [ref.key] : []));
  if (new Set(keptIds).size !== keptIds.length || new Set(stagedKeys).size !== stagedKeys.length) {
    throw validationFailed('An attachment is listed twice', { path: ['steps'] });
  }
  if (keptIds.length > 0) {
    const kept = await tx.stepAttachment.findMany({ where: { id: { in: keptIds }, caseId }, select: { id: true } });
    if (kept.length !== keptIds.length) throw notFound('Step attachment');
  }
  const staged = await claimStaged(tx, ctx, stagedKeys);

  const dropped = await tx.stepAttachment.findMany({
    where: { stepId: { in: steps.map((step) => step.stepId) }, id: { notIn: keptIds } },
    select: { id: true, storageKey: true, sizeBytes: true },
  });
  await deleteAttachmentRows(tx, ctx.org.id, dropped);

  for (const { stepId, refs: stepRefs } of steps) {
    for (const [position, ref] of stepRefs.entries()) {
      if ('ulid' in ref) {
        await tx.stepAttachment.update({ where: { id: ref.ulid }, data: { stepId, position } });
      } else {
        await commitStaged(tx, ctx, { caseId, stepId }, staged.get(ref.key)!, position);
      }
    }
  }
}

/** Copies a staged upload to its committed key, within the storage, and records it (the staged copy goes after commit). */
async function commitStaged(
  tx: Db,
  ctx: RequestContext,
  target: { caseId: string; stepId: string },
  staged: StagedUploadRow,
  position: number,
): Promise<void> {
  const id = newId();
  const storageKey = `attachments/${ctx.org.id}/${target.caseId}/${id}`;
  await copyStaged(tx, staged, storageKey);
  const { fileName, contentType, sizeBytes } = staged;
  await tx.stepAttachment.create({
    data: { id, orgId: ctx.org.id, ...target, stagedKey: staged.storageKey, storageKey, position, fileName, contentType, sizeBytes },
  });
}

/**
 * Deletes attachment rows read earlier in `tx`: their bytes are given back, their files go once it
 * committed. Under the case's lock only a project's deletion can have removed one meanwhile; then
 * nothing is given back twice: 404.
 */
export async function deleteAttachmentRows(
  tx: Db,
  orgId: string,
  rows: Array<{ id: string; storageKey: string; sizeBytes: number }>,
): Promise<void> {
  if (rows.length === 0) return;
  const { count } = await tx.stepAttachment.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
  if (count !== rows.length) throw notFound('Step attachment');
  await releaseObjects(tx, orgId, rows);
}

/** Call before deleting steps (or their case): their attachments go first, see deleteAttachmentRows. */
export async function releaseAttachmentsOf(tx: Db, where: { stepIds?: string[]; caseId?: string }): Promise<void> {
  const rows = await tx.stepAttachment.findMany({
    where: where.caseId ? { caseId: where.caseId } : { stepId: { in: where.stepIds ?? [] } },
    select: { id: true, orgId: true, storageKey: true, sizeBytes: true },
  });
  if (rows.length > 0) await deleteAttachmentRows(tx, rows[0]!.orgId, rows);
}
