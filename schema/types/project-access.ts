import { validate } from '../../src/kernel/validation.ts';
import {
  ACCESS_MODES,
  ACCESS_STATES,
  assignAccessGroupBodySchema,
  grantAccessBodySchema,
  updateProjectAccessBodySchema,
} from '../../src/project-access/project-access.schemas.ts';
import {
  assignAccessGroup,
  getProjectAccess,
  grantProjectAccess,
  listAccessGroups,
  listAccessMembers,
  revokeProjectAccess,
  unassignAccessGroup,
  updateProjectAccess,
} from '../../src/project-access/project-access.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

const ProjectAccessMode = builder.enumType('ProjectAccessMode', { values: ACCESS_MODES });
const ProjectAccessState = builder.enumType('ProjectAccessState', { values: ACCESS_STATES });

type AccessMemberShape = Awaited<ReturnType<typeof grantProjectAccess>>;
type AccessGroupShape = Awaited<ReturnType<typeof assignAccessGroup>>;
type AccessShape = Awaited<ReturnType<typeof getProjectAccess>> & { projectCode: string };

const ProjectAccessMember = builder.objectRef<AccessMemberShape>('ProjectAccessMember').implement({
  fields: (t) => ({
    userUlid: t.exposeString('userUlid'),
    displayName: t.exposeString('displayName'),
    email: t.exposeString('email'),
    state: t.expose('state', { type: ProjectAccessState }),
    updatedAt: t.field({ type: 'Timestamp', resolve: (member) => new Date(member.updatedAt) }),
  }),
});

const ProjectAccessGroup = builder.objectRef<AccessGroupShape>('ProjectAccessGroup').implement({
  fields: (t) => ({
    userGroupUlid: t.exposeString('userGroupUlid'),
    name: t.exposeString('name'),
    memberCount: t.exposeInt('memberCount'),
  }),
});

const ProjectAccess = builder.objectRef<AccessShape>('ProjectAccess').implement({
  description: "A project's access: mode, owner, allowlist and assigned groups (contract §10)",
  fields: (t) => ({
    mode: t.expose('mode', { type: ProjectAccessMode }),
    ownerUlid: t.exposeString('ownerUlid', { nullable: true }),
    members: t.field({
      type: [ProjectAccessMember],
      description: "Granted and revoked members (organization owner/admin or the project's owner)",
      resolve: async (access, _args, context) => (await listAccessMembers(requestOf(context), access.projectCode)).items,
    }),
    groups: t.field({
      type: [ProjectAccessGroup],
      resolve: async (access, _args, context) => (await listAccessGroups(requestOf(context), access.projectCode)).items,
    }),
  }),
});

const UpdateProjectAccessInput = builder.inputType('UpdateProjectAccessInput', {
  description: 'At least one field; ownerUlid takes null for no owner',
  fields: (t) => ({ mode: t.field({ type: ProjectAccessMode }), ownerUlid: t.string() }),
});

builder.queryFields((t) => ({
  projectAccess: t.field({
    type: ProjectAccess,
    description: "A project's access by project code",
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }) },
    resolve: async (_root, { projectCode }, context) => ({ ...(await getProjectAccess(requestOf(context), projectCode)), projectCode }),
  }),
}));

builder.mutationFields((t) => ({
  updateProjectAccess: t.field({
    type: ProjectAccess,
    description: "Mode and owner (organization owner/admin or the project's owner); grants and groups are untouched",
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: UpdateProjectAccessInput, required: true }) },
    resolve: async (_root, { projectCode, input }, context) => {
      const patch = validate(updateProjectAccessBodySchema, { mode: orUndefined(input.mode), ownerUlid: input.ownerUlid });
      return { ...(await updateProjectAccess(requestOf(context), projectCode, patch)), projectCode };
    },
  }),
  grantProjectAccess: t.field({
    type: ProjectAccessMember,
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), userUlid: t.arg.string({ required: true }) },
    resolve: (_root, { projectCode, userUlid }, context) =>
      grantProjectAccess(requestOf(context), projectCode, validate(grantAccessBodySchema, { userUlid })),
  }),
  revokeProjectAccess: t.boolean({
    description: 'The row becomes revoked (created revoked when there was none); it outranks any group grant',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), userUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { projectCode, userUlid }, context) => {
      await revokeProjectAccess(requestOf(context), projectCode, userUlid);
      return true;
    },
  }),
  assignProjectAccessGroup: t.field({
    type: ProjectAccessGroup,
    description: 'Also on a public project: the assignment is dormant until the project is private',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), userGroupUlid: t.arg.string({ required: true }) },
    resolve: (_root, { projectCode, userGroupUlid }, context) =>
      assignAccessGroup(requestOf(context), projectCode, validate(assignAccessGroupBodySchema, { userGroupUlid })),
  }),
  unassignProjectAccessGroup: t.boolean({
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), userGroupUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { projectCode, userGroupUlid }, context) => {
      await unassignAccessGroup(requestOf(context), projectCode, userGroupUlid);
      return true;
    },
  }),
}));
