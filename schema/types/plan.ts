import { toAuthor } from '../../src/foundation/actors.ts';
import { validate } from '../../src/kernel/validation.ts';
import {
  CONFIGURATION_SELECTION_QUERY,
  combinationsOf,
  SELECTED_VALUE,
  setExcludedCombinations,
  setPlanConfigurations,
} from '../../src/plans/plan-configurations.service.ts';
import { type PlanProgress, type ProgressBucket, readPlanProgress } from '../../src/plans/plan-progress.service.ts';
import { assignPlanCase, SELECTION_QUERY, setPlanCases } from '../../src/plans/plan-selection.service.ts';
import {
  assignPlanCaseBodySchema,
  createPlanBodySchema,
  excludedCombinationsSchema,
  setPlanCasesBodySchema,
  setPlanConfigurationsBodySchema,
  updatePlanBodySchema,
} from '../../src/plans/plans.schemas.ts';
import {
  countPlans,
  createPlan,
  deletePlan,
  findPlans,
  LIVE_SELECTION,
  resolvePlan,
  updatePlan,
  withSelection,
} from '../../src/plans/plans.service.ts';
import { caseDisplayId } from '../../src/projects/projects.schemas.ts';
import { RUN_ORDER } from '../../src/runs/runs.service.ts';
import { orUndefined, searchOf } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { Author } from './comment.ts';
import { StatusCounts } from './run.ts';

// Progress objects are plain data shaped once per plan (readPlanProgress): every field is a
// property read by the default resolver, none has a resolver of its own.
const ProgressValue = builder.objectRef<ProgressBucket['values'][number]>('PlanProgressValue').implement({
  fields: (t) => ({ groupName: t.exposeString('groupName'), valueName: t.exposeString('valueName') }),
});

const ProgressBucketRef = builder.objectRef<ProgressBucket>('PlanProgressBucket').implement({
  description: "The plan's runs of one comboKey ('' for runs without configurations)",
  fields: (t) => ({
    comboKey: t.exposeString('comboKey'),
    values: t.expose('values', { type: [ProgressValue] }),
    totalRuns: t.exposeInt('totalRuns'),
    closedRuns: t.exposeInt('closedRuns'),
    counts: t.expose('counts', { type: StatusCounts }),
  }),
});

export const PlanProgressRef = builder.objectRef<PlanProgress>('PlanProgress').implement({
  description: "Computed at read time from the counters of the plan's runs",
  fields: (t) => ({
    totalRuns: t.exposeInt('totalRuns'),
    closedRuns: t.exposeInt('closedRuns', { description: 'Runs in state closed (aborted ones included)' }),
    counts: t.expose('counts', { type: StatusCounts }),
    byConfiguration: t.expose('byConfiguration', { type: [ProgressBucketRef] }),
  }),
});

type Combinations = ReturnType<typeof combinationsOf>;
type Combination = Combinations['items'][number];

const CombinationValue = builder.objectRef<Combination['values'][number]>('PlanCombinationValue').implement({
  fields: (t) => ({
    groupUlid: t.exposeString('groupUlid'),
    groupName: t.exposeString('groupName'),
    configurationUlid: t.exposeString('configurationUlid'),
    valueName: t.exposeString('valueName'),
  }),
});

const CombinationRef = builder.objectRef<Combination>('PlanCombination').implement({
  fields: (t) => ({
    comboKey: t.exposeString('comboKey'),
    values: t.field({ type: [CombinationValue], resolve: (combination) => combination.values }),
    included: t.exposeBoolean('included'),
  }),
});

const CombinationsRef = builder.objectRef<Combinations>('PlanCombinations').implement({
  fields: (t) => ({
    items: t.field({ type: [CombinationRef], resolve: (combinations) => combinations.items }),
    totalCount: t.exposeInt('totalCount'),
    includedCount: t.exposeInt('includedCount'),
  }),
});

const TEST_CASE_SNAPSHOT = {
  caseNumber: true,
  title: true,
  suite: { select: { name: true } },
  project: { select: { code: true } },
} as const;

