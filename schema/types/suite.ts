import { validate } from '../../src/kernel/validation.ts';
import { suiteDisplayId } from '../../src/projects/projects.schemas.ts';
import { createSuiteBodySchema, updateSuiteBodySchema } from '../../src/suites/suites.schemas.ts';
import {
  createSuite,
  deleteSuite,
  findSuiteByDisplayId,
  findSuiteTree,
  resolveSuite,
  updateSuite,
} from '../../src/suites/suites.service.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

// Kept a prismaObject: the test-case module adds `Suite.cases` with prismaObjectField.
builder.prismaObject('Suite', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    suiteNumber: t.exposeInt('suiteNumber'),
    displayId: t.string({
      description: '`<projectCode>-S<suiteNumber>`',
      // Joined into the suite's own query, so a list of suites costs no query per suite.
      select: { suiteNumber: true, project: { select: { code: true } } },
      resolve: (suite) => suiteDisplayId(suite.project.code, suite.suiteNumber),
    }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    parentUlid: t.exposeString('parentId', { nullable: true }),
    position: t.exposeInt('position', { description: 'Index among its siblings, from 0' }),
    parent: t.relation('parent', { nullable: true }),
    children: t.relation('children', {
      description: 'Direct child suites in position order',
      query: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
    }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Project', 'suites', (t) =>
  t.prismaField({
    type: ['Suite'],
    description: 'Every suite of the project, depth-first with siblings in position order (use parentUlid or children for the shape)',
    authScopes: { member: true },
    resolve: (query, project, _args, context) => findSuiteTree(requestOf(context), project, query),
  }),
);

builder.queryFields((t) => ({
  suite: t.prismaField({
    type: 'Suite',
    nullable: true,
    description: 'A suite by ULID; an unknown ULID is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveSuite(requestOf(context), args.ulid),
  }),
  suiteByDisplayId: t.prismaField({
    type: 'Suite',
    nullable: true,
    description: 'A suite by display ID (`<projectCode>-S<number>`); an unknown one is a not_found error',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), displayId: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => findSuiteByDisplayId(requestOf(context), args.projectCode, args.displayId),
  }),
}));

const CreateSuiteInput = builder.inputType('CreateSuiteInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    parentUlid: t.string({ description: 'Null or absent for a root suite' }),
    description: t.string(),
  }),
});

const UpdateSuiteInput = builder.inputType('UpdateSuiteInput', {
  description: 'At least one field; parentUlid null moves the suite to the root',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    parentUlid: t.string(),
    position: t.int({ description: 'Index among the (new) siblings, from 0; past the end places it last' }),
  }),
});

builder.mutationFields((t) => ({
  createSuite: t.prismaField({
    type: 'Suite',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateSuiteInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createSuite(requestOf(context), projectCode, validate(createSuiteBodySchema, input)),
  }),
  updateSuite: t.prismaField({
    type: 'Suite',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateSuiteInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateSuite(
        requestOf(context),
        ulid,
        validate(updateSuiteBodySchema, { ...input, name: input.name ?? undefined, position: input.position ?? undefined }),
      ),
  }),
  deleteSuite: t.boolean({
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteSuite(requestOf(context), ulid);
      return true;
    },
  }),
}));
