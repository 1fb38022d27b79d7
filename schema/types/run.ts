import { putCaseValuesBodySchema } from '../../src/custom-fields/custom-fields.schemas.ts';
import { toAuthor } from '../../src/foundation/actors.ts';
import { validate } from '../../src/kernel/validation.ts';
import {
  updateOrganizationRunSettingsBodySchema,
  updateProjectRunSettingsBodySchema,
} from '../../src/run-settings/run-settings.schemas.ts';
import type { ResolvedRunSettings, SettingSource } from '../../src/run-settings/run-settings.service.ts';
import {
  getOrganizationRunSettings,
  getProjectRunSettings,
  updateOrganizationRunSettings,
  updateProjectRunSettings,
} from '../../src/run-settings/run-settings.service.ts';
import { cloneRun } from '../../src/runs/run-clone.service.ts';
import {
  cloneRunBodySchema,
  createRunBodySchema,
  projectedStatus,
  runCounts,
  runFilterSchema,
  runProgress,
  updateRunBodySchema,
} from '../../src/runs/runs.schemas.ts';
import {
  abortRun,
  closeRun,
  countRuns,
  createRun,
  deleteRun,
  findRun,
  findRuns,
  setRunFieldValues,
  updateRun,
} from '../../src/runs/runs.service.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { Author } from './comment.ts';
import { CustomFieldValueRef, fieldValuesOf, JsonScalar } from './custom-field.ts';

export const StatusCounts = builder.objectRef<ReturnType<typeof runCounts>>('StatusCounts').implement({
  description: 'Cases per status; a case to be retested counts as untested',
  fields: (t) => ({
    passed: t.exposeInt('passed'),
    failed: t.exposeInt('failed'),
    blocked: t.exposeInt('blocked'),
    skipped: t.exposeInt('skipped'),
    untested: t.exposeInt('untested'),
  }),
});

builder.prismaObject('TestRunConfiguration', {
  name: 'RunConfiguration',
  description: 'Snapshot of a configuration value the run was created for',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    configurationUlid: t.exposeString('configurationId', { nullable: true, description: 'Null once the value was purged' }),
    groupName: t.exposeString('groupName'),
    valueName: t.exposeString('valueName'),
  }),
});

