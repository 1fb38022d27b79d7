import { z } from 'zod';
import { customFieldValueSchema, fieldValueInputSchema } from '../custom-fields/field-values.service.ts';
import { cursorPageSchema, cursorQuerySchema, pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { distinctArray, searchQuerySchema, ulidSchema } from '../kernel/validation.ts';
import { attachmentRefSchema, stepAttachmentSchema } from './attachments.schemas.ts';

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 10000;
export const STEP_TEXT_MAX = 10000;
export const STEPS_MAX = 500;
export const TAG_MAX = 100;
export const TAGS_MAX = 50;
export const AUTOMATION_KEY_MAX = 1000;

const title = z.string().min(1).max(TITLE_MAX);
const description = z.string().max(DESCRIPTION_MAX).nullable();

/**
 * A test runner's name for the case's test, matched exactly (case-sensitive): stored as given, so
 * it is never trimmed; a key with whitespace at either end or a control character is refused
 * instead of being silently altered.
 */
export const automationKeySchema = z
  .string()
  .min(1)
  .max(AUTOMATION_KEY_MAX)
  .regex(/^(?!\s)(?!.*\s$)[^\p{Cc}]*$/su, 'An automation key has no leading or trailing whitespace and no control characters')
  .meta({ description: `1..${AUTOMATION_KEY_MAX} characters, matched exactly; no whitespace at either end, no control characters` });

/** Tags: each trimmed, 1..100 characters; at most 50; repeated tags are kept once (first wins). */
export const tagsSchema = z
  .array(z.string().trim().min(1).max(TAG_MAX))
  .max(TAGS_MAX)
  .transform((tags) => [...new Set(tags)])
  .meta({ description: `Up to ${TAGS_MAX} tags, each trimmed to 1..${TAG_MAX} characters; duplicates are dropped` });

/**
 * A step as written: `ulid` names an existing step of the case (kept and updated in place), no
 * `ulid` adds a new step. Steps are stored in array order (0-based positions); when the entries
 * carry `position` (the contract's step shape), every entry must, and they are ordered by it.
 * Omitting `expectedResult` or `attachments` on a kept step leaves that part as it is.
 */
export const stepInputSchema = z
  .strictObject({
    ulid: ulidSchema.optional(),
    position: z.number().int().min(0).max(2_147_483_647).optional(),
    action: z.string().min(1).max(STEP_TEXT_MAX),
    expectedResult: z.string().max(STEP_TEXT_MAX).nullable().optional(),
    // Past ATTACHMENTS_PER_STEP the service answers too_many_attachments; this bound only stops abuse.
    attachments: z.array(attachmentRefSchema).max(100).optional(),
  })
  .meta({ id: 'TestCaseStepInput' });
export type StepInput = z.output<typeof stepInputSchema>;

export const stepsInputSchema = z.array(stepInputSchema).max(STEPS_MAX);

/** PUT …/steps takes `{ steps: [...] }` (an object, so that the body can grow). */
export const putStepsBodySchema = z.strictObject({ steps: stepsInputSchema }).meta({ id: 'PutTestCaseStepsRequest' });

/** Each `value` is checked against its field's definition by the custom-fields service. */
const fieldValuesInputSchema = z.array(fieldValueInputSchema).max(200);

export const createTestCaseBodySchema = z
  .strictObject({
    title,
    suiteUlid: ulidSchema.nullable().optional(),
    description: description.optional(),
    steps: z
      .array(stepInputSchema.omit({ ulid: true }))
      .max(STEPS_MAX)
      .optional(),
    tags: tagsSchema.optional(),
    milestoneUlid: ulidSchema.nullable().optional(),
    automationKey: automationKeySchema.nullable().optional(),
    customFieldValues: fieldValuesInputSchema.optional(),
  })
  .meta({ id: 'CreateTestCaseRequest' });
export type CreateTestCaseInput = z.output<typeof createTestCaseBodySchema>;

export const caseScalarPatchSchema = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    suiteUlid: ulidSchema.nullable().optional(),
    milestoneUlid: ulidSchema.nullable().optional(),
    tags: tagsSchema.optional(),
    automationKey: automationKeySchema.nullable().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'patch must carry at least one of title, description, suiteUlid, milestoneUlid, tags, automationKey',
  });
