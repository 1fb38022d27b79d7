import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import {
  REPORT_CONTENT_TYPES,
  REPORT_FILES_MAX,
  REPORT_MAX_BYTES,
  REPORT_READ_MAX_BYTES,
  resultImportQuerySchema,
  resultImportSchema,
} from '../../src/result-imports/result-imports.schemas.ts';
import { importResults } from '../../src/result-imports/result-imports.service.ts';
import { defineRoute } from '../route.ts';

export const resultImportRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/result-imports',
    operationId: 'importResults',
    summary: 'Import a test runner report (JUnit XML or CTRF JSON, optionally gzip-compressed) into a new or open run',
    tag: 'Runs',
    auth: 'org',
    params: projectPathSchema,
    query: resultImportQuerySchema,
    upload: {
      maxBytes: REPORT_MAX_BYTES,
      maxTotalBytes: REPORT_READ_MAX_BYTES,
      maxFiles: REPORT_FILES_MAX,
      rawTypes: REPORT_CONTENT_TYPES,
      import: true,
      description: 'A JUnit XML or CTRF JSON report, optionally gzip-compressed (Content-Encoding: gzip for a raw body)',
    },
    success: { status: 201, description: 'The results were appended', schema: resultImportSchema },
    errors: [403, 404, 409],
    handle: ({ ctx, params, query, files }) => importResults(ctx, params.projectId, query, files),
  }),
];
