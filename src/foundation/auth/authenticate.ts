import { Prisma } from '../../../prisma/generated/client/client.ts';
import { effectiveLimits, type OrganizationPlanRow } from '../../kernel/billing-tiers.ts';
import { prisma } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';
import { tenantClient } from '../../kernel/database/tenant.ts';
import { AppError, forbidden, notFound } from '../../kernel/errors.ts';
import type { Locale } from '../../kernel/i18n.ts';
import { ULID_PATTERN } from '../../kernel/ids.ts';
import { API_TOKEN_PREFIX, OAUTH_ACCESS_TOKEN_PREFIX, sha256 } from '../../kernel/secrets.ts';
import type { Identity, OrganizationSnapshot, RequestContext, Role, UserSnapshot } from '../context.ts';
import { countCallStatement } from '../rate-limit/rate-limit.service.ts';
import { SESSION_IDLE_MS } from './auth.schemas.ts';
import { lowerRole } from './policy.ts';
import { bypassesAllowlist, hiddenProjectIds, hiddenProjectsExpression } from './project-visibility.ts';

// lastSeenAt / lastUsedAt are refreshed at most this often, not on every request.
const TOUCH_INTERVAL_MS = 60 * 1000;

export const unauthorized = (message = 'Missing or invalid credentials') => new AppError('unauthorized', message);

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

/**
 * A request that counts against the per-minute ceiling (contract §2) of the organization it acts
 * in, if an API token makes it: counted by the token's own statement when the token works, acts
 * in `orgId` (undefined: whichever is the token's) and that organization is open to it.
 */
export type RequestMeter = { orgId: string | undefined; openWhileSuspended: boolean };

/** The organization a request will enter: `orgId`, or undefined for the caller's default. */
export type OrganizationEntry = { orgId: string | undefined };

/**
 * The caller; for a metered API token request this request's count in its window; for a session
 * identified with an entry, the membership it enters (null: none, so 404).
 */
export type Identified = { identity: Identity; requestCount?: number | undefined; membership?: MembershipRow | null };

/**
 * Resolves the caller from a bearer token or a session cookie; null when neither was sent. A
 * session read for a request that enters an organization (`entering`) brings its membership along.
 */
export async function identify(
  credentials: Credentials,
  options: { meter?: RequestMeter | undefined; entering?: OrganizationEntry | undefined } = {},
  now = Date.now(),
): Promise<Identified | null> {
  if (credentials.authorization !== undefined) return identifyToken(credentials.authorization, options.meter, now);
  if (credentials.sessionToken) return identifySession(credentials.sessionToken, options.entering, now);
  return null;
}

/** The caller's person, `users AS u` of a caller's statement, as userSnapshot reads it (`personOf`). */
const PERSON_COLUMNS = sql`u.id AS "userId", u.email, u.first_name AS "firstName", u.last_name AS "lastName",
  u.avatar_key AS "avatarKey", u.email_verified_at AS "emailVerifiedAt"`;
type PersonRow = {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarKey: string | null;
  emailVerifiedAt: Date | null;
};
const personOf = (row: PersonRow) => userSnapshot({ ...row, id: row.userId });

/** The organization a caller acts in, `organizations AS o`, as organizationSnapshot reads it (`organizationOf`). */
const ORGANIZATION_COLUMNS = sql`o.name AS "orgName", o.suspended_at AS "orgSuspendedAt", o.plan,
  o.max_projects_override AS "maxProjectsOverride", o.max_seats_override AS "maxSeatsOverride",
  o.max_results_per_month_override AS "maxResultsPerMonthOverride",
  o.requests_per_minute_override AS "requestsPerMinuteOverride", o.audit_export_enabled_override AS "auditExportEnabledOverride"`;
type OrganizationRow = { orgId: string; orgName: string; orgSuspendedAt: Date | null } & OrganizationPlanRow;
const organizationOf = (row: OrganizationRow) =>
  organizationSnapshot({ ...row, id: row.orgId, name: row.orgName, suspendedAt: row.orgSuspendedAt });

type ApiTokenRow = {
  id: string;
  name: string;
  role: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  membershipRole: string | null;
  membershipSuspendedAt: Date | null;
  requestCount: number | null;
} & PersonRow &
  OrganizationRow;

/**
 * An API token with its creator's membership of the token's organization, the creator and the
 * organization, in one statement that also records the use (at most once a minute) and counts a
 * metered request, both only for a token that works: every token request pays for it.
 */
