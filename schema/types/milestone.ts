import { validate } from '../../src/kernel/validation.ts';
import { createMilestoneBodySchema, updateMilestoneBodySchema } from '../../src/milestones/milestones.schemas.ts';
import {
  countMilestones,
  createMilestone,
  deleteMilestone,
  findMilestones,
  resolveMilestone,
  updateMilestone,
} from '../../src/milestones/milestones.service.ts';
import { orUndefined, searchOf } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

builder.prismaObject('Milestone', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    dueAt: t.expose('dueAt', { type: 'Timestamp', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Project', 'milestones', (t) =>
  t.prismaConnection(
    {
      type: 'Milestone',
      cursor: 'id',
      description: 'Live milestones, oldest first',
      authScopes: { member: true },
      args: { q: t.arg.string({ description: 'Case-insensitive substring of the name' }) },
      resolve: (query, project, args, context) => findMilestones(requestOf(context), project, searchOf(args), query),
      totalCount: (project, args, context) => countMilestones(requestOf(context), project, searchOf(args)),
    },
    {},
    {},
  ),
);

builder.queryFields((t) => ({
  milestone: t.prismaField({
    type: 'Milestone',
    nullable: true,
    description: 'A live milestone by ULID; an unknown or deleted one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveMilestone(requestOf(context), args.ulid),
  }),
}));

const CreateMilestoneInput = builder.inputType('CreateMilestoneInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    dueAt: t.field({ type: 'Timestamp' }),
  }),
});

const UpdateMilestoneInput = builder.inputType('UpdateMilestoneInput', {
  description: 'At least one field; description, dueAt and completedAt take null to clear',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    dueAt: t.field({ type: 'Timestamp' }),
    completedAt: t.field({ type: 'Timestamp' }),
  }),
});

builder.mutationFields((t) => ({
  createMilestone: t.prismaField({
    type: 'Milestone',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateMilestoneInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createMilestone(requestOf(context), projectCode, validate(createMilestoneBodySchema, input)),
  }),
  updateMilestone: t.prismaField({
    type: 'Milestone',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateMilestoneInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateMilestone(requestOf(context), ulid, validate(updateMilestoneBodySchema, { ...input, name: orUndefined(input.name) })),
  }),
  deleteMilestone: t.boolean({
    description: 'Soft delete: the milestone is no longer live',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteMilestone(requestOf(context), ulid);
      return true;
    },
  }),
}));