builder.prismaObject('TestRun', {
  name: 'Run',
  description: 'A test run (RunResponse of the REST API)',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    projectUlid: t.exposeString('projectId'),
    planUlid: t.exposeString('planId', { nullable: true }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    state: t.exposeString('state'),
    status: t.string({ description: 'in_progress, passed, failed or aborted', resolve: (run) => projectedStatus(run) }),
    closedAt: t.expose('closedAt', { type: 'Timestamp', nullable: true }),
    abortedAt: t.expose('abortedAt', { type: 'Timestamp', nullable: true }),
    defaultAssigneeUlid: t.exposeString('defaultAssigneeId', { nullable: true }),
    milestoneUlid: t.exposeString('milestoneId', { nullable: true }),
    milestone: t.relation('milestone', { nullable: true }),
    environmentId: t.exposeString('environmentId', { nullable: true }),
    environment: t.relation('environment', { nullable: true }),
    environmentName: t.exposeString('environmentName', { nullable: true }),
    comboKey: t.exposeString('comboKey'),
    configurations: t.relation('configurations', { query: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } }),
    total: t.int({ resolve: (run) => runProgress(run).total }),
    executed: t.int({ resolve: (run) => runProgress(run).executed }),
    passRate: t.float({ resolve: (run) => runProgress(run).passRate }),
    counts: t.field({ type: StatusCounts, resolve: (run) => runCounts(run) }),
    firstResultAt: t.expose('firstResultAt', { type: 'Timestamp', nullable: true }),
    lastResultAt: t.expose('lastResultAt', { type: 'Timestamp', nullable: true }),
    totalDurationMs: t.float({ resolve: (run) => Number(run.totalDurationMs) }),
    author: t.field({ type: Author, nullable: true, resolve: (run) => toAuthor(run) }),
    customFieldValues: t.loadableList(
      fieldValuesOf(
        'test_run',
        'Values of the test-run fields visible in the project, in field order; missing ones show the default or null',
      ),
    ),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.queryFields((t) => ({
  run: t.prismaField({
    type: 'TestRun',
    nullable: true,
    description: 'A run by ULID; an unknown one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => findRun(requestOf(context), args.ulid),
  }),
}));

type FilterArgs = {
  q?: string | null;
  status?: string[] | null;
  env?: string[] | null;
  authorUlid?: string | null;
  assigneeUlid?: string | null;
  cf?: string[] | null;
};

const runFilterOf = (args: FilterArgs) =>
  validate(runFilterSchema, {
    q: args.q ?? undefined,
    status: args.status ?? undefined,
    env: args.env ?? undefined,
    authorUlid: args.authorUlid ?? undefined,
    assigneeUlid: args.assigneeUlid ?? undefined,
    cf: args.cf ?? undefined,
  });

builder.prismaObjectField('Project', 'runs', (t) =>
  t.prismaConnection(
    {
      type: 'TestRun',
      cursor: 'id',
      description: 'Runs, most recent first, with the filters of the REST run list',
      authScopes: { member: true },
      args: {
        q: t.arg.string({ description: 'Case-insensitive substring of the name, the legacy environment text or the environment name' }),
        status: t.arg.stringList({ description: 'Projected statuses: in_progress, passed, failed' }),
        env: t.arg.stringList({ description: 'Environment ULIDs (linked) or legacy texts (exact); OR-ed' }),
        authorUlid: t.arg.string({ description: 'Runs created by this user in a session' }),
        assigneeUlid: t.arg.string({ description: 'Default assignee ULID; the empty string for runs without one' }),
        cf: t.arg.stringList({ description: '<fieldUlid>:<value[,value]> entries, AND-ed (values OR-ed; `empty` = no stored value)' }),
      },
      resolve: (query, project, args, context) => findRuns(requestOf(context), project, runFilterOf(args), query),
      totalCount: (project, args, context) => countRuns(requestOf(context), project, runFilterOf(args)),
    },
    {},
    {},
  ),
);

const RunSettingSource = builder.enumType('RunSettingSource', { values: ['project', 'organization', 'default'] as const });

type Setting<T> = { value: T; source: SettingSource };

const BooleanRunSetting = builder.objectRef<Setting<boolean>>('BooleanRunSetting').implement({
  fields: (t) => ({ value: t.exposeBoolean('value'), source: t.expose('source', { type: RunSettingSource }) }),
});

const TextRunSetting = builder.objectRef<Setting<string | null>>('TextRunSetting').implement({
  fields: (t) => ({ value: t.exposeString('value', { nullable: true }), source: t.expose('source', { type: RunSettingSource }) }),
});

const RunSettings = builder.objectRef<Partial<ResolvedRunSettings>>('RunSettings').implement({
  description: 'Run settings in force, each with the level it comes from (contract §6)',
  fields: (t) => ({
    allowResultsInClosedRuns: t.field({ type: BooleanRunSetting, resolve: (settings) => settings.allowResultsInClosedRuns! }),
    assigneeResultLock: t.field({ type: BooleanRunSetting, resolve: (settings) => settings.assigneeResultLock! }),
    timeTracking: t.field({
      type: TextRunSetting,
      description: 'off, optional or required',
      resolve: (settings) => settings.timeTracking!,
    }),
    defaultAssigneeUserId: t.field({
      type: TextRunSetting,
      nullable: true,
      description: 'Project only: null on the organization',
      resolve: (settings) => settings.defaultAssigneeUserId ?? null,
    }),
    requireCommentOnNegativeResult: t.field({ type: BooleanRunSetting, resolve: (settings) => settings.requireCommentOnNegativeResult! }),
  }),
});

builder.prismaObjectField('Project', 'runSettings', (t) =>
  t.field({
    type: RunSettings,
    authScopes: { member: true },
    resolve: async (project, _args, context) => (await getProjectRunSettings(requestOf(context), project.code)).settings,
  }),
);

builder.prismaObjectField('Organization', 'runSettings', (t) =>
  t.field({
    type: RunSettings,
    description: 'Organization-wide run settings (the project-only defaultAssigneeUserId is null)',
    authScopes: { member: true },
    resolve: async (_organization, _args, context) => (await getOrganizationRunSettings(requestOf(context))).settings,
  }),
);

const RunFieldValueInput = builder.inputType('RunFieldValueInput', {
  fields: (t) => ({ fieldUlid: t.string({ required: true }), value: t.field({ type: JsonScalar }) }),
});

const RunCaseAssigneeInput = builder.inputType('RunCaseAssigneeInput', {
  fields: (t) => ({ caseUlid: t.string({ required: true }), assigneeUlid: t.string() }),
});

const CreateRunInput = builder.inputType('CreateRunInput', {
  description: 'caseUlids may be omitted only with planUlid; environmentId wins over the deprecated environment text',
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    defaultAssigneeUlid: t.string(),
    milestoneId: t.string(),
    environmentId: t.string(),
    environment: t.string(),
    caseUlids: t.stringList(),
    caseAssignees: t.field({ type: [RunCaseAssigneeInput] }),
    planUlid: t.string(),
    configurationUlids: t.stringList(),
    customFieldValues: t.field({ type: [RunFieldValueInput] }),
  }),
});

