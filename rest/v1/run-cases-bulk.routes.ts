import type { z } from 'zod';
import type { RequestContext } from '../../src/foundation/context.ts';
import {
  addRunCasesBodySchema,
  addRunCasesResponseSchema,
  type BulkResult,
  bulkAssignBodySchema,
  bulkCasesBodySchema,
  bulkMarkBodySchema,
  bulkResultSchema,
  reconcileResponseSchema,
  submitResultsBodySchema,
  submitResultsResponseSchema,
} from '../../src/runs/run-bulk.schemas.ts';
import {
  bulkAssignRunCases,
  bulkMarkRunCases,
  bulkRemoveRunCases,
  bulkRetryRunCases,
  submitRunResults,
} from '../../src/runs/run-bulk.service.ts';
import { toRunCase } from '../../src/runs/run-cases.service.ts';
import { addRunCases, reconcileRun } from '../../src/runs/run-membership.service.ts';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import { toRunResponse } from '../../src/runs/runs.service.ts';
import { defineRoute } from '../route.ts';

/** POST /runs/{runUlid}/cases/<operation>: a bulk operation answering `{ affected, unchanged }`. */
function bulkOperation<B extends z.ZodType>(
  operation: string,
  operationId: string,
  summary: string,
  body: B,
  apply: (ctx: RequestContext, runUlid: string, input: z.output<B>) => Promise<BulkResult>,
) {
  return defineRoute({
    method: 'post',
    path: `/runs/{runUlid}/cases/${operation}`,
    operationId,
    summary,
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    body,
    success: { status: 200, description: 'How many cases changed and how many did not', schema: bulkResultSchema },
    errors: [403, 404, 409],
    handle: ({ ctx, params, body: input }) => apply(ctx, params.runUlid, input as z.output<B>),
  });
}

export const runCaseBulkRoutes = [
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/cases',
    operationId: 'addRunCases',
    summary: 'Add live cases of the project to a run (cases already in it are skipped)',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    body: addRunCasesBodySchema,
    success: { status: 201, description: 'The run cases of the listed cases', schema: addRunCasesResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => {
      const { items, added, projectCode } = await addRunCases(ctx, params.runUlid, body);
      return { items: items.map((runCase) => toRunCase(runCase, projectCode)), added };
    },
  }),
  bulkOperation(
    'bulk-mark',
    'bulkMarkRunCases',
    'Mark cases with one outcome (atomic; one result per case whose status changes)',
    bulkMarkBodySchema,
    bulkMarkRunCases,
  ),
  bulkOperation(
    'bulk-assign',
    'bulkAssignRunCases',
    'Assign cases to a member, or unassign them (atomic)',
    bulkAssignBodySchema,
    bulkAssignRunCases,
  ),
  bulkOperation(
    'bulk-retry',
    'bulkRetryRunCases',
    'Reset cases and their steps to untested (atomic; no result is appended)',
    bulkCasesBodySchema,
    bulkRetryRunCases,
  ),
  bulkOperation(
    'bulk-remove',
    'bulkRemoveRunCases',
    'Remove cases from a run (atomic; their results stay in the history)',
    bulkCasesBodySchema,
    bulkRemoveRunCases,
  ),
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/results/bulk',
    operationId: 'submitRunResults',
    summary: 'Submit results in bulk: every entry appends one result (all or nothing)',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    body: submitResultsBodySchema,
    success: { status: 200, description: 'The appended results', schema: submitResultsResponseSchema },
    errors: [403, 404, 409],
    handle: ({ ctx, params, body }) => submitRunResults(ctx, params.runUlid, body),
  }),
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/reconcile',
    operationId: 'reconcileRun',
    summary: "Bring a plan-generated run in line with the plan's current selection and assignees",
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: { status: 200, description: 'What changed, and the run', schema: reconcileResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      const { run, ...changes } = await reconcileRun(ctx, params.runUlid);
      return { ...changes, run: toRunResponse(run) };
    },
  }),
];
