import { caseValuesResponseSchema, putCaseValuesBodySchema } from '../../src/custom-fields/custom-fields.schemas.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { cloneRun } from '../../src/runs/run-clone.ts';
import { runDetailSchema, runResponseSchema, toRunResponse, withFieldValues } from '../../src/runs/run-response.ts';
import {
  cloneRunBodySchema,
  createRunBodySchema,
  legacyEnvironmentsSchema,
  projectRunPathSchema,
  runListQuerySchema,
  runPageSchema,
  runPathSchema,
  updateRunBodySchema,
} from '../../src/runs/runs.schemas.ts';
import {
  abortRun,
  closeRun,
  createRun,
  deleteRun,
  getRun,
  listLegacyEnvironments,
  listRuns,
  setRunFieldValues,
  updateRun,
} from '../../src/runs/runs.service.ts';
import { defineRoute, Reply } from '../route.ts';

export const runRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/runs',
    summary: 'Create a run from cases or from a plan (one request, one run)',
    tag: 'Runs',
    auth: 'org',
    params: projectPathSchema,
    body: createRunBodySchema,
    success: { status: 201, description: 'The run', schema: runResponseSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toRunResponse(await createRun(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/runs',
    summary: 'Runs of a project, most recent first, with filters',
    tag: 'Runs',
    auth: 'org',
    params: projectPathSchema,
    query: runListQuerySchema,
    success: { status: 200, description: 'A page of runs (without custom field values)', schema: runPageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listRuns(ctx, params.projectId, query);
      return { ...page, items: page.items.map(toRunResponse) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/runs/environments',
    summary: 'Deprecated: the distinct legacy free-text environments of the runs, ascending',
    tag: 'Runs',
    auth: 'org',
    params: projectPathSchema,
    success: { status: 200, description: 'The legacy texts', schema: legacyEnvironmentsSchema },
    errors: [403, 404],
    handle: ({ ctx, params }) => listLegacyEnvironments(ctx, params.projectId),
  }),
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}',
    summary: 'One run with its custom field values',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: { status: 200, description: 'The run', schema: runDetailSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      const { run, customFieldValues } = await getRun(ctx, params.runUlid);
      return withFieldValues(run, customFieldValues);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/runs/{runUlid}',
    summary: 'Rename, describe, reassign, relink environment, milestone or configurations of a run',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    body: updateRunBodySchema,
    success: { status: 200, description: 'The run', schema: runResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toRunResponse(await updateRun(ctx, params.runUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/runs/{runUlid}',
    summary: 'Delete a run with its cases and results (owner/admin); its audit events stay',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteRun(ctx, params.runUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/close',
    summary: 'Close an open run early (untested cases may remain)',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: { status: 200, description: 'The closed run', schema: runResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => toRunResponse(await closeRun(ctx, params.runUlid)),
  }),
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/abort',
    summary: 'Abort an open run: closed with abortedAt, frozen from then on',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: { status: 200, description: 'The aborted run', schema: runResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => toRunResponse(await abortRun(ctx, params.runUlid)),
  }),
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/runs/{runUlid}/clone',
    summary: 'A new open run from the case snapshots of a run, optionally filtered by status',
    tag: 'Runs',
    auth: 'org',
    params: projectRunPathSchema,
    body: cloneRunBodySchema,
    success: { status: 201, description: 'The new run', schema: runResponseSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toRunResponse(await cloneRun(ctx, params.projectId, params.runUlid, body)),
  }),
  defineRoute({
    method: 'put',
    path: '/runs/{runUlid}/custom-field-values',
    summary: 'Replace the custom field values of a run',
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    body: putCaseValuesBodySchema,
    success: { status: 200, description: "The run's full customFieldValues", schema: caseValuesResponseSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => ({ customFieldValues: await setRunFieldValues(ctx, params.runUlid, body.values) }),
  }),
];
