import {
  createConfigurationBodySchema,
  createConfigurationGroupBodySchema,
  updateConfigurationBodySchema,
  updateConfigurationGroupBodySchema,
} from '../../src/configurations/configurations.schemas.ts';
import {
  createConfiguration,
  createConfigurationGroup,
  deleteConfiguration,
  deleteConfigurationGroup,
  findConfigurationGroups,
  LIVE_VALUES,
  resolveConfigurationGroup,
  updateConfiguration,
  updateConfigurationGroup,
} from '../../src/configurations/configurations.service.ts';
import { validate } from '../../src/kernel/validation.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

builder.prismaObject('Configuration', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    groupUlid: t.exposeString('groupId'),
    name: t.exposeString('name'),
    position: t.exposeInt('position'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObject('ConfigurationGroup', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    name: t.exposeString('name'),
    position: t.exposeInt('position'),
    values: t.relation('values', { description: 'Live values by position, then ULID', query: LIVE_VALUES }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Project', 'configurationGroups', (t) =>
  t.prismaField({
    type: ['ConfigurationGroup'],
    description: 'Live configuration groups by position, then ULID',
    authScopes: { member: true },
    resolve: (query, project, _args, context) => findConfigurationGroups(requestOf(context), project, query),
  }),
);

builder.queryFields((t) => ({
  configurationGroup: t.prismaField({
    type: 'ConfigurationGroup',
    nullable: true,
    description: 'A live configuration group by ULID; an unknown or deleted one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveConfigurationGroup(requestOf(context), args.ulid),
  }),
}));

const CreateConfigurationGroupInput = builder.inputType('CreateConfigurationGroupInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    position: t.int({ description: 'Appended after the last live group when absent' }),
  }),
});

/** Name and position of a group or a value (PATCH). */
const ConfigurationPatchInput = builder.inputType('ConfigurationPatchInput', {
  description: 'At least one field',
  fields: (t) => ({ name: t.string(), position: t.int() }),
});

const CreateConfigurationInput = builder.inputType('CreateConfigurationInput', {
  fields: (t) => ({ name: t.string({ required: true }) }),
});

const patchOf = (input: { name?: string | null; position?: number | null }) => ({
  name: orUndefined(input.name),
  position: orUndefined(input.position),
});

builder.mutationFields((t) => ({
  createConfigurationGroup: t.prismaField({
    type: 'ConfigurationGroup',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateConfigurationGroupInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createConfigurationGroup(
        requestOf(context),
        projectCode,
        validate(createConfigurationGroupBodySchema, { name: input.name, position: orUndefined(input.position) }),
      ),
  }),
  updateConfigurationGroup: t.prismaField({
    type: 'ConfigurationGroup',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: ConfigurationPatchInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateConfigurationGroup(requestOf(context), ulid, validate(updateConfigurationGroupBodySchema, patchOf(input))),
  }),
  deleteConfigurationGroup: t.boolean({
    description: 'Soft-deletes the group and its values',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteConfigurationGroup(requestOf(context), ulid);
      return true;
    },
  }),
  addConfiguration: t.prismaField({
    type: 'Configuration',
    description: 'Adds a value after the last live value of the group',
    authScopes: { member: true },
    args: { groupUlid: t.arg.string({ required: true }), input: t.arg({ type: CreateConfigurationInput, required: true }) },
    resolve: (_query, _root, { groupUlid, input }, context) =>
      createConfiguration(requestOf(context), groupUlid, validate(createConfigurationBodySchema, input)),
  }),
  updateConfiguration: t.prismaField({
    type: 'Configuration',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: ConfigurationPatchInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateConfiguration(requestOf(context), ulid, validate(updateConfigurationBodySchema, patchOf(input))),
  }),
  deleteConfiguration: t.boolean({
    description: 'Soft-deletes a value; purge: true (owner/admin) hard-deletes it, also one already soft-deleted',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), purge: t.arg.boolean() },
    resolve: async (_root, { ulid, purge }, context) => {
      await deleteConfiguration(requestOf(context), ulid, { purge: purge === true });
      return true;
    },
  }),
}));
