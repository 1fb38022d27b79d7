import { z } from 'zod';
import {
  commentListQuerySchema,
  commentPageSchema,
  commentSchema,
  createCommentBodySchema,
  updateCommentBodySchema,
} from '../../src/comments/comments.schemas.ts';
import {
  addComment,
  type Commentable,
  deleteComment,
  listComments,
  setCommentPinned,
  testCaseComments,
  toComment,
  updateComment,
} from '../../src/comments/comments.service.ts';
import { defectComments } from '../../src/defects/defect-comments.service.ts';
import { defineRoute, Reply } from '../route.ts';

/** Where the comments of one kind of owner live in the URL space, and how operations are named. */
type CommentedResource = {
  commentable: Commentable;
  /** The collection segment: `/test-cases/{caseUlid}/comments`. */
  collection: string;
  param: string;
  /** The noun of operationIds (`listTestCaseComments`) and of summaries. */
  operationNoun: string;
  noun: string;
};

/** The six comment routes of one commentable resource: every owner's comments behave alike. */
function commentRoutesOf({ commentable, collection, param, operationNoun, noun }: CommentedResource) {
  const base = `/${collection}/{${param}}/comments`;
  const ownerPath = z.object({ [param]: z.string() });
  const commentPath = z.object({ [param]: z.string(), commentUlid: z.string() });
  const ownerOf = (params: unknown) => (params as Record<string, string>)[param]!;
  const commentOf = (params: unknown) => (params as { commentUlid: string }).commentUlid;
  const common = { tag: 'Comments', auth: 'org' as const, errors: [403, 404] };

  const pinRoute = (pinned: boolean) =>
    defineRoute({
      ...common,
      method: 'post',
      path: `${base}/{commentUlid}/${pinned ? 'pin' : 'unpin'}`,
      operationId: `${pinned ? 'pin' : 'unpin'}${operationNoun}Comment`,
      summary: pinned
        ? 'Pin a top-level comment (already pinned: 200, no event; a reply: 422)'
        : 'Unpin a top-level comment (not pinned: 200, no event; a reply: 422)',
      params: commentPath,
      success: { status: 200, description: 'The comment', schema: commentSchema },
      handle: async ({ ctx, params }) => toComment(await setCommentPinned(ctx, commentable, ownerOf(params), commentOf(params), pinned)),
    });

  return [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      operationId: `list${operationNoun}Comments`,
      summary: `Comments of a ${noun}: pinned first, then oldest first; replies carry parentUlid`,
      params: ownerPath,
      query: commentListQuerySchema,
      success: { status: 200, description: 'A page of comments', schema: commentPageSchema },
      handle: async ({ ctx, params, query }) => {
        const page = await listComments(ctx, commentable, ownerOf(params), query);
        return { ...page, items: page.items.map(toComment) };
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: base,
      operationId: `create${operationNoun}Comment`,
      summary: `Comment on a ${noun}, or reply to one of its comments`,
      params: ownerPath,
      body: createCommentBodySchema,
      success: { status: 201, description: 'The comment', schema: commentSchema },
      handle: async ({ ctx, params, body }) => toComment(await addComment(ctx, commentable, ownerOf(params), body)),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: `${base}/{commentUlid}`,
      operationId: `update${operationNoun}Comment`,
      summary: 'Edit a comment (its author only)',
      params: commentPath,
      body: updateCommentBodySchema,
      success: { status: 200, description: 'The comment', schema: commentSchema },
      handle: async ({ ctx, params, body }) => toComment(await updateComment(ctx, commentable, ownerOf(params), commentOf(params), body)),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: `${base}/{commentUlid}`,
      operationId: `delete${operationNoun}Comment`,
      summary: 'Delete a comment and its replies (its author, an owner or an admin)',
      params: commentPath,
      success: { status: 204, description: 'Deleted' },
      handle: async ({ ctx, params }) => {
        await deleteComment(ctx, commentable, ownerOf(params), commentOf(params));
        return new Reply(204, undefined);
      },
    }),
    pinRoute(true),
    pinRoute(false),
  ];
}

export const commentRoutes = [
  ...commentRoutesOf({
    commentable: testCaseComments,
    collection: 'test-cases',
    param: 'caseUlid',
    operationNoun: 'TestCase',
    noun: 'test case',
  }),
  ...commentRoutesOf({ commentable: defectComments, collection: 'defects', param: 'defectUlid', operationNoun: 'Defect', noun: 'defect' }),
];
