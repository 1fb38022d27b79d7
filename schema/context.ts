import type { RequestContext } from '../src/context.ts';
import type { AppError } from '../src/errors.ts';
import { openRequest } from '../src/request.ts';

/**
 * The caller in their active organization, or why the request pipeline refused it (every
 * protected field then answers with that error). Named `caller`, not `request`: Yoga's own
 * context keeps the HTTP request there (its abort signal cancels execution when the client goes).
 */
export type GraphQLContext = { caller: RequestContext; authError: null } | { caller: null; authError: AppError };

/**
 * Opens a GraphQL request through the core's request pipeline, exactly like a REST one (bearer
 * token or session cookie, X-Organization-Id, the CSRF rule, the per-minute ceiling). A refusal
 * is not an HTTP error here: it becomes the error of every protected field.
 */
export async function createGraphQLContext(
  request: Request,
  readSessionToken: (cookieHeader: string | undefined) => string | undefined,
): Promise<GraphQLContext> {
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const outcome = await openRequest(
    { caller: 'org' },
    {
      method: request.method,
      authorization: header('authorization'),
      sessionToken: readSessionToken(header('cookie')),
      organizationHeader: header('x-organization-id'),
      origin: header('origin'),
      host: header('host'),
      acceptLanguage: header('accept-language'),
    },
  );
  if (outcome.kind === 'refused') return { caller: null, authError: outcome.error };
  return { caller: outcome.ctx as RequestContext, authError: null };
}

/** The authenticated context of a resolver guarded by `authScopes: { member: true }`. */
export function requestOf(context: GraphQLContext): RequestContext {
  if (context.caller === null) throw context.authError;
  return context.caller;
}
