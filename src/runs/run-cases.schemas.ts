import { z } from 'zod';
import { linkedDefectSchema } from '../defects/defects.schemas.ts';
import { authorSchema } from '../foundation/actors.ts';
import { cursorPageSchema, cursorQuerySchema, pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { CASE_STATUSES } from '../kernel/statuses.ts';
import { searchQuerySchema, someFieldOf, ulidSchema } from '../kernel/validation.ts';
import { ATTACHMENTS_PER_STEP, stagedKeySchema } from '../test-cases/attachments.schemas.ts';

export const runCaseSchema = z
  .object({
    ulid: z.string(),
    runUlid: z.string(),
    caseUlid: z.string().nullable().meta({ description: 'Null once the test case was deleted; the snapshot stays' }),
    displayId: z.string(),
    title: z.string(),
    suiteName: z.string().nullable(),
    position: z.number().int(),
    status: z.enum(CASE_STATUSES),
    assigneeUlid: z.string().nullable(),
    elapsedMs: z.number().int().nullable(),
    steps: z.array(
      z.object({
        ulid: z.string(),
        position: z.number().int(),
        action: z.string(),
        expectedResult: z.string().nullable(),
        status: z.enum(CASE_STATUSES),
        actualResult: z.string().nullable(),
      }),
    ),
    lastResultAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'RunCase' });

/** The largest elapsedMs a case or result holds (a PostgreSQL integer). */
export const ELAPSED_MS_MAX = 2_147_483_647;
export const ACTUAL_RESULT_MAX = 10_000;

const caseStatus = z.enum(CASE_STATUSES);
const elapsedMs = z.number().int().min(0).max(ELAPSED_MS_MAX);

export const runCasePathSchema = z.object({ runUlid: z.string(), runCaseUlid: z.string() });
export const runCaseStepPathSchema = runCasePathSchema.extend({ stepUlid: z.string() });

/** `status` as comma-separated values of the six statuses; an unknown one answers 422. */
const statusCsv = z
  .string()
  .max(200)
  .transform((csv) =>
    csv
      .split(',')
      .map((token) => token.trim())
      .filter((token) => token !== ''),
  )
  .pipe(z.array(caseStatus).max(50))
  .meta({ description: 'Comma-separated case statuses (untested, retested, passed, failed, skipped, blocked); any of them matches' });

export const runCaseListQuerySchema = pageQuerySchema()
  .extend({
    status: statusCsv.optional(),
    assigneeUlid: z
      .union([ulidSchema, z.literal('')])
      .optional()
      .meta({ description: "A member's ULID: cases assigned to them; empty: unassigned cases" }),
  })
  .extend(searchQuerySchema.shape)
  .meta({ description: '`q` matches the title snapshot or the display ID case-insensitively' });
export type RunCaseListQuery = z.output<typeof runCaseListQuerySchema>;
export type RunCaseFilter = Pick<RunCaseListQuery, 'status' | 'assigneeUlid' | 'q'>;

export const updateRunCaseBodySchema = z
  .strictObject({
    status: caseStatus.optional().meta({ description: 'A changed status appends a result and marks every step' }),
    assigneeUlid: ulidSchema.nullable().optional().meta({ description: 'A member of the organization, or null to unassign' }),
    elapsedMs: elapsedMs.nullable().optional().meta({
      description: 'Time spent, in milliseconds; required with an outcome status when the run setting timeTracking is required',
    }),
  })
  .refine(...someFieldOf(['status', 'assigneeUlid', 'elapsedMs']))
  .meta({ id: 'UpdateRunCaseRequest' });
export type UpdateRunCaseInput = z.output<typeof updateRunCaseBodySchema>;

export const markRunCaseStepBodySchema = z
  .strictObject({
    status: caseStatus.optional().meta({ description: "The step's status; the case takes the aggregate of its steps" }),
    actualResult: z.string().max(ACTUAL_RESULT_MAX).nullable().optional().meta({ description: 'What happened; null clears' }),
  })
  .refine(...someFieldOf(['status', 'actualResult']))
  .meta({ id: 'MarkRunCaseStepRequest' });
export type MarkRunCaseStepInput = z.output<typeof markRunCaseStepBodySchema>;

export const runCasePageSchema = pageSchema(runCaseSchema).meta({ id: 'RunCasePage' });

export const resultPathSchema = runCasePathSchema.extend({ resultUlid: z.string() });
export const resultAttachmentPathSchema = resultPathSchema.extend({ attachmentUlid: ulidSchema });

export const resultAttachmentSchema = z
  .object({
    ulid: z.string(),
    resultUlid: z.string(),
    stepUlid: z
      .string()
      .nullable()
      .meta({ description: "The run case's step it was attached at; null when attached to the attempt as a whole" }),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    createdAt: z.number().int(),
  })
  .meta({ id: 'ResultAttachment' });

export const commitResultAttachmentsBodySchema = z
  .strictObject({
    attachments: z
      .array(z.strictObject({ key: stagedKeySchema }))
      .min(1)
      .max(ATTACHMENTS_PER_STEP)
      .meta({ description: `Staged uploads to commit, in order; a result holds at most ${ATTACHMENTS_PER_STEP} attachments` }),
    stepUlid: ulidSchema
      .nullable()
      .optional()
      .meta({ description: 'A step of the run case to attach them at; absent or null: the attempt as a whole' }),
  })
  .meta({ id: 'CommitResultAttachmentsRequest' });
export type CommitResultAttachmentsInput = z.output<typeof commitResultAttachmentsBodySchema>;

export const runCaseDetailSchema = runCaseSchema
  .extend({
    linkedDefects: z
      .array(linkedDefectSchema)
      .meta({ description: 'Distinct defects linked through any result of the case, by defect number' }),
    attachments: z
      .array(resultAttachmentSchema)
      .meta({ description: "The files attached to the case's results, by result in history order, then in their order within it" }),
  })
  .meta({ id: 'RunCaseDetail' });

export const updatedRunCaseSchema = runCaseSchema
  .extend({
    resultUlid: z.string().nullable().meta({ description: 'The result appended when the status changed; null otherwise' }),
  })
  .meta({ id: 'UpdatedRunCase' });

export const RESULT_SOURCES = ['manual', 'api', 'bulk', 'import'] as const;

export const runResultSchema = z
  .object({
    ulid: z.string(),
    runUlid: z.string(),
    runCaseUlid: z.string().nullable().meta({ description: 'Null once the case was removed from the run; its results stay' }),
    caseUlid: z.string().nullable().meta({ description: 'Null once the test case was deleted' }),
    status: caseStatus,
    elapsedMs: z.number().int().nullable(),
    comment: z.string().nullable(),
    executedAt: z.number().int(),
    executedByUlid: z.string().nullable().meta({ description: 'The user who marked: the session user, or the creator of the API token' }),
    author: authorSchema,
    source: z.enum(RESULT_SOURCES),
    attempt: z.number().int().min(1).meta({
      description: 'Which run of an imported test this is, from 1 within its import (each retry is a result); 1 when not imported',
    }),
    flaky: z.boolean().meta({ description: 'The final result of an imported test that failed and then passed on a retry' }),
    parameters: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .nullable()
      .meta({
        description:
          'A parameterized test\'s arguments: CTRF `parameters` (by name), or the bracketed end of a JUnit test name (`test_add[1-2]`: "1-2"); null otherwise',
      }),
  })
  .meta({ id: 'RunResult' });

export const runResultListQuerySchema = cursorQuerySchema
  .extend({ runCaseUlid: ulidSchema.optional().meta({ description: 'Only the results of this run case' }) })
  .meta({ description: 'Oldest first (executedAt, then ULID); `cursor` is the ULID of the last result of the previous page' });
export type RunResultListQuery = z.output<typeof runResultListQuerySchema>;

export const runResultPageSchema = cursorPageSchema(runResultSchema).meta({ id: 'RunResultPage' });

export const resultUsageSchema = z
  .object({
    periodKey: z.string().meta({ description: "The calendar month (UTC) 'YYYY-MM'", example: '2026-11' }),
    used: z.number().int().meta({ description: 'Machine-authored results counted this month' }),
    limit: z.number().int().nullable().meta({ description: 'The monthly ceiling in force; null when unlimited' }),
  })
  .meta({ id: 'ApiResultUsage' });
