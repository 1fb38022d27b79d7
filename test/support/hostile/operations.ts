import { CLI_DOWNLOADS } from '../../../rest/downloads.ts';
import { pages } from '../../../rest/pages/index.ts';
import type { Caller } from '../app.ts';
import type { Envelope } from './answers.ts';
import { type HostileFixture, PUBLIC_URL } from './fixture.ts';
import type { JsonSchema } from './values.ts';

export type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema };

/** One operation of the HTTP walk: a route (with a method), or a JSON-RPC method or tool of POST /mcp. */
export type Operation = {
  /** How reports and the coverage check name it: method and path, and the JSON-RPC method or tool. */
  name: string;
  method: string;
  /** The URL's path, `{name}` standing for a path value. */
  path: string;
  parameters: Parameter[];
  body?: { schema: JsonSchema; encoding: 'json' | 'form' };
  /** A multipart upload of `file` parts; `rawTypes`: the content types also taken as the whole body. */
  upload?: { rawTypes: string[] };
  /** The callers it takes, the one of its well-formed request first; none when it reads no credentials. */
  callers: Array<[name: string, caller: Caller]>;
  /** Headers of every request (besides a hostile one's own). */
  headers: Record<string, string>;
  /** Error answers it may give besides the contract's envelope. */
  envelopes: Envelope[];
};

type OpenApiOperation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
  security?: object[];
};

/** Every operation of the OpenAPI document, each taking the owner's session (and token, where bearer tokens are allowed). */
export function openApiOperations(
  document: { paths: Record<string, Record<string, OpenApiOperation>> },
  fixture: HostileFixture,
): Operation[] {
  const { session, token } = fixture.callers;
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]): Operation => {
      const content = operation.requestBody?.content ?? {};
      const schemes = (operation.security ?? []).flatMap((scheme) => Object.keys(scheme));
      const json = content['application/json']?.schema;
      const callers: Operation['callers'] = [];
      if (schemes.includes('session')) callers.push(['session', session]);
      if (schemes.includes('bearer')) callers.push(['token', token]);
      return {
        name: `${method.toUpperCase()} ${path}`,
        method,
        path,
        parameters: operation.parameters ?? [],
        ...(json ? { body: { schema: json, encoding: 'json' } } : {}),
        ...('multipart/form-data' in content
          ? { upload: { rawTypes: Object.keys(content).filter((type) => type !== 'multipart/form-data') } }
          : {}),
        callers,
        headers: {},
        envelopes: [],
      };
    }),
  );
}

const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const constant = (value: unknown): JsonSchema => ({ const: value });
const text: JsonSchema = { type: 'string', maxLength: 40 };
const queryOf = (schema: JsonSchema): Parameter[] =>
  Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    in: 'query',
    name,
    required: schema.required?.includes(name),
    schema: property,
  }));

const plain = (method: string, path: string, envelopes: Envelope[] = []): Operation => ({
  name: `${method.toUpperCase()} ${path}`,
  method,
  path,
  parameters: [],
  callers: [],
  headers: {},
  envelopes,
});

/**
 * The routes outside /api/v1 that a client reaches: metrics, the documents, the share page,
 * public assets, the command-line client's downloads and the OAuth authorization server. Their
 * well-formed requests carry the fixture's client, PKCE challenge and tokens.
 */
export function otherRouteOperations(fixture: HostileFixture): Operation[] {
  const { oauth, callers } = fixture;
  const authorization = object({
    client_id: constant(oauth.clientId),
    redirect_uri: constant(oauth.redirectUri),
    response_type: constant('code'),
    code_challenge: constant(oauth.challenge),
    code_challenge_method: constant('S256'),
    state: text,
    resource: constant(oauth.resource),
  });
  const form = (schema: JsonSchema) => ({ schema, encoding: 'form' as const });
  return [
    plain('get', '/metrics'),
    plain('get', '/openapi/v1.json'),
    plain('get', '/docs/', ['page']),
    plain('get', '/share/runs/{token}', ['page']),
    { ...plain('get', '/__assets/{key}'), parameters: queryOf(object({ v: { type: 'integer', minimum: 0 } }, [])) },
    ...CLI_DOWNLOADS.map((download) => plain('get', download.path)),
    ...[
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ].map((path) => plain('get', path, ['oauth'])),
    { ...plain('get', '/authorize', ['page', 'oauth']), parameters: queryOf(authorization), callers: [['session', callers.session]] },
    {
      ...plain('post', '/authorize', ['page', 'oauth']),
      body: form(object({ ...authorization.properties, approve: constant('true'), organizationUlid: constant(callers.session.orgId) })),
      callers: [['session', callers.session]],
      headers: { Origin: PUBLIC_URL },
    },
    {
      ...plain('post', '/token', ['oauth']),
      body: form(
        object({ grant_type: constant('refresh_token'), client_id: constant(oauth.clientId), refresh_token: constant(oauth.refreshToken) }),
      ),
    },
    {
      ...plain('post', '/register', ['oauth']),
      body: {
        schema: object({
          client_name: text,
          redirect_uris: { type: 'array', items: constant(oauth.redirectUri), minItems: 1 },
          token_endpoint_auth_method: constant('none'),
        }),
        encoding: 'json',
      },
    },
    {
      ...plain('post', '/revoke', ['oauth']),
      body: form(object({ client_id: constant(oauth.clientId), token: constant(oauth.refreshToken) })),
    },
  ];
}

