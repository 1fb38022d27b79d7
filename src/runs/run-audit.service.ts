import { pageOfAuditEvents } from '../audit/audit.service.ts';
import type { AuditListQuery } from '../audit/audit.schemas.ts';
import type { RequestContext } from '../context.ts';
import { resolveRun } from './internal/run-access.ts';

/** The audit feed of one run: any member who can read the run; 404 once it is deleted. */
export async function listRunAuditEvents(ctx: RequestContext, runUlid: string, query: AuditListQuery) {
  const run = await resolveRun(ctx, runUlid);
  return pageOfAuditEvents(ctx, { runId: run.id }, query);
}
