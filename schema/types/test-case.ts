import { validate } from '../../src/kernel/validation.ts';
import { caseDisplayId } from '../../src/projects/projects.schemas.ts';
import { mergeTestCases } from '../../src/test-cases/merge.service.ts';
import {
  createTestCaseBodySchema,
  mergeTestCasesBodySchema,
  putStepsBodySchema,
  type TestCaseFilter,
  testCaseListQuerySchema,
  updateTestCaseBodySchema,
} from '../../src/test-cases/test-cases.schemas.ts';
import {
  archiveTestCase,
  countTestCases,
  createTestCase,
  deleteTestCase,
  findTestCases,
  getTestCase,
  getTestCaseByDisplayId,
  restoreTestCase,
  setTestCaseSteps,
  updateTestCase,
} from '../../src/test-cases/test-cases.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { fieldValueInputsOf, fieldValuesOf, JsonScalar } from './custom-field.ts';

const ORDERED = [{ position: 'asc' as const }, { id: 'asc' as const }];

builder.prismaObject('StepAttachment', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType'),
    sizeBytes: t.exposeInt('sizeBytes'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObject('TestCaseStep', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    position: t.exposeInt('position', { description: 'Index in the case, from 0' }),
    action: t.exposeString('action'),
    expectedResult: t.exposeString('expectedResult', { nullable: true }),
    attachments: t.relation('attachments', { query: { orderBy: ORDERED } }),
  }),
});

/** A case's key for the values loader: its ULID and project (visibility of definitions). */
builder.prismaObject('TestCase', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    caseNumber: t.exposeInt('caseNumber'),
    displayId: t.string({
      description: '`<projectCode>-<caseNumber>`',
      // Joined into the case's own query, so a list of cases costs no query per case.
      select: { caseNumber: true, project: { select: { code: true } } },
      resolve: (testCase) => caseDisplayId(testCase.project.code, testCase.caseNumber),
    }),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    suiteUlid: t.exposeString('suiteId', { nullable: true }),
    suite: t.relation('suite', { nullable: true }),
    milestoneUlid: t.exposeString('milestoneId', { nullable: true }),
    tags: t.exposeStringList('tags'),
    automationKey: t.exposeString('automationKey', {
      nullable: true,
      description: "Binds a test runner's test to this case (exact match); unique among the project's cases",
    }),
    steps: t.relation('steps', { query: { orderBy: ORDERED } }),
    customFieldValues: t.loadableList(
      fieldValuesOf(
        'test_case',
        'Values of the test-case fields visible in the project, in field order; missing ones show the default or null',
      ),
    ),
    archivedAt: t.expose('archivedAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Suite', 'cases', (t) =>
  t.relation('cases', {
    description: "The suite's own active (not archived) cases, by ULID",
    query: { where: { archivedAt: null }, orderBy: { id: 'asc' } },
  }),
);

type FilterArgs = {
  suiteUlid?: string | null;
  q?: string | null;
  tag?: string | null;
  archived?: boolean | null;
  automationKey?: string | null;
};

const filterOf = (args: FilterArgs): TestCaseFilter => {
  const {
    limit: _limit,
    cursor: _cursor,
    ...filter
  } = validate(testCaseListQuerySchema, {
    suiteUlid: args.suiteUlid ?? undefined,
    q: args.q ?? undefined,
    tag: args.tag ?? undefined,
    archived: args.archived ? 'true' : undefined,
    automationKey: args.automationKey ?? undefined,
  });
  return filter;
};

builder.prismaObjectField('Project', 'testCases', (t) =>
  t.prismaConnection(
    {
      type: 'TestCase',
      cursor: 'id',
      description: 'Active cases (archived ones with archived: true) by ULID',
      authScopes: { member: true },
      args: {
        suiteUlid: t.arg.string({ description: "Only the suite's own cases (not those of its sub-suites)" }),
        q: t.arg.string({ description: 'Case-insensitive substring of the title' }),
        tag: t.arg.string({ description: 'Only cases carrying this tag' }),
        archived: t.arg.boolean({ description: 'true: archived cases instead of active ones' }),
        automationKey: t.arg.string({ description: 'Only the case with this automation key (exact, case-sensitive)' }),
      },
      resolve: (query, project, args, context) => findTestCases(requestOf(context), project, filterOf(args), query),
      totalCount: (project, args, context) => countTestCases(requestOf(context), project, filterOf(args)),
    },
    {},
    {},
  ),
);

builder.queryFields((t) => ({
  testCase: t.prismaField({
    type: 'TestCase',
    nullable: true,
    description: 'A test case by ULID; an unknown ULID is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => getTestCase(requestOf(context), args.ulid),
  }),
  testCaseByDisplayId: t.prismaField({
    type: 'TestCase',
    nullable: true,
    description: 'A test case by display ID (`<projectCode>-<number>`); an unknown one is a not_found error',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), displayId: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => getTestCaseByDisplayId(requestOf(context), args.projectCode, args.displayId),
  }),
}));

const StepAttachmentRefInput = builder.inputType('StepAttachmentRefInput', {
  description: 'Exactly one of: `ulid` keeps a committed attachment, `key` commits a staged upload',
  fields: (t) => ({ ulid: t.string(), key: t.string() }),
});

