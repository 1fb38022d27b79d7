import {
  caseCommentPathSchema,
  caseCommentsPathSchema,
  commentListQuerySchema,
  commentPageSchema,
  commentSchema,
  createCommentBodySchema,
  updateCommentBodySchema,
} from '../../src/comments/comments.schemas.ts';
import {
  addComment,
  deleteComment,
  listComments,
  setCommentPinned,
  testCaseComments,
  toComment,
  updateComment,
} from '../../src/comments/comments.service.ts';
import { defineRoute, Reply } from '../route.ts';

const pinRoute = (pinned: boolean) =>
  defineRoute({
    method: 'post',
    path: `/test-cases/{caseUlid}/comments/{commentUlid}/${pinned ? 'pin' : 'unpin'}`,
    operationId: pinned ? 'pinTestCaseComment' : 'unpinTestCaseComment',
    summary: pinned
      ? 'Pin a top-level comment (already pinned: 200, no event; a reply: 422)'
      : 'Unpin a top-level comment (not pinned: 200, no event; a reply: 422)',
    tag: 'Comments',
    auth: 'org',
    params: caseCommentPathSchema,
    success: { status: 200, description: 'The comment', schema: commentSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) =>
      toComment(await setCommentPinned(ctx, testCaseComments, params.caseUlid, params.commentUlid, pinned)),
  });

export const commentRoutes = [
  defineRoute({
    method: 'get',
    path: '/test-cases/{caseUlid}/comments',
    operationId: 'listTestCaseComments',
    summary: 'Comments of a test case: pinned first, then oldest first; replies carry parentUlid',
    tag: 'Comments',
    auth: 'org',
    params: caseCommentsPathSchema,
    query: commentListQuerySchema,
    success: { status: 200, description: 'A page of comments', schema: commentPageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listComments(ctx, testCaseComments, params.caseUlid, query);
      return { ...page, items: page.items.map(toComment) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/test-cases/{caseUlid}/comments',
    operationId: 'createTestCaseComment',
    summary: 'Comment on a test case, or reply to one of its comments',
    tag: 'Comments',
    auth: 'org',
    params: caseCommentsPathSchema,
    body: createCommentBodySchema,
    success: { status: 201, description: 'The comment', schema: commentSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toComment(await addComment(ctx, testCaseComments, params.caseUlid, body)),
  }),
  defineRoute({
    method: 'patch',
    path: '/test-cases/{caseUlid}/comments/{commentUlid}',
    operationId: 'updateTestCaseComment',
    summary: 'Edit a comment (its author only)',
    tag: 'Comments',
    auth: 'org',
    params: caseCommentPathSchema,
    body: updateCommentBodySchema,
    success: { status: 200, description: 'The comment', schema: commentSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) =>
      toComment(await updateComment(ctx, testCaseComments, params.caseUlid, params.commentUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/test-cases/{caseUlid}/comments/{commentUlid}',
    operationId: 'deleteTestCaseComment',
    summary: 'Delete a comment and its replies (its author, an owner or an admin)',
    tag: 'Comments',
    auth: 'org',
    params: caseCommentPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteComment(ctx, testCaseComments, params.caseUlid, params.commentUlid);
      return new Reply(204, undefined);
    },
  }),
  pinRoute(true),
  pinRoute(false),
];
