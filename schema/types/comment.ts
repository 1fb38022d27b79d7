import { createCommentBodySchema, updateCommentBodySchema } from '../../src/comments/comments.schemas.ts';
import {
  addComment,
  type Commentable,
  countComments,
  deleteComment,
  findComments,
  setCommentPinned,
  testCaseComments,
  updateComment,
} from '../../src/comments/comments.service.ts';
import { defectComments } from '../../src/defects/defect-comments.service.ts';
import { toAuthor } from '../../src/foundation/actors.ts';
import { validationFailed } from '../../src/kernel/errors.ts';
import { validate } from '../../src/kernel/validation.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

type AuthorShape = ReturnType<typeof toAuthor>;

/** Who wrote a record, snapshotted when it was written: a user or an API token. */
export const Author = builder.objectRef<AuthorShape>('Author').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'user or api_token' }),
    ulid: t.string({ nullable: true, description: 'Null once the user or token is deleted', resolve: (author) => author.ulid }),
    displayName: t.string({
      nullable: true,
      description: "A user's display name (null for tokens)",
      resolve: (author) => (author.kind === 'user' ? author.displayName : null),
    }),
    name: t.string({
      nullable: true,
      description: "A token's name (null for users)",
      resolve: (author) => (author.kind === 'api_token' ? author.name : null),
    }),
    avatarKey: t.string({ nullable: true, resolve: (author) => (author.kind === 'user' ? author.avatarKey : null) }),
  }),
});

builder.prismaObject('Comment', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    body: t.exposeString('body'),
    parentUlid: t.exposeString('parentId', { nullable: true, description: 'The top-level comment this one replies to' }),
    pinnedAt: t.expose('pinnedAt', { type: 'Timestamp', nullable: true }),
    author: t.field({
      type: Author,
      select: { authorKind: true, authorId: true, authorName: true, authorAvatarKey: true },
      resolve: (comment) => toAuthor(comment),
    }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('TestCase', 'comments', (t) =>
  t.prismaConnection(
    {
      type: 'Comment',
      cursor: 'id',
      description: 'Flat: pinned comments first (most recently pinned first), then oldest first; replies carry parentUlid',
      authScopes: { member: true },
      resolve: (query, testCase, _args, context) => findComments(requestOf(context), testCaseComments, testCase, query),
      totalCount: (testCase, _args, context) => countComments(requestOf(context), testCaseComments, testCase),
    },
    {},
    {},
  ),
);

const AddCommentInput = builder.inputType('AddCommentInput', {
  fields: (t) => ({
    body: t.string({ required: true }),
    parentUlid: t.string({ description: 'Reply to this comment; a reply to a reply joins its top-level thread' }),
  }),
});

type OwnerArgs = { caseUlid?: string | null; defectUlid?: string | null };

/** The commented record a mutation names: exactly one of caseUlid and defectUlid. */
function ownerOf({ caseUlid, defectUlid }: OwnerArgs): [Commentable, string] {
  if (caseUlid && !defectUlid) return [testCaseComments, caseUlid];
  if (defectUlid && !caseUlid) return [defectComments, defectUlid];
  throw validationFailed('Name exactly one of caseUlid and defectUlid', { path: ['caseUlid'] });
}

builder.mutationFields((t) => {
  const owner = () => ({
    caseUlid: t.arg.string({ description: 'The test case commented on (or defectUlid)' }),
    defectUlid: t.arg.string({ description: 'The defect commented on (or caseUlid)' }),
  });
  const target = () => ({ ...owner(), commentUlid: t.arg.string({ required: true }) });
  const pin = (pinned: boolean) =>
    t.prismaField({
      type: 'Comment',
      description: pinned
        ? 'Pins a top-level comment (a reply: validation_failed); pinning a pinned one changes nothing'
        : 'Unpins a top-level comment; unpinning an unpinned one changes nothing',
      authScopes: { member: true },
      args: target(),
      resolve: (_query, _root, args, context) => setCommentPinned(requestOf(context), ...ownerOf(args), args.commentUlid, pinned),
    });
  return {
    addComment: t.prismaField({
      type: 'Comment',
      description: 'Comments on a test case or a defect, or replies to one of its comments',
      authScopes: { member: true },
      args: { ...owner(), input: t.arg({ type: AddCommentInput, required: true }) },
      resolve: (_query, _root, args, context) =>
        addComment(requestOf(context), ...ownerOf(args), validate(createCommentBodySchema, args.input)),
    }),
    updateComment: t.prismaField({
      type: 'Comment',
      description: 'Edits the body (the author only)',
      authScopes: { member: true },
      args: { ...target(), body: t.arg.string({ required: true }) },
      resolve: (_query, _root, args, context) =>
        updateComment(requestOf(context), ...ownerOf(args), args.commentUlid, validate(updateCommentBodySchema, { body: args.body })),
    }),
    deleteComment: t.boolean({
      description: 'Deletes a comment and its replies (the author, an owner or an admin)',
      authScopes: { member: true },
      args: target(),
      resolve: async (_root, args, context) => {
        await deleteComment(requestOf(context), ...ownerOf(args), args.commentUlid);
        return true;
      },
    }),
    pinComment: pin(true),
    unpinComment: pin(false),
  };
});
