import { z } from 'zod';
import { authorSchema } from '../foundation/actors.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { distinctArray, searchQuerySchema, someFieldOf, ulidSchema } from '../kernel/validation.ts';
import { caseAssigneeSchema, runResponseSchema } from '../runs/runs.schemas.ts';

export const PLAN_NAME_MAX = 200;
export const PLAN_DESCRIPTION_MAX = 2000;
export const PLAN_STATUSES = ['draft', 'active', 'completed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
/** The abuse ceiling of a plan's case selection ("Limits"). */
export const PLAN_SELECTION_MAX = 5000;
/** At most this many configuration values in a plan's selection. */
export const PLAN_CONFIGURATIONS_MAX = 200;
/** A configuration selection may not yield more combinations than this (checked on PUT). */
export const PLAN_COMBINATIONS_MAX = 1000;
export const EXCLUDED_COMBO_KEYS_MAX = PLAN_COMBINATIONS_MAX;
/** A comboKey of up to 100 ULIDs joined by ':'. */
const COMBO_KEY_MAX = 100 * 27;

const name = z.string().min(1).max(PLAN_NAME_MAX);
const description = z.string().max(PLAN_DESCRIPTION_MAX).nullable();
const status = z.enum(PLAN_STATUSES);

export const createPlanBodySchema = z
  .strictObject({ name, description: description.optional(), status: status.optional().meta({ description: 'Default draft' }) })
  .meta({ id: 'CreatePlanRequest', description: '`ulid` and `planNumber` are assigned by the service and refused here' });
export type CreatePlanInput = z.output<typeof createPlanBodySchema>;

export const updatePlanBodySchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    status: status.optional(),
    milestoneId: ulidSchema.nullable().optional().meta({ description: "A live milestone of the plan's project; null clears" }),
  })
  .refine(...someFieldOf(['name', 'description', 'status', 'milestoneId']))
  .meta({ id: 'UpdatePlanRequest', description: 'At least one field; description and milestoneId take null to clear' });
export type UpdatePlanInput = z.output<typeof updatePlanBodySchema>;

export const planListQuerySchema = pageQuerySchema(20).extend(searchQuerySchema.shape);
export type PlanListQuery = z.output<typeof planListQuerySchema>;

export const planRunsQuerySchema = pageQuerySchema();
export type PlanRunsQuery = z.output<typeof planRunsQuerySchema>;

export const planPathSchema = z.object({ planUlid: z.string() });
export const planCasePathSchema = z.object({ planUlid: z.string(), planCaseUlid: z.string() });

export const setPlanCasesBodySchema = z
  .strictObject({
    caseUlids: distinctArray(ulidSchema, PLAN_SELECTION_MAX).meta({ description: 'Live cases of the project, in plan order; [] clears' }),
    caseAssignees: z
      .array(caseAssigneeSchema)
      .max(PLAN_SELECTION_MAX)
      .refine((entries) => new Set(entries.map((entry) => entry.caseUlid)).size === entries.length, {
        message: 'must not name a case twice',
      })
      .optional()
      .meta({ description: 'Assignee per listed case (entries for unlisted cases are ignored; a case without one is unassigned)' }),
  })
  .meta({ id: 'SetPlanCasesRequest' });
export type SetPlanCasesInput = z.output<typeof setPlanCasesBodySchema>;

export const assignPlanCaseBodySchema = z
  .strictObject({ assigneeUlid: ulidSchema.nullable().meta({ description: 'An organization member, or null to unassign' }) })
  .meta({ id: 'AssignPlanCaseRequest' });
export type AssignPlanCaseInput = z.output<typeof assignPlanCaseBodySchema>;

export const setPlanConfigurationsBodySchema = z
  .strictObject({
    configurationUlids: distinctArray(ulidSchema, PLAN_CONFIGURATIONS_MAX).meta({
      description: `Live configuration values of the project; [] clears; at most ${PLAN_COMBINATIONS_MAX} combinations`,
    }),
  })
  .meta({ id: 'SetPlanConfigurationsRequest' });
export type SetPlanConfigurationsInput = z.output<typeof setPlanConfigurationsBodySchema>;

export const excludedCombinationsSchema = z
  .strictObject({
    comboKeys: distinctArray(z.string().min(1).max(COMBO_KEY_MAX), EXCLUDED_COMBO_KEYS_MAX).meta({
      description: "comboKeys left out of the plan's combinations; [] clears; a key matching no combination is kept, inert",
    }),
  })
  .meta({ id: 'PlanExcludedCombinations' });
export type ExcludedCombinationsInput = z.output<typeof excludedCombinationsSchema>;

const countsSchema = runResponseSchema.shape.counts;

const progressBucketSchema = z
  .object({
    comboKey: z.string().meta({ description: "The runs' comboKey; '' for runs without configurations" }),
    values: z.array(z.object({ groupName: z.string(), valueName: z.string() })),
    totalRuns: z.number().int(),
    closedRuns: z.number().int(),
    counts: countsSchema,
  })
  .meta({ id: 'PlanProgressBucket' });

export const planProgressSchema = z
  .object({
    totalRuns: z.number().int(),
    closedRuns: z.number().int().meta({ description: 'Runs in state closed (aborted ones included)' }),
    counts: countsSchema,
    byConfiguration: z.array(progressBucketSchema).meta({ description: 'One bucket per comboKey, by comboKey; empty without runs' }),
  })
  .meta({ id: 'PlanProgress', description: "Computed at read time from the counters of the plan's runs" });

export const planSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    planNumber: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    author: authorSchema.nullable(),
    caseCount: z.number().int().meta({ description: 'Live (not archived) cases in the selection' }),
    status: status,
    milestoneUlid: z.string().nullable(),
    milestone: z.object({ ulid: z.string(), name: z.string() }).nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Plan' });

export const planDetailSchema = planSchema.extend({ progress: planProgressSchema }).meta({ id: 'PlanDetail' });

export const planPageSchema = pageSchema(planSchema).meta({ id: 'PlanPage' });

export const planCaseSchema = z
  .object({
    ulid: z.string().meta({ description: 'The selection row' }),
    caseUlid: z.string(),
    displayId: z.string(),
    title: z.string(),
    suiteName: z.string().nullable(),
    position: z.number().int(),
    assigneeUlid: z.string().nullable(),
  })
  .meta({ id: 'PlanCase' });

export const planCasesSchema = z.object({ items: z.array(planCaseSchema) }).meta({ id: 'PlanCases' });

export const planConfigurationSchema = z
  .object({ configurationUlid: z.string(), groupUlid: z.string(), groupName: z.string(), valueName: z.string() })
  .meta({ id: 'PlanConfiguration' });

export const planConfigurationsSchema = z
  .object({ items: z.array(planConfigurationSchema) })
  .meta({ id: 'PlanConfigurations', description: 'By group position, then value position' });

export const planCombinationsSchema = z
  .object({
    items: z.array(
      z
        .object({
          comboKey: z.string(),
          values: z.array(z.object({ groupUlid: z.string(), groupName: z.string(), configurationUlid: z.string(), valueName: z.string() })),
          included: z.boolean(),
        })
        .meta({ id: 'PlanCombination' }),
    ),
    totalCount: z.number().int(),
    includedCount: z.number().int(),
  })
  .meta({ id: 'PlanCombinations' });

export const planRunPageSchema = pageSchema(runResponseSchema).meta({ id: 'PlanRunPage' });