async function findApiToken(secret: string, meter: RequestMeter | undefined, now: number): Promise<ApiTokenRow | undefined> {
  const metered = meter
    ? sql`SELECT working.org_id AS owner FROM working JOIN organizations AS o ON o.id = working.org_id
        WHERE working.org_id = coalesce(${meter.orgId ?? null}::text, working.org_id)
          AND (o.suspended_at IS NULL OR ${meter.openWhileSuspended})`
    : sql`SELECT NULL::text AS owner WHERE false`;
  const [row] = await queryRaw<ApiTokenRow[]>(
    prisma(),
    sql`
    WITH token AS (
      SELECT t.id, t.org_id, t.user_id, t.name, t.role, t.expires_at, t.revoked_at, t.last_used_at,
             m.role AS membership_role, m.suspended_at AS membership_suspended_at
      FROM api_tokens AS t
      LEFT JOIN memberships AS m ON m.org_id = t.org_id AND m.user_id = t.user_id
      WHERE t.token_hash = ${sha256(secret)}
    ), working AS (
      SELECT id, org_id, last_used_at FROM token
      WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${new Date(now)})
        AND membership_role IS NOT NULL AND membership_suspended_at IS NULL
    ), touched AS (
      UPDATE api_tokens SET last_used_at = ${new Date(now)}
      WHERE id IN (SELECT id FROM working WHERE last_used_at IS NULL OR last_used_at < ${new Date(now - TOUCH_INTERVAL_MS)})
    ), counted AS (${countCallStatement(metered, 'requests', now)})
    SELECT token.id, token.org_id AS "orgId", token.name, token.role, token.expires_at AS "expiresAt", token.revoked_at AS "revokedAt",
           token.membership_role AS "membershipRole", token.membership_suspended_at AS "membershipSuspendedAt",
           ${PERSON_COLUMNS}, ${ORGANIZATION_COLUMNS}, (SELECT count FROM counted) AS "requestCount"
    FROM token
    JOIN users AS u ON u.id = token.user_id
    JOIN organizations AS o ON o.id = token.org_id`,
  );
  return row;
}

async function identifyToken(authorization: string, meter: RequestMeter | undefined, now: number): Promise<Identified> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1]?.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) return { identity: await identifyOAuthToken(match[1], now) };
  if (!match?.[1]?.startsWith(API_TOKEN_PREFIX)) throw unauthorized();
  const token = await findApiToken(match[1], meter, now);
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now)) throw unauthorized();
  if (token.membershipRole === null) throw unauthorized('The creator of this token has left the organization');
  if (token.membershipSuspendedAt) throw membershipSuspended();
  const identity: Identity = {
    kind: 'api_token',
    user: personOf(token),
    token: {
      id: token.id,
      name: token.name,
      orgId: token.orgId,
      role: lowerRole(token.role as Role, token.membershipRole as Role),
    },
    org: organizationOf(token),
  };
  return { identity, requestCount: token.requestCount ?? undefined };
}

/**
 * An OAuth access token acts for the user who consented, in the organization they chose, with
 * their current role capped at admin; it stops working with their membership (contract §16).
 */
