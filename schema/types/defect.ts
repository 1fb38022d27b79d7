import { countComments, findComments } from '../../src/comments/comments.service.ts';
import { defectComments } from '../../src/defects/defect-comments.service.ts';
import { createDefectBodySchema, defectFilterSchema, updateDefectBodySchema } from '../../src/defects/defects.schemas.ts';
import {
  countDefects,
  countRunDefects,
  createDefect,
  deleteDefect,
  findDefects,
  findRunDefects,
  linkedResultsOf,
  linkResult,
  resolveDefect,
  unlinkResult,
  updateDefect,
} from '../../src/defects/defects.service.ts';
import { toAuthor } from '../../src/foundation/actors.ts';
import { DEFECT_STATUSES } from '../../src/kernel/statuses.ts';
import { validate } from '../../src/kernel/validation.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { Author } from './comment.ts';
import { fieldValueInputsOf, fieldValuesOf, JsonScalar } from './custom-field.ts';

const DefectStatus = builder.enumType('DefectStatus', { values: DEFECT_STATUSES });

type LinkedResultShape = Awaited<ReturnType<typeof linkedResultsOf>>[number][number];

const DefectLinkedResult = builder.objectRef<LinkedResultShape>('DefectLinkedResult').implement({
  description: 'A result attempt a defect is linked to',
  fields: (t) => ({
    resultUlid: t.exposeString('resultUlid'),
    runUlid: t.exposeString('runUlid'),
    runTitle: t.exposeString('runTitle'),
    runCaseUlid: t.exposeString('runCaseUlid', { nullable: true, description: 'Null once the case was removed from the run' }),
    caseDisplayId: t.exposeString('caseDisplayId', { nullable: true }),
    status: t.exposeString('status'),
    executedAt: t.float({ description: 'Epoch milliseconds', resolve: (link) => link.executedAt }),
    linkedAt: t.float({ description: 'Epoch milliseconds', resolve: (link) => link.linkedAt }),
  }),
});

builder.prismaObject('Defect', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    defectNumber: t.exposeInt('defectNumber', { description: 'Gapless per project, never reused' }),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    status: t.field({ type: DefectStatus, resolve: (defect) => defect.status as (typeof DEFECT_STATUSES)[number] }),
    assigneeUlid: t.exposeString('assigneeId', { nullable: true }),
    externalUrl: t.exposeString('externalUrl', { nullable: true }),
    author: t.field({ type: Author, resolve: (defect) => toAuthor(defect) }),
    customFieldValues: t.loadableList(
      fieldValuesOf('defect', 'Values of the defect fields visible in the project, in field order; missing ones show the default or null'),
    ),
    // One batch per request for every defect of the response.
    linkedResults: t.loadableList({
      type: DefectLinkedResult,
      description: 'The result attempts the defect is linked to, most recently executed first',
      load: (defectIds: string[], context) => linkedResultsOf(requestOf(context), defectIds),
      resolve: (defect) => defect.id,
    }),
    comments: t.prismaConnection({
      type: 'Comment',
      cursor: 'id',
      description: 'Flat: pinned comments first (most recently pinned first), then oldest first; replies carry parentUlid',
      resolve: (query, defect, _args, context) => findComments(requestOf(context), defectComments, defect, query),
      totalCount: (defect, _args, context) => countComments(requestOf(context), defectComments, defect),
    }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

type FilterArgs = { q?: string | null; status?: readonly string[] | null; assigneeUlid?: string | null };

const filterOf = (args: FilterArgs) =>
  validate(defectFilterSchema, { q: orUndefined(args.q), status: orUndefined(args.status), assigneeUlid: orUndefined(args.assigneeUlid) });

builder.prismaObjectField('Project', 'defects', (t) =>
  t.prismaConnection(
    {
      type: 'Defect',
      cursor: 'id',
      description: 'Defects of the project, newest first',
      authScopes: { member: true },
      args: {
        q: t.arg.string({ description: 'Case-insensitive substring of the title' }),
        status: t.arg({ type: [DefectStatus], description: 'Any of these statuses' }),
        assigneeUlid: t.arg.string({ description: 'Assigned to this user; empty: unassigned' }),
      },
      resolve: (query, project, args, context) => findDefects(requestOf(context), project, filterOf(args), query),
      totalCount: (project, args, context) => countDefects(requestOf(context), project, filterOf(args)),
    },
    {},
    {},
  ),
);

builder.prismaObjectField('TestRun', 'defects', (t) =>
  t.prismaConnection(
    {
      type: 'Defect',
      cursor: 'id',
      description: 'Defects linked to any result of the run, newest first',
      authScopes: { member: true },
      resolve: (query, run, _args, context) => findRunDefects(requestOf(context), run, query),
      totalCount: (run, _args, context) => countRunDefects(requestOf(context), run),
    },
    {},
    {},
  ),
);

builder.queryFields((t) => ({
  defect: t.prismaField({
    type: 'Defect',
    nullable: true,
    description: 'A defect by ULID; an unknown one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveDefect(requestOf(context), args.ulid),
  }),
}));

const DefectFieldValueInput = builder.inputType('DefectFieldValueInput', {
  fields: (t) => ({ fieldUlid: t.string({ required: true }), value: t.field({ type: JsonScalar }) }),
});

const CreateDefectInput = builder.inputType('CreateDefectInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string(),
    status: t.field({ type: DefectStatus }),
    assigneeUlid: t.string(),
    externalUrl: t.string(),
    resultUlids: t.stringList(),
    customFieldValues: t.field({ type: [DefectFieldValueInput] }),
  }),
});