const TestCaseStepInput = builder.inputType('TestCaseStepInput', {
  description: 'With `ulid`: an existing step of the case, kept and updated; without: a new step',
  fields: (t) => ({
    ulid: t.string(),
    position: t.int({ description: 'Optional; when given on every step, steps are ordered by it' }),
    action: t.string({ required: true }),
    expectedResult: t.string({ description: 'Omitted on a kept step: unchanged; null clears' }),
    attachments: t.field({ type: [StepAttachmentRefInput], description: 'Omitted on a kept step: unchanged' }),
  }),
});

const TestCaseFieldValueInput = builder.inputType('TestCaseFieldValueInput', {
  fields: (t) => ({
    fieldUlid: t.string({ required: true }),
    value: t.field({ type: JsonScalar }),
  }),
});

const CreateTestCaseInput = builder.inputType('CreateTestCaseInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    suiteUlid: t.string(),
    description: t.string(),
    steps: t.field({ type: [TestCaseStepInput] }),
    tags: t.stringList(),
    milestoneUlid: t.string(),
    automationKey: t.string(),
    customFieldValues: t.field({ type: [TestCaseFieldValueInput] }),
  }),
});

const TestCasePatchInput = builder.inputType('TestCasePatchInput', {
  description: 'At least one field; suiteUlid, milestoneUlid, description and automationKey take null to clear',
  fields: (t) => ({
    title: t.string(),
    description: t.string(),
    suiteUlid: t.string(),
    milestoneUlid: t.string(),
    tags: t.stringList(),
    automationKey: t.string(),
  }),
});

const UpdateTestCaseInput = builder.inputType('UpdateTestCaseInput', {
  description: 'At least one of patch, steps, customFieldValues; applied together with one audit event',
  fields: (t) => ({
    patch: t.field({ type: TestCasePatchInput }),
    steps: t.field({ type: [TestCaseStepInput] }),
    customFieldValues: t.field({ type: [TestCaseFieldValueInput] }),
  }),
});

/** GraphQL's null for "absent" where the REST body has no null (zod then reports what is missing). */

type StepArg = typeof TestCaseStepInput.$inferInput;

const stepsOf = (steps: readonly StepArg[] | null | undefined) =>
  steps?.map((step) => ({
    ulid: orUndefined(step.ulid),
    position: orUndefined(step.position),
    action: step.action,
    expectedResult: step.expectedResult,
    attachments: step.attachments?.map((ref) => Object.fromEntries(Object.entries(ref).filter(([, value]) => value != null))),
  }));

builder.mutationFields((t) => ({
  createTestCase: t.prismaField({
    type: 'TestCase',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateTestCaseInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createTestCase(
        requestOf(context),
        projectCode,
        validate(createTestCaseBodySchema, {
          ...input,
          tags: orUndefined(input.tags),
          steps: stepsOf(input.steps)?.map(({ ulid: _ulid, ...step }) => step),
          customFieldValues: fieldValueInputsOf(input.customFieldValues),
        }),
      ),
  }),
  updateTestCase: t.prismaField({
    type: 'TestCase',
    description: 'The consolidated PATCH: scalars, steps and custom field values in one transaction with one audit event',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateTestCaseInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateTestCase(
        requestOf(context),
        ulid,
        validate(updateTestCaseBodySchema, {
          patch: input.patch ? { ...input.patch, title: orUndefined(input.patch.title), tags: orUndefined(input.patch.tags) } : undefined,
          steps: stepsOf(input.steps),
          customFieldValues: fieldValueInputsOf(input.customFieldValues),
        }),
      ),
  }),
  setTestCaseSteps: t.prismaField({
    type: 'TestCase',
    description: 'Replaces the steps of a case (PUT …/steps); no audit event of its own',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), steps: t.arg({ type: [TestCaseStepInput], required: true }) },
    resolve: (_query, _root, { ulid, steps }, context) =>
      setTestCaseSteps(requestOf(context), ulid, validate(putStepsBodySchema, { steps: stepsOf(steps) }).steps),
  }),
  mergeTestCases: t.prismaField({
    type: 'TestCase',
    description: 'Folds duplicate cases into the target (POST …/test-cases/merge); answers the target',
    authScopes: { member: true },
    args: {
      projectCode: t.arg.string({ required: true }),
      targetUlid: t.arg.string({ required: true }),
      sourceUlids: t.arg.stringList({ required: true }),
    },
    resolve: (_query, _root, { projectCode, targetUlid, sourceUlids }, context) =>
      mergeTestCases(requestOf(context), projectCode, validate(mergeTestCasesBodySchema, { targetUlid, sourceUlids })),
  }),
  archiveTestCase: t.prismaField({
    type: 'TestCase',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => archiveTestCase(requestOf(context), ulid),
  }),
  restoreTestCase: t.prismaField({
    type: 'TestCase',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => restoreTestCase(requestOf(context), ulid),
  }),
  deleteTestCase: t.boolean({
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteTestCase(requestOf(context), ulid);
      return true;
    },
  }),
}));
