import { z } from 'zod';
import { ulidSchema } from '../kernel/validation.ts';
import { RUN_NAME_MAX } from '../runs/runs.schemas.ts';

/** Decisions §12: a report of more than this answers 413 file_too_large (as sent, maybe gzip-compressed). */
export const REPORT_MAX_BYTES = 100 * 1024 * 1024;
/**
 * An import reads at most this much from its reports together, inflated: past it, 413
 * file_too_large (a compression bomb, or many reports, ends there).
 */
export const REPORT_READ_MAX_BYTES = 256 * 1024 * 1024;
/** The most `file` parts of one multipart import. */
export const REPORT_FILES_MAX = 20;
/** The content types of a raw report body; multipart `file` parts may be anything. */
export const REPORT_CONTENT_TYPES = ['application/xml', 'text/xml', 'application/json'];

export const resultImportQuerySchema = z.strictObject({
  format: z.enum(['junit', 'ctrf']).optional().meta({ description: 'Detected from the content when absent' }),
  runUlid: ulidSchema.optional().meta({ description: 'Add the results to this open run of the project' }),
  runName: z.string().min(1).max(RUN_NAME_MAX).optional().meta({
    description: 'The name of the new run; default "<format> import <ISO time>"',
  }),
  planUlid: ulidSchema.optional().meta({ description: "A new run from this plan: its selection, then the report's other cases" }),
  environmentId: ulidSchema.optional().meta({ description: 'The environment of a new run' }),
  milestoneId: ulidSchema.optional().meta({ description: 'The milestone of a new run' }),
  createCases: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'Create a case for a test bound to none (default true); false lists it in unmatched' }),
});
export type ResultImportQuery = z.output<typeof resultImportQuerySchema>;

export const resultImportSchema = z
  .object({
    runUlid: ulidSchema,
    tests: z.number().int().meta({ description: 'Tests in the report(s)' }),
    results: z.number().int().meta({ description: 'Results appended: one per attempt of every test bound to a case' }),
    createdCases: z.number().int(),
    matchedCases: z.number().int().meta({ description: 'Existing cases the tests were bound to' }),
    unmatched: z.array(z.object({ name: z.string(), reason: z.enum(['no_case', 'archived_case']) })).meta({
      description: 'Tests left out: no case and createCases=false, or their automation key belongs to an archived case',
    }),
    attempts: z.number().int().meta({ description: 'Runs of the tests, retries included' }),
  })
  .meta({ id: 'ResultImport' });
export type ResultImport = z.output<typeof resultImportSchema>;
