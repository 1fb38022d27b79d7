import { Prisma } from '../../../prisma/generated/client/client.ts';
import type { Db } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { afterCommit } from '../../kernel/database/transactions.ts';
import { newId } from '../../kernel/ids.ts';
import { cursorPageOf } from '../../kernel/pagination.ts';
import { authorize } from '../auth/policy.ts';
import type { Identity, RequestContext } from '../context.ts';
import { displayName } from '../context.ts';
import type { AuditListQuery } from './audit.schemas.ts';
import { clipSnapshot } from './clip.ts';

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
/** Who records an event, in which organization. */
type AuditContext = { identity: AuditActor; org: { id: string } };

/**
 * Records one audit event. Call it with the transaction that performs the mutation, so that the
 * event and the change it records commit together or not at all. The same statement writes the
 * event's webhook deliveries (the outbox of contract §13): one row per active webhook of the
 * organization whose patterns match the action. Once the transaction commits, this process's
 * webhook dispatchers are woken, and a run's change reaches the live progress streams (§14).
 */
export async function emitAudit(tx: Db, ctx: AuditContext, entry: AuditEntry): Promise<void> {
  const writes = auditWrites(ctx, entry);
  const [written] = await queryRaw<[{ deliveries: number; planId: string | null }]>(
    tx,
    sql`
    WITH ${writes.ctes}
    SELECT ${writes.deliveries} AS deliveries, (SELECT plan_id FROM test_runs WHERE id = ${entry.runId ?? null}) AS "planId"`,
  );
  writes.settle(tx, written);
}

/**
 * A change of a person's own account (password, names, sessions), recorded in each organization
 * they belong to with the person as actor: an account belongs to no organization, and each one
 * sees its members' changes.
 */
export async function auditInEachOrganization(
  tx: Db,
  actor: Identity,
  entry: Omit<AuditEntry, 'entityType' | 'entityUlid'>,
): Promise<void> {
  const memberships = await tx.membership.findMany({
    where: { userId: actor.user.id },
    select: { orgId: true },
    orderBy: { orgId: 'asc' },
  });
  for (const { orgId } of memberships) {
    await emitAudit(tx, { identity: actor, org: { id: orgId } }, { ...entry, entityType: 'user', entityUlid: actor.user.id });
  }
}

/** What the commit of an audit event tells the rest of the process: its run (and the run's plan), and the webhook deliveries it queued. */
export type CommittedAuditEvent = { orgId: string; runId: string | null; planId: string | null; deliveries: number };

const committedListeners = new Set<(event: CommittedAuditEvent) => void>();

/**
 * The audit hub: `listener` hears every audit event of this process once its transaction has
 * committed (live progress and the webhook dispatchers subscribe from the composition root).
 * Returns the function that stops listening.
 */
export function onAuditCommitted(listener: (event: CommittedAuditEvent) => void): () => void {
  committedListeners.add(listener);
  return () => {
    committedListeners.delete(listener);
  };
}

/**
 * emitAudit's writes as CTEs (audit_event, audit_deliveries) for a statement of the caller's,
 * which saves a hot path a round trip: `deliveries` counts the deliveries written, and `settle`,
 * given that count and the plan of the event's run, tells the audit hub after the commit.
 */
export function auditWrites(ctx: AuditContext, entry: AuditEntry) {
  const label = clipSnapshot(entry.entityLabel);
  const metadata = label.truncated ? { ...entry.metadata, truncated: true } : (entry.metadata ?? {});
  const { identity } = ctx;
  const orgId = ctx.org.id;
  const runId = entry.runId ?? null;
  // A person in a session or through an OAuth token (contract §16) is a user actor.
  const person = identity.kind === 'session' || identity.kind === 'oauth' ? identity.user : null;
  const actorName = person ? displayName(person) : identity.kind === 'api_token' ? identity.token.name : null;
  return {
    ctes: sql`
      audit_event AS (
        INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                                  entity_type, entity_ulid, entity_label, run_id, origin_run_id, metadata, created_at)
        VALUES (${newId()}, ${orgId}, ${entry.action}, ${person ? 'user' : identity.kind},
                ${person?.id ?? null}, ${identity.kind === 'api_token' ? identity.token.id : null},
                ${person?.email ?? null}, ${actorName},
                ${entry.entityType}, ${entry.entityUlid}, ${label.text}, ${runId}, ${runId}, ${JSON.stringify(metadata)}::jsonb, ${new Date()})
        RETURNING id, org_id, action, created_at
      ), audit_deliveries AS (
        INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_id, action, created_at)
        SELECT tcms_ulid(), event.org_id, webhook.id, event.id, event.action, event.created_at
        FROM audit_event AS event JOIN webhooks AS webhook ON webhook.org_id = event.org_id AND webhook.active
        WHERE EXISTS (SELECT 1 FROM unnest(webhook.events) AS pattern WHERE ${WEBHOOK_PATTERN_MATCHES})
        RETURNING 1
      )`,
    deliveries: sql`(SELECT count(*) FROM audit_deliveries)::int`,
    settle(tx: Db, written: { deliveries: number; planId: string | null }) {
      afterCommit(tx, () => {
        for (const listener of committedListeners) listener({ orgId, runId, planId: written.planId, deliveries: written.deliveries });
      });
    },
  };
}

