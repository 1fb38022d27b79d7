import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { clientName, enterOrganization, identify, unauthorized } from '../foundation/auth/authenticate.ts';
import { lowerRole } from '../foundation/auth/policy.ts';
import type { Identity, RequestContext, Role, UserSnapshot } from '../foundation/context.ts';
import { organizationSuspended } from '../foundation/request.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { newSecret, OAUTH_ACCESS_TOKEN_PREFIX, OAUTH_REFRESH_TOKEN_PREFIX, sha256 } from '../kernel/secrets.ts';

/** Lifetimes (contract §16): a code is redeemed at once, an access token lives an hour, a refresh token a month. */
const AUTHORIZATION_CODE_TTL_MS = 60_000;
const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/** Where the consenting user may let the application act: their active memberships, with the role it would get. */
export type ConsentChoices = { user: UserSnapshot; organizations: Array<{ ulid: string; name: string; role: Role }> };

async function sessionIdentity(sessionToken: string | undefined): Promise<Identity | null> {
  if (!sessionToken) return null;
  try {
    return (await identify({ sessionToken }))?.identity ?? null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** The signed-in user and the organizations they can authorize an application in; null without a valid session. */
export async function consentChoices(sessionToken: string | undefined): Promise<ConsentChoices | null> {
  const identity = await sessionIdentity(sessionToken);
  if (!identity) return null;
  const memberships = await prisma().membership.findMany({
    where: { userId: identity.user.id, suspendedAt: null, org: { suspendedAt: null } },
    include: { org: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return {
    user: identity.user,
    organizations: memberships.map((m) => ({ ulid: m.orgId, name: m.org.name, role: lowerRole('admin', m.role as Role) })),
  };
}

export type Approval = {
  client: { client_id: string; client_name?: string | undefined };
  organizationUlid: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string | undefined;
};

/**
 * The signed-in user approves: records the grant (audited in the chosen organization as
 * `oauth.authorized`) and answers its single-use authorization code, bound to the client, the
 * redirect URI, the PKCE challenge, the user and the organization.
 */
export async function grantAuthorization(sessionToken: string | undefined, approval: Approval): Promise<string> {
  const identity = await sessionIdentity(sessionToken);
  if (!identity) throw unauthorized('Sign in to authorize an application');
  const ctx = await enterOrganization({ identity }, approval.organizationUlid);
  if (ctx.org.suspended) throw organizationSuspended();
  const name = clientName({ id: approval.client.client_id, metadata: approval.client });
  const { secret, hash } = newSecret();
  const now = new Date();
  await inTransaction(prisma(), async (tx) => {
    const grant = await tx.oAuthGrant.create({
      data: { id: newId(), clientId: approval.client.client_id, userId: identity.user.id, orgId: ctx.org.id },
    });
    await tx.oAuthAuthorizationCode.create({
      data: {
        id: newId(),
        codeHash: hash,
        grantId: grant.id,
        redirectUri: approval.redirectUri,
        codeChallenge: approval.codeChallenge,
        resource: approval.resource ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS),
      },
    });
    await emitAudit(tx, ctx, {
      action: 'oauth.authorized',
      entityType: 'oauth_grant',
      entityUlid: grant.id,
      entityLabel: name,
      metadata: {
        clientUlid: approval.client.client_id,
        clientName: name,
        redirectUri: approval.redirectUri,
        role: lowerRole('admin', ctx.role),
      },
    });
  });
  return secret;
}

const invalidCode = () => new InvalidGrantError('The authorization code is invalid, expired or already used');

async function findCode(clientId: string, code: string) {
  const row = await prisma().oAuthAuthorizationCode.findUnique({ where: { codeHash: sha256(code) }, include: { grant: true } });
  if (!row || row.grant.clientId !== clientId || row.expiresAt.getTime() <= Date.now()) throw invalidCode();
  return row;
}

/** The PKCE challenge the code was issued for; the SDK's token handler verifies the verifier against it. */
export const challengeFor = async (clientId: string, code: string) => (await findCode(clientId, code)).codeChallenge;

async function issueTokens(tx: Db, grantId: string): Promise<OAuthTokens> {
  const access = newSecret(OAUTH_ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(OAUTH_REFRESH_TOKEN_PREFIX);
  const now = new Date();
  await tx.oAuthAccessToken.create({
    data: {
      id: newId(),
      grantId,
      tokenHash: access.hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    },
  });
  await tx.oAuthRefreshToken.create({
    data: { id: newId(), grantId, tokenHash: refresh.hash, createdAt: now, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
  });
  return { access_token: access.secret, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh.secret };
}

/**
 * Marks a one-time secret used (a conditional update: of two concurrent exchanges one wins) and
 * issues the grant's next pair of tokens. A secret presented a second time revokes the whole grant
 * (RFC 9700 §2.2.2, §4.14): whoever holds the other copy is cut off too. The revocation commits
 * before the refusal is thrown.
 */
async function redeem(grantId: string, markUsed: (tx: Db) => Promise<{ count: number }>): Promise<OAuthTokens> {
  const tokens = await inTransaction(prisma(), async (tx) => {
    if ((await markUsed(tx)).count === 1) return issueTokens(tx, grantId);
    await tx.oAuthGrant.deleteMany({ where: { id: grantId } });
    return null;
  });
  if (!tokens) throw new InvalidGrantError('The grant was revoked: a one-time credential was presented twice');
  return tokens;
}

export async function exchangeCode(
  clientId: string,
  code: string,
  redirectUri: string | undefined,
  resource: URL | undefined,
): Promise<OAuthTokens> {
  const row = await findCode(clientId, code);
  if (redirectUri !== undefined && redirectUri !== row.redirectUri) throw invalidCode();
  if (resource !== undefined && row.resource !== null && resource.href !== row.resource) throw invalidCode();
  return redeem(row.grantId, (tx) =>
    tx.oAuthAuthorizationCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: new Date() } }),
  );
}

/** Rotation: every refresh answers a new pair and uses up the refresh token presented. */
export async function refreshTokens(clientId: string, refreshToken: string): Promise<OAuthTokens> {
  const row = await prisma().oAuthRefreshToken.findUnique({ where: { tokenHash: sha256(refreshToken) }, include: { grant: true } });
  if (!row || row.grant.clientId !== clientId || row.expiresAt.getTime() <= Date.now()) {
    throw new InvalidGrantError('The refresh token is invalid or expired');
  }
  return redeem(row.grantId, (tx) =>
    tx.oAuthRefreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } }),
  );
}