/** The CSRF value the walk's page forms carry, with the cookie of the same value (`__Host-`: the walk's public URL is https). */
const PAGE_CSRF = 'c'.repeat(43);

/**
 * Every page for people (rest/pages/index.ts): GET with the query parameters pages read, POST with
 * the fields their forms post and a matching CSRF token, from the service's own origin, so that a
 * well-formed form reaches the services behind it.
 */
export function pageOperations(fixture: HostileFixture): Operation[] {
  const session = fixture.callers.session;
  const withCsrf: Caller = {
    ...session,
    headers: { ...session.headers, Cookie: `${session.headers.Cookie}; __Host-tcms_csrf=${PAGE_CSRF}` },
  };
  const optional = (names: string[]) => Object.fromEntries(names.map((name) => [name, text]));
  const query = object(optional(['token', 'next', 'email', 'invitation']), []);
  const form = object(
    {
      _csrf: constant(PAGE_CSRF),
      intent: { enum: ['profile', 'createToken', 'revokeToken', 'disconnectApp', 'signOutEverywhere', 'resend', 'verify'] },
      ...optional(['email', 'password', 'firstName', 'lastName', 'organizationName', 'invitationToken', 'token', 'next']),
      ...optional(['name', 'role', 'expiresAt', 'org', 'organizationUlid', 'tokenUlid', 'grantUlid']),
    },
    ['_csrf'],
  );
  return pages.flatMap((page): Operation[] => [
    { ...plain('get', page.path, ['page']), parameters: queryOf(query), callers: [['session', session]] },
    ...(page.post
      ? [
          {
            ...plain('post', page.path, ['page']),
            parameters: queryOf(query),
            body: { schema: form, encoding: 'form' as const },
            callers: [['session', withCsrf]] as Operation['callers'],
            headers: { Origin: PUBLIC_URL, Host: new URL(PUBLIC_URL).host },
          },
        ]
      : []),
  ]);
}

export type McpTool = { name: string; inputSchema: JsonSchema & { $defs?: Record<string, JsonSchema> } };

/** A tool's input schema with its `$defs` references replaced by what they name (a few levels deep: a JSON value names itself). */
function definitionsInlined({ $defs: definitions = {}, ...schema }: McpTool['inputSchema']): JsonSchema {
  const inline = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((each) => inline(each, depth));
    if (!value || typeof value !== 'object') return value;
    const reference = (value as JsonSchema).$ref?.replace('#/$defs/', '');
    if (reference) return depth > 4 ? {} : inline(definitions[reference], depth + 1);
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, depth)]));
  };
  return inline(schema, 0) as JsonSchema;
}

const JSON_RPC_ACCEPT = { Accept: 'application/json, text/event-stream' };

/**
 * POST /mcp, one operation per JSON-RPC method and per tool (as `tools/list` names them), with a
 * token of its own for its well-formed request: tool calls are limited per second and token.
 * GET /mcp, which only answers 405.
 */
export async function mcpOperations(fixture: HostileFixture, tools: McpTool[]): Promise<Operation[]> {
  const message = (method: string, params?: JsonSchema) =>
    object({
      jsonrpc: constant('2.0'),
      id: { type: 'integer', minimum: 1, maximum: 1000 },
      method: constant(method),
      ...(params ? { params } : {}),
    });
  const initialize = object({
    protocolVersion: constant('2025-06-18'),
    capabilities: object({}),
    clientInfo: object({ name: text, version: constant('1.0.0') }),
  });
  const messages: Array<[name: string, schema: JsonSchema]> = [
    ['initialize', message('initialize', initialize)],
    ['tools/list', message('tools/list')],
    ...tools.map((tool): [string, JsonSchema] => [
      `tools/call ${tool.name}`,
      message('tools/call', object({ name: constant(tool.name), arguments: definitionsInlined(tool.inputSchema) })),
    ]),
  ];
  const operations: Operation[] = [];
  for (const [name, schema] of messages) {
    operations.push({
      ...plain('post', '/mcp', ['jsonrpc']),
      name: `POST /mcp ${name}`,
      body: { schema, encoding: 'json' },
      callers: [
        ['token', await fixture.freshToken()],
        ['oauth', fixture.callers.oauth],
      ],
      headers: JSON_RPC_ACCEPT,
    });
  }
  return [...operations, { ...plain('get', '/mcp', ['jsonrpc']), callers: [['token', fixture.callers.token]], headers: JSON_RPC_ACCEPT }];
}

/** Operations that end what the others use run last: deletes, closing the run, the OAuth grant's tokens, and last of all logout. */
export function phaseOf(operation: Operation): number {
  // A page's form may sign out, sign out everywhere or reset the password: the session's end, with logout.
  if (operation.path.endsWith('/logout') || (operation.method === 'post' && pages.some((page) => page.path === operation.path))) return 2;
  if (operation.method === 'delete' || /\/(abort|close)$/.test(operation.path)) return 1;
  return ['/token', '/revoke'].includes(operation.path) ? 1 : 0;
}
