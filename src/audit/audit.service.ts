import { authorize } from '../auth/policy.ts';
import type { Identity, RequestContext } from '../context.ts';
import { displayName } from '../context.ts';
import type { Db, Prisma } from '../database/client.ts';
import { newId } from '../ids.ts';
import { cursorPageOf } from '../pagination.ts';
import { clipSnapshot } from './clip.ts';
import type { AuditListQuery } from './audit.schemas.ts';

export type AuditEntry = {
  action: string;
  entityType: string;
  entityUlid: string;
  entityLabel: string;
  runId?: string | null;
  metadata?: Record<string, unknown>;
};

/** The service itself as the actor of an event nobody requested (a scheduled change, its consequences). */
export const SYSTEM_ACTOR = { kind: 'system' } as const;
export type AuditActor = Identity | typeof SYSTEM_ACTOR;

/**
 * Records one audit event. Call it with the transaction that performs the mutation, so that the
 * event and the change it records commit together or not at all.
 */
export async function emitAudit(
  tx: Db,
  ctx: { identity: AuditActor; org: { id: string } },
  entry: AuditEntry,
): Promise<void> {
  const label = clipSnapshot(entry.entityLabel);
  const metadata = label.truncated ? { ...entry.metadata, truncated: true } : (entry.metadata ?? {});
  const { identity } = ctx;
  await tx.auditEvent.create({
    data: {
      id: newId(),
      orgId: ctx.org.id,
      action: entry.action,
      actorKind: identity.kind === 'session' ? 'user' : identity.kind,
      actorUserId: identity.kind === 'session' ? identity.user.id : null,
      actorTokenId: identity.kind === 'api_token' ? identity.token.id : null,
      actorEmail: identity.kind === 'session' ? identity.user.email : null,
      actorName: identity.kind === 'session' ? displayName(identity.user) : identity.kind === 'api_token' ? identity.token.name : null,
      entityType: entry.entityType,
      entityUlid: entry.entityUlid,
      entityLabel: label.text,
      runId: entry.runId ?? null,
      originRunId: entry.runId ?? null,
      metadata: metadata as Prisma.InputJsonValue,
    },
  });
}

type AuditRow = Awaited<ReturnType<Db['auditEvent']['findFirstOrThrow']>>;

/** The `actor` of AuditEventOut: a user, an API token or the system. */
export const auditActorOf = (row: AuditRow) =>
  row.actorKind === 'user'
    ? { kind: 'user' as const, ulid: row.actorUserId, email: row.actorEmail, displayName: row.actorName }
    : row.actorKind === 'api_token'
      ? { kind: 'api_token' as const, ulid: row.actorTokenId, name: row.actorName }
      : { kind: 'system' as const };

export function toAuditEventOut(row: AuditRow) {
  return {
    ulid: row.id,
    action: row.action,
    actor: auditActorOf(row),
    entityType: row.entityType,
    entityUlid: row.entityUlid,
    entityLabel: row.entityLabel,
    runUlid: row.runId,
    metadata: row.metadata as Record<string, unknown>,
    createdAt: row.createdAt.getTime(),
  };
}

/** Feeds list events newest first: ULID descending. */
export const NEWEST_FIRST = { id: 'desc' } satisfies Prisma.AuditEventOrderByWithRelationInput;

/** A page of events matching `where`, newest first, ULID-cursor paged; callers authorize. */
export async function pageOfAuditEvents(ctx: RequestContext, where: Prisma.AuditEventWhereInput, query: AuditListQuery) {
  const rows = await ctx.db.auditEvent.findMany({
    where: { ...where, ...(query.cursor ? { id: { lt: query.cursor } } : {}) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  const page = cursorPageOf(rows, query.limit);
  return { events: page.items.map(toAuditEventOut), nextCursor: page.nextCursor };
}

/** The organization's audit feed (owner/admin). */
export async function listOrganizationAuditEvents(ctx: RequestContext, query: AuditListQuery) {
  authorize(ctx, 'audit.read');
  return pageOfAuditEvents(ctx, {}, query);
}

/** The organization's audit feed for a GraphQL connection (owner/admin): `window` carries Pothos's cursor, take/skip and selection. */
export async function findOrganizationAuditEvents(ctx: RequestContext, window: Prisma.AuditEventFindManyArgs) {
  authorize(ctx, 'audit.read');
  return ctx.db.auditEvent.findMany({ ...window, orderBy: NEWEST_FIRST });
}
