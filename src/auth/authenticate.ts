import type { Locale } from '../i18n.ts';
import type { Identity, OrganizationSnapshot, RequestContext, Role, UserSnapshot } from '../context.ts';
import { prisma } from '../database/client.ts';
import type { OrganizationRow } from '../orgs/orgs.service.ts';
import { tenantClient } from '../database/tenant.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { ULID_PATTERN } from '../ids.ts';
import { effectiveLimits, type OrganizationPlanRow } from '../orgs/billing-tiers.ts';
import { clientName } from '../oauth/oauth-clients.ts';
import { lowerRole } from './policy.ts';
import { bypassesAllowlist, hiddenProjectIds } from './project-visibility.ts';
import { SESSION_IDLE_MS } from './auth.schemas.ts';
import { API_TOKEN_PREFIX, OAUTH_ACCESS_TOKEN_PREFIX, sha256 } from './secrets.ts';

// lastSeenAt / lastUsedAt are refreshed at most this often, not on every request.
const TOUCH_INTERVAL_MS = 60 * 1000;

export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError('unauthorized', message);

/**
 * A staff-suspended member (memberships.suspended_at) keeps their seat but cannot act in the
 * organization, with a session or with any of their API tokens.
 */
const membershipSuspended = () =>
  new AppError('forbidden', 'Your membership of this organization is suspended; contact the service staff', {
    code: 'membership_suspended',
  });

export type Credentials = {
  /** The raw Authorization header, if any. */
  authorization?: string | undefined;
  /** The session cookie value, if any. */
  sessionToken?: string | undefined;
};

export const userSnapshot = (user: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarKey: string | null;
  emailVerifiedAt: Date | null;
}): UserSnapshot => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  avatarKey: user.avatarKey,
  emailVerified: user.emailVerifiedAt !== null,
});

/** Resolves the caller from a bearer token or a session cookie; null when neither was sent. */
export async function identify(credentials: Credentials): Promise<Identity | null> {
  if (credentials.authorization !== undefined) return identifyToken(credentials.authorization);
  if (credentials.sessionToken) return identifySession(credentials.sessionToken);
  return null;
}

type ApiTokenRow = {
  id: string;
  orgId: string;
  name: string;
  role: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  membershipRole: string | null;
  membershipSuspendedAt: Date | null;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarKey: string | null;
  emailVerifiedAt: Date | null;
  orgName: string;
  orgSuspendedAt: Date | null;
} & OrganizationPlanRow;

/**
 * An API token with its creator's membership of the token's organization, the creator and the
 * organization, in one statement that also records the use (at most once a minute, and only for
 * a token that works): every token request pays for it.
 */
async function findApiToken(secret: string, now: number): Promise<ApiTokenRow | undefined> {
  const [row] = await prisma().$queryRaw<ApiTokenRow[]>`
    WITH token AS (
      SELECT t.id, t.org_id, t.user_id, t.name, t.role, t.expires_at, t.revoked_at, t.last_used_at,
             m.role AS membership_role, m.suspended_at AS membership_suspended_at
      FROM api_tokens AS t
      LEFT JOIN memberships AS m ON m.org_id = t.org_id AND m.user_id = t.user_id
      WHERE t.token_hash = ${sha256(secret)}
    ), touched AS (
      UPDATE api_tokens SET last_used_at = ${new Date(now)}
      WHERE id IN (
        SELECT id FROM token
        WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${new Date(now)})
          AND membership_role IS NOT NULL AND membership_suspended_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < ${new Date(now - TOUCH_INTERVAL_MS)})
      )
    )
    SELECT token.id, token.org_id AS "orgId", token.name, token.role, token.expires_at AS "expiresAt", token.revoked_at AS "revokedAt",
           token.membership_role AS "membershipRole", token.membership_suspended_at AS "membershipSuspendedAt",
           u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.avatar_key AS "avatarKey",
           u.email_verified_at AS "emailVerifiedAt",
           o.name AS "orgName", o.suspended_at AS "orgSuspendedAt", o.plan, o.max_projects_override AS "maxProjectsOverride",
           o.max_seats_override AS "maxSeatsOverride", o.max_results_per_month_override AS "maxResultsPerMonthOverride",
           o.requests_per_minute_override AS "requestsPerMinuteOverride", o.audit_export_enabled_override AS "auditExportEnabledOverride"
    FROM token
    JOIN users AS u ON u.id = token.user_id
    JOIN organizations AS o ON o.id = token.org_id`;
  return row;
}

async function identifyToken(authorization: string): Promise<Identity> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1]?.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) return identifyOAuthToken(match[1]);
  if (!match?.[1]?.startsWith(API_TOKEN_PREFIX)) throw unauthorized();
  const now = Date.now();
  const token = await findApiToken(match[1], now);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now)) throw unauthorized();
  if (token.membershipRole === null) throw unauthorized('The creator of this token has left the organization');
  if (token.membershipSuspendedAt) throw membershipSuspended();
  return {
    kind: 'api_token',
    user: userSnapshot({ ...token, id: token.userId }),
    token: {
      id: token.id,
      name: token.name,
      orgId: token.orgId,
      role: lowerRole(token.role as Role, token.membershipRole as Role),
    },
    org: organizationSnapshot({ ...token, id: token.orgId, name: token.orgName, suspendedAt: token.orgSuspendedAt }),
  };
}

