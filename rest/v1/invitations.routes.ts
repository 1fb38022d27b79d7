import type { RequestContext } from '../../src/foundation/context.ts';
import {
  acceptedInvitationSchema,
  acceptInvitationBodySchema,
  bulkInvitationBodySchema,
  bulkInvitationResultSchema,
  createInvitationBodySchema,
  invitationListQuerySchema,
  invitationPageSchema,
  invitationPathSchema,
  invitationSchema,
} from '../../src/invitations/invitations.schemas.ts';
import {
  acceptInvitation,
  createInvitation,
  createInvitationsInBulk,
  type InvitationRow,
  invitationViews,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from '../../src/invitations/invitations.service.ts';
import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { toOrganization } from '../../src/orgs/orgs.service.ts';
import { defineRoute, Reply } from '../route.ts';

const invitationView = async (ctx: RequestContext, row: InvitationRow) => (await invitationViews(ctx, [row]))[0];

export const invitationRoutes = [
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/invitations',
    operationId: 'createInvitation',
    summary: 'Invite a person by email (owner, admin); the mail is sent after commit',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    body: createInvitationBodySchema,
    success: { status: 201, description: 'The invitation, whatever becomes of its mail', schema: invitationSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, body }) => invitationView(ctx, await createInvitation(ctx, body)),
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/invitations/bulk',
    operationId: 'createInvitationsInBulk',
    summary: 'Invite up to 50 addresses with one role (owner, admin)',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    body: bulkInvitationBodySchema,
    success: { status: 200, description: 'One result per distinct address, in first-appearance order', schema: bulkInvitationResultSchema },
    errors: [403, 404, 409],
    handle: ({ ctx, body }) => createInvitationsInBulk(ctx, body),
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/invitations',
    operationId: 'listInvitations',
    summary: 'Invitations of the organization, newest first (owner, admin)',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: invitationListQuerySchema,
    success: { status: 200, description: 'A page of invitations', schema: invitationPageSchema },
    errors: [403, 404],
    handle: ({ ctx, query }) => listInvitations(ctx, query),
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/invitations/{invitationUlid}/resend',
    operationId: 'resendInvitation',
    summary: 'Send a pending invitation again with a new token and a renewed expiry (owner, admin)',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: invitationPathSchema,
    success: { status: 200, description: 'The invitation; its previous token no longer works', schema: invitationSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => invitationView(ctx, await resendInvitation(ctx, params.invitationUlid)),
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{orgUlid}/invitations/{invitationUlid}',
    operationId: 'revokeInvitation',
    summary: 'Revoke a pending invitation (owner, admin)',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: invitationPathSchema,
    success: { status: 204, description: 'Revoked; its token answers 404 from now on' },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      await revokeInvitation(ctx, params.invitationUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/invitations/accept',
    operationId: 'acceptInvitation',
    summary: "Join the organization an invitation to the session's email address is for",
    tag: 'Members',
    auth: 'user',
    sessionOnly: true,
    body: acceptInvitationBodySchema,
    success: { status: 200, description: 'The organization joined and the role held there', schema: acceptedInvitationSchema },
    errors: [403, 404, 409],
    handle: async ({ identity, body, db }) => {
      const { organization, role } = await acceptInvitation(identity, body.token, db);
      return { organization: toOrganization(organization), role };
    },
  }),
];
