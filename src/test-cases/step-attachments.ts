import type { RequestContext } from '../context.ts';
import type { Db } from '../database/client.ts';
import { afterCommit, afterRollback } from '../database/transactions.ts';
import { AppError, notFound, validationFailed } from '../errors.ts';
import { newId } from '../ids.ts';
import { fileStorage } from '../storage/file-storage.ts';
import { ATTACHMENTS_PER_STEP, type AttachmentRef } from './attachments.schemas.ts';

/** Staged objects nobody committed are swept after this long. */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

export const STAGING_PREFIX = 'staging';
export const stagingKeyOf = (orgId: string) => `${STAGING_PREFIX}/${orgId}/${newId()}`;
/** Name, type and size of a staged upload live beside it until it is committed. */
export const metaKeyOf = (key: string) => `${key}.meta.json`;
export type StagedMeta = { fileName: string; contentType: string; sizeBytes: number };

type AttachmentRow = Awaited<ReturnType<Db['stepAttachment']['findFirstOrThrow']>>;

export const toStepAttachment = (row: AttachmentRow) => ({
  ulid: row.id,
  fileName: row.fileName,
  contentType: row.contentType,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt.getTime(),
});

/** Files `tx` stopped referencing are removed once it committed; nothing a committed row points at. */
const releaseAfterCommit = (tx: Db, keys: string[]) =>
  afterCommit(tx, () => Promise.all(keys.map((key) => fileStorage().delete(key))));

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
  if (stagedKeys.some((key) => !key.startsWith(`${STAGING_PREFIX}/${ctx.org.id}/`))) throw notFound('Staged attachment');
  if (stagedKeys.length > 0) {
    const committed = await tx.stepAttachment.findFirst({ where: { stagedKey: { in: stagedKeys } }, select: { stagedKey: true } });
    if (committed) {
      throw new AppError('staging_already_committed', `The staged upload ${committed.stagedKey} was already committed`);
    }
  }

  const dropped = await tx.stepAttachment.findMany({
    where: { stepId: { in: steps.map((step) => step.stepId) }, id: { notIn: keptIds } },
    select: { id: true, storageKey: true },
  });
  if (dropped.length > 0) {
    await tx.stepAttachment.deleteMany({ where: { id: { in: dropped.map((row) => row.id) } } });
    releaseAfterCommit(tx, dropped.map((row) => row.storageKey));
  }

  for (const { stepId, refs: stepRefs } of steps) {
    for (const [position, ref] of stepRefs.entries()) {
      if ('ulid' in ref) {
        await tx.stepAttachment.update({ where: { id: ref.ulid }, data: { stepId, position } });
      } else {
        await commitStaged(tx, ctx, { caseId, stepId }, ref.key, position);
      }
    }
  }
}

/** Copies a staged upload to its committed key and records it (the staged copy goes after commit). */
async function commitStaged(
  tx: Db,
  ctx: RequestContext,
  target: { caseId: string; stepId: string },
  stagedKey: string,
  position: number,
): Promise<void> {
  const [data, metaBytes] = await Promise.all([fileStorage().get(stagedKey), fileStorage().get(metaKeyOf(stagedKey))]);
  if (!data || !metaBytes) throw notFound('Staged attachment');
  const meta = JSON.parse(metaBytes.toString('utf8')) as StagedMeta;
  const id = newId();
  const storageKey = `attachments/${ctx.org.id}/${target.caseId}/${id}`;
  await fileStorage().put(storageKey, data);
  afterRollback(tx, () => fileStorage().delete(storageKey));
  await tx.stepAttachment.create({
    data: { id, orgId: ctx.org.id, ...target, stagedKey, storageKey, position, ...meta },
  });
  releaseAfterCommit(tx, [stagedKey, metaKeyOf(stagedKey)]);
}

/** Call before deleting steps (or their case): their files go once the deletion commits. */
export async function releaseAttachmentsOf(tx: Db, where: { stepIds?: string[]; caseId?: string }): Promise<void> {
  const rows = await tx.stepAttachment.findMany({
    where: where.caseId ? { caseId: where.caseId } : { stepId: { in: where.stepIds ?? [] } },
    select: { storageKey: true },
  });
  releaseAfterCommit(tx, rows.map((row) => row.storageKey));
}