const UpdateDefectInput = builder.inputType('UpdateDefectInput', {
  description: 'At least one field; description, assigneeUlid and externalUrl take null to clear',
  fields: (t) => ({
    title: t.string(),
    description: t.string(),
    status: t.field({ type: DefectStatus }),
    assigneeUlid: t.string(),
    externalUrl: t.string(),
    customFieldValues: t.field({ type: [DefectFieldValueInput] }),
  }),
});

builder.mutationFields((t) => ({
  createDefect: t.prismaField({
    type: 'Defect',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateDefectInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createDefect(
        requestOf(context),
        projectCode,
        validate(createDefectBodySchema, {
          ...input,
          status: orUndefined(input.status),
          resultUlids: orUndefined(input.resultUlids),
          customFieldValues: fieldValueInputsOf(input.customFieldValues),
        }),
      ),
  }),
  updateDefect: t.prismaField({
    type: 'Defect',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateDefectInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateDefect(
        requestOf(context),
        ulid,
        validate(updateDefectBodySchema, {
          ...input,
          title: orUndefined(input.title),
          status: orUndefined(input.status),
          customFieldValues: fieldValueInputsOf(input.customFieldValues),
        }),
      ),
  }),
  deleteDefect: t.boolean({
    description: 'Deletes the defect with its links, custom field values and comments',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteDefect(requestOf(context), ulid);
      return true;
    },
  }),
  linkDefectResult: t.field({
    type: DefectLinkedResult,
    description: 'Links a result attempt of the same project; linking a linked one changes nothing',
    authScopes: { member: true },
    args: { defectUlid: t.arg.string({ required: true }), resultUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { defectUlid, resultUlid }, context) => (await linkResult(requestOf(context), defectUlid, resultUlid)).link,
  }),
  unlinkDefectResult: t.boolean({
    description: 'Unlinks a result attempt (not linked: not_found)',
    authScopes: { member: true },
    args: { defectUlid: t.arg.string({ required: true }), resultUlid: t.arg.string({ required: true }) },
    resolve: async (_root, { defectUlid, resultUlid }, context) => {
      await unlinkResult(requestOf(context), defectUlid, resultUlid);
      return true;
    },
  }),
}));
