import { z } from 'zod';
import { authorSchema } from '../foundation/actors.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { ulidSchema } from '../kernel/validation.ts';

export const COMMENT_BODY_MAX = 10000;
/** Audit events carry the first 240 characters of a comment's body. */
export const EXCERPT_CHARACTERS = 240;

const body = z.string().min(1).max(COMMENT_BODY_MAX);

export const createCommentBodySchema = z
  .strictObject({
    body,
    parentUlid: ulidSchema
      .nullable()
      .optional()
      .meta({ description: 'Reply to this comment; a reply to a reply joins the thread of its top-level comment' }),
  })
  .meta({ id: 'CreateCommentRequest' });
export type CreateCommentInput = z.output<typeof createCommentBodySchema>;

export const updateCommentBodySchema = z.strictObject({ body }).meta({ id: 'UpdateCommentRequest' });
export type UpdateCommentInput = z.output<typeof updateCommentBodySchema>;

export const commentListQuerySchema = pageQuerySchema();

export const commentSchema = z
  .object({
    ulid: z.string(),
    body: z.string(),
    parentUlid: z.string().nullable().meta({ description: 'The top-level comment this one replies to; null for a top-level comment' }),
    pinnedAt: z.number().int().nullable(),
    author: authorSchema,
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Comment' });

export const commentPageSchema = pageSchema(commentSchema).meta({
  id: 'CommentPage',
  description: 'Flat: pinned comments first (most recently pinned first), then every comment oldest first; replies carry parentUlid',
});
