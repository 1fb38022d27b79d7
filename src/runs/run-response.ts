import { z } from 'zod';
import { authorSchema, toAuthor } from '../actors.ts';
import { customFieldValueSchema, type CustomFieldValue } from '../custom-fields/field-values.ts';
import type { Prisma } from '../database/client.ts';
import { epochMsOrNull } from '../ids.ts';

/**
 * What every run read loads with the run row. The relations are whole rows, so that GraphQL can
 * answer any selection of them from a run a service returned.
 */
export const RUN_INCLUDE = {
  configurations: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  environment: true,
  milestone: true,
} satisfies Prisma.TestRunInclude;

export type RunRecord = Prisma.TestRunGetPayload<{ include: typeof RUN_INCLUDE }>;

type CounterColumns = Pick<
  RunRecord,
  'countPassed' | 'countFailed' | 'countBlocked' | 'countSkipped' | 'countUntested' | 'countRetested'
>;
type StateColumns = Pick<RunRecord, 'state' | 'abortedAt'>;

export const PROJECTED_STATUSES = ['in_progress', 'passed', 'failed'] as const;
export type ProjectedStatus = (typeof PROJECTED_STATUSES)[number] | 'aborted';

/**
 * The derived status: an open run is in_progress; a closed run failed when any case failed or is
 * blocked, else passed; an aborted run is aborted. `projectedStatusWhere` is the same rule as a filter.
 */
export function projectedStatus(run: CounterColumns & StateColumns): ProjectedStatus {
  if (run.abortedAt) return 'aborted';
  if (run.state === 'open') return 'in_progress';
  return run.countFailed + run.countBlocked > 0 ? 'failed' : 'passed';
}

export function projectedStatusWhere(status: (typeof PROJECTED_STATUSES)[number]): Prisma.TestRunWhereInput {
  switch (status) {
    case 'in_progress':
      return { state: 'open' };
    case 'passed':
      return { state: 'closed', abortedAt: null, countFailed: 0, countBlocked: 0 };
    case 'failed':
      return { state: 'closed', abortedAt: null, OR: [{ countFailed: { gt: 0 } }, { countBlocked: { gt: 0 } }] };
  }
}

/** `{ passed, failed, blocked, skipped, untested }`: a case to be retested counts as untested. */
export const runCounts = (run: CounterColumns) => ({
  passed: run.countPassed,
  failed: run.countFailed,
  blocked: run.countBlocked,
  skipped: run.countSkipped,
  untested: run.countUntested + run.countRetested,
});

export const runTotal = (run: CounterColumns) =>
  run.countPassed + run.countFailed + run.countBlocked + run.countSkipped + run.countUntested + run.countRetested;

/** The legacy progress counters: `total`, `executed` (cases with an outcome) and `passRate` (passed ÷ total, a percentage with two decimals). */
export function runProgress(run: CounterColumns) {
  const total = runTotal(run);
  return {
    total,
    executed: total - runCounts(run).untested,
    passRate: total === 0 ? 0 : Math.round((run.countPassed / total) * 10000) / 100,
  };
}

/** `runAggregates` of run.closed, run.aborted and run.deleted. */
export function runAggregates(run: CounterColumns & StateColumns & Pick<RunRecord, 'totalDurationMs'>) {
  const counts = runCounts(run);
  return {
    countPassed: counts.passed,
    countFailed: counts.failed,
    countBlocked: counts.blocked,
    countSkipped: counts.skipped,
    countUntested: counts.untested,
    totalDurationMs: Number(run.totalDurationMs),
    projectedStatus: projectedStatus(run),
  };
}

export function toRunResponse(run: RunRecord) {
  return {
    ulid: run.id,
    projectUlid: run.projectId,
    planUlid: run.planId,
    name: run.name,
    description: run.description,
    state: run.state as 'open' | 'closed',
    status: projectedStatus(run),
    closedAt: epochMsOrNull(run.closedAt),
    abortedAt: epochMsOrNull(run.abortedAt),
    defaultAssigneeUlid: run.defaultAssigneeId,
    milestoneUlid: run.milestoneId,
    milestone: run.milestone ? { ulid: run.milestone.id, name: run.milestone.name } : null,
    environmentId: run.environmentId,
    environment: run.environment ? { ulid: run.environment.id, name: run.environment.name, slug: run.environment.slug } : null,
    environmentName: run.environmentName,
    comboKey: run.comboKey,
    configurations: run.configurations.map((each) => ({
      ulid: each.id,
      configurationUlid: each.configurationId,
      groupName: each.groupName,
      valueName: each.valueName,
    })),
    ...runProgress(run),
    counts: runCounts(run),
    firstResultAt: epochMsOrNull(run.firstResultAt),
    lastResultAt: epochMsOrNull(run.lastResultAt),
    totalDurationMs: Number(run.totalDurationMs),
    author: toAuthor(run),
    createdAt: run.createdAt.getTime(),
    updatedAt: run.updatedAt.getTime(),
  };
}

export type RunResponse = ReturnType<typeof toRunResponse>;

/** The single-run GET: RunResponse with the run's custom field values. */
export const withFieldValues = (run: RunRecord, customFieldValues: CustomFieldValue[]) => ({
  ...toRunResponse(run),
  customFieldValues,
});

const countsSchema = z
  .object({ passed: z.number().int(), failed: z.number().int(), blocked: z.number().int(), skipped: z.number().int(), untested: z.number().int() })
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

export const runDetailSchema = runResponseSchema
  .extend({ customFieldValues: z.array(customFieldValueSchema) })
  .meta({ id: 'RunDetail' });