/** Whether the webhook's `pattern` matches `event.action`: `*`, the action itself, or a prefix such as `run.*`. */
const WEBHOOK_PATTERN_MATCHES = sql`pattern = '*' OR pattern = event.action
  OR (right(pattern, 2) = '.*' AND starts_with(event.action, left(pattern, -1)))`;

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

/**
 * A window of a feed (the organization's events, or one run's), newest first: `take` events
 * older than `cursor`, or for a negative `take` the ones nearest above it (a backward page of a
 * GraphQL connection). ULIDs compare bytewise (COLLATE "C"), an order only the feed's own index
 * (org_id or run_id, then id) holds: no plan can walk the primary key through the newer events of
 * other organizations, whatever the planner's statistics.
 */
async function auditWindow(ctx: RequestContext, runId: string | null, cursor: string | undefined, take: number): Promise<AuditRow[]> {
  const newestFirst = take >= 0;
  const rows = await queryRaw<AuditRow[]>(
    ctx.db,
    sql`
    SELECT id, org_id AS "orgId", action, actor_kind AS "actorKind", actor_user_id AS "actorUserId",
      actor_token_id AS "actorTokenId", actor_email AS "actorEmail", actor_name AS "actorName", entity_type AS "entityType",
      entity_ulid AS "entityUlid", entity_label AS "entityLabel", run_id AS "runId", origin_run_id AS "originRunId",
      metadata, created_at AS "createdAt"
    FROM audit_events
    WHERE org_id = ${ctx.org.id}
      ${runId === null ? Prisma.empty : sql`AND run_id = ${runId}`}
      ${cursor === undefined ? Prisma.empty : newestFirst ? sql`AND id COLLATE "C" < ${cursor}` : sql`AND id COLLATE "C" > ${cursor}`}
    ORDER BY id COLLATE "C" ${newestFirst ? sql`DESC` : sql`ASC`}
    LIMIT ${Math.abs(take)}`,
  );
  return newestFirst ? rows : rows.reverse();
}

/** A page of a feed (see auditWindow), ULID-cursor paged; callers authorize. */
export async function pageOfAuditEvents(ctx: RequestContext, runId: string | null, query: AuditListQuery) {
  const rows = await auditWindow(ctx, runId, query.cursor, query.limit + 1);
  const page = cursorPageOf(rows, query.limit);
  return { events: page.items.map(toAuditEventOut), nextCursor: page.nextCursor };
}

/** Pothos's window of a connection: the cursor's own row, which Pothos skips (`skip: 1`), the strict comparison leaves out. */
export type AuditConnectionWindow = { cursor?: Prisma.AuditEventWhereUniqueInput; take: number };

/** A window of a feed for a GraphQL connection (see auditWindow); callers authorize. */
export const windowOfAuditEvents = (ctx: RequestContext, runId: string | null, window: AuditConnectionWindow) =>
  auditWindow(ctx, runId, window.cursor?.id, window.take);

/** The organization's audit feed (owner/admin). */
export async function listOrganizationAuditEvents(ctx: RequestContext, query: AuditListQuery) {
  authorize(ctx, 'audit.read');
  return pageOfAuditEvents(ctx, null, query);
}

/** The organization's audit feed for a GraphQL connection (owner/admin). */
export async function findOrganizationAuditEvents(ctx: RequestContext, window: AuditConnectionWindow) {
  authorize(ctx, 'audit.read');
  return windowOfAuditEvents(ctx, null, window);
}
