import { z } from 'zod';
import { grantPathSchema, oauthGrantSchema } from '../../src/oauth/oauth.schemas.ts';
import { listOAuthGrants, revokeOAuthGrant } from '../../src/oauth/oauth.service.ts';
import { defineRoute, Reply } from '../route.ts';

export const oauthGrantRoutes = [
  defineRoute({
    method: 'get',
    path: '/me/oauth-grants',
    operationId: 'listOAuthGrants',
    summary: 'The applications (OAuth clients) the caller authorized in the active organization',
    tag: 'Identity',
    auth: 'org',
    sessionOnly: true,
    success: {
      status: 200,
      description: 'Authorized applications (never their tokens)',
      schema: z.object({ items: z.array(oauthGrantSchema) }),
    },
    handle: ({ ctx }) => listOAuthGrants(ctx),
  }),
  defineRoute({
    method: 'delete',
    path: '/me/oauth-grants/{grantUlid}',
    operationId: 'revokeOAuthGrant',
    summary: 'Disconnect an authorized application: its access and refresh tokens stop working',
    tag: 'Identity',
    auth: 'org',
    sessionOnly: true,
    params: grantPathSchema,
    success: { status: 204, description: "Revoked; the application's tokens answer 401 from now on" },
    errors: [404],
    handle: async ({ ctx, params }) => {
      await revokeOAuthGrant(ctx, params.grantUlid);
      return new Reply(204, undefined);
    },
  }),
];
