import { localeOf } from '../src/i18n.ts';
import { assertNotCrossSite, enterOrganization, identify, unauthorized } from '../src/auth/authenticate.ts';
import type { RequestContext } from '../src/context.ts';
import { AppError, toAppError } from '../src/errors.ts';
import { consumeRequest } from '../src/rate-limit/rate-limit.service.ts';

export type GraphQLContext = {
  /** The caller in their active organization; null when authentication failed. */
  request: RequestContext | null;
  /** Why `request` is null; every protected field answers with it. */
  authError: AppError;
};

/**
 * Authenticates a GraphQL request exactly like a REST one: bearer token or session cookie, the
 * X-Organization-Id header, the CSRF rule and, for tokens, the per-minute ceiling.
 */
export async function createGraphQLContext(
  request: Request,
  readSessionToken: (cookieHeader: string | undefined) => string | undefined,
): Promise<GraphQLContext> {
  const header = (name: string) => request.headers.get(name) ?? undefined;
  try {
    const identity = await identify({
      authorization: header('authorization'),
      sessionToken: readSessionToken(header('cookie')),
    });
    if (!identity) return { request: null, authError: unauthorized() };
    assertNotCrossSite({
      method: request.method,
      identity,
      organizationHeader: header('x-organization-id'),
      origin: header('origin'),
      host: header('host'),
    });
    const ctx = await enterOrganization(identity, header('x-organization-id'), localeOf(header('accept-language')));
    if (ctx.metered) {
      const state = await consumeRequest(ctx);
      if (!state.allowed) {
        return {
          request: null,
          authError: new AppError('too_many_requests', 'The per-minute API request ceiling was reached', {
            details: { retryAfterSeconds: state.retryAfterSeconds },
          }),
        };
      }
    }
    return { request: ctx, authError: unauthorized() };
  } catch (error) {
    return { request: null, authError: toAppError(error) };
  }
}

/** The authenticated context of a resolver guarded by `authScopes: { member: true }`. */
export function requestOf(context: GraphQLContext): RequestContext {
  if (!context.request) throw context.authError;
  return context.request;
}