const UpdateRunInput = builder.inputType('UpdateRunInput', {
  description: 'At least one field; description, defaultAssigneeUlid, environmentId and milestoneId take null to clear',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    defaultAssigneeUlid: t.string(),
    environmentId: t.string(),
    milestoneId: t.string(),
    configurationUlids: t.stringList(),
  }),
});

const CloneRunInput = builder.inputType('CloneRunInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    cloneAssignees: t.boolean(),
    statusFilter: t.stringList({ description: 'Case statuses to clone; omitted or empty: every case' }),
  }),
});

const RunSettingsInput = builder.inputType('RunSettingsInput', {
  description: 'At least one key; null removes the override',
  fields: (t) => ({
    allowResultsInClosedRuns: t.boolean(),
    assigneeResultLock: t.boolean(),
    timeTracking: t.string(),
    defaultAssigneeUserId: t.string({ description: 'Project only' }),
    requireCommentOnNegativeResult: t.boolean(),
  }),
});

/** GraphQL's null as the REST body's absence, except for the keys where null clears something. */
const nullsAsAbsent = (input: Record<string, unknown>, clearable: string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || clearable.includes(key)));

const CLEARABLE = ['description', 'defaultAssigneeUlid', 'environmentId', 'milestoneId'];

builder.mutationFields((t) => ({
  createRun: t.prismaField({
    type: 'TestRun',
    authScopes: { member: true },
    args: { projectCode: t.arg.string({ required: true }), input: t.arg({ type: CreateRunInput, required: true }) },
    resolve: (_query, _root, { projectCode, input }, context) =>
      createRun(requestOf(context), projectCode, validate(createRunBodySchema, nullsAsAbsent(input, CLEARABLE))),
  }),
  updateRun: t.prismaField({
    type: 'TestRun',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateRunInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateRun(requestOf(context), ulid, validate(updateRunBodySchema, nullsAsAbsent(input, CLEARABLE))),
  }),
  closeRun: t.prismaField({
    type: 'TestRun',
    description: 'Closes an open run early; a conflict when already closed',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => closeRun(requestOf(context), ulid),
  }),
  abortRun: t.prismaField({
    type: 'TestRun',
    description: 'Aborts an open run: closed with abortedAt, frozen from then on',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => abortRun(requestOf(context), ulid),
  }),
  deleteRun: t.boolean({
    description: 'Deletes a run with its cases and results (owner/admin); its audit events stay',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteRun(requestOf(context), ulid);
      return true;
    },
  }),
  cloneRun: t.prismaField({
    type: 'TestRun',
    description: 'A new open run from the case snapshots of a run of the project',
    authScopes: { member: true },
    args: {
      projectCode: t.arg.string({ required: true }),
      ulid: t.arg.string({ required: true }),
      input: t.arg({ type: CloneRunInput, required: true }),
    },
    resolve: (_query, _root, { projectCode, ulid, input }, context) =>
      cloneRun(requestOf(context), projectCode, ulid, validate(cloneRunBodySchema, nullsAsAbsent(input))),
  }),
  setRunCustomFieldValues: t.field({
    type: [CustomFieldValueRef],
    description: "Replaces the run's custom field values; answers the full list",
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), values: t.arg({ type: [RunFieldValueInput], required: true }) },
    resolve: (_root, { ulid, values }, context) =>
      setRunFieldValues(requestOf(context), ulid, validate(putCaseValuesBodySchema, { values }).values),
  }),
  updateRunSettings: t.field({
    type: RunSettings,
    description: "The project's overrides with projectCode, else the organization's",
    authScopes: { member: true },
    args: { projectCode: t.arg.string(), input: t.arg({ type: RunSettingsInput, required: true }) },
    resolve: async (_root, { projectCode, input }, context) => {
      const ctx = requestOf(context);
      const { settings } = projectCode
        ? await updateProjectRunSettings(ctx, projectCode, validate(updateProjectRunSettingsBodySchema, input))
        : await updateOrganizationRunSettings(ctx, validate(updateOrganizationRunSettingsBodySchema, input));
      return settings;
    },
  }),
}));
