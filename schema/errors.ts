import type { GraphQLError } from 'graphql';
import { createGraphQLError, maskError, type Plugin } from 'graphql-yoga';
import { AppError, ERROR_CODES, type ErrorCode } from '../src/kernel/errors.ts';
import { logger } from '../src/kernel/logger.ts';

/**
 * Duck-typed on purpose: under vitest the schema (built by Pothos, loaded by Node) and source
 * files transformed by Vite get two copies of `graphql`, so `instanceof GraphQLError` is
 * unreliable. GraphQLError and its subclasses (PothosValidationError) share this tag.
 */
const isGraphQLError = (value: unknown): value is GraphQLError =>
  value instanceof Error && Object.prototype.toString.call(value) === '[object GraphQLError]';

/** The error a resolver (or the scope-auth plugin) threw, under graphql's located wrappers. */
function rootCause(error: unknown): unknown {
  let cause = error;
  while (isGraphQLError(cause) && cause.originalError) cause = cause.originalError;
  return cause;
}

const locationOf = (error: unknown) =>
  isGraphQLError(error) ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path } : {};

/**
 * SQLSTATEs of text PostgreSQL refuses: U+0000 in text (22021) or in jsonb (22P05). REST checks
 * every argument before the database; the identifiers a GraphQL field takes (`ulid`, `userUlid`)
 * reach it as given, so the database's refusal is the client's invalid input.
 */
const UNSTORABLE_TEXT_STATES = new Set(['22021', '22P05']);

/** The SQLSTATE under a Prisma error (its driver adapter's cause) or under a raw statement's adapter error. */
const sqlStateOf = (error: unknown): unknown => {
  const failure = error as { meta?: { driverAdapterError?: { cause?: { code?: unknown } } }; cause?: { code?: unknown } } | null;
  return failure?.meta?.driverAdapterError?.cause?.code ?? failure?.cause?.code;
};

/**
 * The GraphQL side of the contract's error mapping: an AppError keeps its message and carries
 * the REST code (and details) in `extensions.code`; an argument error raised while executing a
 * field (a malformed cursor, a negative `first`) is `validation_failed`; anything unexpected is
 * masked as `internal_error` without message or stack.
 */
export function maskGraphQLError(error: unknown, message: string): Error {
  const cause = rootCause(error);
  if (cause instanceof AppError) {
    return createGraphQLError(cause.message, {
      ...locationOf(error),
      extensions: { code: cause.code, ...(cause.details ? { details: cause.details } : {}) },
    });
  }
  if (isGraphQLError(cause)) {
    if (cause.extensions?.code || !isGraphQLError(error) || !error.path) return error as Error;
    return createGraphQLError(cause.message, {
      ...locationOf(error),
      extensions: { ...cause.extensions, code: 'validation_failed' },
    });
  }
  if (UNSTORABLE_TEXT_STATES.has(String(sqlStateOf(cause)))) {
    return createGraphQLError('An argument holds text the database cannot store (the NUL character)', {
      ...locationOf(error),
      extensions: { code: 'validation_failed' },
    });
  }
  logger.error({ err: cause }, 'GraphQL resolver failed unexpectedly');
  // Never in development mode either: a stack or a file path is not for the client.
  const masked = maskError(error, message, false);
  return createGraphQLError(masked.message, {
    ...locationOf(masked),
    extensions: { ...(isGraphQLError(masked) ? masked.extensions : {}), code: 'internal_error' },
  });
}

const isContractCode = (code: unknown) => ERROR_CODES.includes(code as ErrorCode);

/** The most characters of a request error's message kept at each end: what a variable does not coerce to is echoed whole. */
const ECHO_ENDS = 200;
const clipped = (message: string) =>
  message.length > 2 * ECHO_ENDS ? `${message.slice(0, ECHO_ENDS)} … ${message.slice(-ECHO_ENDS)}` : message;

/** What Yoga's refusals of a request's media types, which it answers without a body, mean (a 406 names what it answers in its Accept header). */
const MEDIA_TYPE_REFUSALS: Record<number, (response: Response) => string> = {
  406: (response) => `The Accept header names none of the media types answered: ${response.headers.get('accept')}`,
  415: () => 'A GraphQL request is a GET, or a POST of application/json, application/graphql+json, application/graphql or a form',
};

/**
 * Errors raised before execution never reach `maskGraphQLError`: a syntax error, an unknown
 * field, a variable of the wrong type. They are the client's malformed input, so they carry
 * the contract's `validation_failed` too (Yoga's own code stays in `extensions.graphqlCode`),
 * with what their message echoes of the request clipped. Yoga's bodiless 406 and 415 get the
 * same errors envelope, as `unsupported_media_type`.
 */
export const contractCodesForRequestErrors: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
    if (result.errors.every((error) => isContractCode(error.extensions?.code))) return;
    setResult({
      ...result,
      errors: result.errors.map((error) =>
        isContractCode(error.extensions?.code)
          ? error
          : createGraphQLError(clipped(error.message), {
              ...locationOf(error),
              extensions: {
                ...error.extensions,
                code: 'validation_failed',
                ...(error.extensions?.code ? { graphqlCode: error.extensions.code } : {}),
              },
            }),
      ),
    });
  },
  onResponse({ response, setResponse, fetchAPI }) {
    const refusal = MEDIA_TYPE_REFUSALS[response.status];
    if (!refusal || response.body) return;
    const headers = new fetchAPI.Headers(response.headers);
    headers.set('Content-Type', 'application/json; charset=utf-8');
    const body = { errors: [{ message: refusal(response), extensions: { code: 'unsupported_media_type' } }] };
    setResponse(new fetchAPI.Response(JSON.stringify(body), { status: response.status, headers }));
  },
};
