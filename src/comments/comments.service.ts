import { authorColumns, toAuthor } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize, can } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { forbidden, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId } from '../kernel/ids.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { caseLabel, resolveTestCase } from '../test-cases/test-cases.service.ts';
import { type CreateCommentInput, EXCERPT_CHARACTERS, type UpdateCommentInput } from './comments.schemas.ts';

type CommentRow = Awaited<ReturnType<Db['comment']['findFirstOrThrow']>>;

export const toComment = (row: CommentRow) => ({
  ulid: row.id,
  body: row.body,
  parentUlid: row.parentId,
  pinnedAt: epochMsOrNull(row.pinnedAt),
  author: toAuthor(row),
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

/** The column of `comments` that names what a comment is about. */
type OwnerColumn = 'caseId' | 'defectId';

/** What comments hang off: found by ULID (404, 403 project_locked), with its project and audit label. */
export type CommentOwner = { id: string; projectId: string; label: string };

/**
 * Something that can be commented on (a test case, a defect). One generic service serves
 * them all: the descriptor says where the comments live and how their owner is found.
 */
export type Commentable = {
  /** The audit entity type, and the prefix of the audit actions (`test_case.commented`, `defect.commented`). */
  entityType: string;
  ownerColumn: OwnerColumn;
  resolve(ctx: RequestContext, ownerUlid: string, db: Db): Promise<CommentOwner>;
};

export const testCaseComments: Commentable = {
  entityType: 'test_case',
  ownerColumn: 'caseId',
  resolve: async (ctx, caseUlid, db) => {
    const testCase = await resolveTestCase(ctx, caseUlid, { db });
    return { id: testCase.id, projectId: testCase.projectId, label: caseLabel(testCase) };
  },
};

const ownedBy = (commentable: Commentable, owner: { id: string }) =>
  ({ [commentable.ownerColumn]: owner.id }) as Pick<Prisma.CommentWhereInput, OwnerColumn>;

/** Pinned comments first (most recently pinned first), then oldest first; replies are never pinned. */
export const COMMENT_ORDER = [
  { pinnedAt: { sort: 'desc', nulls: 'last' } },
  { createdAt: 'asc' },
  { id: 'asc' },
] satisfies Prisma.CommentOrderByWithRelationInput[];

/** The author is the same principal: the same user (session) or the same API token. */
function isAuthor(ctx: RequestContext, comment: CommentRow): boolean {
  const me = authorColumns(ctx.identity);
  return comment.authorKind === me.authorKind && comment.authorId === me.authorId;
}

/** The first 240 characters (code points, so no surrogate pair is split) of a body. */
function excerptOf(body: string) {
  const characters = Array.from(body);
  return characters.length > EXCERPT_CHARACTERS
    ? { excerpt: characters.slice(0, EXCERPT_CHARACTERS).join(''), truncated: true as const }
    : { excerpt: body };
}

type CommentAction = 'commented' | 'comment_updated' | 'comment_deleted' | 'comment_pinned' | 'comment_unpinned';

function recordCommentEvent(
  tx: Db,
  ctx: RequestContext,
  commentable: Commentable,
  owner: CommentOwner,
  action: CommentAction,
  comment: CommentRow,
) {
  const withExcerpt = action === 'commented' || action === 'comment_updated' || action === 'comment_deleted';
  return emitAudit(tx, ctx, {
    action: `${commentable.entityType}.${action}`,
    entityType: commentable.entityType,
    entityUlid: owner.id,
    entityLabel: owner.label,
    metadata: { commentUlid: comment.id, ...(withExcerpt ? excerptOf(comment.body) : {}) },
  });
}

async function findComment(db: Db, commentable: Commentable, owner: CommentOwner, commentUlid: string) {
  const comment = await db.comment.findFirst({ where: { id: commentUlid, ...ownedBy(commentable, owner) } });
  if (!comment) throw notFound('Comment');
  return comment;
}

/** A page of an owner's comments, flat (see COMMENT_ORDER); clients thread them by parentUlid. */
export async function listComments(ctx: RequestContext, commentable: Commentable, ownerUlid: string, query: PageQuery) {
  const owner = await commentable.resolve(ctx, ownerUlid, ctx.db);
  const where = ownedBy(commentable, owner);
  const [items, total] = await Promise.all([
    ctx.db.comment.findMany({ where, orderBy: COMMENT_ORDER, ...pageWindow(query) }),
    ctx.db.comment.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** An owner's comments for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findComments(
  ctx: RequestContext,
  commentable: Commentable,
  owner: { id: string },
  window: Prisma.CommentFindManyArgs,
) {
  authorize(ctx, 'project.read');
  return ctx.db.comment.findMany({ ...window, where: ownedBy(commentable, owner), orderBy: COMMENT_ORDER });
}

export async function countComments(ctx: RequestContext, commentable: Commentable, owner: { id: string }) {
  authorize(ctx, 'project.read');
  return ctx.db.comment.count({ where: ownedBy(commentable, owner) });
}

/**
 * Adds a comment, or a reply when `parentUlid` names a comment of the same owner (another
 * owner's comment: 404). Threads are one level deep: a reply to a reply joins its thread.
 */
export async function addComment(ctx: RequestContext, commentable: Commentable, ownerUlid: string, input: CreateCommentInput) {
  authorize(ctx, 'comment.write');
  return inTransaction(ctx.db, async (tx) => {
    const owner = await commentable.resolve(ctx, ownerUlid, tx);
    let parentId: string | null = null;
    if (input.parentUlid) {
      // A share lock keeps the parent from being deleted before this reply commits.
      await lockRow(tx, 'comments', input.parentUlid, { orgId: ctx.org.id, strength: 'share' });
      const parent = await findComment(tx, commentable, owner, input.parentUlid);
      parentId = parent.parentId ?? parent.id;
    }
    const created = await tx.comment.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: owner.projectId,
        ...ownedBy(commentable, owner),
        parentId,
        body: input.body,
        ...authorColumns(ctx.identity),
      } as Prisma.CommentUncheckedCreateInput,
    });
    await recordCommentEvent(tx, ctx, commentable, owner, 'commented', created);
    return created;
  });
}

/** The author edits the body; an unchanged body answers the comment and records nothing. */
export async function updateComment(
  ctx: RequestContext,
  commentable: Commentable,
  ownerUlid: string,
  commentUlid: string,
  input: UpdateCommentInput,
) {
  authorize(ctx, 'comment.write');
  return inTransaction(ctx.db, async (tx) => {
    const owner = await commentable.resolve(ctx, ownerUlid, tx);
    const comment = await findComment(tx, commentable, owner, commentUlid);
    if (!isAuthor(ctx, comment)) throw forbidden('Only the author of a comment can edit it');
    if (comment.body === input.body) return comment;
    const updated = await tx.comment.update({ where: { id: comment.id }, data: { body: input.body, updatedAt: new Date() } });
    await recordCommentEvent(tx, ctx, commentable, owner, 'comment_updated', updated);
    return updated;
  });
}

/**
 * Deletes a comment (its author, or an owner/admin) and, for a top-level comment, its replies:
 * one `comment_deleted` event per deleted comment, all in one transaction.
 */
export async function deleteComment(ctx: RequestContext, commentable: Commentable, ownerUlid: string, commentUlid: string) {
  authorize(ctx, 'comment.write');
  await inTransaction(ctx.db, async (tx) => {
    const owner = await commentable.resolve(ctx, ownerUlid, tx);
    const comment = await findComment(tx, commentable, owner, commentUlid);
    if (!isAuthor(ctx, comment) && !can(ctx, 'comment.moderate')) {
      throw forbidden('Only the author of a comment, an owner or an admin can delete it');
    }
    // Blocks new replies (they share-lock their parent) until this delete commits.
    await lockRow(tx, 'comments', comment.id, { orgId: ctx.org.id });
    const replies = await tx.comment.findMany({ where: { parentId: comment.id }, orderBy: { id: 'asc' } });
    const doomed = [comment, ...replies];
    const { count } = await tx.comment.deleteMany({ where: { id: { in: doomed.map((each) => each.id) } } });
    if (count === 0) throw notFound('Comment');
    for (const each of doomed) await recordCommentEvent(tx, ctx, commentable, owner, 'comment_deleted', each);
  });
}

/**
 * Pins or unpins a top-level comment (a reply: 422). Pinning a pinned comment, or unpinning an
 * unpinned one, answers the comment as it is and records nothing.
 */
export async function setCommentPinned(
  ctx: RequestContext,
  commentable: Commentable,
  ownerUlid: string,
  commentUlid: string,
  pinned: boolean,
) {
  authorize(ctx, 'comment.write');
  return inTransaction(ctx.db, async (tx) => {
    const owner = await commentable.resolve(ctx, ownerUlid, tx);
    const comment = await findComment(tx, commentable, owner, commentUlid);
    if (comment.parentId) {
      throw validationFailed('Replies cannot be pinned or unpinned; only top-level comments can', {
        path: ['commentUlid'],
        location: 'params',
      });
    }
    // Conditional on the current state, so that of two concurrent pins only one records an event.
    const { count } = await tx.comment.updateMany({
      where: { id: comment.id, pinnedAt: pinned ? null : { not: null } },
      data: { pinnedAt: pinned ? new Date() : null },
    });
    const current = await findComment(tx, commentable, owner, commentUlid);
    if (count > 0) await recordCommentEvent(tx, ctx, commentable, owner, pinned ? 'comment_pinned' : 'comment_unpinned', current);
    return current;
  });
}
