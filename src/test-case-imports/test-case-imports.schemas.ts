import { z } from 'zod';

/** Decisions §17: an import file of more than this answers 413 file_too_large. */
export const CASE_IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** Decisions §17: more cases than this answer 422 too_many_cases. */
export const IMPORT_CASES_MAX = 10_000;
/** Decisions §17: more new suites than this answer 422 too_many_suites. */
export const IMPORT_NEW_SUITES_MAX = 1_000;
/** The content types of a raw import body; a multipart `file` part may be anything. */
export const CASE_IMPORT_CONTENT_TYPES = ['text/csv', 'application/xml', 'text/xml'];

export const caseImportFormatSchema = z.enum(['csv', 'testrail']);
export type CaseImportFormat = z.output<typeof caseImportFormatSchema>;

export const testCaseImportQuerySchema = z.strictObject({
  format: caseImportFormatSchema
    .optional()
    .meta({ description: 'Detected from the content when absent: XML is a TestRail export, anything else CSV' }),
  dryRun: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'true: validate and count (answer 200) without writing anything' }),
});
export type TestCaseImportQuery = z.output<typeof testCaseImportQuerySchema>;

export const importWarningSchema = z
  .object({
    row: z.number().int().meta({ description: 'CSV: the record (the header is row 1); TestRail XML: the line of the case' }),
    message: z.string(),
  })
  .meta({ id: 'TestCaseImportWarning' });
export type ImportWarning = z.output<typeof importWarningSchema>;

export const testCaseImportSchema = z
  .object({
    createdSuites: z.number().int(),
    createdCases: z.number().int(),
    updatedCases: z.number().int().meta({ description: 'Existing cases named by a display_id (whether or not anything changed)' }),
    warnings: z.array(importWarningSchema),
  })
  .meta({ id: 'TestCaseImport' });
export type TestCaseImport = z.output<typeof testCaseImportSchema>;
