import {
  memberListQuerySchema,
  memberPageSchema,
  memberPathSchema,
  memberSchema,
  updateMemberBodySchema,
} from '../../src/members/members.schemas.ts';
import { changeMemberRole, listMembers, removeMember, toMember } from '../../src/members/members.service.ts';
import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

export const memberRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/members',
    operationId: 'listMembers',
    summary: 'Members of the organization by join time',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: memberListQuerySchema,
    success: { status: 200, description: 'A page of members', schema: memberPageSchema },
    errors: [403, 404],
    handle: ({ ctx, query }) => listMembers(ctx, query),
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{orgUlid}/members/{userUlid}',
    operationId: 'updateMember',
    summary: "Change a member's role (owner, admin; only owners change or appoint owners)",
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: memberPathSchema,
    body: updateMemberBodySchema,
    success: { status: 200, description: 'The member', schema: memberSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toMember(await changeMemberRole(ctx, params.userUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{orgUlid}/members/{userUlid}',
    operationId: 'removeMember',
    summary: 'Remove a member (owner, admin), or leave the organization (yourself, with a session)',
    tag: 'Members',
    auth: 'org',
    orgParam: 'orgUlid',
    params: memberPathSchema,
    success: { status: 204, description: "Removed; the member's API tokens answer 401 from now on" },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      await removeMember(ctx, params.userUlid);
      return new Reply(204, undefined);
    },
  }),
];
