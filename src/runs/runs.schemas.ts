import { z } from 'zod';
import { customFieldValueSchema, fieldValueInputSchema } from '../custom-fields/field-values.service.ts';
import { authorSchema } from '../foundation/actors.ts';
import { ULID_PATTERN } from '../kernel/ids.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { CASE_STATUSES } from '../kernel/statuses.ts';
import { distinctArray, searchQuerySchema, someFieldOf, ulidSchema } from '../kernel/validation.ts';

/** The per-status case counters kept on every run row. */
export type RunCounters = {
  countPassed: number;
  countFailed: number;
  countBlocked: number;
  countSkipped: number;
  countUntested: number;
  countRetested: number;
};
type RunState = { state: string; abortedAt: Date | null };

export const PROJECTED_STATUSES = ['in_progress', 'passed', 'failed'] as const;
export type ProjectedStatus = (typeof PROJECTED_STATUSES)[number] | 'aborted';

/**
 * The derived status: an open run is in_progress; a closed run failed when any case failed or is
 * blocked, else passed; an aborted run is aborted. internal/run-record.ts has the same rule as a filter.
 */
export function projectedStatus(run: RunCounters & RunState): ProjectedStatus {
  if (run.abortedAt) return 'aborted';
  if (run.state === 'open') return 'in_progress';
  return run.countFailed + run.countBlocked > 0 ? 'failed' : 'passed';
}

/** `{ passed, failed, blocked, skipped, untested }`: a case to be retested counts as untested. */
export const runCounts = (run: RunCounters) => ({
  passed: run.countPassed,
  failed: run.countFailed,
  blocked: run.countBlocked,
  skipped: run.countSkipped,
  untested: run.countUntested + run.countRetested,
});

export const runTotal = (run: RunCounters) =>
  run.countPassed + run.countFailed + run.countBlocked + run.countSkipped + run.countUntested + run.countRetested;

/** The legacy progress counters: `total`, `executed` (cases with an outcome) and `passRate` (passed ÷ total, a percentage with two decimals). */
export function runProgress(run: RunCounters) {
  const total = runTotal(run);
  return {
    total,
    executed: total - runCounts(run).untested,
    passRate: total === 0 ? 0 : Math.round((run.countPassed / total) * 10000) / 100,
  };
}

export const countsSchema = z
  .object({
    passed: z.number().int(),
    failed: z.number().int(),
    blocked: z.number().int(),
    skipped: z.number().int(),
    untested: z.number().int(),
  })
  .meta({ id: 'StatusCounts', description: 'Cases per status; a case to be retested counts as untested; the sum is total' });

export const runResponseSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    planUlid: z.string().nullable().meta({ description: 'The plan the run was generated from' }),
    name: z.string(),
    description: z.string().nullable(),
    state: z.enum(['open', 'closed']),
    status: z.enum([...PROJECTED_STATUSES, 'aborted']).meta({
      description: 'Derived: in_progress while open; closed runs passed, or failed when a case failed or is blocked; aborted',
    }),
    closedAt: z.number().int().nullable(),
    abortedAt: z.number().int().nullable(),
    defaultAssigneeUlid: z.string().nullable(),
    milestoneUlid: z.string().nullable(),
    milestone: z.object({ ulid: z.string(), name: z.string() }).nullable(),
    environmentId: z.string().nullable(),
    environment: z.object({ ulid: z.string(), name: z.string(), slug: z.string() }).nullable(),
    environmentName: z.string().nullable().meta({ description: 'Deprecated legacy free-text environment' }),
    comboKey: z.string().meta({ description: "The run's configuration value ULIDs sorted and joined by ':' ('' when none)" }),
    configurations: z.array(
      z.object({ ulid: z.string(), configurationUlid: z.string().nullable(), groupName: z.string(), valueName: z.string() }),
    ),
    total: z.number().int(),
    executed: z.number().int().meta({ description: 'Cases with an outcome (total minus untested)' }),
    passRate: z.number().meta({ description: 'Passed cases as a percentage of total, two decimals; 0 without cases' }),
    counts: countsSchema,
    firstResultAt: z.number().int().nullable(),
    lastResultAt: z.number().int().nullable(),
    totalDurationMs: z.number().int(),
    author: authorSchema.nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'RunResponse' });

export const runDetailSchema = runResponseSchema.extend({ customFieldValues: z.array(customFieldValueSchema) }).meta({ id: 'RunDetail' });

export const RUN_NAME_MAX = 200;
export const RUN_DESCRIPTION_MAX = 2000;
/** The most cases one run takes at creation, as many as a plan's selection. */
export const RUN_CASES_MAX = 5000;

const distinctUlids = (max: number) => distinctArray(ulidSchema, max);

export const caseAssigneeSchema = z
  .strictObject({ caseUlid: ulidSchema, assigneeUlid: ulidSchema.nullable() })
  .meta({ id: 'CaseAssignee' });

const name = z.string().min(1).max(RUN_NAME_MAX);
const description = z.string().max(RUN_DESCRIPTION_MAX).nullable();
const configurationUlids = distinctUlids(100);

