import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { type Db, prisma } from '../../kernel/database/client.ts';
import { executeRaw, queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { AppError } from '../../kernel/errors.ts';
import { sha256 } from '../../kernel/secrets.ts';
import type { RequestContext } from '../context.ts';

/**
 * The budgets calls are counted against, each in fixed windows of its own: an organization's
 * per-minute API ceiling (contract §2) and audit exports per hour; a user's verification mails
 * per hour (contract §18); an MCP client's tool calls per second, per token, and OAuth client
 * registrations per address and hour (contract §16); a client address's requests to the public
 * share routes per minute (contract §15); invitation mails per hour, from one organization to one
 * address and to one address from every organization (contract §8); failed sign-ins per 15
 * minutes per account address and client address together, and per hour per client address
 * (contract §1); password reset requests per hour, per account address and per client address
 * (contract §19).
 */
export const BUCKETS = {
  requests: { windowMs: 60_000 },
  mcp_tool_calls: { windowMs: 1_000 },
  audit_export: { windowMs: 3_600_000 },
  verification_mail: { windowMs: 3_600_000 },
  public_share: { windowMs: 60_000 },
  oauth_registration: { windowMs: 3_600_000 },
  invitation_mail_from_org: { windowMs: 3_600_000 },
  invitation_mail_to_address: { windowMs: 3_600_000 },
  sign_in: { windowMs: 15 * 60_000 },
  sign_in_ip: { windowMs: 3_600_000 },
  password_reset_to_address: { windowMs: 3_600_000 },
  password_reset_from_client: { windowMs: 3_600_000 },
} as const;
export type Bucket = keyof typeof BUCKETS;

export type RateLimitState = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the current fixed window rolls. */
  resetAt: number;
  retryAfterSeconds: number;
};

const windowStartOf = (bucket: Bucket, now: number) => Math.floor(now / BUCKETS[bucket].windowMs) * BUCKETS[bucket].windowMs;

/**
 * The upsert that counts one call of `bucket`, in the window of `now`, for each owner the query
 * `owners` selects (as its `owner` column), returning each window's `owner` and `count`. The counter
 * is one row per owner, bucket and fixed window, bumped by this single statement, so it stays exact
 * however many processes share the database. A statement may embed it as a data-modifying CTE.
 */
export const countCallStatement = (owners: Prisma.Sql, bucket: Bucket, now: number) => sql`
  INSERT INTO rate_limit_windows (org_id, bucket, window_start, count)
  SELECT owners.owner, ${bucket}, ${new Date(windowStartOf(bucket, now))}, 1 FROM (${owners}) AS owners
  ON CONFLICT (org_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
  RETURNING org_id AS owner, count`;

