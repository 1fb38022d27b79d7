import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import {
  createSuiteBodySchema,
  suiteDisplayIdPathSchema,
  suiteListQuerySchema,
  suitePageSchema,
  suitePathSchema,
  suiteSchema,
  updateSuiteBodySchema,
} from '../../src/suites/suites.schemas.ts';
import {
  createSuite,
  deleteSuite,
  findSuiteByDisplayId,
  listSuites,
  resolveSuite,
  toSuite,
  updateSuite,
} from '../../src/suites/suites.service.ts';
import { defineRoute, Reply, type RouteDefinition } from '../route.ts';

export const suiteRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/suites',
    operationId: 'createSuite',
    summary: 'Create a suite, last among its siblings (owner/admin/member)',
    tag: 'Suites',
    auth: 'org',
    params: projectPathSchema,
    body: createSuiteBodySchema,
    success: { status: 201, description: 'The suite', schema: suiteSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toSuite(await createSuite(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/suites',
    operationId: 'listSuites',
    summary: 'The suite tree, depth-first in position order',
    tag: 'Suites',
    auth: 'org',
    params: projectPathSchema,
    query: suiteListQuerySchema,
    success: { status: 200, description: 'A cursor page of suites', schema: suitePageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listSuites(ctx, params.projectId, query);
      return { items: page.items.map(toSuite), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/suites/by-display-id/{displayId}',
    operationId: 'getSuiteByDisplayId',
    summary: 'One suite by its display ID (`<projectCode>-S<number>`)',
    tag: 'Suites',
    auth: 'org',
    params: suiteDisplayIdPathSchema,
    success: { status: 200, description: 'The suite', schema: suiteSchema },
    errors: [400, 403, 404],
    handle: async ({ ctx, params }) => toSuite(await findSuiteByDisplayId(ctx, params.projectId, params.displayId)),
  }),
  defineRoute({
    method: 'get',
    path: '/suites/{suiteUlid}',
    operationId: 'getSuite',
    summary: 'One suite',
    tag: 'Suites',
    auth: 'org',
    params: suitePathSchema,
    success: { status: 200, description: 'The suite', schema: suiteSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toSuite(await resolveSuite(ctx, params.suiteUlid)),
  }),
  defineRoute({
    method: 'patch',
    path: '/suites/{suiteUlid}',
    operationId: 'updateSuite',
    summary: 'Rename, move or reorder a suite (owner/admin/member)',
    tag: 'Suites',
    auth: 'org',
    params: suitePathSchema,
    body: updateSuiteBodySchema,
    success: { status: 200, description: 'The suite', schema: suiteSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toSuite(await updateSuite(ctx, params.suiteUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/suites/{suiteUlid}',
    operationId: 'deleteSuite',
    summary: 'Delete a suite; its child suites and cases move to its parent (owner/admin/member)',
    tag: 'Suites',
    auth: 'org',
    params: suitePathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteSuite(ctx, params.suiteUlid);
      return new Reply(204, undefined);
    },
  }),
];
