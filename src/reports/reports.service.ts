import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { readBurnUps } from './burn-up.ts';
import { type Ranking, readCaseResults } from './case-results.ts';
import { readCoverage } from './coverage.ts';
import { readDefectFlows } from './defect-flow.ts';
import type { ReportScope } from './report-scopes.ts';
import {
  type BurnUpReport,
  type CaseResultStatsPage,
  type CaseResultsQuery,
  type CoverageQuery,
  type CoverageReport,
  DAY_MS,
  DEFAULT_DAYS,
  type DefectReport,
  type ReportScopeQuery,
  type ReportWindow,
  type ReportWindowQuery,
  reportWindowOf,
  type TrendReport,
} from './reports.schemas.ts';
import { readTrends } from './trend.ts';

export type { ReportScope };

/**
 * Reports read scopes the caller has already reached (a project resolved by its code, a plan, a
 * milestone, each through the gate of its own route or field), many in one statement: GraphQL
 * batches every scope of a response, REST asks for one.
 */
export type Report<Q, R> = (ctx: RequestContext, scopes: ReportScope[], query: Q) => Promise<R[]>;

/**
 * A project's scope, narrowed by the query's planUlid, milestoneId and runUlids (each one that is
 * given; one that names nothing of the project leaves nothing to count). A locked project
 * answers 403 project_locked, as every route under a project does.
 */
export function projectScope(project: Pick<ProjectRow, 'id' | 'lockedAt'>, query: ReportScopeQuery): ReportScope {
  assertProjectUnlocked(project);
  return { projectId: project.id, planId: query.planUlid ?? null, milestoneId: query.milestoneId ?? null, runIds: query.runUlids ?? null };
}

export const planScope = (plan: { id: string; projectId: string }): ReportScope => ({
  projectId: plan.projectId,
  planId: plan.id,
  milestoneId: null,
  runIds: null,
});

export const milestoneScope = (milestone: { id: string; projectId: string }): ReportScope => ({
  projectId: milestone.projectId,
  planId: null,
  milestoneId: milestone.id,
  runIds: null,
});

/** A report of one project, as REST reads it: the project reached as every route under a project reaches it. */
export async function projectReport<Q extends ReportScopeQuery, R>(
  ctx: RequestContext,
  projectCode: string,
  query: Q,
  report: Report<Q, R>,
): Promise<R> {
  const project = await resolveProject(ctx, projectCode);
  const [answer] = await report(ctx, [projectScope(project, query)], query);
  return answer!;
}

/** A report over buckets of the window `query` asks for, the window echoed with its defaults applied. */
const overBuckets =
  <R>(read: (ctx: RequestContext, scopes: ReportScope[], window: ReportWindow) => Promise<R[]>) =>
  async (ctx: RequestContext, scopes: ReportScope[], query: ReportWindowQuery) => {
    authorize(ctx, 'project.read');
    const window = reportWindowOf(query, Date.now());
    const reports = await read(ctx, scopes, window);
    const echo = { from: window.from.getTime(), to: window.to.getTime(), bucket: window.bucket, timeZone: window.timeZone };
    return reports.map((report) => ({ ...echo, ...report }));
  };

export const trendsOf: Report<ReportWindowQuery, TrendReport> = overBuckets(async (ctx, scopes, window) =>
  (await readTrends(ctx.db, ctx.org.id, scopes, window)).map((buckets) => ({ buckets })),
);

export const burnUpsOf: Report<ReportWindowQuery, BurnUpReport> = overBuckets(async (ctx, scopes, window) =>
  (await readBurnUps(ctx.db, ctx.org.id, scopes, window)).map((points) => ({ points })),
);

export const defectFlowsOf: Report<ReportWindowQuery, DefectReport> = overBuckets(async (ctx, scopes, window) =>
  (await readDefectFlows(ctx.db, ctx.org.id, scopes, window)).map((buckets) => ({ buckets })),
);

/** Cases ranked by `ranking` over the last `limit` days, or over each case's last `lastResults` results. */
const rankedCases =
  (ranking: Ranking): Report<CaseResultsQuery, CaseResultStatsPage> =>
  (ctx, scopes, query) => {
    authorize(ctx, 'project.read');
    const sample = query.lastResults ? { lastResults: query.lastResults } : { since: new Date(Date.now() - query.limit * DAY_MS) };
    return readCaseResults(ctx.db, ctx.org.id, scopes, sample, ranking, query);
  };

export const failingCasesOf = rankedCases('failing');
export const slowestCasesOf = rankedCases('slowest');

export const coveragesOf: Report<CoverageQuery, CoverageReport> = async (ctx, scopes, query) => {
  authorize(ctx, 'project.read');
  const since = query.since ?? Date.now() - DEFAULT_DAYS * DAY_MS;
  const reports = await readCoverage(ctx.db, ctx.org.id, scopes, new Date(since), query);
  return reports.map((report) => ({ ...report, since }));
};
