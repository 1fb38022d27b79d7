import { emitAudit } from '../foundation/audit/audit.service.ts';
import { unauthorized } from '../foundation/auth/authenticate.ts';
import { assertEmailVerified } from '../foundation/auth/email-verification.ts';
import { lowerRole, roleAtMost } from '../foundation/auth/policy.ts';
import type { RequestContext, Role } from '../foundation/context.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { forbidden, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId } from '../kernel/ids.ts';
import { API_TOKEN_PREFIX, newSecret } from '../kernel/secrets.ts';
import type { CreateTokenInput } from './tokens.schemas.ts';

const PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

type TokenRow = {
  id: string;
  name: string;
  role: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
};

const toApiToken = (token: TokenRow) => ({
  ulid: token.id,
  name: token.name,
  role: token.role as Exclude<Role, 'owner'>,
  prefix: token.prefix,
  createdAt: token.createdAt.getTime(),
  lastUsedAt: epochMsOrNull(token.lastUsedAt),
  expiresAt: epochMsOrNull(token.expiresAt),
});

/** Token management is for people: a session, never another token (contract §1). */
function sessionUser(ctx: RequestContext) {
  if (ctx.identity.kind !== 'session') throw unauthorized('API tokens are managed with a session');
  return ctx.identity.user;
}

export async function listApiTokens(ctx: RequestContext) {
  const user = sessionUser(ctx);
  const tokens = await ctx.db.apiToken.findMany({
    where: { userId: user.id, revokedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return { items: tokens.map(toApiToken) };
}

export async function createApiToken(ctx: RequestContext, input: CreateTokenInput) {
  const user = sessionUser(ctx);
  assertEmailVerified(user);
  const role = input.role ?? lowerRole(ctx.role, 'admin');
  if (!roleAtMost(role, ctx.role)) throw forbidden('A token cannot hold a role above your own');
  if (input.expiresAt !== undefined && input.expiresAt <= Date.now()) {
    throw validationFailed('expiresAt must be in the future', { path: ['expiresAt'] });
  }
  const { secret, hash } = newSecret(API_TOKEN_PREFIX);
  const token = await inTransaction(ctx.db, async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        userId: user.id,
        name: input.name,
        role,
        prefix: secret.slice(0, PREFIX_LENGTH),
        tokenHash: hash,
        expiresAt: input.expiresAt === undefined ? null : new Date(input.expiresAt),
      },
    });
    await emitAudit(tx, ctx, {
      action: 'api_token.created',
      entityType: 'api_token',
      entityUlid: created.id,
      entityLabel: created.name,
      metadata: { name: created.name, role, prefix: created.prefix, expiresAt: input.expiresAt ?? null },
    });
    return created;
  });
  const { lastUsedAt: _lastUsedAt, ...view } = toApiToken(token);
  return { ...view, token: secret };
}

export async function revokeApiToken(ctx: RequestContext, tokenUlid: string): Promise<void> {
  const user = sessionUser(ctx);
  await inTransaction(ctx.db, async (tx) => {
    const revoked = await tx.apiToken.updateManyAndReturn({
      where: { id: tokenUlid, userId: user.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    const token = revoked[0];
    if (!token) throw notFound('API token');
    await emitAudit(tx, ctx, {
      action: 'api_token.revoked',
      entityType: 'api_token',
      entityUlid: token.id,
      entityLabel: token.name,
      metadata: { name: token.name, prefix: token.prefix },
    });
  });
}
