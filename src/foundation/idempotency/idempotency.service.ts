import { type Db, prisma } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { inTransaction, withSavepoint } from '../../kernel/database/transactions.ts';
import { AppError, conflict, unreadableRequest, validationFailed } from '../../kernel/errors.ts';
import type { Identity, RequestContext } from '../context.ts';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export type StoredResponse = { status: number; headers: Record<string, string>; body: string | null };

/** Header `Idempotency-Key`: non-empty, at most 255 visible ASCII characters, else 400. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!VISIBLE_ASCII.test(header)) {
    throw unreadableRequest('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      path: ['Idempotency-Key'],
    });
  }
  return header;
}

/**
 * Whose keys these are: an API token's own or an OAuth grant's own (one application, across its
 * refreshes), or a person's within the organization they act in.
 */
export function principalOf(identity: Identity, ctx: RequestContext | undefined): string {
  if (identity.kind === 'api_token') return `token:${identity.token.id}`;
  if (identity.kind === 'oauth') return `oauth:${identity.token.id}`;
  return `user:${identity.user.id}:${ctx?.org.id ?? ''}`;
}

export type IdempotentRequest = {
  principal: string;
  key: string;
  /** The request's fingerprint: the same key with another fingerprint is a reuse (422). */
  requestHash: string;
};

/**
 * Executes a request under its Idempotency-Key exactly once, even across a crash. One
 * transaction holds the whole request: a transaction-scoped advisory lock on the key (a duplicate
 * arriving meanwhile answers 409 with Retry-After), the lookup of an earlier response (replayed),
 * the request's own work, and the row keeping its response. So a request whose effects committed
 * always replays, and one that rolled back or whose process died leaves the key free at once.
 *
 * `execute` runs with the transaction as its database; an AppError it throws undoes its work
 * (a savepoint) and its rendering is kept like any answer. Anything else rolls everything back
 * and is passed on: a failure is not an answer to replay.
 */
export async function executeOnce(
  request: IdempotentRequest,
  db: Db | undefined,
  execute: (tx: Db) => Promise<StoredResponse>,
  renderError: (error: AppError) => StoredResponse,
): Promise<{ response: StoredResponse; replayed: boolean }> {
  const { principal, key, requestHash } = request;
  return inTransaction(db ?? prisma(), async (tx) => {
    const [lock] = await queryRaw<Array<{ locked: boolean }>>(
      tx,
      sql`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${`${principal}\n${key}`}, 0)) AS locked`,
    );
    if (!lock?.locked) {
      throw conflict('A request with this Idempotency-Key is still in flight', {
        code: 'idempotency_key_in_flight',
        retryAfterSeconds: IN_FLIGHT_RETRY_AFTER_SECONDS,
      });
    }
    const earlier = await tx.idempotencyKey.findUnique({ where: { principal_key: { principal, key } } });
    if (earlier && Date.now() - earlier.createdAt.getTime() <= IDEMPOTENCY_RETENTION_MS) {
      if (earlier.requestHash !== requestHash) {
        throw validationFailed('This Idempotency-Key was used for a different request', { code: 'idempotency_key_reused' });
      }
      return {
        replayed: true,
        response: {
          status: earlier.responseStatus,
          headers: earlier.responseHeaders as Record<string, string>,
          body: earlier.responseBody,
        },
      };
    }
    if (earlier) await tx.idempotencyKey.delete({ where: { principal_key: { principal, key } } });

    const response = await withSavepoint(tx, () => execute(tx)).catch((error: unknown) => {
      if (error instanceof AppError) return renderError(error);
      throw error;
    });
    await tx.idempotencyKey.create({
      data: {
        principal,
        key,
        requestHash,
        responseStatus: response.status,
        responseHeaders: response.headers,
        responseBody: response.body,
      },
    });
    return { replayed: false, response };
  });
}
