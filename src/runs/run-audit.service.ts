import type { AuditListQuery } from '../foundation/audit/audit.schemas.ts';
import { type AuditConnectionWindow, pageOfAuditEvents, windowOfAuditEvents } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { resolveRun } from './run-access.service.ts';

/** The audit feed of one run: any member who can read the run; 404 once it is deleted. */
export async function listRunAuditEvents(ctx: RequestContext, runUlid: string, query: AuditListQuery) {
  const run = await resolveRun(ctx, runUlid);
  return pageOfAuditEvents(ctx, run.id, query);
}

/** The audit feed of a run the caller has read (resolveRun), for a GraphQL connection, newest first. */
export async function findRunAuditEvents(ctx: RequestContext, run: { id: string }, window: AuditConnectionWindow) {
  authorize(ctx, 'project.read');
  return windowOfAuditEvents(ctx, run.id, window);
}
