import {
  countProjects,
  createProject,
  deleteProject,
  findProjects,
  resolveProject,
  updateProject,
} from '../../src/projects/projects.service.ts';
import { createProjectBodySchema, updateProjectBodySchema } from '../../src/projects/projects.schemas.ts';
import { validate } from '../../src/validation.ts';
import { searchOf } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

builder.prismaObject('Project', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    code: t.exposeString('code', { description: 'The project code (`id` in REST), e.g. WEB' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    avatarKey: t.exposeString('avatarKey', { nullable: true }),
    avatarVersion: t.exposeInt('avatarVersion'),
    lockedAt: t.expose('lockedAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.queryFields((t) => ({
  projects: t.prismaConnection(
    {
      type: 'Project',
      cursor: 'id',
      authScopes: { member: true },
      args: { q: t.arg.string({ description: 'Case-insensitive substring of name or code' }) },
      resolve: (query, _root, args, context) => findProjects(requestOf(context), searchOf(args), query),
      totalCount: (_root, args, context) => countProjects(requestOf(context), searchOf(args)),
    },
    {},
    {},
  ),
  project: t.prismaField({
    type: 'Project',
    nullable: true,
    description: 'A project by code; an unknown code is a not_found error',
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveProject(requestOf(context), args.code),
  }),
}));

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    code: t.string({ required: true }),
    description: t.string(),
  }),
});

const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  fields: (t) => ({ name: t.string(), description: t.string() }),
});

builder.mutationFields((t) => ({
  createProject: t.prismaField({
    type: 'Project',
    authScopes: { member: true },
    args: { input: t.arg({ type: CreateProjectInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      createProject(
        requestOf(context),
        validate(createProjectBodySchema, { name: input.name, id: input.code, description: input.description ?? undefined }),
      ),
  }),
  updateProject: t.prismaField({
    type: 'Project',
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }), input: t.arg({ type: UpdateProjectInput, required: true }) },
    resolve: (_query, _root, { code, input }, context) =>
      updateProject(
        requestOf(context),
        code,
        validate(updateProjectBodySchema, { name: input.name ?? undefined, description: input.description }),
      ),
  }),
  deleteProject: t.boolean({
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, context) => {
      await deleteProject(requestOf(context), code);
      return true;
    },
  }),
}));
