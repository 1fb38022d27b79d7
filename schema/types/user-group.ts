import { displayName } from '../../src/foundation/context.ts';
import {
  addGroupMembersBodySchema,
  assignGroupProjectsBodySchema,
  createGroupBodySchema,
  updateGroupBodySchema,
} from '../../src/groups/groups.schemas.ts';
import {
  addGroupMembers,
  assignGroupProjects,
  countGroupMembers,
  countGroupProjects,
  countGroups,
  createGroup,
  deleteGroup,
  findGroupMembers,
  findGroupProjects,
  findGroups,
  removeGroupMember,
  resolveGroup,
  updateGroup,
} from '../../src/groups/groups.service.ts';
import { validate } from '../../src/kernel/validation.ts';
import { orUndefined, searchOf } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

builder.prismaObject('UserGroupMember', {
  fields: (t) => ({
    userUlid: t.exposeString('userId'),
    displayName: t.string({
      select: { user: { select: { firstName: true, lastName: true } } },
      resolve: (member) => displayName(member.user),
    }),
    email: t.string({ select: { user: { select: { email: true } } }, resolve: (member) => member.user.email }),
    addedAt: t.expose('addedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObject('UserGroup', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    memberCount: t.relationCount('members'),
    projectCount: t.relationCount('projects', { description: 'Every project the group is assigned to' }),
    members: t.prismaConnection(
      {
        type: 'UserGroupMember',
        cursor: 'groupId_userId',
        description: 'Members in the order they were added',
        authScopes: { member: true },
        resolve: (query, group, _args, context) => findGroupMembers(requestOf(context), group, query),
        totalCount: (group, _args, context) => countGroupMembers(requestOf(context), group),
      },
      {},
      {},
    ),
    projects: t.prismaConnection(
      {
        type: 'Project',
        cursor: 'id',
        description: 'Projects the group is assigned to, leaving out private ones the caller cannot see',
        authScopes: { member: true },
        resolve: (query, group, _args, context) => findGroupProjects(requestOf(context), group, query),
        totalCount: (group, _args, context) => countGroupProjects(requestOf(context), group),
      },
      {},
      {},
    ),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.queryFields((t) => ({
  userGroups: t.prismaConnection(
    {
      type: 'UserGroup',
      cursor: 'id',
      description: 'User groups of the organization, oldest first',
      authScopes: { member: true },
      args: { q: t.arg.string({ description: 'Case-insensitive substring of the name' }) },
      resolve: (query, _root, args, context) => findGroups(requestOf(context), searchOf(args), query),
      totalCount: (_root, args, context) => countGroups(requestOf(context), searchOf(args)),
    },
    {},
    {},
  ),
  userGroup: t.prismaField({
    type: 'UserGroup',
    nullable: true,
    description: 'A user group by ULID; an unknown one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveGroup(requestOf(context), args.ulid),
  }),
}));

const CreateUserGroupInput = builder.inputType('CreateUserGroupInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    memberUserUlids: t.stringList({ description: 'Members to seed the group with' }),
    projectUlids: t.stringList({ description: 'Projects to assign the group to' }),
  }),
});

const UpdateUserGroupInput = builder.inputType('UpdateUserGroupInput', {
  description: 'At least one field; description takes null to clear',
  fields: (t) => ({ name: t.string(), description: t.string() }),
});

const AddUserGroupMembersInput = builder.inputType('AddUserGroupMembersInput', {
  description: 'Exactly one of userUlid, userUlids',
  fields: (t) => ({ userUlid: t.string(), userUlids: t.stringList() }),
});

builder.mutationFields((t) => ({
  createUserGroup: t.prismaField({
    type: 'UserGroup',
    description: 'Seeded members and projects commit with the group or not at all (owner/admin)',
    authScopes: { member: true },
    args: { input: t.arg({ type: CreateUserGroupInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      createGroup(
        requestOf(context),
        validate(createGroupBodySchema, {
          name: input.name,
          description: input.description,
          memberUserUlids: orUndefined(input.memberUserUlids),
          projectUlids: orUndefined(input.projectUlids),
        }),
      ),
  }),
  updateUserGroup: t.prismaField({
    type: 'UserGroup',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateUserGroupInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateGroup(
        requestOf(context),
        ulid,
        validate(updateGroupBodySchema, { name: orUndefined(input.name), description: input.description }),
      ),
  }),
  deleteUserGroup: t.boolean({
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteGroup(requestOf(context), ulid);
      return true;
    },
  }),
  addUserGroupMembers: t.prismaField({
    type: 'UserGroup',
    description: 'All or nothing: a user who is not a member of the organization adds nobody; none new is a conflict',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: AddUserGroupMembersInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      addGroupMembers(
        requestOf(context),
        ulid,
        validate(addGroupMembersBodySchema, { userUlid: orUndefined(input.userUlid), userUlids: orUndefined(input.userUlids) }),
      ),
  }),
  removeUserGroupMember: t.boolean({
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), userUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid, userUlid }, context) => {
      await removeGroupMember(requestOf(context), ulid, userUlid);
      return true;
    },
  }),
  assignUserGroupProjects: t.prismaField({
    type: 'UserGroup',
    description: "All or nothing; each project needs the right to change its access (owner/admin or the project's owner)",
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), projectUlids: t.arg.stringList({ required: true }) },
    resolve: (_query, _root, { ulid, projectUlids }, context) =>
      assignGroupProjects(requestOf(context), ulid, validate(assignGroupProjectsBodySchema, { projectUlids })),
  }),
}));