export const createRunBodySchema = z
  .strictObject({
    name,
    description: description.optional(),
    defaultAssigneeUlid: ulidSchema.nullable().optional().meta({
      description: "Assignee of cases with no other; without it, the project's defaultAssigneeUserId setting",
    }),
    milestoneId: ulidSchema.nullable().optional().meta({ description: 'A live milestone of the project' }),
    environmentId: ulidSchema.nullable().optional().meta({ description: 'A live environment of the project; wins over environment' }),
    environment: z.string().min(1).max(100).optional().meta({
      description: 'Deprecated free text: finds or creates the environment with its slug when environmentId is absent',
    }),
    caseUlids: distinctUlids(RUN_CASES_MAX)
      .optional()
      .meta({ description: 'Live cases of the project, in run order; may be omitted with planUlid' }),
    caseAssignees: z.array(caseAssigneeSchema).max(RUN_CASES_MAX).optional().meta({
      description: 'Per-case assignees: the first source of a case assignee, before the plan and defaultAssigneeUlid',
    }),
    planUlid: ulidSchema.optional().meta({ description: 'A live plan of the project; without caseUlids its selection seeds the run' }),
    configurationUlids: configurationUlids.optional().meta({
      description: "One value per configuration group; with planUlid, a combination of the plan's configuration selection",
    }),
    customFieldValues: z.array(fieldValueInputSchema).max(200).optional(),
  })
  .refine((body) => body.caseUlids !== undefined || body.planUlid !== undefined, {
    message: 'caseUlids may be omitted only when planUlid is given',
    path: ['caseUlids'],
  })
  .meta({ id: 'CreateRunRequest' });
export type CreateRunInput = z.output<typeof createRunBodySchema>;

export const updateRunBodySchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    defaultAssigneeUlid: ulidSchema.nullable().optional().meta({ description: 'A member of the organization; null clears it' }),
    environmentId: ulidSchema.nullable().optional().meta({ description: 'A live environment of the project; null unlinks' }),
    milestoneId: ulidSchema.nullable().optional().meta({ description: 'A live milestone of the project; null clears it' }),
    configurationUlids: configurationUlids.optional().meta({
      description: 'Live values of the project, at most one per group; replaces the snapshot and the comboKey',
    }),
  })
  .refine(...someFieldOf(['name', 'description', 'defaultAssigneeUlid', 'environmentId', 'milestoneId', 'configurationUlids']))
  .meta({ id: 'UpdateRunRequest', description: 'At least one field; free-text `environment` is not accepted' });
export type UpdateRunInput = z.output<typeof updateRunBodySchema>;

export const cloneRunBodySchema = z
  .strictObject({
    title: name.refine((title) => title.trim() !== '', 'must not be blank').meta({ description: 'Name of the new run' }),
    cloneAssignees: z.boolean().optional().meta({ description: 'Each case keeps its assignee (if still a member); default false' }),
    statusFilter: z.array(z.enum(CASE_STATUSES)).max(CASE_STATUSES.length).optional().meta({
      description: 'Clone only the cases in these statuses (untested includes retested); omitted or empty: every case',
    }),
  })
  .meta({ id: 'CloneRunRequest' });
export type CloneRunInput = z.output<typeof cloneRunBodySchema>;

/** A query parameter that may be given once or repeated: always a list. */
const repeatable = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
    .optional()
    .transform((value) => (value === undefined ? [] : [value].flat()))
    .pipe(z.array(item).max(50));

const CF_ENTRY = new RegExp(`^(${ULID_PATTERN.source.slice(1, -1)}):([^,]+(?:,[^,]+)*)$`);

/** One `cf` entry, `<fieldUlid>:<value[,value]>`. */
export type FieldFilter = { fieldUlid: string; values: string[] };

const fieldFilterSchema = z
  .string()
  .max(2000)
  .regex(CF_ENTRY, 'must be <fieldUlid>:<value[,value]>')
  .transform((entry): FieldFilter => {
    const [, fieldUlid, values] = CF_ENTRY.exec(entry)!;
    return { fieldUlid: fieldUlid!, values: [...new Set(values!.split(','))] };
  });

/** The run list filters of "Runs" (REST query and the GraphQL connection's arguments). */
export const runFilterSchema = searchQuerySchema.extend({
  status: z
    .union([z.string().max(200), z.array(z.string().max(200)).max(50)])
    .optional()
    .transform((value) =>
      [value ?? []]
        .flat()
        .flatMap((part) => part.split(','))
        .filter((token) => token !== ''),
    )
    .pipe(z.array(z.enum(PROJECTED_STATUSES)).max(50))
    .meta({ description: 'CSV (or repeated) of in_progress, passed, failed' }),
  env: repeatable(z.string().max(200))
    .transform((values) => values.filter((value) => value !== ''))
    .meta({
      description:
        'Repeatable, OR-ed; an environment ULID matches the linked environment, other text the legacy text exactly; empty values are ignored',
    }),
  authorUlid: ulidSchema.optional().meta({ description: 'Runs created by this user in a session (token-authored runs never match)' }),
  assigneeUlid: z
    .union([z.literal(''), ulidSchema])
    .optional()
    .meta({
      description: 'Runs with this default assignee; empty: runs without one',
    }),
  cf: repeatable(fieldFilterSchema).meta({
    description:
      'Repeatable <fieldUlid>:<value[,value]> (OR within, AND across): option ULIDs, true/false, user ULIDs, or `empty` (no stored value)',
  }),
});
export type RunFilter = z.output<typeof runFilterSchema>;

export const runListQuerySchema = pageQuerySchema().extend(runFilterSchema.shape);
export type RunListQuery = z.output<typeof runListQuerySchema>;

export const runPageSchema = pageSchema(runResponseSchema).meta({ id: 'RunPage' });

export const legacyEnvironmentsSchema = z
  .object({ items: z.array(z.string()) })
  .meta({ id: 'LegacyRunEnvironments', description: 'Distinct non-empty legacy environment texts, ascending' });

export const runPathSchema = z.object({ runUlid: z.string() });
export const projectRunPathSchema = z.object({ projectId: z.string().meta({ description: 'The project code' }), runUlid: z.string() });
