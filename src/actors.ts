import { z } from 'zod';
import { displayName, type Identity } from './context.ts';

/**
 * Who authored a record (a comment, a plan, a run), snapshotted at creation so that it survives
 * renames and deletions: the columns `author_kind`, `author_id`, `author_name`, `author_avatar_key`.
 */
export type AuthorColumns = {
  authorKind: string;
  authorId: string | null;
  authorName: string | null;
  authorAvatarKey: string | null;
};

export function authorColumns(identity: Identity): AuthorColumns {
  return identity.kind === 'session'
    ? { authorKind: 'user', authorId: identity.user.id, authorName: displayName(identity.user), authorAvatarKey: identity.user.avatarKey }
    : { authorKind: 'api_token', authorId: identity.token.id, authorName: identity.token.name, authorAvatarKey: null };
}

/** The contract's `author` object: `{ kind: 'user', ulid, displayName, avatarKey }` or `{ kind: 'api_token', ulid, name }`. */
export function toAuthor(row: AuthorColumns) {
  if (row.authorKind === 'user') {
    return { kind: 'user' as const, ulid: row.authorId, displayName: row.authorName, avatarKey: row.authorAvatarKey };
  }
  return { kind: 'api_token' as const, ulid: row.authorId, name: row.authorName };
}

export const authorSchema = z
  .union([
    z.object({ kind: z.literal('user'), ulid: z.string().nullable(), displayName: z.string().nullable(), avatarKey: z.string().nullable() }),
    z.object({ kind: z.literal('api_token'), ulid: z.string().nullable(), name: z.string().nullable() }),
  ])
  .meta({ id: 'Author' });
