import { z } from 'zod';
import { exportAuditEvents } from '../../src/exports/audit-export.service.ts';
import { auditExportQuerySchema, projectExportQuerySchema } from '../../src/exports/exports.schemas.ts';
import { exportProject } from '../../src/exports/project-export.service.ts';
import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

const MEDIA_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

const attachment = (fileName: string, format: keyof typeof MEDIA_TYPES, body: unknown) =>
  new Reply(200, body, { 'Content-Type': MEDIA_TYPES[format], 'Content-Disposition': `attachment; filename="${fileName}"` });

export const exportRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/audit-events/export',
    operationId: 'exportAuditEvents',
    summary: 'The audit events of a window as CSV, oldest first (owner/admin with the audit export entitlement)',
    tag: 'Audit',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: auditExportQuerySchema,
    success: { status: 200, description: 'A CSV attachment, streamed', media: { 'text/csv': z.string() } },
    errors: [403, 404, 429],
    handle: async ({ ctx, query }) => {
      const { fileName, body } = await exportAuditEvents(ctx, query);
      return attachment(fileName, 'csv', body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/exports',
    operationId: 'exportProject',
    summary: 'Every live test case of the project with suites, steps, tags and custom field values (CSV or JSON)',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    query: projectExportQuerySchema,
    success: {
      status: 200,
      description: 'An attachment, streamed: `{ project, suites, cases }` as JSON, or one CSV row per case',
      media: {
        'application/json': z.object({ project: z.unknown(), suites: z.array(z.unknown()), cases: z.array(z.unknown()) }),
        'text/csv': z.string(),
      },
    },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const { fileName, body } = await exportProject(ctx, params.projectId, query.format);
      return attachment(fileName, query.format, body);
    },
  }),
];
