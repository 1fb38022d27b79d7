import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RouteDefinition } from './route.ts';

const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'validation_failed' }),
      message: z.string().min(1),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request (invalid Idempotency-Key, display ID of another project)',
  401: 'Missing or invalid credentials',
  403: 'The role lacks the permission, or the project is locked',
  404: 'Unknown resource, or one of another organization',
  409: 'Conflict (duplicate, ceiling reached, Idempotency-Key in flight)',
  413: 'File too large',
  415: 'Unsupported media type',
  422: 'Validation failed',
  429: 'Per-minute request ceiling reached',
};

const uploadPartSchema = ({ description, maxFiles }: NonNullable<RouteDefinition['upload']>) => {
  const part = z.string().meta({ format: 'binary', description });
  return maxFiles ? z.array(part).max(maxFiles) : part;
};

const IDEMPOTENCY_HEADER = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().meta({ description: 'Replays the first response for 24 hours' }),
});

/** The OpenAPI 3.1 contract, generated from the zod schemas that validate each route. */
export function buildOpenApiDocument(routes: RouteDefinition[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API token (tcms_…)' });
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'tcms_session' });

  for (const route of routes) {
    const statuses = new Set(route.errors ?? []);
    if (route.auth !== 'none') statuses.add(401);
    if (route.params || route.query || route.body || route.upload) statuses.add(422);
    if (route.auth === 'org') statuses.add(429);
    const unsafe = route.method !== 'get';
    registry.registerPath({
      method: route.method,
      path: `/api/v1${route.path}`,
      summary: route.summary,
      tags: [route.tag],
      security: route.auth === 'none' ? [] : route.sessionOnly || route.auth === 'user' ? [{ session: [] }] : [{ bearer: [] }, { session: [] }],
      request: {
        ...(route.params ? { params: route.params as z.ZodObject } : {}),
        ...(route.query ? { query: route.query as z.ZodObject } : {}),
        ...(unsafe && route.auth !== 'none' ? { headers: IDEMPOTENCY_HEADER } : {}),
        ...(route.body ? { body: { content: { 'application/json': { schema: route.body } } } } : {}),
        ...(route.upload
          ? {
              body: {
                content: {
                  'multipart/form-data': {
                    schema: z.object({ file: uploadPartSchema(route.upload) }),
                  },
                },
              },
            }
          : {}),
      },
      responses: {
        [route.success.status]: {
          description: route.success.description,
          ...(route.success.schema ? { content: { 'application/json': { schema: route.success.schema } } } : {}),
        },
        ...Object.fromEntries(
          [...statuses].sort().map((status) => [
            status,
            { description: ERROR_DESCRIPTIONS[status] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
          ]),
        ),
      },
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'tcms REST API',
      version: '1.0.0',
      description: 'Test case management: organizations, projects, plans and runs. Every route lives under /api/v1.',
    },
  });
}
