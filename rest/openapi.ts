import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_CODES } from '../src/kernel/errors.ts';
import { ulidSchema } from '../src/kernel/validation.ts';
import { JSON_BODY_LIMIT } from './http-settings.ts';
import type { RouteDefinition } from './route.ts';

const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ description: 'The contract code; `details.code` may refine it', example: 'validation_failed' }),
      message: z.string().min(1),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

/** The error answers every route shares, by status: the name of their response component and what they mean. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Bad request (malformed JSON, invalid Idempotency-Key, display ID of another project)' },
  401: { name: 'Unauthorized', description: 'Missing or invalid credentials' },
  403: { name: 'Forbidden', description: 'The role lacks the permission, or the project is locked' },
  404: { name: 'NotFound', description: 'Unknown resource, or one of another organization' },
  409: { name: 'Conflict', description: 'Conflict (duplicate, ceiling reached, Idempotency-Key in flight)' },
  413: { name: 'ContentTooLarge', description: 'File or body too large' },
  415: { name: 'UnsupportedMediaType', description: 'Unsupported media type' },
  422: { name: 'ValidationFailed', description: 'Validation failed' },
  429: { name: 'TooManyRequests', description: 'Per-minute request ceiling reached' },
  502: { name: 'BadGateway', description: 'An upstream provider failed (e-mail delivery)' },
  503: { name: 'ServiceUnavailable', description: 'The service or one of its providers is not available' },
};

const mebibytes = (bytes: number) => `${+(bytes / 2 ** 20).toFixed(2)} MiB`;

function uploadBody({ description, maxBytes, maxFiles, rawTypes = [] }: NonNullable<RouteDefinition['upload']>) {
  const part = z.string().meta({ format: 'binary', description: `${description}, at most ${mebibytes(maxBytes)}` });
  const limits = maxFiles
    ? `1 to ${maxFiles} \`file\` parts of at most ${mebibytes(maxBytes)} each`
    : `One \`file\` part of at most ${mebibytes(maxBytes)}`;
  const raw = rawTypes.length > 0 ? `; or the file itself as the body (${rawTypes.join(', ')})` : '';
  return {
    description: `multipart/form-data: ${limits}${raw}`,
    required: true,
    content: {
      'multipart/form-data': { schema: z.object({ file: maxFiles ? z.array(part).min(1).max(maxFiles) : part }) },
      ...Object.fromEntries(rawTypes.map((type) => [type, { schema: z.string().max(maxBytes).meta({ format: 'binary', description }) }])),
    },
  };
}

/** A JSON body is required when an empty object would not do. */
const jsonBody = (schema: z.ZodType) => ({
  description: `JSON, at most ${JSON_BODY_LIMIT} (larger bodies answer 413)`,
  required: !schema.safeParse({}).success,
  content: { 'application/json': { schema } },
});

const IDEMPOTENCY_KEY = {
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'Replays the first response for 24 hours; a key such as `deploy-4711`' }),
};
const ORGANIZATION_HEADER = {
  'X-Organization-Id': ulidSchema.optional().meta({
    description: 'Session callers: the organization to act in (default: the oldest membership); API tokens carry their own',
  }),
};

