import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import {
  CASE_IMPORT_CONTENT_TYPES,
  CASE_IMPORT_MAX_BYTES,
  testCaseImportQuerySchema,
  testCaseImportSchema,
} from '../../src/test-case-imports/test-case-imports.schemas.ts';
import { importTestCases } from '../../src/test-case-imports/test-case-imports.service.ts';
import { defineRoute, Reply } from '../route.ts';

export const testCaseImportRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/test-case-imports',
    operationId: 'importTestCases',
    summary: 'Import test cases from CSV (the project export columns) or a TestRail XML export; dryRun=true validates only and answers 200',
    tag: 'Test cases',
    auth: 'org',
    params: projectPathSchema,
    query: testCaseImportQuerySchema,
    upload: {
      maxBytes: CASE_IMPORT_MAX_BYTES,
      maxFiles: 1,
      rawTypes: CASE_IMPORT_CONTENT_TYPES,
      import: true,
      description: 'A CSV file or a TestRail XML export',
    },
    success: { status: 201, description: 'The cases were imported (200 with the same shape for a dry run)', schema: testCaseImportSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query, files }) => {
      const result = await importTestCases(ctx, params.projectId, query, files);
      return query.dryRun ? new Reply(200, result) : result;
    },
  }),
];
