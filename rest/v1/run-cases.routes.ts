import { getRunCaseDetail } from '../../src/runs/run-case-detail.service.ts';
import {
  markRunCaseStepBodySchema,
  runCaseDetailSchema,
  runCaseListQuerySchema,
  runCasePageSchema,
  runCasePathSchema,
  runCaseSchema,
  runCaseStepPathSchema,
  runResultListQuerySchema,
  runResultPageSchema,
  updatedRunCaseSchema,
  updateRunCaseBodySchema,
} from '../../src/runs/run-cases.schemas.ts';
import { listRunCases, listRunResults, markRunCaseStep, openRunCase, toRunCase, updateRunCase } from '../../src/runs/run-cases.service.ts';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import { defineRoute } from '../route.ts';

export const runCaseRoutes = [
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/cases',
    operationId: 'listRunCases',
    summary: "A page of the run's cases in position order",
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    query: runCaseListQuerySchema,
    success: { status: 200, description: 'A page of run cases', schema: runCasePageSchema },
    errors: [403, 404],
    handle: ({ ctx, params, query }) => listRunCases(ctx, params.runUlid, query),
  }),
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/cases/{runCaseUlid}',
    operationId: 'getRunCase',
    summary: "One run case with the defects linked to its results and its results' attachments",
    tag: 'Runs',
    auth: 'org',
    params: runCasePathSchema,
    success: { status: 200, description: 'The run case', schema: runCaseDetailSchema },
    errors: [403, 404],
    handle: ({ ctx, params }) => getRunCaseDetail(ctx, params),
  }),
  defineRoute({
    method: 'patch',
    path: '/runs/{runUlid}/cases/{runCaseUlid}',
    operationId: 'markRunCase',
    summary: 'Mark, assign or time a run case (a changed status appends a result)',
    tag: 'Runs',
    auth: 'org',
    params: runCasePathSchema,
    body: updateRunCaseBodySchema,
    success: { status: 200, description: 'The run case and the result appended, if any', schema: updatedRunCaseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => {
      const { runCase, projectCode, resultUlid } = await updateRunCase(ctx, params, body);
      return { ...toRunCase(runCase, projectCode), resultUlid };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/cases/{runCaseUlid}/open',
    operationId: 'openRunCase',
    summary: 'Open a run case: an unassigned case is assigned to the caller',
    tag: 'Runs',
    auth: 'org',
    params: runCasePathSchema,
    success: { status: 200, description: 'The run case', schema: runCaseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      const { runCase, projectCode } = await openRunCase(ctx, params);
      return toRunCase(runCase, projectCode);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/runs/{runUlid}/cases/{runCaseUlid}/steps/{stepUlid}',
    operationId: 'markRunCaseStep',
    summary: "Mark one step; the case takes the aggregate of its steps' statuses",
    tag: 'Runs',
    auth: 'org',
    params: runCaseStepPathSchema,
    body: markRunCaseStepBodySchema,
    success: { status: 200, description: 'The run case', schema: runCaseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => {
      const { runCase, projectCode } = await markRunCaseStep(ctx, params, params.stepUlid, body);
      return toRunCase(runCase, projectCode);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/results',
    operationId: 'listRunResults',
    summary: 'The append-only results history of the run, oldest first',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    query: runResultListQuerySchema,
    success: { status: 200, description: 'A cursor page of results', schema: runResultPageSchema },
    errors: [403, 404],
    handle: ({ ctx, params, query }) => listRunResults(ctx, params.runUlid, query),
  }),
];
