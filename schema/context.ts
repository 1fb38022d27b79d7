import type { RequestContext } from '../src/foundation/context.ts';
import { openRequest, organizationSuspended } from '../src/foundation/request.ts';
import type { AppError } from '../src/kernel/errors.ts';

/**
 * The caller in their active organization, or why the request pipeline refused it (every
 * protected field then answers with that error). Named `caller`, not `request`: Yoga's own
 * context keeps the HTTP request there (its abort signal cancels execution when the client goes).
 * In a staff-suspended organization `suspendedCaller` still reads the organization and its
 * subscription (contract §18), like their REST routes.
 */
export type GraphQLContext = (
  | { caller: RequestContext; authError: null; suspendedCaller?: undefined }
  | { caller: null; authError: AppError; suspendedCaller?: RequestContext }
) & {
  /** The client's address (behind a proxy, as TCMS_TRUST_PROXY lets Express read it). */
  clientAddress: string;
};

/**
 * Opens a GraphQL request through the core's request pipeline, exactly like a REST one (bearer
 * token or session cookie, X-Organization-Id, the CSRF rule, the per-minute ceiling). A refusal
 * is not an HTTP error here: it becomes the error of every protected field.
 */
export async function createGraphQLContext(
  request: Request,
  readSessionToken: (cookieHeader: string | undefined) => string | undefined,
  clientAddress: string,
): Promise<GraphQLContext> {
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const outcome = await openRequest(
    { caller: 'org', openWhileSuspended: true },
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
  if (outcome.kind === 'refused') return { caller: null, authError: outcome.error, clientAddress };
  const caller = outcome.ctx as RequestContext;
  if (caller.org.suspended) return { caller: null, authError: organizationSuspended(), suspendedCaller: caller, clientAddress };
  return { caller, authError: null, clientAddress };
}

/** The authenticated context of a resolver guarded by `authScopes: { member: true }`. */
export function requestOf(context: GraphQLContext): RequestContext {
  if (context.caller === null) throw context.authError;
  return context.caller;
}

/** The context of a resolver guarded by `authScopes: { organizationReader: true }`: a suspended organization's too. */
export function organizationReaderOf(context: GraphQLContext): RequestContext {
  const caller = context.caller ?? context.suspendedCaller;
  if (!caller) throw context.authError;
  return caller;
}