export type CaseScalarPatch = z.output<typeof caseScalarPatchSchema>;

export const updateTestCaseBodySchema = z
  .strictObject({
    patch: caseScalarPatchSchema.optional(),
    steps: stepsInputSchema.optional(),
    customFieldValues: fieldValuesInputSchema.optional(),
  })
  .refine((body) => body.patch !== undefined || body.steps !== undefined || body.customFieldValues !== undefined, {
    message: 'Provide at least one of patch, steps, customFieldValues',
  })
  .meta({ id: 'UpdateTestCaseRequest' });
export type UpdateTestCaseInput = z.output<typeof updateTestCaseBodySchema>;

export const MERGE_SOURCES_MAX = 100;

export const mergeTestCasesBodySchema = z
  .strictObject({
    targetUlid: ulidSchema.meta({ description: 'The case that stays and receives the history', example: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2E' }),
    sourceUlids: distinctArray(ulidSchema, MERGE_SOURCES_MAX)
      .min(1)
      .meta({ description: `1..${MERGE_SOURCES_MAX} distinct cases folded into the target and archived` }),
  })
  .refine((body) => !body.sourceUlids.includes(body.targetUlid), {
    message: 'The target must not be among the sources',
    path: ['sourceUlids'],
  })
  .meta({ id: 'MergeTestCasesRequest' });
export type MergeTestCasesInput = z.output<typeof mergeTestCasesBodySchema>;

const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

export const testCaseListQuerySchema = cursorQuerySchema.extend({
  suiteUlid: ulidSchema.optional().meta({ description: "Only the suite's own cases (not those of its sub-suites)" }),
  q: searchQuerySchema.shape.q.meta({ description: 'Case-insensitive substring of the title (taken literally)' }),
  tag: z.string().trim().min(1).max(TAG_MAX).optional().meta({ description: 'Only cases carrying this tag (exact match)' }),
  archived: booleanQuery.optional().meta({ description: 'true: archived cases instead of active ones' }),
  automationKey: automationKeySchema.optional().meta({ description: 'Only the case with this automation key (exact, case-sensitive)' }),
});
export type TestCaseListQuery = z.output<typeof testCaseListQuerySchema>;
export type TestCaseFilter = Omit<TestCaseListQuery, 'limit' | 'cursor'>;

export const archivedListQuerySchema = pageQuerySchema();

export const projectPathSchema = z.object({ projectId: z.string().meta({ description: 'The project code' }) });
export const casePathSchema = z.object({ caseUlid: z.string() });
export const displayIdPathSchema = projectPathSchema.extend({ displayId: z.string() });

export const testCaseStepSchema = z
  .object({
    ulid: z.string(),
    position: z.number().int(),
    action: z.string(),
    expectedResult: z.string().nullable(),
    attachments: z.array(stepAttachmentSchema),
  })
  .meta({ id: 'TestCaseStep' });

export const testCaseSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    caseNumber: z.number().int(),
    displayId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    suiteUlid: z.string().nullable(),
    milestoneUlid: z.string().nullable(),
    tags: z.array(z.string()),
    automationKey: z.string().nullable(),
    steps: z.array(testCaseStepSchema),
    customFieldValues: z.array(customFieldValueSchema),
    archivedAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'TestCase' });

export const testCaseCursorPageSchema = cursorPageSchema(testCaseSchema).meta({ id: 'TestCaseCursorPage' });
export const testCasePageSchema = pageSchema(testCaseSchema).meta({ id: 'TestCasePage' });
