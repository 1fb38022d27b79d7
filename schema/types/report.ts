import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { validate } from '../../src/kernel/validation.ts';
import {
  BUCKETS,
  type BurnUpPoint,
  type BurnUpReport,
  type CaseResultStats,
  type CaseResultStatsPage,
  type CoverageCounts,
  type CoverageReport,
  type CoverageSuite,
  caseResultsQuerySchema,
  coverageQuerySchema,
  DEFAULT_DAYS,
  type DefectBucket,
  type DefectReport,
  LAST_RESULTS_MAX,
  reportScopeQuerySchema,
  reportWindowQuerySchema,
  type TrendBucket,
  type TrendReport,
  WINDOW_MAX_DAYS,
} from '../../src/reports/reports.schemas.ts';
import {
  burnUpsOf,
  coveragesOf,
  defectFlowsOf,
  failingCasesOf,
  milestoneScope,
  planScope,
  projectScope,
  type Report,
  type ReportScope,
  slowestCasesOf,
  trendsOf,
} from '../../src/reports/reports.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { type GraphQLContext, requestOf } from '../context.ts';

// Reports are plain data shaped once per scope by the services (REST answers the same objects):
// fields read properties, and epoch ms become the Timestamp scalar's dates.

/**
 * `report` batched per request: the scopes of a response asked for with the same arguments are
 * read in one call (one statement), so a page of projects or plans costs what one does.
 */
function batched<Q, R>(report: Report<Q, R>) {
  const loaders = createContextCache((_context: GraphQLContext) => new Map<string, DataLoader<ReportScope, R, string>>());
  return (context: GraphQLContext, scope: ReportScope, query: Q): Promise<R> => {
    const byQuery = loaders(context);
    const key = JSON.stringify(query);
    let loader = byQuery.get(key);
    if (!loader) {
      loader = new DataLoader((scopes) => report(requestOf(context), [...scopes], query), { cacheKeyFn: (scope) => JSON.stringify(scope) });
      byQuery.set(key, loader);
    }
    return loader.load(scope);
  };
}

const loadTrend = batched(trendsOf);
const loadBurnUp = batched(burnUpsOf);
const loadDefects = batched(defectFlowsOf);
const loadFailing = batched(failingCasesOf);
const loadSlowest = batched(slowestCasesOf);
const loadCoverage = batched(coveragesOf);

type Windowed = { from: number; to: number; bucket: string; timeZone: string };

const WindowedReport = builder.interfaceRef<Windowed>('WindowedReport').implement({
  description: 'A report over the days or weeks of a window, its defaults applied',
  fields: (t) => ({
    from: t.field({ type: 'Timestamp', description: 'Inclusive', resolve: (report) => new Date(report.from) }),
    to: t.field({ type: 'Timestamp', description: 'Exclusive', resolve: (report) => new Date(report.to) }),
    bucket: t.exposeString('bucket', { description: 'day or week' }),
    timeZone: t.exposeString('timeZone'),
  }),
});

const bucketStart = { description: 'The start of the day or week in the time zone (the first may start before `from`)' };

const TrendBucketRef = builder.objectRef<TrendBucket>('TrendBucket').implement({
  description: 'The results (attempts) executed in one bucket, and the runs opened and closed in it',
  fields: (t) => ({
    start: t.field({ type: 'Timestamp', ...bucketStart, resolve: (bucket) => new Date(bucket.start) }),
    passed: t.exposeInt('passed'),
    failed: t.exposeInt('failed'),
    blocked: t.exposeInt('blocked'),
    skipped: t.exposeInt('skipped'),
    untested: t.exposeInt('untested', { description: 'Results that set a case back to untested (or to be retested)' }),
    passRate: t.exposeFloat('passRate', { nullable: true, description: 'passed / (passed + failed + blocked); null when that is 0' }),
    executedCases: t.exposeInt('executedCases', { description: 'Distinct cases with a passed, failed, blocked or skipped result' }),
    automated: t.exposeInt('automated', { description: 'Results written by API tokens or imports' }),
    manual: t.exposeInt('manual', { description: 'Results written by people' }),
    runsOpened: t.exposeInt('runsOpened'),
    runsClosed: t.exposeInt('runsClosed'),
  }),
});

const TrendReportRef = builder.objectRef<TrendReport>('TrendReport').implement({
  interfaces: [WindowedReport],
  fields: (t) => ({ buckets: t.expose('buckets', { type: [TrendBucketRef] }) }),
});

const BurnUpPointRef = builder.objectRef<BurnUpPoint>('BurnUpPoint').implement({
  description: "The progress counts of the runs' cases at the end of one bucket",
  fields: (t) => ({
    start: t.field({ type: 'Timestamp', ...bucketStart, resolve: (point) => new Date(point.start) }),
    end: t.field({ type: 'Timestamp', description: 'The bucket end (at most `to`)', resolve: (point) => new Date(point.end) }),
    totalRuns: t.exposeInt('totalRuns'),
    closedRuns: t.exposeInt('closedRuns'),
    passed: t.exposeInt('passed'),
    failed: t.exposeInt('failed'),
    blocked: t.exposeInt('blocked'),
    skipped: t.exposeInt('skipped'),
    untested: t.exposeInt('untested'),
  }),
});

