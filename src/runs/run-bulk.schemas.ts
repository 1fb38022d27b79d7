import { z } from 'zod';
import { OUTCOME_STATUSES } from '../kernel/statuses.ts';
import { distinctArray, ulidSchema } from '../kernel/validation.ts';
import { ELAPSED_MS_MAX, runCaseSchema } from './run-cases.schemas.ts';
import { runResponseSchema } from './runs.schemas.ts';

/** "bulk run operations: caseUlids 1..500" (Limits of api-v1.md); also the entries of a bulk submit-result. */
export const BULK_CASES_MAX = 500;
export const RESULT_COMMENT_MAX = 10_000;

const caseUlidsSchema = distinctArray(ulidSchema, BULK_CASES_MAX)
  .min(1)
  .meta({ description: 'Run case ULIDs or the test case ULIDs they snapshot; ULIDs naming no case of the run are skipped' });

export const bulkCasesBodySchema = z.strictObject({ caseUlids: caseUlidsSchema }).meta({ id: 'BulkRunCasesRequest' });
export type BulkCasesInput = z.output<typeof bulkCasesBodySchema>;

export const bulkMarkBodySchema = z
  .strictObject({ caseUlids: caseUlidsSchema, status: z.enum(OUTCOME_STATUSES) })
  .meta({ id: 'BulkMarkRunCasesRequest' });
export type BulkMarkInput = z.output<typeof bulkMarkBodySchema>;

export const bulkAssignBodySchema = z
  .strictObject({
    caseUlids: caseUlidsSchema,
    assigneeUlid: ulidSchema.nullable().meta({ description: 'A member of the organization, or null to unassign' }),
  })
  .meta({ id: 'BulkAssignRunCasesRequest' });
export type BulkAssignInput = z.output<typeof bulkAssignBodySchema>;

export const bulkResultSchema = z
  .object({
    affected: z.number().int().meta({ description: 'Cases changed' }),
    unchanged: z
      .number()
      .int()
      .meta({ description: 'ULIDs that changed nothing: already so, naming no case of the run, or assignee-locked' }),
  })
  .meta({ id: 'BulkRunCasesResult' });
export type BulkResult = z.output<typeof bulkResultSchema>;

const resultEntrySchema = z
  .strictObject({
    runCaseUlid: ulidSchema.optional(),
    caseUlid: ulidSchema.optional().meta({ description: 'The test case ULID of a case of the run' }),
    status: z.enum(OUTCOME_STATUSES),
    elapsedMs: z.number().int().min(0).max(ELAPSED_MS_MAX).nullable().optional(),
    comment: z.string().max(RESULT_COMMENT_MAX).nullable().optional(),
  })
  .refine((entry) => (entry.runCaseUlid === undefined) !== (entry.caseUlid === undefined), {
    message: 'give exactly one of runCaseUlid and caseUlid',
    path: ['runCaseUlid'],
  })
  .meta({
    id: 'RunResultEntry',
    example: { runCaseUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', status: 'passed', elapsedMs: 1250, comment: 'Green on staging' },
  });

export const submitResultsBodySchema = z
  .strictObject({ results: z.array(resultEntrySchema).min(1).max(BULK_CASES_MAX) })
  .meta({ id: 'SubmitRunResultsRequest' });
export type SubmitResultsInput = z.output<typeof submitResultsBodySchema>;

export const submitResultsResponseSchema = z
  .object({
    affected: z.number().int().meta({ description: "Entries that changed their case's status" }),
    unchanged: z.number().int().meta({ description: "Entries that repeated their case's status (their result is appended all the same)" }),
    resultUlids: z.array(z.string()).meta({ description: 'The appended results, one per entry, in request order' }),
  })
  .meta({ id: 'SubmitRunResultsResult' });

export const addRunCasesBodySchema = z
  .strictObject({
    caseUlids: caseUlidsSchema.meta({ description: "Live test cases of the run's project; those already in the run are skipped" }),
    assigneeUlid: ulidSchema.nullable().optional().meta({
      description: "Assignee of the added cases (null: unassigned); without it, the run's default assignee",
    }),
  })
  .meta({ id: 'AddRunCasesRequest' });
export type AddRunCasesInput = z.output<typeof addRunCasesBodySchema>;

export const addRunCasesResponseSchema = z
  .object({
    items: z.array(runCaseSchema).meta({ description: 'The run case of every listed test case, added or already there, in request order' }),
    added: z.number().int(),
  })
  .meta({ id: 'AddRunCasesResult' });

export const reconcileResponseSchema = z
  .object({
    added: z.number().int(),
    removed: z.number().int(),
    reassigned: z.number().int(),
    run: runResponseSchema,
  })
  .meta({ id: 'ReconcileRunResult' });
