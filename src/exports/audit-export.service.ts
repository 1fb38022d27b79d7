import { can } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { budgetSpent, consumeCall } from '../foundation/rate-limit/rate-limit.service.ts';
import type { Db } from '../kernel/database/client.ts';
import { forbidden, validationFailed } from '../kernel/errors.ts';
import { csvRows, streamOf } from './csv.ts';
import { AUDIT_EXPORT_CALLS_PER_HOUR, AUDIT_EXPORT_COLUMNS, AUDIT_EXPORT_MAX_EVENTS, type AuditExportWindow } from './exports.schemas.ts';

const BATCH = 1000;
export const IDENTITY_REMOVED = '[identity removed]';
export const RUN_PURGED = '[run purged]';
export const RUN_UNKNOWN = '[run unknown]';

type EventRow = Awaited<ReturnType<Db['auditEvent']['findFirstOrThrow']>>;

function actorLabel(event: EventRow): string {
  if (event.actorKind === 'system') return 'system';
  if (event.actorKind === 'api_token') return event.actorName ?? '';
  // A user event without its user is an erased identity (`tcms user erase`).
  if (event.actorUserId === null) return IDENTITY_REMOVED;
  return `${event.actorName ?? ''} <${event.actorEmail ?? ''}>`;
}

/**
 * The run_ulid cell: empty for an event never about a run, the ULID while the run exists (run_id
 * is nulled when it is deleted), else whether the organization's log records its deletion.
 */
function runCell(event: EventRow, purged: Set<string>): string {
  if (event.originRunId === null) return '';
  if (event.runId !== null) return event.runId;
  return purged.has(event.originRunId) ? RUN_PURGED : RUN_UNKNOWN;
}

const toCells = (event: EventRow, purged: Set<string>) => [
  event.createdAt.toISOString(),
  event.id,
  event.action,
  event.actorKind,
  event.actorUserId ?? event.actorTokenId ?? '',
  actorLabel(event),
  event.entityType,
  event.entityUlid,
  event.entityLabel,
  runCell(event, purged),
  JSON.stringify(event.metadata),
];

/** Adds to `purged` those of the gone runs of `events` whose run.deleted the log holds (each run asked once). */
async function notePurgedRuns(ctx: RequestContext, events: EventRow[], purged: Set<string>, asked: Set<string>) {
  const unseen = [...new Set(events.flatMap((e) => (e.runId === null && e.originRunId !== null ? [e.originRunId] : [])))].filter(
    (id) => !asked.has(id),
  );
  if (unseen.length === 0) return;
  for (const id of unseen) asked.add(id);
  const deletions = await ctx.db.auditEvent.findMany({
    where: { action: 'run.deleted', entityType: 'test_run', entityUlid: { in: unseen } },
    select: { entityUlid: true },
  });
  for (const deletion of deletions) purged.add(deletion.entityUlid);
}

/** The window's events oldest first, in keyset batches on (created_at, id) (index audit_events_org_id_created_at_id_idx). */
async function* batchesOf(ctx: RequestContext, window: AuditExportWindow) {
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const batch = await ctx.db.auditEvent.findMany({
      where: {
        // The lower bound moves with the batches, so the index scan starts at the last row, not at `from`.
        createdAt: { gte: after?.createdAt ?? window.from, lt: window.to },
        ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: BATCH,
    });
    if (batch.length > 0) yield batch;
    if (batch.length < BATCH) return;
    after = batch.at(-1);
  }
}

const stamp = (date: Date) => date.toISOString().replace(/[-:]|\.\d+/g, '');

/**
 * GET /orgs/{orgUlid}/audit-events/export: the window's events as CSV (api-v1 "Export rules").
 * Owner/admin with the auditExportEnabled entitlement (one indistinguishable 403 for either
 * refusal); every authorized call counts against the hourly bucket, a refused count included,
 * since the count is the expensive part the bucket protects. A pure read: no audit event.
 */
export async function exportAuditEvents(ctx: RequestContext, window: AuditExportWindow) {
  if (!can(ctx, 'audit.read') || !ctx.org.limits.auditExportEnabled) throw forbidden();
  const budget = await consumeCall(ctx.org.id, 'audit_export', AUDIT_EXPORT_CALLS_PER_HOUR);
  if (!budget.allowed) throw budgetSpent(budget, `At most ${AUDIT_EXPORT_CALLS_PER_HOUR} audit exports an hour`);
  const count = await ctx.db.auditEvent.count({ where: { createdAt: { gte: window.from, lt: window.to } } });
  if (count > AUDIT_EXPORT_MAX_EVENTS) {
    throw validationFailed(
      `The window holds ${count} events; an export may hold at most ${AUDIT_EXPORT_MAX_EVENTS}. Choose a shorter window.`,
      { count, limit: AUDIT_EXPORT_MAX_EVENTS },
    );
  }
  async function* chunks() {
    const purged = new Set<string>();
    const asked = new Set<string>();
    let header: readonly string[] | undefined = AUDIT_EXPORT_COLUMNS;
    for await (const batch of batchesOf(ctx, window)) {
      await notePurgedRuns(ctx, batch, purged, asked);
      yield csvRows(
        batch.map((event) => toCells(event, purged)),
        header,
      );
      header = undefined;
    }
    if (header) yield csvRows([], header);
  }
  return { fileName: `audit-events_${stamp(window.from)}_${stamp(window.to)}.csv`, body: streamOf(chunks) };
}
