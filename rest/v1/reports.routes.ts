import type { z } from 'zod';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import {
  burnUpReportSchema,
  caseResultStatsPageSchema,
  caseResultsQuerySchema,
  coverageQuerySchema,
  coverageReportSchema,
  defectReportSchema,
  type ReportScopeQuery,
  trendReportSchema,
  windowedQuerySchema,
} from '../../src/reports/reports.schemas.ts';
import {
  burnUpsOf,
  coveragesOf,
  defectFlowsOf,
  failingCasesOf,
  projectReport,
  type Report,
  slowestCasesOf,
  trendsOf,
} from '../../src/reports/reports.service.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';

const SCOPE = 'narrowed by planUlid, milestoneId and runUlids';

/** GET /projects/{projectId}/reports/{name}: one project's report, the query validated by `query`. */
function reportRoute<Q extends z.ZodType<ReportScopeQuery>>(route: {
  name: string;
  operationId: string;
  summary: string;
  query: Q;
  schema: z.ZodType;
  report: Report<z.output<Q>, unknown>;
}): RouteDefinition {
  return defineRoute({
    method: 'get',
    path: `/projects/{projectId}/reports/${route.name}`,
    operationId: route.operationId,
    summary: route.summary,
    tag: 'Reports',
    auth: 'org',
    params: projectPathSchema,
    query: route.query,
    success: { status: 200, description: 'The report', schema: route.schema },
    errors: [403, 404],
    // defineRoute cannot see through Q that the query it validated is z.output<Q>.
    handle: ({ ctx, params, query }) => projectReport(ctx, params.projectId, query as z.output<Q>, route.report),
  });
}

export const reportRoutes: RouteDefinition[] = [
  reportRoute({
    name: 'trend',
    operationId: 'getTrendReport',
    summary: `Results, pass rate, executed cases and runs per day or week, ${SCOPE}`,
    query: windowedQuerySchema,
    schema: trendReportSchema,
    report: trendsOf,
  }),
  reportRoute({
    name: 'burn-up',
    operationId: 'getBurnUpReport',
    summary: `The progress counts of the runs at the end of each day or week, ${SCOPE}`,
    query: windowedQuerySchema,
    schema: burnUpReportSchema,
    report: burnUpsOf,
  }),
  reportRoute({
    name: 'failing',
    operationId: 'getFailingReport',
    summary: `Cases by failures over the last days or results, ${SCOPE}`,
    query: caseResultsQuerySchema,
    schema: caseResultStatsPageSchema,
    report: failingCasesOf,
  }),
  reportRoute({
    name: 'slowest',
    operationId: 'getSlowestReport',
    summary: `Cases by the 95th percentile of their elapsed time over the last days or results, ${SCOPE}`,
    query: caseResultsQuerySchema,
    schema: caseResultStatsPageSchema,
    report: slowestCasesOf,
  }),
  reportRoute({
    name: 'coverage',
    operationId: 'getCoverageReport',
    summary: `Cases never executed, not executed since a date, and without an automation key, by suite, ${SCOPE}`,
    query: coverageQuerySchema,
    schema: coverageReportSchema,
    report: coveragesOf,
  }),
  reportRoute({
    name: 'defects',
    operationId: 'getDefectReport',
    summary: `Defects opened and resolved per day or week, and open at the end of each, ${SCOPE} (defects linked to their results)`,
    query: windowedQuerySchema,
    schema: defectReportSchema,
    report: defectFlowsOf,
  }),
];
