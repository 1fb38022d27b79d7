import type { GraphQLError } from 'graphql';
import { createGraphQLError, maskError, type Plugin } from 'graphql-yoga';
import { AppError, ERROR_CODES, type ErrorCode } from '../src/errors.ts';
import { logger } from '../src/logger.ts';

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
  logger.error({ err: cause }, 'GraphQL resolver failed unexpectedly');
  // Never in development mode either: a stack or a file path is not for the client.
  const masked = maskError(error, message, false);
  return createGraphQLError(masked.message, {
    ...locationOf(masked),
    extensions: { ...(isGraphQLError(masked) ? masked.extensions : {}), code: 'internal_error' },
  });
}

const isContractCode = (code: unknown) => ERROR_CODES.includes(code as ErrorCode);

/**
 * Errors raised before execution never reach `maskGraphQLError`: a syntax error, an unknown
 * field, a variable of the wrong type. They are the client's malformed input, so they carry
 * the contract's `validation_failed` too (Yoga's own code stays in `extensions.graphqlCode`).
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
          : createGraphQLError(error.message, {
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
};
