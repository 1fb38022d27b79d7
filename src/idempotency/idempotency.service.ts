import { prisma } from '../database/client.ts';
import { AppError } from '../errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
// An execution still unfinished after this long belonged to a process that died; its key is freed.
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export type StoredResponse = { status: number; headers: Record<string, string>; body: string | null };

export type IdempotencyClaim = { kind: 'execute' } | { kind: 'replay'; response: StoredResponse };

/** Header `Idempotency-Key`: non-empty, at most 255 visible ASCII characters, else 400. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!VISIBLE_ASCII.test(header)) {
    throw new AppError('validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      status: 400,
      details: { code: 'invalid_idempotency_key', path: ['Idempotency-Key'] },
    });
  }
  return header;
}

/**
 * Claims `key` for one execution of the request whose fingerprint is `requestHash`. The claim
 * is a row inserted under a primary key, so across processes exactly one request executes; the
 * others replay its stored response, or wait (409) while it is still in flight.
 */
export async function claimIdempotencyKey(principal: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  for (;;) {
    const { count } = await prisma().idempotencyKey.createMany({
      data: [{ principal, key, requestHash }],
      skipDuplicates: true,
    });
    if (count === 1) return { kind: 'execute' };

    const existing = await prisma().idempotencyKey.findUnique({ where: { principal_key: { principal, key } } });
    if (!existing) continue;
    const age = Date.now() - existing.createdAt.getTime();
    const abandoned = existing.completedAt === null && age > ABANDONED_AFTER_MS;
    if (age > IDEMPOTENCY_RETENTION_MS || abandoned) {
      await prisma().idempotencyKey.deleteMany({ where: { principal, key, createdAt: existing.createdAt } });
      continue;
    }
    if (existing.requestHash !== requestHash) {
      throw new AppError('validation_failed', 'This Idempotency-Key was used for a different request', {
        details: { code: 'idempotency_key_reused' },
      });
    }
    if (existing.completedAt === null || existing.responseStatus === null) {
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in flight', {
        headers: { 'Retry-After': String(IN_FLIGHT_RETRY_AFTER_SECONDS) },
      });
    }
    return {
      kind: 'replay',
      response: {
        status: existing.responseStatus,
        headers: (existing.responseHeaders ?? {}) as Record<string, string>,
        body: existing.responseBody,
      },
    };
  }
}

export async function completeIdempotencyKey(principal: string, key: string, response: StoredResponse): Promise<void> {
  await prisma().idempotencyKey.updateMany({
    where: { principal, key, completedAt: null },
    data: {
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
      completedAt: new Date(),
    },
  });
}

/** Frees a key whose execution failed unexpectedly, so that a retry executes again. */
export async function releaseIdempotencyKey(principal: string, key: string): Promise<void> {
  await prisma().idempotencyKey.deleteMany({ where: { principal, key, completedAt: null } });
}
