import { currentSession } from '../../src/accounts/accounts.service.ts';
import { displayName } from '../../src/foundation/context.ts';
import { getOrganization } from '../../src/orgs/orgs.service.ts';
import { builder } from '../builder.ts';
import { organizationReaderOf, requestOf } from '../context.ts';

export const Role = builder.enumType('Role', { values: ['owner', 'admin', 'member', 'viewer'] as const });

type MembershipShape = { ulid: string; name: string; role: 'owner' | 'admin' | 'member' | 'viewer' };

const Membership = builder.objectRef<MembershipShape>('Membership').implement({
  fields: (t) => ({ ulid: t.exposeString('ulid'), name: t.exposeString('name'), role: t.expose('role', { type: Role }) }),
});

export const OrganizationRef = builder.prismaObject('Organization', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    name: t.exposeString('name'),
    plan: t.exposeString('plan'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
  }),
});

type ViewerShape = {
  ulid: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
  emailVerified: boolean;
  role: MembershipShape['role'];
  authenticatedBy: string;
  organizations: MembershipShape[];
};

const Viewer = builder.objectRef<ViewerShape>('Viewer').implement({
  fields: (t) => ({
    ulid: t.exposeString('ulid'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    displayName: t.exposeString('displayName'),
    emailVerified: t.exposeBoolean('emailVerified', { description: 'The address is proven (contract §18)' }),
    role: t.expose('role', { type: Role, description: 'Role in the active organization' }),
    authenticatedBy: t.exposeString('authenticatedBy', { description: 'session, api_token or oauth' }),
    organizations: t.expose('organizations', { type: [Membership] }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    authScopes: { member: true },
    resolve: async (_root, _args, context) => {
      const ctx = requestOf(context);
      const { organizations } = await currentSession(ctx.identity);
      const user = ctx.identity.user;
      return {
        ulid: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        displayName: displayName(user),
        emailVerified: user.emailVerified,
        role: ctx.role,
        authenticatedBy: ctx.identity.kind,
        organizations,
      };
    },
  }),
  organization: t.prismaField({
    type: 'Organization',
    description: 'The active organization',
    authScopes: { organizationReader: true },
    resolve: (_query, _root, _args, context) => getOrganization(organizationReaderOf(context)),
  }),
}));