const BurnUpReportRef = builder.objectRef<BurnUpReport>('BurnUpReport').implement({
  interfaces: [WindowedReport],
  fields: (t) => ({ points: t.expose('points', { type: [BurnUpPointRef] }) }),
});

const DefectBucketRef = builder.objectRef<DefectBucket>('DefectBucket').implement({
  fields: (t) => ({
    start: t.field({ type: 'Timestamp', ...bucketStart, resolve: (bucket) => new Date(bucket.start) }),
    opened: t.exposeInt('opened', { description: 'Defects created in the bucket' }),
    resolved: t.exposeInt('resolved', {
      description: 'Defects that became resolved or closed (from open or in_progress, or when created)',
    }),
    open: t.exposeInt('open', { description: "Defects open or in progress at the bucket's end" }),
  }),
});

const DefectReportRef = builder.objectRef<DefectReport>('DefectReport').implement({
  interfaces: [WindowedReport],
  fields: (t) => ({ buckets: t.expose('buckets', { type: [DefectBucketRef] }) }),
});

const CaseResultStatsRef = builder.objectRef<CaseResultStats>('CaseResultStats').implement({
  fields: (t) => ({
    caseUlid: t.exposeString('caseUlid'),
    displayId: t.exposeString('displayId'),
    title: t.exposeString('title'),
    suitePath: t.exposeStringList('suitePath', { description: "The names of the case's suite and its parents, root first" }),
    results: t.exposeInt('results', { description: 'Passed, failed, blocked and skipped results looked at' }),
    failures: t.exposeInt('failures', { description: 'Failed results (each failed attempt counts)' }),
    failureRate: t.exposeFloat('failureRate', { nullable: true, description: 'failures / (passed + failed + blocked)' }),
    lastFailureMessage: t.exposeString('lastFailureMessage', {
      nullable: true,
      description: 'The comment of the latest failed result, clipped to 500 characters',
    }),
    p50ElapsedMs: t.exposeInt('p50ElapsedMs', { nullable: true }),
    p95ElapsedMs: t.exposeInt('p95ElapsedMs', { nullable: true }),
  }),
});

const CaseResultStatsPageRef = builder.objectRef<CaseResultStatsPage>('CaseResultStatsPage').implement({
  fields: (t) => ({
    items: t.expose('items', { type: [CaseResultStatsRef] }),
    page: t.exposeInt('page'),
    pageSize: t.exposeInt('pageSize'),
    total: t.exposeInt('total'),
  }),
});

const CoverageCountsRef = builder.interfaceRef<CoverageCounts>('CoverageCounts').implement({
  fields: (t) => ({
    cases: t.exposeInt('cases', { description: 'Cases not archived' }),
    neverExecuted: t.exposeInt('neverExecuted', { description: 'Cases without a passed, failed, blocked or skipped result' }),
    notExecutedSince: t.exposeInt('notExecutedSince', { description: 'Cases without one since `since` (those never executed included)' }),
    withoutAutomationKey: t.exposeInt('withoutAutomationKey'),
  }),
});

const CoverageTotalsRef = builder
  .objectRef<CoverageCounts>('CoverageTotals')
  .implement({ interfaces: [CoverageCountsRef], fields: () => ({}) });

const ReportSuiteRef = builder.objectRef<NonNullable<CoverageSuite['suite']>>('ReportSuite').implement({
  fields: (t) => ({
    ulid: t.exposeString('ulid'),
    displayId: t.exposeString('displayId'),
    path: t.exposeStringList('path', { description: 'The names of the suite and its parents, root first' }),
  }),
});

const CoverageSuiteRef = builder.objectRef<CoverageSuite>('CoverageSuite').implement({
  interfaces: [CoverageCountsRef],
  fields: (t) => ({
    suite: t.expose('suite', { type: ReportSuiteRef, nullable: true, description: 'null for the cases in no suite' }),
  }),
});

const CoverageReportRef = builder.objectRef<CoverageReport>('CoverageReport').implement({
  description: 'Suites with cases in tree order (cases in no suite last), a page of them',
  fields: (t) => ({
    since: t.field({ type: 'Timestamp', resolve: (report) => new Date(report.since) }),
    totals: t.expose('totals', { type: CoverageTotalsRef }),
    items: t.expose('items', { type: [CoverageSuiteRef] }),
    page: t.exposeInt('page'),
    pageSize: t.exposeInt('pageSize'),
    total: t.exposeInt('total'),
  }),
});

