import { auditListQuerySchema, auditPageSchema } from '../../src/foundation/audit/audit.schemas.ts';
import { listOrganizationAuditEvents } from '../../src/foundation/audit/audit.service.ts';
import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { listRunAuditEvents } from '../../src/runs/run-audit.service.ts';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import { defineRoute } from '../route.ts';

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/audit-events',
    operationId: 'listOrganizationAuditEvents',
    summary: 'Audit log of the organization, newest first (owner/admin)',
    tag: 'Audit',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: auditListQuerySchema,
    success: { status: 200, description: 'A page of events', schema: auditPageSchema },
    errors: [403, 404],
    handle: ({ ctx, query }) => listOrganizationAuditEvents(ctx, query),
  }),
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/audit-events',
    operationId: 'listRunAuditEvents',
    summary: 'Audit log of one run, newest first (any member who can read the run)',
    tag: 'Audit',
    auth: 'org',
    params: runPathSchema,
    query: auditListQuerySchema,
    success: { status: 200, description: 'A page of events', schema: auditPageSchema },
    errors: [403, 404],
    handle: ({ ctx, params, query }) => listRunAuditEvents(ctx, params.runUlid, query),
  }),
];
