import { z } from 'zod';
import { fromValidationIssues } from '../kernel/errors.ts';
import { MAX_PAGE_SIZE, pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { LAST_RENDERABLE_MS, queryInteger, ulidSchema } from '../kernel/validation.ts';

export const DAY_MS = 86_400_000;
/** The longest window a report covers. */
export const WINDOW_MAX_DAYS = 366;
/** A window, and the look-back of failing, slowest and coverage, when none is given. */
export const DEFAULT_DAYS = 30;
export const LAST_RESULTS_MAX = 100;
/** What a failing or slowest item shows of the last failure's comment. */
export const FAILURE_MESSAGE_MAX = 500;

export const BUCKETS = ['day', 'week'] as const;
export type Bucket = (typeof BUCKETS)[number];

// Every name Intl knows is one PostgreSQL's time zone database knows too (on the server and the embedded database).
const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

const epochMs = (description: string) => queryInteger(0, LAST_RENDERABLE_MS).optional().meta({ description });

/** What narrows a report to part of the project: runs of a plan, of a milestone, or listed ones (together, all of them). */
export const reportScopeQuerySchema = z.object({
  planUlid: ulidSchema.optional().meta({ description: "Only the plan's runs" }),
  milestoneId: ulidSchema
    .optional()
    .meta({ description: "Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID)" }),
  runUlids: z
    .string()
    .max(MAX_PAGE_SIZE * 27)
    .transform((csv) => [...new Set(csv.split(',').map((token) => token.trim()))])
    .pipe(z.array(ulidSchema).max(MAX_PAGE_SIZE))
    .optional()
    .meta({ description: `Only these runs: comma-separated run ULIDs, at most ${MAX_PAGE_SIZE}` }),
});
export type ReportScopeQuery = z.output<typeof reportScopeQuerySchema>;

export const reportWindowQuerySchema = z.object({
  from: epochMs(`Start of the window, epoch ms, inclusive (default: ${DEFAULT_DAYS} days before \`to\`)`),
  to: epochMs(`End of the window, epoch ms, exclusive (default: now); at most ${WINDOW_MAX_DAYS} days after \`from\``),
  bucket: z.enum(BUCKETS).optional().default('day').meta({ description: 'day, or week (weeks start on Monday)' }),
  timeZone: z
    .string()
    .max(100)
    .refine((name) => TIME_ZONES.has(name), 'must be an IANA time zone name, such as Europe/Madrid, or UTC')
    .optional()
    .default('UTC')
    .meta({ description: 'The IANA time zone whose days and weeks the buckets are' }),
});
export type ReportWindowQuery = z.output<typeof reportWindowQuerySchema>;

/** The window of a report, its defaults applied. */
export type ReportWindow = { from: Date; to: Date; bucket: Bucket; timeZone: string };

/** The window `query` asks for, `now` filling what it leaves out; a window that is empty, reversed or too long is a 422. */
export function reportWindowOf(query: ReportWindowQuery, now: number): ReportWindow {
  const to = query.to ?? now;
  const from = query.from ?? to - DEFAULT_DAYS * DAY_MS;
  const refuse = (message: string) => {
    throw fromValidationIssues([{ path: [query.from === undefined ? 'to' : 'from'], message }], 'query');
  };
  if (from >= to) refuse('the window must start before it ends (`from` < `to`)');
  if (to - from > WINDOW_MAX_DAYS * DAY_MS) refuse(`the window must not be longer than ${WINDOW_MAX_DAYS} days`);
  return { from: new Date(from), to: new Date(to), bucket: query.bucket, timeZone: query.timeZone };
}

/** trend, burn-up and defects: a scope and a window. */
export const windowedQuerySchema = reportScopeQuerySchema.extend(reportWindowQuerySchema.shape);

/** failing and slowest: over the last `limit` days, or each case's last `lastResults` results. */
export const caseResultsQuerySchema = pageQuerySchema()
  .extend(reportScopeQuerySchema.shape)
  .extend({
    limit: queryInteger(1, WINDOW_MAX_DAYS)
      .optional()
      .default(DEFAULT_DAYS)
      .meta({ description: `The days looked back, 1..${WINDOW_MAX_DAYS}` }),
    lastResults: queryInteger(1, LAST_RESULTS_MAX)
      .optional()
      .meta({ description: `Instead of days: each case's last results, 1..${LAST_RESULTS_MAX}, whenever they were` }),
  });
export type CaseResultsQuery = z.output<typeof caseResultsQuerySchema>;

export const coverageQuerySchema = pageQuerySchema()
  .extend(reportScopeQuerySchema.shape)
  .extend({ since: epochMs(`The instant notExecutedSince counts from, epoch ms (default: ${DEFAULT_DAYS} days ago)`) });
export type CoverageQuery = z.output<typeof coverageQuerySchema>;

/** The answer's echo of the window, its defaults applied. */
const windowSchema = {
  from: z.number().int(),
  to: z.number().int(),
  bucket: z.enum(BUCKETS),
  timeZone: z.string(),
};
const bucketStart = z
  .number()
  .int()
  .meta({ description: 'Epoch ms of the start of the day or week in the time zone (the first one may start before `from`)' });

export const trendBucketSchema = z
  .object({
    start: bucketStart,
    passed: z.number().int(),
    failed: z.number().int(),
    blocked: z.number().int(),
    skipped: z.number().int(),
    untested: z.number().int().meta({ description: 'Results that set a case back to untested (or to be retested)' }),
    passRate: z.number().nullable().meta({ description: 'passed / (passed + failed + blocked); null when that is 0' }),
    executedCases: z.number().int().meta({ description: 'Distinct cases with a passed, failed, blocked or skipped result' }),
    automated: z.number().int().meta({ description: 'Results written by API tokens or imports' }),
    manual: z.number().int().meta({ description: 'Results written by people' }),
    runsOpened: z.number().int(),
    runsClosed: z.number().int(),
  })
  .meta({ id: 'TrendBucket', description: 'The results (attempts) executed in one bucket, and the runs opened and closed in it' });
export type TrendBucket = z.output<typeof trendBucketSchema>;

export const trendReportSchema = z.object({ ...windowSchema, buckets: z.array(trendBucketSchema) }).meta({ id: 'TrendReport' });
export type TrendReport = z.output<typeof trendReportSchema>;

export const burnUpPointSchema = z
  .object({
    start: bucketStart,
    end: z.number().int().meta({ description: 'Epoch ms of the bucket end (at most `to`): the counts are as they stood then' }),
    totalRuns: z.number().int(),
    closedRuns: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    blocked: z.number().int(),
    skipped: z.number().int(),
    untested: z.number().int(),
  })
  .meta({ id: 'BurnUpPoint', description: "The progress counts of the runs' cases at the end of one bucket" });
export type BurnUpPoint = z.output<typeof burnUpPointSchema>;

export const burnUpReportSchema = z.object({ ...windowSchema, points: z.array(burnUpPointSchema) }).meta({ id: 'BurnUpReport' });
export type BurnUpReport = z.output<typeof burnUpReportSchema>;

export const defectBucketSchema = z
  .object({
    start: bucketStart,
    opened: z.number().int().meta({ description: 'Defects created in the bucket' }),
    resolved: z.number().int().meta({ description: 'Defects whose status went from open or in_progress to resolved or closed' }),
    open: z.number().int().meta({ description: "Defects open or in progress at the bucket's end" }),
  })
  .meta({ id: 'DefectBucket' });
export type DefectBucket = z.output<typeof defectBucketSchema>;

export const defectReportSchema = z.object({ ...windowSchema, buckets: z.array(defectBucketSchema) }).meta({ id: 'DefectReport' });
export type DefectReport = z.output<typeof defectReportSchema>;

export const caseResultStatsSchema = z
  .object({
    caseUlid: z.string(),
    displayId: z.string(),
    title: z.string(),
    suitePath: z.array(z.string()).meta({ description: "The names of the case's suite and its parents, root first" }),
    results: z.number().int().meta({ description: 'Passed, failed, blocked and skipped results looked at' }),
    failures: z.number().int().meta({ description: 'Failed results (each failed attempt counts)' }),
    failureRate: z.number().nullable().meta({ description: 'failures / (passed + failed + blocked); null when that is 0' }),
    lastFailureMessage: z
      .string()
      .nullable()
      .meta({ description: `The comment of the latest failed result, clipped to ${FAILURE_MESSAGE_MAX} characters` }),
    p50ElapsedMs: z.number().int().nullable().meta({ description: 'Median elapsedMs of the results that have one' }),
    p95ElapsedMs: z.number().int().nullable().meta({ description: '95th percentile of elapsedMs of the results that have one' }),
  })
  .meta({ id: 'CaseResultStats' });
export type CaseResultStats = z.output<typeof caseResultStatsSchema>;

export const caseResultStatsPageSchema = pageSchema(caseResultStatsSchema).meta({ id: 'CaseResultStatsPage' });
export type CaseResultStatsPage = z.output<typeof caseResultStatsPageSchema>;

export const coverageCountsSchema = z
  .object({
    cases: z.number().int().meta({ description: 'Cases not archived' }),
    neverExecuted: z.number().int().meta({ description: 'Cases without a passed, failed, blocked or skipped result' }),
    notExecutedSince: z.number().int().meta({ description: 'Cases without such a result since `since` (those never executed included)' }),
    withoutAutomationKey: z.number().int(),
  })
  .meta({ id: 'CoverageCounts' });
export type CoverageCounts = z.output<typeof coverageCountsSchema>;

export const coverageSuiteSchema = z
  .object({
    suite: z
      .object({ ulid: z.string(), displayId: z.string(), path: z.array(z.string()) })
      .nullable()
      .meta({ description: 'null for the cases in no suite' }),
    ...coverageCountsSchema.shape,
  })
  .meta({ id: 'CoverageSuite' });
export type CoverageSuite = z.output<typeof coverageSuiteSchema>;

export const coverageReportSchema = pageSchema(coverageSuiteSchema)
  .extend({ since: z.number().int(), totals: coverageCountsSchema })
  .meta({ id: 'CoverageReport', description: 'Suites with cases, in tree order (cases in no suite last), a page of them' });
export type CoverageReport = z.output<typeof coverageReportSchema>;