builder.prismaObject('TestPlanCase', {
  name: 'PlanCase',
  description: "A case of a plan's selection",
  fields: (t) => ({
    ulid: t.exposeString('id', { description: 'The selection row' }),
    caseUlid: t.exposeString('caseId'),
    displayId: t.string({
      select: { testCase: { select: TEST_CASE_SNAPSHOT } },
      resolve: (row) => caseDisplayId(row.testCase.project.code, row.testCase.caseNumber),
    }),
    title: t.string({ select: { testCase: { select: TEST_CASE_SNAPSHOT } }, resolve: (row) => row.testCase.title }),
    suiteName: t.string({
      nullable: true,
      select: { testCase: { select: TEST_CASE_SNAPSHOT } },
      resolve: (row) => row.testCase.suite?.name ?? null,
    }),
    position: t.exposeInt('position'),
    assigneeUlid: t.exposeString('assigneeId', { nullable: true }),
  }),
});

builder.prismaObject('TestPlanConfiguration', {
  name: 'PlanConfiguration',
  description: "A configuration value of a plan's selection",
  fields: (t) => ({
    configurationUlid: t.exposeString('configurationId'),
    groupUlid: t.string({ select: SELECTED_VALUE, resolve: (row) => row.configuration.groupId }),
    groupName: t.string({ select: SELECTED_VALUE, resolve: (row) => row.configuration.group.name }),
    valueName: t.string({ select: SELECTED_VALUE, resolve: (row) => row.configuration.name }),
  }),
});

builder.prismaObject('TestPlan', {
  name: 'Plan',
  description: 'A test plan: an ordered selection of cases and of configuration values, and the runs generated from it',
  // Select mode: a page of plans reads only the columns its query asks for (a progress read, the id).
  select: { id: true },
  fields: (t) => ({
    // The type always selects id, so ulid reads it without a selection of its own: an exposed
    // field of a select-mode type looks up the plugin's per-row loader mapping on every row, which
    // cost more than the rest of a page of 200 plans' progress.
    ulid: t.string({ resolve: (plan) => plan.id }),
    projectUlid: t.exposeString('projectId'),
    planNumber: t.exposeInt('planNumber'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    author: t.field({
      type: Author,
      nullable: true,
      select: { authorKind: true, authorId: true, authorName: true, authorAvatarKey: true },
      resolve: (plan) => toAuthor(plan),
    }),
    caseCount: t.relationCount('cases', { where: LIVE_SELECTION, description: 'Live (not archived) cases in the selection' }),
    status: t.exposeString('status', { description: 'draft, active or completed' }),
    milestoneUlid: t.exposeString('milestoneId', { nullable: true }),
    milestone: t.relation('milestone', { nullable: true }),
    excludedComboKeys: t.exposeStringList('excludedComboKeys'),
    // One batch per request for every plan of the response.
    progress: t.loadable({
      type: PlanProgressRef,
      load: async (planIds: string[], context) => {
        const progress = await readPlanProgress(requestOf(context), planIds);
        return planIds.map((id) => progress.get(id)!);
      },
      resolve: (plan) => plan.id,
    }),
    cases: t.relation('cases', { description: 'The live cases of the selection by position', query: SELECTION_QUERY }),
    configurations: t.relation('configurations', {
      description: 'Selected live values by group position, then value position',
      query: { where: CONFIGURATION_SELECTION_QUERY.where, orderBy: CONFIGURATION_SELECTION_QUERY.orderBy },
    }),
    combinations: t.field({
      type: CombinationsRef,
      select: {
        excludedComboKeys: true,
        configurations: {
          where: CONFIGURATION_SELECTION_QUERY.where,
          orderBy: CONFIGURATION_SELECTION_QUERY.orderBy,
          select: SELECTED_VALUE,
        },
      },
      resolve: (plan) => combinationsOf(plan.configurations, plan.excludedComboKeys),
    }),
    runs: t.relation('runs', { description: 'Runs generated from the plan, most recent first', query: { orderBy: RUN_ORDER } }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectField('Project', 'plans', (t) =>
  t.prismaConnection(
    {
      type: 'TestPlan',
      cursor: 'id',
      description: 'Live plans by planNumber',
      authScopes: { member: true },
      args: { q: t.arg.string({ description: 'Case-insensitive substring of the name' }) },
      resolve: (query, project, args, context) => findPlans(requestOf(context), project, searchOf(args), query),
      totalCount: (project, args, context) => countPlans(requestOf(context), project, searchOf(args)),
    },
    {},
    {},
  ),
);

builder.queryFields((t) => ({
  plan: t.prismaField({
    type: 'TestPlan',
    nullable: true,
    description: 'A live plan by ULID; an unknown or deleted one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const ctx = requestOf(context);
      return withSelection(ctx, await resolvePlan(ctx, args.ulid), query);
    },
  }),
}));

const CreatePlanInput = builder.inputType('CreatePlanInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    status: t.string({ description: 'draft (default), active or completed' }),
  }),
});

const UpdatePlanInput = builder.inputType('UpdatePlanInput', {
  description: 'At least one field; description and milestoneId take null to clear',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    status: t.string(),
    milestoneId: t.string({ description: "A live milestone of the plan's project" }),
  }),
});