const Reports = builder.objectRef<ReportScope>('Reports').implement({
  description: 'The reports of a project, a plan or a milestone (contract §20; REST GET /projects/{projectId}/reports/…)',
  fields: (t) => {
    const windowArgs = {
      from: t.arg({ type: 'Timestamp', description: `Inclusive (default: ${DEFAULT_DAYS} days before \`to\`)` }),
      to: t.arg({ type: 'Timestamp', description: `Exclusive (default: now); at most ${WINDOW_MAX_DAYS} days after \`from\`` }),
      bucket: t.arg.string({ description: `${BUCKETS.join(' or ')} (default day); weeks start on Monday` }),
      timeZone: t.arg.string({ description: 'An IANA time zone name (default UTC)' }),
    };
    const windowOf = (args: { from?: number | null; to?: number | null; bucket?: string | null; timeZone?: string | null }) =>
      validate(reportWindowQuerySchema, {
        from: orUndefined(args.from),
        to: orUndefined(args.to),
        bucket: orUndefined(args.bucket),
        timeZone: orUndefined(args.timeZone),
      });
    const caseResultsArgs = {
      limit: t.arg.int({ description: `Days looked back, 1..${WINDOW_MAX_DAYS} (default ${DEFAULT_DAYS})` }),
      lastResults: t.arg.int({ description: `Instead of days: each case's last results, 1..${LAST_RESULTS_MAX}` }),
      page: t.arg.int({ description: 'From 1' }),
      pageSize: t.arg.int({ description: '1..200 (default 50)' }),
    };
    const caseResultsOf = (args: { limit?: number | null; lastResults?: number | null; page?: number | null; pageSize?: number | null }) =>
      validate(caseResultsQuerySchema, {
        limit: orUndefined(args.limit),
        lastResults: orUndefined(args.lastResults),
        page: orUndefined(args.page),
        pageSize: orUndefined(args.pageSize),
      });
    return {
      trend: t.field({
        type: TrendReportRef,
        description: 'Results, pass rate, executed cases and runs per day or week',
        args: windowArgs,
        resolve: (scope, args, context) => loadTrend(context, scope, windowOf(args)),
      }),
      burnUp: t.field({
        type: BurnUpReportRef,
        description: 'The progress counts of the runs at the end of each day or week',
        args: windowArgs,
        resolve: (scope, args, context) => loadBurnUp(context, scope, windowOf(args)),
      }),
      defects: t.field({
        type: DefectReportRef,
        description: 'Defects opened and resolved per day or week, and open at the end of each (narrowed: those linked to its results)',
        args: windowArgs,
        resolve: (scope, args, context) => loadDefects(context, scope, windowOf(args)),
      }),
      failing: t.field({
        type: CaseResultStatsPageRef,
        description: 'Active cases by failures, then failure rate',
        args: caseResultsArgs,
        resolve: (scope, args, context) => loadFailing(context, scope, caseResultsOf(args)),
      }),
      slowest: t.field({
        type: CaseResultStatsPageRef,
        description: 'Active cases by the 95th percentile of elapsedMs, then the median',
        args: caseResultsArgs,
        resolve: (scope, args, context) => loadSlowest(context, scope, caseResultsOf(args)),
      }),
      coverage: t.field({
        type: CoverageReportRef,
        description: 'Cases never executed, not executed since `since`, and without an automation key, by suite',
        args: {
          since: t.arg({ type: 'Timestamp', description: `Default: ${DEFAULT_DAYS} days ago` }),
          page: t.arg.int({ description: 'From 1' }),
          pageSize: t.arg.int({ description: '1..200 (default 50)' }),
        },
        resolve: (scope, args, context) =>
          loadCoverage(
            context,
            scope,
            validate(coverageQuerySchema, {
              since: orUndefined(args.since),
              page: orUndefined(args.page),
              pageSize: orUndefined(args.pageSize),
            }),
          ),
      }),
    };
  },
});

builder.prismaObjectField('Project', 'reports', (t) =>
  t.field({
    type: Reports,
    description: "The project's reports, narrowed to the runs of a plan, of a milestone, or listed ones (each one given)",
    authScopes: { member: true },
    args: {
      planUlid: t.arg.string(),
      milestoneId: t.arg.string({ description: 'A milestone ULID: its runs and those of its plans' }),
      runUlids: t.arg.stringList({ description: 'At most 200' }),
    },
    resolve: (project, args) =>
      projectScope(
        project,
        validate(reportScopeQuerySchema, {
          planUlid: orUndefined(args.planUlid),
          milestoneId: orUndefined(args.milestoneId),
          runUlids: args.runUlids?.join(','),
        }),
      ),
  }),
);

builder.prismaObjectField('TestPlan', 'reports', (t) =>
  t.field({
    type: Reports,
    description: "The reports of the plan's runs",
    authScopes: { member: true },
    select: { projectId: true },
    resolve: (plan) => planScope(plan),
  }),
);

builder.prismaObjectField('Milestone', 'reports', (t) =>
  t.field({
    type: Reports,
    description: "The reports of the milestone's runs: those linked to it and those of its plans",
    authScopes: { member: true },
    resolve: (milestone) => milestoneScope(milestone),
  }),
);
