import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  AppError,
  type ErrorCode,
  notFound,
  toAppError,
  UNREADABLE_REQUEST,
  type UnreadableRequest,
  unreachable,
  unreadableRequest,
} from '../src/kernel/errors.ts';
import { logger } from '../src/kernel/logger.ts';
import { JSON_BODY_LIMIT } from './http-settings.ts';

/** The HTTP status of each contract code; a code added to ERROR_CODES and not mapped here fails to compile. */
function httpStatusOf(error: AppError): number {
  const code: ErrorCode = error.code;
  switch (code) {
    case 'validation_failed':
      return isUnreadable(error.details?.code) ? unreadableStatus(error.details.code) : 422;
    case 'immutable_field':
    case 'system_field':
    case 'system_field_readonly':
    case 'too_many_cases':
    case 'too_many_attachments':
    case 'too_many_suites':
    case 'parse_failed':
    case 'empty_import':
      return 422;
    case 'not_system_field':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
    case 'email_not_verified':
    case 'challenge_failed':
    case 'organization_suspended':
    case 'organization_plan_required':
    case 'run_case_assignee_locked':
    case 'project_locked':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
    case 'last_owner':
    case 'field_has_values':
    case 'staging_already_committed':
    case 'seat_limit_exceeded':
    case 'project_limit_exceeded':
    case 'api_result_limit_exceeded':
    case 'email_recipient_suppressed':
      return 409;
    case 'file_too_large':
    case 'storage_quota_exceeded':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'too_many_requests':
      return 429;
    case 'internal_error':
      return 500;
    case 'email_send_failed':
      return 502;
    case 'billing_provider_unavailable':
    case 'service_unavailable':
      return 503;
    default:
      return unreachable(code);
  }
}

const isUnreadable = (code: unknown): code is UnreadableRequest => UNREADABLE_REQUEST.includes(code as UnreadableRequest);

function unreadableStatus(reason: UnreadableRequest): number {
  switch (reason) {
    case 'malformed_json':
    case 'malformed_path':
    case 'invalid_idempotency_key':
    case 'foreign_display_id':
      return 400;
    case 'body_too_large':
      return 413;
    default:
      return unreachable(reason);
  }
}

/** `Retry-After` (whole seconds) on every error that says when a retry may succeed. */
const errorHeaders = (error: AppError): Record<string, string> =>
  error.details?.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.details.retryAfterSeconds) };

export type ErrorReply = {
  status: number;
  headers: Record<string, string>;
  body: { error: { code: string; message: string; details?: unknown } };
};

/**
 * Any thrown value as the contract's envelope. An unexpected one becomes 500 internal_error: its
 * stack goes to the log with the request's id, never to the client.
 */
export function errorReply(thrown: unknown, log: Logger = logger): ErrorReply {
  const error = toAppError(thrown);
  if (!(thrown instanceof AppError) && error.code === 'internal_error') log.error({ err: thrown }, 'request failed unexpectedly');
  return {
    status: httpStatusOf(error),
    headers: errorHeaders(error),
    body: { error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) } },
  };
}

export type ParserError = Error & { type?: string; status?: number; expose?: boolean; limit?: number };

/**
 * What Express and its body parser throw before a route runs, as contract errors: an unreadable
 * or oversized body, an unsupported encoding, a path that does not percent-decode.
 */
export function fromExpress(error: ParserError): unknown {
  // What the body parser's `verify` (rest/router.ts) refused, carried out under its own status.
  if (error instanceof AppError) return error;
  switch (error.type) {
    case 'entity.parse.failed':
      return unreadableRequest('malformed_json', 'The request body is not valid JSON');
    case 'entity.too.large':
      // The limit of the parser that refused it: the API's JSON parser, or a smaller one (OAuth's).
      return unreadableRequest(
        'body_too_large',
        `The request body exceeds ${error.limit === undefined ? JSON_BODY_LIMIT : `${error.limit} bytes`}`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'Unsupported body encoding or charset');
  }
  if (error instanceof URIError) return unreadableRequest('malformed_path', 'The request path is not valid percent-encoding');
  // Other 4xx of the parsers (a body that does not inflate, a truncated stream): the client's doing.
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return unreadableRequest('malformed_json', 'The request body could not be read');
  }
  return error;
}

/** Everything no route matched: unknown paths, unversioned `/api/...`, wrong methods. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`No route for ${req.method} ${req.path}`));
};

/** The last middleware: whatever was thrown or passed on leaves as the contract's envelope. */
export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error);
  const reply = errorReply(fromExpress(error as ParserError), req.log);
  res.status(reply.status).set(reply.headers).json(reply.body);
};
