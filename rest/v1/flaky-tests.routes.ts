import { flakyTestPageSchema, flakyTestsQuerySchema } from '../../src/flaky-tests/flaky-tests.schemas.ts';
import { listFlakyTests } from '../../src/flaky-tests/flaky-tests.service.ts';
import { projectPathSchema } from '../../src/test-cases/test-cases.schemas.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';

export const flakyTestRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/flaky-tests',
    operationId: 'listFlakyTests',
    summary: 'Cases whose recent results flip between passed and failed, or were flagged flaky, most flips first',
    tag: 'Test cases',
    auth: 'org',
    params: projectPathSchema,
    query: flakyTestsQuerySchema,
    success: { status: 200, description: 'A page of flaky cases', schema: flakyTestPageSchema },
    errors: [403, 404],
    handle: ({ ctx, params, query }) => listFlakyTests(ctx, params.projectId, query),
  }),
];
