/**
 * The error codes of the contract ("Errors" of api-v1.md: the enumeration and the codes named in
 * prose). Each transport maps them once: rest/errors.ts to HTTP statuses and headers,
 * schema/errors.ts to GraphQL errors.
 */
export const ERROR_CODES = [
  'validation_failed',
  'not_found',
  'conflict',
  'last_owner',
  'unauthorized',
  'forbidden',
  'email_not_verified',
  'email_send_failed',
  'challenge_failed',
  'too_many_requests',
  'unsupported_media_type',
  'internal_error',
  'immutable_field',
  'system_field',
  'system_field_readonly',
  'field_has_values',
  'not_system_field',
  'storage_quota_exceeded',
  'staging_already_committed',
  'file_too_large',
  'too_many_cases',
  'too_many_attachments',
  'too_many_suites',
  'parse_failed',
  'empty_import',
  'organization_suspended',
  'seat_limit_exceeded',
  'project_limit_exceeded',
  'api_result_limit_exceeded',
  'email_recipient_suppressed',
  'billing_provider_unavailable',
  'organization_plan_required',
  'run_case_assignee_locked',
  'project_locked',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why a request could not even be read, carried as `details.code` of a validation_failed: the
 * transports answer these differently from an ordinary 422 (REST: 400, or 413 for a body too large).
 */
export const UNREADABLE_REQUEST = [
  'malformed_json',
  'malformed_path',
  'invalid_idempotency_key',
  'foreign_display_id',
  'body_too_large',
] as const;
export type UnreadableRequest = (typeof UNREADABLE_REQUEST)[number];

/**
 * `details` of an error. `code` refines the top-level code; `retryAfterSeconds` says when a retry
 * may succeed (REST sends it as Retry-After too).
 */
export type ErrorDetails = Record<string, unknown> & { code?: string; retryAfterSeconds?: number };

/** The one error type of the core: a contract code, a message for people, optional details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'Your role does not allow this action') => new AppError('forbidden', message);
export const conflict = (message: string, details?: ErrorDetails) => new AppError('conflict', message, details);
export const validationFailed = (message: string, details?: ErrorDetails) => new AppError('validation_failed', message, details);
export const unreadableRequest = (reason: UnreadableRequest, message: string, details: ErrorDetails = {}) =>
  new AppError('validation_failed', message, { ...details, code: reason });
const internalError = () => new AppError('internal_error', 'Internal server error');

/** At most this many issues are listed in a 422; `issueCount` says how many there were. */
export const MAX_REPORTED_ISSUES = 100;

type Issue = { path: PropertyKey[]; message: string; code?: string; keys?: readonly string[] };

/** A zod failure as the contract's 422: `details.path` names the first offending field. */
export function fromValidationIssues(issues: readonly Issue[], location?: 'query' | 'params' | 'body' | 'file'): AppError {
  // An unknown key (zod's unrecognized_keys) is reported at the object; the offending field is the key.
  const toPath = (issue: Issue) =>
    [...issue.path, ...(issue.code === 'unrecognized_keys' && issue.keys?.length ? [issue.keys[0] as string] : [])].map((part) =>
      typeof part === 'symbol' ? String(part) : part,
    );
  const first = issues[0];
  const where = location && location !== 'body' ? ` in ${location}` : '';
  const message = first ? `${toPath(first).join('.') || location || 'request'}: ${first.message}${where}` : 'Invalid request';
  return validationFailed(message, {
    path: first ? toPath(first) : [],
    ...(location ? { location } : {}),
    issues: issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({ path: toPath(issue), message: issue.message })),
    ...(issues.length > MAX_REPORTED_ISSUES ? { issueCount: issues.length } : {}),
  });
}

/** PostgreSQL's SQLSTATE of a failed statement, as the driver adapter or Prisma carries it. */
export function sqlStateOf(error: unknown): string | undefined {
  const { cause, message } = (error ?? {}) as { cause?: { originalCode?: unknown }; message?: unknown };
  if (typeof cause?.originalCode === 'string') return cause.originalCode;
  return typeof message === 'string' ? /Database error\. Code: `(\w{5})`/.exec(message)?.[1] : undefined;
}

/**
 * Any thrown value as an AppError: database unique violations become 409 conflict, a missing
 * row 404, text PostgreSQL cannot store (NUL: 22021) that reached a statement unchecked 422;
 * anything unexpected becomes 500 internal_error (its message is never shown).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2002') return conflict('A resource with these unique values already exists');
  if (code === 'P2025') return notFound();
  if (sqlStateOf(error) === '22021') return validationFailed('A value holds a character that cannot be stored (NUL)');
  return internalError();
}

/** The exhaustiveness check of a `switch` over a union: a case left out fails to compile. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
