import type { IncomingMessage } from 'node:http';
import { ERROR_CODES } from '../../../src/kernel/errors.ts';

/**
 * What an error answer of a surface may look like besides the contract's envelope
 * (`{ error: { code, message } }`, which Express's own failures answer on every surface): an
 * HTML page (`page`), OAuth's RFC 6749 error object (`oauth`), a JSON-RPC error (`jsonrpc`, MCP's
 * transport) or GraphQL's `errors` (`graphql`).
 */
export type Envelope = 'page' | 'oauth' | 'jsonrpc' | 'graphql';

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; body: unknown };

/** An error answer echoes little of the request: at most 100 issues, each clipped. */
const MAX_ERROR_BYTES = 32 * 1024;

const isContractCode = (code: unknown) => (ERROR_CODES as readonly unknown[]).includes(code);
const nonEmpty = (text: unknown) => typeof text === 'string' && text.trim() !== '';

function contractProblem(body: unknown): string | null {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (!error || typeof error !== 'object' || !isContractCode(error.code)) return 'error without a contract code';
  if (error.code === 'internal_error') return 'internal_error';
  return nonEmpty(error.message) ? null : 'error without a message';
}

/** RFC 6749's error object: `error` a code (a string), `error_description` optional. */
const isOAuthError = (body: unknown) => nonEmpty((body as { error?: unknown } | undefined)?.error);

function jsonRpcError(body: unknown): { code?: unknown; message?: unknown } | undefined {
  const message = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  return message?.jsonrpc === '2.0' && message.error && typeof message.error === 'object' ? message.error : undefined;
}

/** JSON-RPC's internal error: what an MCP server answers when a handler threw. */
const JSON_RPC_INTERNAL_ERROR = -32603;

/**
 * Whether a JSON-RPC error's message is the issues of a request schema: the MCP SDK (1.32) answers
 * params its schemas refuse with an internal error carrying them, because its Protocol parses a
 * request before its Server's own invalid-params check runs. Nothing of ours threw.
 */
function isRefusedParams(message: unknown): boolean {
  try {
    const issues = JSON.parse(String(message)) as unknown;
    return (
      Array.isArray(issues) &&
      issues.length > 0 &&
      issues.every((issue) => Array.isArray(issue?.path) && typeof issue?.message === 'string')
    );
  } catch {
    return false;
  }
}

/** An MCP answer that is a success on the wire but hides an internal error: a JSON-RPC one, or a tool's. */
function mcpSuccessProblem(body: unknown): string | null {
  for (const message of [body].flat()) {
    const error = jsonRpcError(message);
    if (error?.code === JSON_RPC_INTERNAL_ERROR && !isRefusedParams(error.message)) return 'JSON-RPC internal error';
    const result = (message as { result?: { isError?: boolean; structuredContent?: unknown } } | undefined)?.result;
    if (result?.isError) {
      const problem = contractProblem(result.structuredContent);
      if (problem) return `tool error: ${problem}`;
    }
  }
  return null;
}

type GraphQLErrors = Array<{ message?: unknown; extensions?: { code?: unknown } }>;
const graphqlErrorsOf = (body: unknown) => (body as { errors?: GraphQLErrors } | undefined)?.errors;

/** GraphQL errors, in a 200 as in a 4xx: each with a message and a contract code other than internal_error. */
function graphqlProblem(errors: GraphQLErrors): string | null {
  for (const error of errors) {
    const code = error.extensions?.code;
    if (!isContractCode(code)) return 'GraphQL error without a contract code';
    if (code === 'internal_error') return 'GraphQL internal_error';
    if (!nonEmpty(error.message)) return 'GraphQL error without a message';
  }
  return null;
}

/** Why an answer breaks the rules, or null: a 5xx, an error outside its surface's envelopes, or a big one. */
export function answerProblem(answer: Answer, envelopes: readonly Envelope[] = []): string | null {
  if (answer.status >= 500) return '5xx';
  const contentType = String(answer.headers['content-type'] ?? '');
  // A GraphQL request for an event stream is answered as one: its errors are its first event.
  const json = [
    'application/json',
    'application/graphql-response+json',
    ...(envelopes.includes('graphql') ? ['text/event-stream'] : []),
  ].some((type) => contentType.startsWith(type));
  const graphqlErrors = envelopes.includes('graphql') ? graphqlErrorsOf(answer.body) : undefined;
  if (answer.status < 400) {
    if (graphqlErrors) return graphqlProblem(graphqlErrors);
    return envelopes.includes('jsonrpc') && json ? mcpSuccessProblem(answer.body) : null;
  }
  if (answer.text.length > MAX_ERROR_BYTES) return `error of ${answer.text.length} bytes`;
  if (envelopes.includes('page') && contentType.startsWith('text/html')) return nonEmpty(answer.text) ? null : 'empty error page';
  if (!json) return 'error without a JSON body';
  if (graphqlErrors) return graphqlProblem(graphqlErrors);
  if (envelopes.includes('oauth') && isOAuthError(answer.body)) return null;
  const rpcError = envelopes.includes('jsonrpc') ? jsonRpcError(answer.body) : undefined;
  if (rpcError) return nonEmpty(rpcError.message) ? null : 'JSON-RPC error without a message';
  return contractProblem(answer.body);
}

/**
 * A supertest parser that reads an answer like supertest does, except that an event stream is
 * read up to its first event, or a second without one: its 200 never ends by itself. The first
 * event's data is the body.
 */
export function untilFirstEvent(res: IncomingMessage & { text?: string }, done: (error: Error | null, body: unknown) => void) {
  const eventStream = String(res.headers['content-type']).startsWith('text/event-stream');
  let text = '';
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    res.text = text;
    done(null, eventStream ? firstEventData(text) : parsedOrEmpty(text));
    if (eventStream) res.destroy();
  };
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    if (eventStream && /(^|\n)data:[^\n]*\n\n/.test(text)) settle();
  });
  res.on('end', settle);
  res.on('close', settle);
  // A stream that sends nothing at once is judged by its headers.
  if (eventStream) setTimeout(settle, 1_000).unref();
}

function parsedOrEmpty(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: answerProblem says so from the content type.
    return {};
  }
}

const firstEventData = (text: string) => parsedOrEmpty(/^data: ?(.*)$/m.exec(text)?.[1] ?? '');
