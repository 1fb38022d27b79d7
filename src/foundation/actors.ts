import { z } from 'zod';
import type { Db } from '../kernel/database/client.ts';
import { notFound } from '../kernel/errors.ts';
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
  // An OAuth token authors as the user who authorized it (contract §16).
  return identity.kind === 'api_token'
    ? { authorKind: 'api_token', authorId: identity.token.id, authorName: identity.token.name, authorAvatarKey: null }
    : { authorKind: 'user', authorId: identity.user.id, authorName: displayName(identity.user), authorAvatarKey: identity.user.avatarKey };
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
    z.object({
      kind: z.literal('user'),
      ulid: z.string().nullable(),
      displayName: z.string().nullable(),
      avatarKey: z.string().nullable(),
    }),
    z.object({ kind: z.literal('api_token'), ulid: z.string().nullable(), name: z.string().nullable() }),
  ])
  .meta({ id: 'Author' });

/** A user as audit metadata names them: `{ ulid, name }`, or null (none, or no longer existing). */
export type UserRef = { ulid: string; name: string } | null;

/** `{ ulid, name }` of each user among `userIds`, in one query. */
export async function userRefs(db: Db, userIds: Array<string | null>): Promise<(id: string | null) => UserRef> {
  const wanted = [...new Set(userIds.filter((id): id is string => id !== null))];
  const users =
    wanted.length === 0
      ? []
      : await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, firstName: true, lastName: true } });
  const byId = new Map(users.map((user) => [user.id, { ulid: user.id, name: displayName(user) }]));
  return (id) => (id === null ? null : (byId.get(id) ?? null));
}

export const userRef = async (db: Db, userId: string | null): Promise<UserRef> => (await userRefs(db, [userId]))(userId);

/** The users among `userIds` who are members of the active organization (`db` is tenant-confined). */
export async function membersAmong(db: Db, userIds: Array<string | null>): Promise<Set<string>> {
  const wanted = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Set();
  const found = await db.membership.findMany({ where: { userId: { in: wanted } }, select: { userId: true } });
  return new Set(found.map((row) => row.userId));
}

/** 404 unless every user ULID is a member of the active organization. */
export async function assertMembers(db: Db, userIds: string[]): Promise<void> {
  if ((await membersAmong(db, userIds)).size !== new Set(userIds).size) throw notFound('User');
}