/** Where a budget of `limit` stands after the call of `now` brought its window's count to `count`. */
export function budgetState(bucket: Bucket, limit: number, count: number, now: number): RateLimitState {
  const resetAt = windowStartOf(bucket, now) + BUCKETS[bucket].windowMs;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

/**
 * Counts one call against the `limit` of `bucket` for each of the distinct `owners`, in one
 * statement on `db` (inside a transaction, the counts stand or fall with it), and answers each
 * owner's state in the order given. An owner is an organization, a user's ULID, or another
 * 26-character key (the column holds any; no foreign key). The rows are bumped in the order of
 * their keys, so that two transactions counting overlapping owners lock them in the same order
 * and cannot deadlock.
 */
export async function consumeCalls(db: Db, owners: string[], bucket: Bucket, limit: number, now = Date.now()): Promise<RateLimitState[]> {
  const inKeyOrder = sql`SELECT owner FROM unnest(${owners}::text[]) AS owner ORDER BY owner`;
  const rows = await queryRaw<Array<{ owner: string; count: number }>>(db, countCallStatement(inKeyOrder, bucket, now));
  const countOf = new Map(rows.map((row) => [row.owner, Number(row.count)]));
  return owners.map((owner) => budgetState(bucket, limit, countOf.get(owner) ?? 1, now));
}

/**
 * Gives back a call `consumeCalls` counted at `now` for each of `owners` (the window of that
 * moment, so that a refund never reaches the next window), or with `forget` drops their windows'
 * counts altogether.
 */
export async function refundCalls(
  db: Db,
  owners: string[],
  bucket: Bucket,
  now: number,
  options: { forget?: boolean } = {},
): Promise<void> {
  const windowStart = new Date(windowStartOf(bucket, now));
  const where = sql`org_id = ANY(${owners}::text[]) AND bucket = ${bucket} AND window_start = ${windowStart}`;
  await queryRaw(
    db,
    options.forget
      ? sql`DELETE FROM rate_limit_windows WHERE ${where}`
      : sql`UPDATE rate_limit_windows SET count = count - 1 WHERE ${where}`,
  );
}

/**
 * Drops every window of `bucket`, current or past, of each of `owners` that counts a call (a window
 * refunds brought to zero counts none and is left to the sweep); answers how many it dropped.
 */
export const forgetOwners = (db: Db, owners: string[], bucket: Bucket): Promise<number> =>
  executeRaw(db, sql`DELETE FROM rate_limit_windows WHERE org_id = ANY(${owners}::text[]) AND bucket = ${bucket} AND count > 0`);

/** Counts one call against the `limit` of `bucket` for `orgId` (any owner, as for `consumeCalls`). */
export async function consumeCall(
  orgId: string,
  bucket: Bucket,
  limit: number,
  now = Date.now(),
  db: Db = prisma(),
): Promise<RateLimitState> {
  const [state] = await consumeCalls(db, [orgId], bucket, limit, now);
  return state!;
}

/** The 429 of a budget that `state` found spent, with its Retry-After (and any further `details`). */
export const budgetSpent = (state: RateLimitState, message: string, details: Record<string, unknown> = {}) =>
  new AppError('too_many_requests', message, { ...details, retryAfterSeconds: state.retryAfterSeconds });

/**
 * The owner key of a budget kept for something that must not be stored as it is (a client
 * address, a mail address): 26 characters of a digest of the bucket and the identifying values.
 */
export const digestKey = (bucket: Bucket, ...identifiers: string[]) => sha256([bucket, ...identifiers].join(':')).slice(0, 26);

/** Which of the two values a pair key (`digestPairKey`) is digested from. */
export type PairHalf = 'first' | 'second';
const HALF_KEY_LENGTH = 13;
const halfKey = (bucket: Bucket, half: PairHalf, value: string) => digestKey(bucket, half, value).slice(0, HALF_KEY_LENGTH);

/**
 * The owner key of a budget kept for a pair of values that must not be stored as they are (an
 * account address and a client address): a digest of each, 13 characters apiece (52 bits, ample
 * against collisions), side by side, so that `forgetPairsWith` finds every pair of one value.
 */
export const digestPairKey = (bucket: Bucket, first: string, second: string) =>
  halfKey(bucket, 'first', first) + halfKey(bucket, 'second', second);

/** Drops every window of `bucket` whose pair key has `value` as its `half`, as `forgetOwners` drops an owner's. */
export function forgetPairsWith(db: Db, bucket: Bucket, half: PairHalf, value: string): Promise<number> {
  // A digest is hexadecimal: it holds neither of LIKE's wildcards.
  const key = halfKey(bucket, half, value);
  const pattern = half === 'first' ? `${key}%` : `%${key}`;
  return executeRaw(db, sql`DELETE FROM rate_limit_windows WHERE bucket = ${bucket} AND org_id LIKE ${pattern} AND count > 0`);
}

/** Counts one machine-authenticated request against the organization's per-minute ceiling. */
export const consumeRequest = (ctx: RequestContext, now = Date.now()) =>
  consumeCall(ctx.org.id, 'requests', ctx.org.limits.requestsPerMinute, now);

/** Counts one call of a client address against `bucket`, keyed by a digest: addresses are never stored. */
export const consumeAddressCall = (ip: string, bucket: Bucket, limit: number) => consumeCall(digestKey(bucket, ip), bucket, limit);

/** The MCP burst limit (contract §16): tool calls per second per token. */
export const MCP_TOOL_CALLS_PER_SECOND = 10;

/** Counts one MCP tool call against the burst limit of the token (or OAuth grant) `credentialId`. */
export const consumeToolCall = (credentialId: string, now = Date.now()) =>
  consumeCall(credentialId, 'mcp_tool_calls', MCP_TOOL_CALLS_PER_SECOND, now);