const PlanCaseAssigneeInput = builder.inputType('PlanCaseAssigneeInput', {
  fields: (t) => ({ caseUlid: t.string({ required: true }), assigneeUlid: t.string() }),
});

const SetPlanCasesInput = builder.inputType('SetPlanCasesInput', {
  fields: (t) => ({
    caseUlids: t.stringList({ required: true, description: 'Live cases of the project in plan order; [] clears' }),
    caseAssignees: t.field({ type: [PlanCaseAssigneeInput], description: 'A listed case without an entry is unassigned' }),
  }),
});

const AssignPlanCaseInput = builder.inputType('AssignPlanCaseInput', {
  description: 'Exactly one key: assigneeUlid (a member ULID, or null to unassign)',
  fields: (t) => ({ assigneeUlid: t.string() }),
});

builder.mutationFields((t) => ({
  createPlan: t.prismaField({
    type: 'TestPlan',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreatePlanInput, required: true }) },
    resolve: async (query, _root, { projectCode, input }, context) => {
      const ctx = requestOf(context);
      const plan = await createPlan(ctx, projectCode, validate(createPlanBodySchema, { ...input, status: orUndefined(input.status) }));
      return withSelection(ctx, plan, query);
    },
  }),
  updatePlan: t.prismaField({
    type: 'TestPlan',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdatePlanInput, required: true }) },
    resolve: async (query, _root, { ulid, input }, context) => {
      const ctx = requestOf(context);
      const patch = validate(updatePlanBodySchema, { ...input, name: orUndefined(input.name), status: orUndefined(input.status) });
      return withSelection(ctx, await updatePlan(ctx, ulid, patch), query);
    },
  }),
  deletePlan: t.boolean({
    description: 'Soft delete: the plan is no longer live, its name is free, its runs stay',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deletePlan(requestOf(context), ulid);
      return true;
    },
  }),
  setPlanCases: t.prismaField({
    type: ['TestPlanCase'],
    description: "Replaces the plan's case selection; answers the selection by position",
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: SetPlanCasesInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      setPlanCases(
        requestOf(context),
        ulid,
        validate(setPlanCasesBodySchema, {
          caseUlids: input.caseUlids,
          caseAssignees: input.caseAssignees?.map((entry) => ({ caseUlid: entry.caseUlid, assigneeUlid: entry.assigneeUlid ?? null })),
        }),
      ),
  }),
  assignPlanCase: t.prismaField({
    type: 'TestPlanCase',
    description: 'Assigns a case of the selection (runs already generated keep their assignees)',
    authScopes: { member: true },
    args: {
      planUlid: t.arg.string({ required: true }),
      planCaseUlid: t.arg.string({ required: true }),
      input: t.arg({ type: AssignPlanCaseInput, required: true }),
    },
    resolve: (_query, _root, { planUlid, planCaseUlid, input }, context) =>
      assignPlanCase(requestOf(context), planUlid, planCaseUlid, validate(assignPlanCaseBodySchema, { ...input })),
  }),
  setPlanConfigurations: t.prismaField({
    type: ['TestPlanConfiguration'],
    description: "Replaces the plan's configuration selection; answers it by group, then value position",
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), configurationUlids: t.arg.stringList({ required: true }) },
    resolve: (_query, _root, { ulid, configurationUlids }, context) =>
      setPlanConfigurations(requestOf(context), ulid, validate(setPlanConfigurationsBodySchema, { configurationUlids })),
  }),
  setPlanExcludedCombinations: t.stringList({
    description: "Replaces the comboKeys left out of the plan's combinations; answers them",
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), comboKeys: t.arg.stringList({ required: true }) },
    resolve: (_root, { ulid, comboKeys }, context) =>
      setExcludedCombinations(requestOf(context), ulid, validate(excludedCombinationsSchema, { comboKeys })),
  }),
}));
