import { displayName } from '../../src/foundation/context.ts';
import {
  BULK_OUTCOMES,
  bulkInvitationBodySchema,
  createInvitationBodySchema,
  INVITATION_ROLES,
  INVITATION_STATUSES,
} from '../../src/invitations/invitations.schemas.ts';
import {
  acceptInvitation,
  countInvitations,
  createInvitation,
  createInvitationsInBulk,
  findInvitations,
  invitationDeliveryStatuses,
  invitationStatus,
  resendInvitation,
  revokeInvitation,
} from '../../src/invitations/invitations.service.ts';
import { LOCALES } from '../../src/kernel/i18n.ts';
import { validate } from '../../src/kernel/validation.ts';
import { memberListQuerySchema, updateMemberBodySchema } from '../../src/members/members.schemas.ts';
import { changeMemberRole, countMembers, findMembers, removeMember } from '../../src/members/members.service.ts';
import { readSeatUsage } from '../../src/seats/seats.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { OrganizationRef, Role } from './organization.ts';

const InvitationRole = builder.enumType('InvitationRole', { values: INVITATION_ROLES });
const InvitationStatus = builder.enumType('InvitationStatus', { values: INVITATION_STATUSES });
const InvitationLocale = builder.enumType('InvitationLocale', { values: LOCALES });
const EmailDeliveryStatus = builder.enumType('EmailDeliveryStatus', {
  description: 'failed after the last retry; suppressed when the address refuses mail',
  values: ['failed', 'suppressed'] as const,
});
const BulkInvitationStatus = builder.enumType('BulkInvitationStatus', { values: BULK_OUTCOMES });

builder.prismaObject('Membership', {
  name: 'OrganizationMember',
  fields: (t) => ({
    userUlid: t.exposeString('userId'),
    email: t.string({ select: { user: true }, resolve: (member) => member.user.email }),
    firstName: t.string({ select: { user: true }, resolve: (member) => member.user.firstName }),
    lastName: t.string({ select: { user: true }, resolve: (member) => member.user.lastName }),
    displayName: t.string({ select: { user: true }, resolve: (member) => displayName(member.user) }),
    avatarKey: t.string({ nullable: true, select: { user: true }, resolve: (member) => member.user.avatarKey }),
    role: t.field({ type: Role, resolve: (member) => member.role as 'owner' | 'admin' | 'member' | 'viewer' }),
    joinedAt: t.expose('createdAt', { type: 'Timestamp' }),
    suspendedAt: t.expose('suspendedAt', {
      type: 'Timestamp',
      nullable: true,
      description: 'Set while staff suspend the member: they keep their seat but cannot act in the organization',
    }),
  }),
});

type InviterShape = { ulid: string | null; displayName: string };

const InvitationInviter = builder.objectRef<InviterShape>('InvitationInviter').implement({
  fields: (t) => ({
    ulid: t.exposeString('ulid', { nullable: true }),
    displayName: t.exposeString('displayName'),
  }),
});

builder.prismaObject('Invitation', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    email: t.exposeString('email'),
    role: t.field({ type: InvitationRole, resolve: (invitation) => invitation.role as (typeof INVITATION_ROLES)[number] }),
    locale: t.field({ type: InvitationLocale, resolve: (invitation) => invitation.locale as (typeof LOCALES)[number] }),
    status: t.field({
      type: InvitationStatus,
      description: 'A pending invitation past expiresAt reads as expired',
      resolve: (invitation) => invitationStatus(invitation),
    }),
    grantAllPrivateProjects: t.exposeBoolean('grantAllPrivateProjects'),
    invitedBy: t.field({
      type: InvitationInviter,
      resolve: (invitation) => ({ ulid: invitation.invitedByUserId, displayName: invitation.invitedByName }),
    }),
    expiresAt: t.expose('expiresAt', { type: 'Timestamp' }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    // One batch per request for every invitation of the response.
    emailDeliveryStatus: t.loadable({
      type: EmailDeliveryStatus,
      nullable: true,
      description: 'null while queued, retried or once delivered',
      load: (invitationIds: string[], context) => invitationDeliveryStatuses(requestOf(context), invitationIds),
      resolve: (invitation) => invitation.id,
    }),
  }),
});

type SeatUsageShape = { used: number; limit: number | null };