/** The response headers of the contract, as components the responses refer to. */
function registerHeaders(registry: OpenAPIRegistry) {
  const integerHeader = (name: string, description: string) =>
    registry.registerComponent('headers', name, { description, schema: { type: 'integer', minimum: 0 } }).ref;
  return {
    rateLimit: {
      'X-RateLimit-Limit': integerHeader('X-RateLimit-Limit', 'Requests allowed per 60-second window (API-token callers)'),
      'X-RateLimit-Remaining': integerHeader('X-RateLimit-Remaining', 'Requests left in the current window (API-token callers)'),
      'X-RateLimit-Reset': integerHeader('X-RateLimit-Reset', 'When the window rolls, in epoch seconds (API-token callers)'),
    },
    retryAfter: integerHeader(
      'Retry-After',
      'Whole seconds to wait: with 429, and with 409 when the same Idempotency-Key is still in flight',
    ),
    replayed: registry.registerComponent('headers', 'Idempotency-Replayed', {
      description: 'Present on the replay of an earlier response to the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    }).ref,
  };
}

type HeaderRefs = Record<string, { $ref: string }>;
const withHeaders = (headers: HeaderRefs) => (Object.keys(headers).length > 0 ? { headers } : {});

/**
 * The error answer of a status, as a response component registered on first use: those of
 * metered routes (`Metered…`) carry the rate-limit headers, 409 and 429 carry Retry-After.
 */
function errorResponses(registry: OpenAPIRegistry, headers: ReturnType<typeof registerHeaders>) {
  const references = new Map<string, { $ref: string }>();
  return (status: number, metered: boolean) => {
    const { name, description } = ERROR_RESPONSES[status] ?? { name: `Status${status}`, description: 'Error' };
    const component = `${metered ? 'Metered' : ''}${name}`;
    let reference = references.get(component);
    if (!reference) {
      reference = registry.registerComponent('responses', component, {
        description,
        ...withHeaders({
          ...(metered ? headers.rateLimit : {}),
          ...(status === 409 || status === 429 ? { 'Retry-After': headers.retryAfter } : {}),
        }),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      }).ref;
      references.set(component, reference);
    }
    return reference;
  };
}

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** A parameter without `example`, its schema's and those of the alternatives and items within. */
const withoutExamples = <T>(parameter: T): T =>
  JSON.parse(JSON.stringify(parameter, (key, value) => (key === 'example' ? undefined : value)));

/**
 * Swagger UI's "Try it out" fills every parameter with its example and sends it: an optional one
 * would change the answer (the example X-Organization-Id is nobody's organization, so 404; an
 * example filter finds nothing). Optional parameters keep their description and lose the example;
 * defaults stay, since sending one answers as leaving it out does.
 */
function withoutExamplesOfOptionalParameters(document: OpenApiDocument, routes: RouteDefinition[]): OpenApiDocument {
  for (const route of routes) {
    const operation = document.paths?.[`/api/v1${route.path}`]?.[route.method];
    if (!operation?.parameters) continue;
    operation.parameters = operation.parameters.map((parameter) =>
      'in' in parameter && !parameter.required ? withoutExamples(parameter) : parameter,
    );
  }
  return document;
}

/** The OpenAPI 3.1 contract, generated from the zod schemas that validate each route. */
export function buildOpenApiDocument(routes: RouteDefinition[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API token (tcms_…)' });
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'tcms_session' });
  const headers = registerHeaders(registry);
  const errorResponse = errorResponses(registry, headers);

  for (const route of routes) {
    const keyed = route.method !== 'get' && route.auth !== 'none';
    const metered = route.auth === 'org';
    const statuses = new Set(route.errors ?? []);
    if (route.auth !== 'none') statuses.add(401);
    if (route.params || route.query || route.body || route.upload || keyed) statuses.add(422);
    const more = [...(route.body ? [400, 413] : []), ...(route.upload ? [413, 415] : []), ...(keyed ? [400, 409] : [])];
    for (const status of more) statuses.add(status);
    if (metered) statuses.add(429);

    const requestHeaders = { ...(metered ? ORGANIZATION_HEADER : {}), ...(keyed ? IDEMPOTENCY_KEY : {}) };

    registry.registerPath({
      method: route.method,
      path: `/api/v1${route.path}`,
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      security:
        route.auth === 'none' ? [] : route.sessionOnly || route.auth === 'user' ? [{ session: [] }] : [{ bearer: [] }, { session: [] }],
      request: {
        ...(route.params ? { params: route.params as z.ZodObject } : {}),
        ...(route.query ? { query: route.query as z.ZodObject } : {}),
        ...(Object.keys(requestHeaders).length > 0 ? { headers: z.object(requestHeaders) } : {}),
        ...(route.body ? { body: jsonBody(route.body) } : {}),
        ...(route.upload ? { body: uploadBody(route.upload) } : {}),
      },
      responses: {
        [route.success.status]: {
          description: route.success.description,
          ...withHeaders({ ...(metered ? headers.rateLimit : {}), ...(keyed ? { 'Idempotency-Replayed': headers.replayed } : {}) }),
          ...(route.success.media
            ? { content: Object.fromEntries(Object.entries(route.success.media).map(([type, schema]) => [type, { schema }])) }
            : route.success.schema
              ? { content: { 'application/json': { schema: route.success.schema } } }
              : {}),
        },
        ...Object.fromEntries([...statuses].sort().map((status) => [status, errorResponse(status, metered)])),
        ...Object.fromEntries(
          Object.entries(route.otherResponses ?? {}).map(([status, { description, schema }]) => [
            status,
            { description, content: { 'application/json': { schema } } },
          ]),
        ),
      },
    });
  }

  const document = new OpenApiGeneratorV31([...registry.definitions, { type: 'schema', schema: errorSchema }]).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'tcms REST API',
      version: '1.0.0',
      description: 'Test case management: organizations, projects, plans and runs. Every route lives under /api/v1.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server: the paths carry the /api/v1 prefix' }],
  });
  return withoutExamplesOfOptionalParameters(document, routes);
}
