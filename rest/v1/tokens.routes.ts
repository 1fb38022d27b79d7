import { z } from 'zod';
import { apiTokenSchema, createdTokenSchema, createTokenBodySchema, tokenPathSchema } from '../../src/tokens/tokens.schemas.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../src/tokens/tokens.service.ts';
import { defineRoute, Reply } from '../route.ts';

export const tokenRoutes = [
  defineRoute({
    method: 'get',
    path: '/me/api-tokens',
    operationId: 'listApiTokens',
    summary: "The caller's live API tokens in the active organization",
    tag: 'Identity',
    auth: 'org',
    sessionOnly: true,
    success: { status: 200, description: 'Tokens (never their secrets)', schema: z.object({ items: z.array(apiTokenSchema) }) },
    handle: ({ ctx }) => listApiTokens(ctx),
  }),
  defineRoute({
    method: 'post',
    path: '/me/api-tokens',
    operationId: 'createApiToken',
    summary: 'Create an API token; the secret is shown once',
    tag: 'Identity',
    auth: 'org',
    sessionOnly: true,
    body: createTokenBodySchema,
    success: { status: 201, description: 'The token with its secret', schema: createdTokenSchema },
    errors: [403],
    handle: ({ ctx, body }) => createApiToken(ctx, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/me/api-tokens/{tokenUlid}',
    operationId: 'revokeApiToken',
    summary: 'Revoke an API token',
    tag: 'Identity',
    auth: 'org',
    sessionOnly: true,
    params: tokenPathSchema,
    success: { status: 204, description: 'Revoked; the token answers 401 from now on' },
    errors: [404],
    handle: async ({ ctx, params }) => {
      await revokeApiToken(ctx, params.tokenUlid);
      return new Reply(204, undefined);
    },
  }),
];
