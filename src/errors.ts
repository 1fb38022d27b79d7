/** The error codes of the contract ("Errors" of api-v1.md), each with its HTTP status. */
export const errorStatus = {
  validation_failed: 422,
  not_found: 404,
  conflict: 409,
  last_owner: 409,
  unauthorized: 401,
  forbidden: 403,
  too_many_requests: 429,
  unsupported_media_type: 415,
  internal_error: 500,
  immutable_field: 422,
  system_field: 422,
  system_field_readonly: 422,
  field_has_values: 409,
  not_system_field: 400,
  storage_quota_exceeded: 413,
  staging_already_committed: 409,
  file_too_large: 413,
  too_many_cases: 422,
  too_many_attachments: 422,
  too_many_suites: 422,
  seat_limit_exceeded: 409,
  project_limit_exceeded: 409,
  api_result_limit_exceeded: 409,
  run_case_assignee_locked: 403,
  project_locked: 403,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorDetails = Record<string, unknown> | Array<Record<string, unknown>>;

/** The one error type of the core; each transport maps it once (rest/errors.ts, schema/errors.ts). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? errorStatus[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'Your role does not allow this action') =>
  new AppError('forbidden', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const validationFailed = (message: string, details?: ErrorDetails) =>
  new AppError('validation_failed', message, { details });

type Issue = { path: PropertyKey[]; message: string; code?: string; keys?: readonly string[] };

/** A zod failure as the contract's 422: `details.path` names the first offending field. */
export function fromValidationIssues(issues: readonly Issue[], location?: 'query' | 'params' | 'body' | 'file'): AppError {
  // An unknown key (zod's unrecognized_keys) is reported at the object; the offending field is the key.
  const toPath = (issue: Issue) =>
    [...issue.path, ...(issue.code === 'unrecognized_keys' && issue.keys?.length ? [issue.keys[0] as string] : [])].map(
      (part) => (typeof part === 'symbol' ? String(part) : part),
    );
  const first = issues[0];
  const where = location && location !== 'body' ? ` in ${location}` : '';
  const message = first
    ? `${toPath(first).join('.') || location || 'request'}: ${first.message}${where}`
    : 'Invalid request';
  return validationFailed(message, {
    path: first ? toPath(first) : [],
    ...(location ? { location } : {}),
    issues: issues.map((issue) => ({ path: toPath(issue), message: issue.message })),
  });
}

/**
 * Any thrown value as an AppError: database unique violations become 409 conflict, a missing
 * row 404; anything unexpected becomes 500 internal_error (its message is never shown).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2002') return conflict('A resource with these unique values already exists');
  if (code === 'P2025') return notFound();
  return new AppError('internal_error', 'Internal server error');
}