async function identifyOAuthToken(secret: string, now: number): Promise<Identity> {
  const token = await prisma().oAuthAccessToken.findUnique({
    where: { tokenHash: sha256(secret) },
    include: { grant: { include: { org: true, client: true, user: { include: { memberships: true } } } } },
  });
  if (!token || token.expiresAt.getTime() <= now) throw unauthorized();
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

/** A person's membership of the organization a request enters, with that organization and the projects hidden from them. */
type MembershipRow = { role: string; suspendedAt: Date | null; hiddenProjectIds: string[] } & OrganizationRow;

/**
 * The membership a session's request enters: of `orgId`, or without one the oldest active (not
 * suspended) membership, with its organization and the private projects hidden from the person.
 */
const membershipStatement = (userId: Prisma.Sql, orgId: string | undefined) => sql`
  SELECT m.role, m.suspended_at AS "suspendedAt",
         ${hiddenProjectsExpression(sql`m.org_id`, sql`m.user_id`, sql`m.role`)} AS "hiddenProjectIds",
         o.id AS "orgId", ${ORGANIZATION_COLUMNS}
  FROM memberships AS m
  JOIN organizations AS o ON o.id = m.org_id
  WHERE m.user_id = ${userId} AND m.org_id = coalesce(${orgId ?? null}::text, m.org_id)
  ORDER BY m.suspended_at ASC NULLS FIRST, m.created_at, m.id
  LIMIT 1`;

type SessionRow = { sessionId: string; lastSeenAt: Date } & PersonRow & Partial<MembershipRow>;

/**
 * A session with its person in one statement, which also deletes it once idle too long and
 * records its use (at most once a minute); `entering`: also the membership the request enters.
 */
async function identifySession(sessionToken: string, entering: OrganizationEntry | undefined, now: number): Promise<Identified> {
  const idleSince = new Date(now - SESSION_IDLE_MS);
  const [row] = await queryRaw<SessionRow[]>(
    prisma(),
    sql`
    WITH session AS (
      SELECT id, user_id, last_seen_at FROM sessions WHERE token_hash = ${sha256(sessionToken)}
    ), expired AS (
      DELETE FROM sessions WHERE id IN (SELECT id FROM session WHERE last_seen_at < ${idleSince})
    ), touched AS (
      UPDATE sessions SET last_seen_at = ${new Date(now)}
      WHERE id IN (SELECT id FROM session WHERE last_seen_at >= ${idleSince} AND last_seen_at < ${new Date(now - TOUCH_INTERVAL_MS)})
    )
    SELECT session.id AS "sessionId", session.last_seen_at AS "lastSeenAt",
           ${PERSON_COLUMNS}${entering ? sql`, membership.*` : Prisma.empty}
    FROM session
    JOIN users AS u ON u.id = session.user_id
    ${entering ? sql`LEFT JOIN LATERAL (${membershipStatement(sql`session.user_id`, entering.orgId)}) AS membership ON true` : Prisma.empty}`,
  );
  if (!row) throw unauthorized('No valid session');
  if (row.lastSeenAt < idleSince) throw unauthorized('The session expired');
  const identity: Identity = { kind: 'session', user: personOf(row), sessionId: row.sessionId };
  if (!entering) return { identity };
  return { identity, membership: row.orgId === null ? null : (row as SessionRow & MembershipRow) };
}

/**
 * Enters the organization a request acts in: a token's own organization, or for a session the
 * requested one (X-Organization-Id or an `/orgs/{orgUlid}` path), else the oldest active
 * (not suspended) membership. An organization the caller does not belong to is
 * indistinguishable from a missing one (404); a suspended membership answers 403. A session's
 * membership read with the session (`identify` with an entry) is taken as read.
 */
export async function enterOrganization(identified: Identified, requestedOrgId?: string, locale: Locale = 'en'): Promise<RequestContext> {
  const { identity } = identified;
  if (requestedOrgId !== undefined && !ULID_PATTERN.test(requestedOrgId)) throw notFound('Organization');
  if (identity.kind !== 'session') {
    if (requestedOrgId !== undefined && requestedOrgId !== identity.token.orgId) throw notFound('Organization');
    const { role } = identity.token;
    // An OAuth token sees what its user sees; an API token is never evaluated against the allowlist.
    const hidden = bypassesAllowlist(identity, role) ? [] : await hiddenProjectIds(prisma(), identity.org.id, identity.user.id, role);
    return context(identity, identity.org, role, true, locale, hidden);
  }
  const membership =
    identified.membership !== undefined
      ? identified.membership
      : ((await queryRaw<MembershipRow[]>(prisma(), membershipStatement(sql`${identity.user.id}`, requestedOrgId)))[0] ?? null);
  if (!membership) throw notFound('Organization');
  if (membership.suspendedAt) throw membershipSuspended();
  return context(identity, organizationOf(membership), membership.role as Role, false, locale, membership.hiddenProjectIds);
}

/** The name of an OAuth client that people see (consent page, audit events, an OAuth identity's token name): the registered client_name, else the client id. */
export const clientName = (client: { id: string; metadata: unknown }) => {
  const name = (client.metadata as { client_name?: unknown }).client_name;
  return typeof name === 'string' && name.trim() !== '' ? name : client.id;
};

export const organizationSnapshot = (
  org: { id: string; name: string; suspendedAt: Date | null } & OrganizationPlanRow,
): OrganizationSnapshot => ({
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
 * CSRF defence of contract §1: an unsafe request authenticated by the session cookie must carry
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
