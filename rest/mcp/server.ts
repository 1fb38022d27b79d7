import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type Tool as ListedTool,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import type { Identity } from '../../src/foundation/context.ts';
import type { StoredResponse } from '../../src/foundation/idempotency/idempotency.service.ts';
import { budgetSpent, consumeToolCall } from '../../src/foundation/rate-limit/rate-limit.service.ts';
import { meterRequest, openRequest, type RequestOutcome } from '../../src/foundation/request.ts';
import { settings } from '../../src/kernel/config.ts';
import type { AppError } from '../../src/kernel/errors.ts';
import { errorReply } from '../errors.ts';
import { execute, executeByKey, fingerprint, REPLAYED_HEADER, Reply, type RouteDefinition, requestLineOf } from '../route.ts';
import { jsonBody } from '../router.ts';
import { type SubRequest, TOOLS } from './tools.ts';

type OpenOutcome = Extract<RequestOutcome, { kind: 'open' }>;

const toolByName = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** What `tools/list` answers, built once. */
const LISTED_TOOLS: ListedTool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as ListedTool['inputSchema'],
  annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
}));

const INSTRUCTIONS =
  'Test case management: projects hold suites of test cases, test plans and test runs. A project is named by its code ' +
  '(its `id`, e.g. "WEB"), everything else by a 26-character ULID; test cases also have display IDs such as "WEB-12". ' +
  'A run holds run cases (one per test case); mark_result and submit_results take run case ULIDs from list_run_cases. ' +
  "A failed call answers { error: { code, message, details? } } with isError: the code is the REST API's.";

/** A sub-request's arguments, split as its route reads them: path parameters, query, and the rest as the body. */
function routeInput(route: RouteDefinition, args: Record<string, unknown>, ip: string) {
  const keysOf = (schema: z.ZodType | undefined) => new Set(schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
  const [paramKeys, queryKeys] = [keysOf(route.params), keysOf(route.query)];
  const pick = (test: (key: string) => boolean) => Object.fromEntries(Object.entries(args).filter(([key]) => test(key)));
  return {
    params: pick((key) => paramKeys.has(key)),
    query: pick((key) => queryKeys.has(key)),
    body: pick((key) => !paramKeys.has(key) && !queryKeys.has(key)),
    ip,
  };
}

const REPLAY_NOTE = {
  type: 'text',
  text: 'Replayed: this is the answer of an earlier call with the same idempotencyKey; nothing was done again.',
} as const;

/** A reply as a tool result: its JSON body (an error envelope with `isError`); a replay says so in a text line and in `_meta`. */
function toolResult(reply: Reply): CallToolResult {
  const body = reply.body ?? null;
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    ...(body !== null && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {}),
    ...(reply.status >= 400 ? { isError: true } : {}),
  };
  if (!reply.headers[REPLAYED_HEADER]) return result;
  return { ...result, content: [...result.content, REPLAY_NOTE], _meta: { idempotencyReplayed: true } };
}

const toolError = (thrown: unknown, req: Request): CallToolResult => {
  const { status, body } = errorReply(thrown, req.log);
  return toolResult(new Reply(status, body));
};

/** A stored answer as the reply it was, marked as REST marks a replay. */
const replayOf = (stored: StoredResponse) =>
  new Reply(stored.status, stored.body === null ? null : JSON.parse(stored.body), { ...stored.headers, [REPLAYED_HEADER]: 'true' });

/**
 * The MCP server of one HTTP request (stateless: a server and a transport per request). Each
 * service call a tool makes is a sub-request: metered on its own against the per-minute
 * ceiling, validated and answered by the same route as over REST.
 */
function mcpServer(outcome: OpenOutcome, req: Request): Server {
  const server = new Server({ name: 'tcms', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const subRequest: SubRequest = async (route, args, idempotencyKey) => {
    const metered = outcome.ctx!.metered ? await meterRequest(outcome.ctx!) : undefined;
    if (metered?.error) throw metered.error;
    const raw = routeInput(route, args, req.ip ?? 'unknown');
    if (idempotencyKey === undefined) return execute(route, raw, outcome, [], undefined);
    // The request line REST would see, so that the same change over REST and MCP under one key replays.
    const requestHash = fingerprint(requestLineOf(route, raw.params), raw.body, []);
    const answer = await executeByKey(route, raw, outcome, [], { key: idempotencyKey, requestHash }, req);
    return answer instanceof Reply ? answer : replayOf(answer);
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolByName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    try {
      return toolResult(await tool.run(request.params.arguments ?? {}, subRequest));
    } catch (error) {
      return toolError(error, req);
    }
  });
  return server;
}

/** The credential a burst budget belongs to: an API token, or an OAuth grant (the same across refreshes). */
const credentialId = (identity: Identity) => (identity.kind === 'session' ? identity.sessionId : identity.token.id);

/** The `tools/call` messages of a JSON-RPC body (one message or a batch). */
const toolCallCount = (body: unknown) =>
  [body]
    .flat()
    .filter((message) => message !== null && typeof message === 'object' && (message as { method?: unknown }).method === 'tools/call')
    .length;

/** Counts the request's tool calls against the burst limit; the refusal when it is exceeded. */
async function burstRefusal(identity: Identity, body: unknown): Promise<AppError | undefined> {
  for (let call = 0; call < toolCallCount(body); call++) {
    const state = await consumeToolCall(credentialId(identity));
    if (!state.allowed) return budgetSpent(state, `More than ${state.limit} MCP tool calls per second with this token`);
  }
  return undefined;
}

/** RFC 9728: where an MCP client discovers how to obtain a token (TCMS_PUBLIC_URL at each request, as in rest/oauth.ts). */
const resourceMetadataUrl = () => `${settings().publicUrl}/.well-known/oauth-protected-resource`;

function sendError(res: Response, req: Request, error: unknown): void {
  const { status, body, headers } = errorReply(error, req.log);
  res.status(status).set(headers);
  if (status === 401) res.set('WWW-Authenticate', `Bearer resource_metadata="${resourceMetadataUrl()}"`);
  res.json(body);
}

/** GET (a standalone event stream) and DELETE (ending a session) have no use without sessions. */
const methodNotAllowed: RequestHandler = (_req, res) => {
  res
    .status(405)
    .set('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
};

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP (contract §16). Bearer credentials
 * only (an API token or an OAuth access token; the session cookie is not read), then the request
 * pipeline of REST, the burst limit of tool calls, and the SDK's transport in JSON-response mode.
 */
export function mcpRouter(): Router {
  const router = express.Router();
  router.post('/', jsonBody(), async (req, res) => {
    try {
      const outcome = await openRequest(
        { caller: 'org', meteredBySubRequest: true },
        {
          method: req.method,
          authorization: req.get('authorization'),
          organizationHeader: req.get('x-organization-id'),
          acceptLanguage: req.get('accept-language'),
        },
      );
      if (outcome.kind === 'refused') return sendError(res, req, outcome.error);
      res.locals.orgId = outcome.ctx!.org.id;
      const refusal = await burstRefusal(outcome.identity!, req.body);
      if (refusal) return sendError(res, req, refusal);

      const server = mcpServer(outcome, req);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      if (!res.headersSent) sendError(res, req, error);
    }
  });
  router.all('/', methodNotAllowed);
  return router;
}
