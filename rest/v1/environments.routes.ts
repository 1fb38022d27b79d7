import {
  createEnvironmentBodySchema,
  environmentListQuerySchema,
  environmentPageSchema,
  environmentPathSchema,
  environmentSchema,
  updateEnvironmentBodySchema,
} from '../../src/environments/environments.schemas.ts';
import {
  createEnvironment,
  deleteEnvironment,
  listEnvironments,
  resolveEnvironment,
  toEnvironment,
  updateEnvironment,
} from '../../src/environments/environments.service.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

export const environmentRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/environments',
    operationId: 'listEnvironments',
    summary: 'Live environments of a project, oldest first',
    tag: 'Environments',
    auth: 'org',
    params: projectPathSchema,
    query: environmentListQuerySchema,
    success: { status: 200, description: 'A page of environments', schema: environmentPageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listEnvironments(ctx, params.projectId, query);
      return { ...page, items: page.items.map(toEnvironment) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/environments',
    operationId: 'createEnvironment',
    summary: 'Create an environment; the slug is derived from the name when absent and unique among live environments',
    tag: 'Environments',
    auth: 'org',
    params: projectPathSchema,
    body: createEnvironmentBodySchema,
    success: { status: 201, description: 'The environment', schema: environmentSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toEnvironment(await createEnvironment(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/environments/{environmentUlid}',
    operationId: 'getEnvironment',
    summary: 'One live environment',
    tag: 'Environments',
    auth: 'org',
    params: environmentPathSchema,
    success: { status: 200, description: 'The environment', schema: environmentSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toEnvironment(await resolveEnvironment(ctx, params.environmentUlid)),
  }),
  defineRoute({
    method: 'patch',
    path: '/environments/{environmentUlid}',
    operationId: 'updateEnvironment',
    summary: 'Rename an environment or change its slug',
    tag: 'Environments',
    auth: 'org',
    params: environmentPathSchema,
    body: updateEnvironmentBodySchema,
    success: { status: 200, description: 'The environment', schema: environmentSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toEnvironment(await updateEnvironment(ctx, params.environmentUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/environments/{environmentUlid}',
    operationId: 'deleteEnvironment',
    summary: 'Delete an environment (soft delete; its slug becomes free)',
    tag: 'Environments',
    auth: 'org',
    params: environmentPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteEnvironment(ctx, params.environmentUlid);
      return new Reply(204, undefined);
    },
  }),
];
