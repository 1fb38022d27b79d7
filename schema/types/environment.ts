import { createEnvironmentBodySchema, updateEnvironmentBodySchema } from '../../src/environments/environments.schemas.ts';
import {
  countEnvironments,
  createEnvironment,
  deleteEnvironment,
  findEnvironments,
  resolveEnvironment,
  updateEnvironment,
} from '../../src/environments/environments.service.ts';
import { validate } from '../../src/kernel/validation.ts';
import { orUndefined, searchOf } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

builder.prismaObject('Environment', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Project', 'environments', (t) =>
  t.prismaConnection(
    {
      type: 'Environment',
      cursor: 'id',
      description: 'Live environments, oldest first',
      authScopes: { member: true },
      args: { q: t.arg.string({ description: 'Case-insensitive substring of the name or the slug' }) },
      resolve: (query, project, args, context) => findEnvironments(requestOf(context), project, searchOf(args), query),
      totalCount: (project, args, context) => countEnvironments(requestOf(context), project, searchOf(args)),
    },
    {},
    {},
  ),
);

builder.queryFields((t) => ({
  environment: t.prismaField({
    type: 'Environment',
    nullable: true,
    description: 'A live environment by ULID; an unknown or deleted one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveEnvironment(requestOf(context), args.ulid),
  }),
}));

const CreateEnvironmentInput = builder.inputType('CreateEnvironmentInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string({ description: 'Derived from the name when absent' }),
  }),
});

const UpdateEnvironmentInput = builder.inputType('UpdateEnvironmentInput', {
  description: 'At least one field; renaming keeps the slug',
  fields: (t) => ({ name: t.string(), slug: t.string() }),
});

builder.mutationFields((t) => ({
  createEnvironment: t.prismaField({
    type: 'Environment',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateEnvironmentInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createEnvironment(
        requestOf(context),
        projectCode,
        validate(createEnvironmentBodySchema, { name: input.name, slug: orUndefined(input.slug) }),
      ),
  }),
  updateEnvironment: t.prismaField({
    type: 'Environment',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateEnvironmentInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateEnvironment(
        requestOf(context),
        ulid,
        validate(updateEnvironmentBodySchema, { name: orUndefined(input.name), slug: orUndefined(input.slug) }),
      ),
  }),
  deleteEnvironment: t.boolean({
    description: 'Soft delete: the environment is no longer live and its slug is free',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteEnvironment(requestOf(context), ulid);
      return true;
    },
  }),
}));