/**
 * RFC 7009: revoking either token of a grant ends the grant (the application is disconnected).
 * An unknown token, or one of another client, changes nothing and is not reported.
 */
export async function revokeToken(clientId: string, token: string): Promise<void> {
  const tokenHash = sha256(token);
  const [access, refresh] = await Promise.all([
    prisma().oAuthAccessToken.findUnique({ where: { tokenHash }, include: { grant: true } }),
    prisma().oAuthRefreshToken.findUnique({ where: { tokenHash }, include: { grant: true } }),
  ]);
  const grant = (access ?? refresh)?.grant;
  if (grant?.clientId === clientId) await prisma().oAuthGrant.deleteMany({ where: { id: grant.id } });
}

/** The SDK's resource-server check; tcms itself authenticates access tokens in src/foundation/auth/authenticate.ts. */
export async function verifyAccessToken(token: string): Promise<AuthInfo> {
  const row = await prisma().oAuthAccessToken.findUnique({ where: { tokenHash: sha256(token) }, include: { grant: true } });
  if (!row || row.expiresAt.getTime() <= Date.now()) throw new InvalidTokenError('The access token is invalid or expired');
  return { token, clientId: row.grant.clientId, scopes: [], expiresAt: Math.floor(row.expiresAt.getTime() / 1000) };
}

/** Authorized applications are managed by their person, with a session (like API tokens, contract §1). */
function sessionUser(ctx: RequestContext) {
  if (ctx.identity.kind !== 'session') throw unauthorized('Authorized applications are managed with a session');
  return ctx.identity.user;
}

/** GET /me/oauth-grants: the applications the caller authorized in the active organization, newest first. */
export async function listOAuthGrants(ctx: RequestContext) {
  const user = sessionUser(ctx);
  const grants = await ctx.db.oAuthGrant.findMany({
    where: { orgId: ctx.org.id, userId: user.id },
    include: { client: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return {
    items: grants.map((grant) => ({
      ulid: grant.id,
      clientUlid: grant.clientId,
      clientName: clientName(grant.client),
      createdAt: grant.createdAt.getTime(),
    })),
  };
}

/** DELETE /me/oauth-grants/{grantUlid}: disconnects the application (every token of the grant), audited as `oauth.revoked`. */
export async function revokeOAuthGrant(ctx: RequestContext, grantUlid: string): Promise<void> {
  const user = sessionUser(ctx);
  // ctx.db: the request's own transaction when it runs in one (an Idempotency-Key).
  await inTransaction(ctx.db, async (tx) => {
    const [grant] = await tx.oAuthGrant.findMany({
      where: { id: grantUlid, orgId: ctx.org.id, userId: user.id },
      include: { client: true },
    });
    if (!grant) throw notFound('Authorized application');
    await tx.oAuthGrant.delete({ where: { id: grant.id } });
    const name = clientName(grant.client);
    await emitAudit(tx, ctx, {
      action: 'oauth.revoked',
      entityType: 'oauth_grant',
      entityUlid: grant.id,
      entityLabel: name,
      metadata: { clientUlid: grant.clientId, clientName: name },
    });
  });
}