/**
 * An OAuth access token acts for the user who consented, in the organization they chose, with
 * their current role capped at admin; it stops working with their membership (decisions §16).
 */
async function identifyOAuthToken(secret: string): Promise<Identity> {
  const token = await prisma().oAuthAccessToken.findUnique({
    where: { tokenHash: sha256(secret) },
    include: { grant: { include: { org: true, client: true, user: { include: { memberships: true } } } } },
  });
  if (!token || token.expiresAt.getTime() <= Date.now()) throw unauthorized();
  const { grant } = token;
  const membership = grant.user.memberships.find((m) => m.orgId === grant.orgId);
  if (!membership) throw unauthorized('The user who authorized this application has left the organization');
  if (membership.suspendedAt) throw membershipSuspended();
  return {
    kind: 'oauth',
    user: userSnapshot(grant.user),
    token: { id: grant.id, name: clientName(grant.client), orgId: grant.orgId, role: lowerRole('admin', membership.role as Role) },
    org: organizationSnapshot(grant.org),
  };
}

async function identifySession(sessionToken: string): Promise<Identity> {
  const session = await prisma().session.findUnique({
    where: { tokenHash: sha256(sessionToken) },
    include: { user: true },
  });
  if (!session) throw unauthorized('No valid session');
  const now = Date.now();
  const idle = now - session.lastSeenAt.getTime();
  if (idle > SESSION_IDLE_MS) {
    await prisma().session.deleteMany({ where: { id: session.id } });
    throw unauthorized('The session expired');
  }
  if (idle > TOUCH_INTERVAL_MS) {
    await prisma().session.update({ where: { id: session.id }, data: { lastSeenAt: new Date(now) } });
  }
  return { kind: 'session', user: userSnapshot(session.user), sessionId: session.id };
}

/**
 * Enters the organization a request acts in: a token's own organization, or for a session the
 * requested one (X-Organization-Id or an `/orgs/{orgUlid}` path), else the oldest active
 * (not suspended) membership. An organization the caller does not belong to is
 * indistinguishable from a missing one (404); a suspended membership answers 403.
 */
export async function enterOrganization(
  identity: Identity,
  requestedOrgId?: string,
  locale: Locale = 'en',
): Promise<RequestContext> {
  if (requestedOrgId !== undefined && !ULID_PATTERN.test(requestedOrgId)) throw notFound('Organization');
  if (identity.kind !== 'session') {
    if (requestedOrgId !== undefined && requestedOrgId !== identity.token.orgId) throw notFound('Organization');
    const { role } = identity.token;
    // An OAuth token sees what its user sees; an API token is never evaluated against the allowlist.
    const hidden = bypassesAllowlist(identity, role) ? [] : await hiddenProjectIds(prisma(), identity.org.id, identity.user.id);
    return context(identity, identity.org, role, true, locale, hidden);
  }
  const membership = await prisma().membership.findFirst({
    where: { userId: identity.user.id, ...(requestedOrgId ? { orgId: requestedOrgId } : {}) },
    orderBy: [{ suspendedAt: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }, { id: 'asc' }],
    include: { org: true },
  });
  if (!membership) throw notFound('Organization');
  if (membership.suspendedAt) throw membershipSuspended();
  const role = membership.role as Role;
  const hidden = bypassesAllowlist(identity, role) ? [] : await hiddenProjectIds(prisma(), membership.orgId, identity.user.id);
  return context(identity, organizationSnapshot(membership.org), role, false, locale, hidden);
}

export const organizationSnapshot = (org: Pick<OrganizationRow, 'id' | 'name' | 'suspendedAt'> & OrganizationPlanRow): OrganizationSnapshot => ({
  id: org.id,
  name: org.name,
  plan: org.plan,
  limits: effectiveLimits(org),
  suspended: org.suspendedAt !== null,
});

function context(
  identity: Identity,
  org: OrganizationSnapshot,
  role: Role,
  metered: boolean,
  locale: Locale,
  hiddenProjects: string[] = [],
): RequestContext {
  return { identity, org, role, metered, db: tenantClient(org.id, hiddenProjects), hiddenProjectIds: hiddenProjects, locale };
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF defence of decisions §1: an unsafe request authenticated by the session cookie must carry
 * X-Organization-Id or a same-origin Origin. Bearer requests are exempt.
 */
export function assertNotCrossSite(request: {
  method: string;
  identity: Identity | null;
  organizationHeader?: string | undefined;
  origin?: string | undefined;
  host?: string | undefined;
}): void {
  if (request.identity?.kind !== 'session' || !UNSAFE_METHODS.has(request.method.toUpperCase())) return;
  if (request.organizationHeader) return;
  if (request.origin && request.host) {
    try {
      if (new URL(request.origin).host === request.host) return;
    } catch {
      // A malformed Origin is not same-origin.
    }
  }
  throw forbidden('Cookie-authenticated writes need X-Organization-Id or a same-origin Origin header');
}
