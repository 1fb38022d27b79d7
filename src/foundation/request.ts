import { AppError, notFound } from '../kernel/errors.ts';
import { localeOf } from '../kernel/i18n.ts';
import { ULID_PATTERN } from '../kernel/ids.ts';
import { assertNotCrossSite, enterOrganization, identify, type RequestMeter, unauthorized } from './auth/authenticate.ts';
import type { Identity, RequestContext } from './context.ts';
import { budgetSpent, budgetState, consumeRequest, type RateLimitState } from './rate-limit/rate-limit.service.ts';

/** What a transport read off a request, before anything is decided. */
export type RequestCredentials = {
  method: string;
  /** The raw Authorization header. */
  authorization?: string | undefined;
  /** The session cookie's value. */
  sessionToken?: string | undefined;
  /** X-Organization-Id. */
  organizationHeader?: string | undefined;
  origin?: string | undefined;
  host?: string | undefined;
  acceptLanguage?: string | undefined;
};

/**
 * Who may make the request:
 * - `none`: anyone; no credentials are read (health, signup, login).
 * - `user`: a person signed in with a session, no organization needed.
 * - `org`: a session or an API token acting in one organization (nearly everything).
 */
export type CallerNeeds = {
  caller: 'none' | 'user' | 'org';
  /** Session-only routes (contract §1) refuse API tokens with 401. */
  sessionOnly?: boolean;
  /** The organization an `/orgs/{orgUlid}` path names. */
  orgFromPath?: string | undefined;
  /**
   * Answered in a staff-suspended organization too (contract §18): only reading the organization
   * and its subscription, so that its members can see where they stand.
   */
  openWhileSuspended?: boolean;
  /**
   * The transport meters each sub-request itself with `meterRequest` (an MCP tool call's service
   * calls, contract §16); the request as a whole is not counted.
   */
  meteredBySubRequest?: boolean;
};

/**
 * The outcome of the request pipeline. A refused request carries the error to answer; a metered
 * caller's request carries the per-minute ceiling's state either way (REST sends it as headers).
 */
export type RequestOutcome =
  | { kind: 'open'; identity: Identity | null; ctx: RequestContext | undefined; rateLimit: RateLimitState | undefined }
  | { kind: 'refused'; error: AppError; rateLimit: RateLimitState | undefined };

export const organizationSuspended = () =>
  new AppError('organization_suspended', 'This organization is suspended; contact the service staff');

const refused = (error: AppError, rateLimit?: RateLimitState): RequestOutcome => ({ kind: 'refused', error, rateLimit });

/**
 * Counts one request of a machine caller against the organization's per-minute ceiling; `error`
 * is the refusal when the ceiling was reached.
 */
export const meterRequest = async (ctx: RequestContext) => withinCeiling(await consumeRequest(ctx));

function withinCeiling(rateLimit: RateLimitState): { rateLimit: RateLimitState; error?: AppError } {
  if (rateLimit.allowed) return { rateLimit };
  return { rateLimit, error: budgetSpent(rateLimit, 'The per-minute API request ceiling was reached') };
}

/**
 * The one request pipeline of both transports: identify the caller (bearer token or session
 * cookie) → refuse tokens on session-only routes → the CSRF rule for cookie writes → enter the
 * active organization → refuse a staff-suspended organization → count a machine caller against
 * the per-minute ceiling.
 */
export async function openRequest(needs: CallerNeeds, credentials: RequestCredentials): Promise<RequestOutcome> {
  if (needs.caller === 'none') return { kind: 'open', identity: null, ctx: undefined, rateLimit: undefined };
  try {
    const now = Date.now();
    const requestedOrgId = needs.orgFromPath ?? credentials.organizationHeader;
    const identified = await identify(
      credentials,
      {
        meter: requestMeter(needs, credentials, requestedOrgId),
        entering: entersWithCaller(needs, credentials, requestedOrgId) ? { orgId: requestedOrgId } : undefined,
      },
      now,
    );
    if (!identified) return refused(unauthorized());
    const { identity } = identified;
    if ((needs.sessionOnly || needs.caller === 'user') && identity.kind !== 'session') {
      return refused(unauthorized('This route needs a session, not an API token'));
    }
    assertNotCrossSite({ ...credentials, identity });
    if (needs.caller === 'user') return { kind: 'open', identity, ctx: undefined, rateLimit: undefined };

    if (orgsDisagree(needs, credentials)) return refused(notFound('Organization'));
    const ctx = await enterOrganization(identified, requestedOrgId, localeOf(credentials.acceptLanguage));
    if (ctx.org.suspended && !needs.openWhileSuspended) return refused(organizationSuspended());
    if (!ctx.metered || needs.meteredBySubRequest) return { kind: 'open', identity, ctx, rateLimit: undefined };
    const { rateLimit, error } =
      identified.requestCount === undefined
        ? await meterRequest(ctx)
        : withinCeiling(budgetState('requests', ctx.org.limits.requestsPerMinute, identified.requestCount, now));
    return error ? refused(error, rateLimit) : { kind: 'open', identity, ctx, rateLimit };
  } catch (error) {
    if (error instanceof AppError) return refused(error);
    throw error;
  }
}

/** Whether a session's membership is read with the session: the request enters an organization it may name. */
const entersWithCaller = (needs: CallerNeeds, credentials: RequestCredentials, requestedOrgId: string | undefined) =>
  needs.caller === 'org' && !orgsDisagree(needs, credentials) && (requestedOrgId === undefined || ULID_PATTERN.test(requestedOrgId));

const orgsDisagree = (needs: CallerNeeds, credentials: RequestCredentials) =>
  needs.orgFromPath !== undefined && credentials.organizationHeader !== undefined && credentials.organizationHeader !== needs.orgFromPath;

/**
 * What an API token's own statement may count, on a route that meters the whole request: the
 * steps below refuse, and so leave uncounted, a token on a session-only route, a request whose
 * organizations disagree or are not the token's, and a suspended organization (where the route is
 * closed to it).
 */
function requestMeter(needs: CallerNeeds, credentials: RequestCredentials, requestedOrgId: string | undefined): RequestMeter | undefined {
  if (needs.caller !== 'org' || needs.sessionOnly || needs.meteredBySubRequest || orgsDisagree(needs, credentials)) return undefined;
  if (requestedOrgId !== undefined && !ULID_PATTERN.test(requestedOrgId)) return undefined;
  return { orgId: requestedOrgId, openWhileSuspended: needs.openWhileSuspended ?? false };
}