const SeatUsage = builder.objectRef<SeatUsageShape>('SeatUsage').implement({
  fields: (t) => ({
    used: t.exposeInt('used', {
      description: 'Owners, admins and members (suspended ones too) and pending unexpired non-viewer invitations',
    }),
    limit: t.exposeInt('limit', { nullable: true, description: 'null when unlimited' }),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  members: t.prismaConnection(
    {
      type: 'Membership',
      cursor: 'id',
      description: 'Members by join time',
      authScopes: { member: true },
      args: {
        q: t.arg.string({ description: 'Every word must appear in the email, the first or the last name' }),
        role: t.arg({ type: Role }),
      },
      resolve: (query, _org, args, context) => findMembers(requestOf(context), memberFilterOf(args), query),
      totalCount: (_org, args, context) => countMembers(requestOf(context), memberFilterOf(args)),
    },
    {},
    {},
  ),
  invitations: t.prismaConnection(
    {
      type: 'Invitation',
      cursor: 'id',
      description: 'Invitations, newest first (owner, admin)',
      authScopes: { member: true },
      args: { status: t.arg({ type: [InvitationStatus], description: 'Only these statuses; every status when absent' }) },
      resolve: (query, _org, args, context) => findInvitations(requestOf(context), orUndefined(args.status), query),
      totalCount: (_org, args, context) => countInvitations(requestOf(context), orUndefined(args.status)),
    },
    {},
    {},
  ),
  seatUsage: t.field({
    type: SeatUsage,
    authScopes: { member: true },
    resolve: (_org, _args, context) => readSeatUsage(requestOf(context)),
  }),
}));

const memberFilterOf = (args: { q?: string | null; role?: string | null }) => {
  const { q, role } = validate(memberListQuerySchema, { q: orUndefined(args.q), role: orUndefined(args.role) });
  return { q, role };
};

const InviteMemberInput = builder.inputType('InviteMemberInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    role: t.field({ type: InvitationRole, required: true }),
    locale: t.field({ type: InvitationLocale }),
    grantAllPrivateProjects: t.boolean(),
  }),
});

const BulkInviteMembersInput = builder.inputType('BulkInviteMembersInput', {
  fields: (t) => ({
    emails: t.stringList({ required: true, description: 'At most 50; repeats (case-insensitive, trimmed) count once' }),
    role: t.field({ type: InvitationRole, required: true }),
    locale: t.field({ type: InvitationLocale }),
    grantAllPrivateProjects: t.boolean(),
  }),
});

type BulkResultShape = { email: string; status: (typeof BULK_OUTCOMES)[number] };

const BulkInvitationResult = builder.objectRef<BulkResultShape>('BulkInvitationResult').implement({
  fields: (t) => ({ email: t.exposeString('email'), status: t.expose('status', { type: BulkInvitationStatus }) }),
});

type AcceptedShape = Awaited<ReturnType<typeof acceptInvitation>>;

const AcceptedInvitation = builder.objectRef<AcceptedShape>('AcceptedInvitation').implement({
  fields: (t) => ({
    organization: t.field({ type: OrganizationRef, resolve: (accepted) => accepted.organization }),
    role: t.field({ type: Role, resolve: (accepted) => accepted.role }),
  }),
});

/** GraphQL's nulls for absent optional fields, as the REST body leaves them out. */
const invitationOptionsOf = (input: { locale?: 'en' | 'es' | null; grantAllPrivateProjects?: boolean | null }) => ({
  locale: orUndefined(input.locale),
  grantAllPrivateProjects: orUndefined(input.grantAllPrivateProjects),
});

builder.mutationFields((t) => ({
  inviteMember: t.prismaField({
    type: 'Invitation',
    description: 'Invite a person by email (owner, admin); the mail is sent after commit',
    authScopes: { member: true },
    args: { input: t.arg({ type: InviteMemberInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      createInvitation(
        requestOf(context),
        validate(createInvitationBodySchema, { email: input.email, role: input.role, ...invitationOptionsOf(input) }),
      ),
  }),
  bulkInviteMembers: t.field({
    type: [BulkInvitationResult],
    description: 'One result per distinct address, in first-appearance order',
    authScopes: { member: true },
    args: { input: t.arg({ type: BulkInviteMembersInput, required: true }) },
    resolve: async (_root, { input }, context) =>
      (
        await createInvitationsInBulk(
          requestOf(context),
          validate(bulkInvitationBodySchema, { emails: input.emails, role: input.role, ...invitationOptionsOf(input) }),
        )
      ).results,
  }),
  resendInvitation: t.prismaField({
    type: 'Invitation',
    description: 'A new token (the previous one stops working), the expiry renewed, the mail sent again',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => resendInvitation(requestOf(context), ulid),
  }),
  revokeInvitation: t.boolean({
    description: 'Revoke a pending invitation; its token stops working',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await revokeInvitation(requestOf(context), ulid);
      return true;
    },
  }),
  acceptInvitation: t.field({
    type: AcceptedInvitation,
    description: "Join the organization an invitation to the session's email address is for (session only)",
    authScopes: { member: true },
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, context) => acceptInvitation(requestOf(context).identity, token),
  }),
  changeMemberRole: t.prismaField({
    type: 'Membership',
    description: "Change a member's role (owner, admin; only owners change or appoint owners)",
    authScopes: { member: true },
    args: { userUlid: t.arg.string({ required: true }), role: t.arg({ type: Role, required: true }) },
    resolve: (_query, _root, { userUlid, role }, context) =>
      changeMemberRole(requestOf(context), userUlid, validate(updateMemberBodySchema, { role })),
  }),
  removeMember: t.boolean({
    description: 'Remove a member (owner, admin), or leave the organization (yourself, with a session)',
    authScopes: { member: true },
    args: { userUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { userUlid }, context) => {
      await removeMember(requestOf(context), userUlid);
      return true;
    },
  }),
}));
