import { type CustomFieldValue, type FieldValueInput, readFieldValues, writeValues } from '../custom-fields/field-values.service.ts';
import { environmentForLegacyText, findLiveEnvironmentInProject } from '../environments/environments.service.ts';
import { assertMembers, authorColumns, membersAmong, toAuthor, userRef, userRefs } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change, changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE } from '../foundation/soft-delete.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { conflict, fromValidationIssues, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId, ULID_PATTERN } from '../kernel/ids.ts';
import { type PageQuery, pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { findLiveMilestoneInProject } from '../milestones/milestones.service.ts';
import { assertProjectUnlocked, type ProjectRow, resolveProject } from '../projects/projects.service.ts';
import { overridesOf } from '../run-settings/run-settings.service.ts';
import { projectedStatusWhere, RUN_INCLUDE, type RunRecord } from './internal/run-record.ts';
import { snapshotCases } from './internal/run-snapshot.ts';
import { releaseRunAttachments } from './result-attachments.service.ts';
import { lockRun, resolveRun } from './run-access.service.ts';
import { runAggregates, runEvent } from './run-events.service.ts';
import {
  type CreateRunInput,
  type FieldFilter,
  projectedStatus,
  type RunFilter,
  type RunListQuery,
  runCounts,
  runProgress,
  type UpdateRunInput,
} from './runs.schemas.ts';

/** The audit event fields of a run-level event: the run is the entity, labelled by its name. */
/** The comboKey of a set of configuration values: their ULIDs sorted ascending, joined by ':'. */
export const comboKeyOf = (configurationIds: string[]) => [...configurationIds].sort().join(':');

const configurationsInvalid = (message: string) => validationFailed(message, { path: ['configurationUlids'] });

/**
 * The configuration values a run is created for, in group position order: live values of the
 * project (404 otherwise), at most one per group. With a plan they must form one of the plan's
 * included combinations: one value of each group of its configuration selection (422 otherwise).
 */
async function resolveRunConfigurations(
  tx: Db,
  projectId: string,
  configurationIds: string[],
  plan: { excludedComboKeys: string[]; configurations: Array<{ configurationId: string; configuration: { groupId: string } }> } | null,
) {
  const values = await tx.configuration.findMany({
    where: { id: { in: configurationIds }, projectId, ...LIVE, group: LIVE },
    include: { group: true },
  });
  if (values.length !== configurationIds.length) throw notFound('Configuration');
  const groups = new Set(values.map((value) => value.groupId));
  if (groups.size !== values.length) throw configurationsInvalid('configurationUlids: at most one value per configuration group');
  if (plan) {
    const selected = new Set(plan.configurations.map((each) => each.configurationId));
    const planGroups = new Set(plan.configurations.map((each) => each.configuration.groupId));
    if (values.some((value) => !selected.has(value.id)) || groups.size !== planGroups.size) {
      throw configurationsInvalid("configurationUlids: must be one value of each group of the plan's configuration selection");
    }
    if (plan.excludedComboKeys.includes(comboKeyOf(configurationIds))) {
      throw configurationsInvalid('configurationUlids: this combination is excluded from the plan');
    }
  }
  return values.sort((a, b) => a.group.position - b.group.position || a.group.id.localeCompare(b.group.id));
}

/** What a run keeps of a configuration value: a snapshot of its names. */
export type ConfigurationSnapshot = { configurationId: string | null; groupName: string; valueName: string };

const configurationSnapshot = (value: { id: string; name: string; group: { name: string } }): ConfigurationSnapshot => ({
  configurationId: value.id,
  groupName: value.group.name,
  valueName: value.name,
});

/** Stores a run's configuration snapshots in the given order. */
export async function writeRunConfigurations(tx: Db, ctx: RequestContext, runId: string, snapshots: ConfigurationSnapshot[]) {
  if (snapshots.length === 0) return;
  await tx.testRunConfiguration.createMany({
    data: snapshots.map((snapshot, position) => ({ id: newId(), orgId: ctx.org.id, runId, position, ...snapshot })),
  });
}

async function findLivePlan(tx: Db, projectId: string, planUlid: string) {
  const plan = await tx.testPlan.findFirst({
    where: { id: planUlid, projectId, ...LIVE },
    include: {
      // Only live values: a deleted value or group drops out of the plan's combinations.
      configurations: {
        where: { configuration: { ...LIVE, group: LIVE } },
        include: { configuration: { select: { groupId: true } } },
      },
    },
  });
  if (!plan) throw notFound('Plan');
  return plan;
}

/**
 * The `caseAssignees` entries that name a case the run starts with: one of `caseUlids`, else one
 * of the plan's live selection (the last entry of a case wins).
 */
async function requestedAssignees(tx: Db, input: CreateRunInput, planId: string | null): Promise<Map<string, string | null>> {
  const entries = input.caseAssignees ?? [];
  let starts: Set<string>;
  if (input.caseUlids) starts = new Set(input.caseUlids);
  else if (planId && entries.length > 0) {
    const planned = await tx.testPlanCase.findMany({
      where: { planId, caseId: { in: entries.map((entry) => entry.caseUlid) }, testCase: { archivedAt: null } },
      select: { caseId: true },
    });
    starts = new Set(planned.map((row) => row.caseId));
  } else starts = new Set();
  return new Map(entries.filter((entry) => starts.has(entry.caseUlid)).map((entry) => [entry.caseUlid, entry.assigneeUlid]));
}

/** The run's environment: environmentId wins (null leaves it unlinked); else the legacy text's. */
async function runEnvironment(tx: Db, ctx: RequestContext, project: ProjectRow, input: CreateRunInput) {
  if (input.environmentId !== undefined) {
    return input.environmentId === null ? null : findLiveEnvironmentInProject(tx, project.id, input.environmentId);
  }
  return input.environment === undefined ? null : environmentForLegacyText(tx, ctx, project.id, input.environment);
}

/** A run of the project: one request creates exactly one run, with run.created. */
export async function createRun(ctx: RequestContext, projectCode: string, input: CreateRunInput): Promise<RunRecord> {
  authorize(ctx, 'result.execute');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    const plan = input.planUlid ? await findLivePlan(tx, project.id, input.planUlid) : null;
    const configurationIds = input.configurationUlids ?? [];
    const configurations = await resolveRunConfigurations(tx, project.id, configurationIds, plan);
    const milestone = input.milestoneId ? await findLiveMilestoneInProject(tx, project.id, input.milestoneId) : null;
    const environment = await runEnvironment(tx, ctx, project, input);

    const requested = await requestedAssignees(tx, input, plan?.id ?? null);
    await assertMembers(tx, [
      ...[...requested.values()].filter((id): id is string => id !== null),
      ...(input.defaultAssigneeUlid ? [input.defaultAssigneeUlid] : []),
    ]);
    let defaultAssigneeId = input.defaultAssigneeUlid ?? null;
    if (input.defaultAssigneeUlid === undefined) {
      // A project-only setting: the project row already holds it.
      const fromSettings = overridesOf(project.runSettings).defaultAssigneeUserId;
      if (typeof fromSettings === 'string' && (await membersAmong(tx, [fromSettings])).has(fromSettings)) defaultAssigneeId = fromSettings;
    }

    const created = await tx.testRun.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: project.id,
        planId: plan?.id ?? null,
        name: input.name,
        description: input.description ?? null,
        defaultAssigneeId,
        milestoneId: milestone?.id ?? null,
        environmentId: environment?.id ?? null,
        environmentName: input.environment ?? null,
        comboKey: comboKeyOf(configurationIds),
        ...authorColumns(ctx.identity),
      },
    });
    await writeRunConfigurations(tx, ctx, created.id, configurations.map(configurationSnapshot));
    // The cases are `caseUlids` in order, else the plan's live selection in position order.
    const seeds = { caseIds: input.caseUlids ?? null, planId: plan?.id ?? null, requested, defaultAssigneeId };
    const { count: caseCount } = await snapshotCases(tx, ctx, created, seeds, 0);
    const customFieldChanges = await writeValues(
      tx,
      ctx,
      { entity: 'test_run', id: created.id, projectId: project.id },
      input.customFieldValues ?? [],
      {
        mode: 'create',
        pathOf: (index) => ['customFieldValues', index],
        listPath: ['customFieldValues'],
      },
    );
    const defaultAssignee = await userRef(tx, defaultAssigneeId);
    await emitAudit(tx, ctx, {
      action: 'run.created',
      ...runEvent(created),
      metadata: {
        caseCount,
        ...(environment ? { environment: { ulid: environment.id, name: environment.name, slug: environment.slug } } : {}),
        ...(defaultAssignee ? { defaultAssignee } : {}),
        ...(milestone ? { milestone: { ulid: milestone.id, name: milestone.name } } : {}),
        ...(plan ? { plan: { ulid: plan.id, name: plan.name } } : {}),
        ...(configurations.length > 0
          ? { configurations: configurations.map((value) => ({ groupName: value.group.name, valueName: value.name })) }
          : {}),
        ...(customFieldChanges.length > 0 ? { customFieldChanges } : {}),
      },
    });
    return tx.testRun.findUniqueOrThrow({ where: { id: created.id }, include: RUN_INCLUDE });
  });
}

export type { RunRecord } from './internal/run-record.ts';

/** A run the caller may read, without its field values (GraphQL's `run`; REST's GET is getRun). */
export const findRun = (ctx: RequestContext, runUlid: string) => resolveRun(ctx, runUlid);

/** GET /runs/{runUlid}: the run with its custom field values. */
export async function getRun(ctx: RequestContext, runUlid: string) {
  const run = await resolveRun(ctx, runUlid);
  const values = await readFieldValues(ctx, 'test_run', [run]);
  return { run, customFieldValues: values.get(run.id) ?? [] };
}

/** Runs most recent first: project lists and a plan's runs. */
export const RUN_ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.TestRunOrderByWithRelationInput[];

/** The `cf` token of a run with no stored value for the field. */
const EMPTY_VALUE = 'empty';

const invalidFieldFilter = (index: number, message: string) => fromValidationIssues([{ path: ['cf', index], message }], 'query');

/** How a stored value holding `token` is matched, by the field's value type. */
function storedValueMatch(valueType: string, token: string, index: number): Prisma.TestRunFieldValueWhereInput['value'] {
  const ulidToken = () => {
    if (!ULID_PATTERN.test(token)) throw invalidFieldFilter(index, `${valueType} fields take ULIDs or ${EMPTY_VALUE}`);
    return token;
  };
  switch (valueType) {
    case 'select_single':
    case 'radio':
    case 'user_picker':
      return { equals: ulidToken() };
    case 'select_multi':
      return { array_contains: [ulidToken()] };
    case 'checkbox':
      if (token !== 'true' && token !== 'false') throw invalidFieldFilter(index, `checkbox fields take true, false or ${EMPTY_VALUE}`);
      return { equals: token === 'true' };
    default:
      throw invalidFieldFilter(index, `${valueType} fields cannot be filtered`);
  }
}

/** One condition per `cf` entry: a stored row holding any of its values (`empty`: no stored row). */
async function fieldFilterWhere(db: Db, filters: FieldFilter[]): Promise<Prisma.TestRunWhereInput[]> {
  if (filters.length === 0) return [];
  const fields = await db.customField.findMany({
    where: { id: { in: filters.map((filter) => filter.fieldUlid) }, entity: 'test_run' },
    select: { id: true, valueType: true },
  });
  const valueTypeOf = new Map(fields.map((field) => [field.id, field.valueType]));
  return filters.map((filter, index) => {
    const valueType = valueTypeOf.get(filter.fieldUlid);
    if (!valueType) throw invalidFieldFilter(index, 'names no test_run custom field of the organization');
    return {
      OR: filter.values.map(
        (token): Prisma.TestRunWhereInput =>
          token === EMPTY_VALUE
            ? { fieldValues: { none: { fieldId: filter.fieldUlid } } }
            : { fieldValues: { some: { fieldId: filter.fieldUlid, value: storedValueMatch(valueType, token, index) } } },
      ),
    };
  });
}

/** The run list filters of "Runs", AND-ed. */
async function runListWhere(db: Db, projectId: string, filter: RunFilter): Promise<Prisma.TestRunWhereInput> {
  const filters: Prisma.TestRunWhereInput[] = [{ projectId }];
  if (filter.q) {
    const contains = { contains: likeLiteral(filter.q), mode: 'insensitive' } as const;
    filters.push({ OR: [{ name: contains }, { environmentName: contains }, { environment: { is: { name: contains } } }] });
  }
  if (filter.status.length > 0) filters.push({ OR: filter.status.map(projectedStatusWhere) });
  if (filter.env.length > 0) {
    filters.push({ OR: filter.env.map((value) => (ULID_PATTERN.test(value) ? { environmentId: value } : { environmentName: value })) });
  }
  if (filter.authorUlid) filters.push({ authorKind: 'user', authorId: filter.authorUlid });
  if (filter.assigneeUlid !== undefined) filters.push({ defaultAssigneeId: filter.assigneeUlid === '' ? null : filter.assigneeUlid });
  filters.push(...(await fieldFilterWhere(db, filter.cf)));
  return { AND: filters };
}

/** A page of the runs `where` selects (the caller has authorized reading them), most recent first. */
export async function pageOfRuns(ctx: RequestContext, where: Prisma.TestRunWhereInput, query: PageQuery) {
  const [items, total] = await Promise.all([
    ctx.db.testRun.findMany({ where, include: RUN_INCLUDE, orderBy: RUN_ORDER, ...pageWindow(query) }),
    ctx.db.testRun.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** GET /projects/{code}/runs: runs most recent first, filtered; never with custom field values. */
export async function listRuns(ctx: RequestContext, projectCode: string, query: RunListQuery) {
  const project = await resolveProject(ctx, projectCode);
  return pageOfRuns(ctx, await runListWhere(ctx.db, project.id, query), query);
}

/** Runs for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findRuns(
  ctx: RequestContext,
  project: Pick<ProjectRow, 'id' | 'lockedAt'>,
  filter: RunFilter,
  window: Prisma.TestRunFindManyArgs,
) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  return ctx.db.testRun.findMany({ ...window, where: await runListWhere(ctx.db, project.id, filter), orderBy: RUN_ORDER });
}

export async function countRuns(ctx: RequestContext, project: Pick<ProjectRow, 'id' | 'lockedAt'>, filter: RunFilter) {
  authorize(ctx, 'project.read');
  assertProjectUnlocked(project);
  return ctx.db.testRun.count({ where: await runListWhere(ctx.db, project.id, filter) });
}

/** GET /projects/{code}/runs/environments (deprecated): the distinct non-blank legacy texts, ascending. */
export async function listLegacyEnvironments(ctx: RequestContext, projectCode: string) {
  const project = await resolveProject(ctx, projectCode);
  const rows = await ctx.db.testRun.findMany({
    where: { projectId: project.id, environmentName: { not: null } },
    distinct: ['environmentName'],
    select: { environmentName: true },
  });
  const texts = rows.map((row) => row.environmentName!).filter((text) => text.trim() !== '');
  // Code-point order, the same whatever the database's collation.
  return { items: texts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/** A `changes` entry of a reference: ULIDs as from/to, the names they stood for as labels. */
function referenceChange(field: string, from: string | null, to: string | null, fromLabel: string | null, toLabel: string | null) {
  const labels = change(field, fromLabel, toLabel);
  return {
    field,
    from,
    to,
    fromLabel: labels.from,
    toLabel: labels.to,
    ...(labels.truncated ? { truncated: true as const } : {}),
  };
}

const configurationLabel = (snapshots: ConfigurationSnapshot[]) =>
  snapshots.length === 0 ? null : snapshots.map((each) => `${each.groupName}: ${each.valueName}`).join(', ');

/**
 * PATCH /runs/{runUlid}: only what differs changes, recorded in one run.updated (none when nothing
 * does). Linking another environment drops the legacy free text, which described the old one.
 */
export async function updateRun(ctx: RequestContext, runUlid: string, input: UpdateRunInput): Promise<RunRecord> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute');
    const data: Prisma.TestRunUncheckedUpdateInput = {};
    const changes: Array<Change | ReturnType<typeof referenceChange>> = changesBetween(
      { name: run.name, description: run.description },
      { name: input.name, description: input.description },
    );
    data.name = input.name;
    data.description = input.description;
    const assignee = input.defaultAssigneeUlid;
    if (assignee !== undefined && assignee !== run.defaultAssigneeId) {
      if (assignee) await assertMembers(tx, [assignee]);
      const refOf = await userRefs(tx, [run.defaultAssigneeId, assignee]);
      const [from, to] = [refOf(run.defaultAssigneeId), refOf(assignee)];
      changes.push(referenceChange('defaultAssigneeUlid', run.defaultAssigneeId, assignee, from?.name ?? null, to?.name ?? null));
      data.defaultAssigneeId = assignee;
    }
    if (input.environmentId !== undefined && input.environmentId !== run.environmentId) {
      const environment = input.environmentId ? await findLiveEnvironmentInProject(tx, run.projectId, input.environmentId) : null;
      changes.push(
        referenceChange('environment', run.environmentId, input.environmentId, run.environment?.name ?? null, environment?.name ?? null),
      );
      data.environmentId = input.environmentId;
      data.environmentName = null;
    }
    if (input.milestoneId !== undefined && input.milestoneId !== run.milestoneId) {
      const milestone = input.milestoneId ? await findLiveMilestoneInProject(tx, run.projectId, input.milestoneId) : null;
      changes.push(
        referenceChange('milestoneUlid', run.milestoneId, input.milestoneId, run.milestone?.name ?? null, milestone?.name ?? null),
      );
      data.milestoneId = input.milestoneId;
    }
    if (input.configurationUlids !== undefined && comboKeyOf(input.configurationUlids) !== run.comboKey) {
      const snapshots = (await resolveRunConfigurations(tx, run.projectId, input.configurationUlids, null)).map(configurationSnapshot);
      const comboKey = comboKeyOf(input.configurationUlids);
      changes.push(
        referenceChange('configurations', run.comboKey, comboKey, configurationLabel(run.configurations), configurationLabel(snapshots)),
      );
      await tx.testRunConfiguration.deleteMany({ where: { runId: run.id } });
      await writeRunConfigurations(tx, ctx, run.id, snapshots);
      data.comboKey = comboKey;
    }
    if (changes.length === 0) return run;
    const updated = await tx.testRun.update({ where: { id: run.id }, data: { ...data, updatedAt: new Date() }, include: RUN_INCLUDE });
    await emitAudit(tx, ctx, { action: 'run.updated', ...runEvent(updated), metadata: { changes } });
    return updated;
  });
}

/** Ends an open run early: closed (run.closed) or aborted (run.aborted); 409 unless open. */
async function endRun(ctx: RequestContext, runUlid: string, outcome: 'closed' | 'aborted'): Promise<RunRecord> {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute', { allowClosed: 'always' });
    if (run.state !== 'open') throw conflict(outcome === 'closed' ? 'The run is already closed' : 'Only an open run can be aborted');
    const now = new Date();
    const ended = await tx.testRun.update({
      where: { id: run.id },
      data: { state: 'closed', closedAt: now, updatedAt: now, ...(outcome === 'aborted' ? { abortedAt: now } : {}) },
      include: RUN_INCLUDE,
    });
    await emitAudit(tx, ctx, { action: `run.${outcome}`, ...runEvent(run), metadata: { runAggregates: runAggregates(ended) } });
    return ended;
  });
}

/** POST /runs/{runUlid}/close: untested cases may remain; 409 when already closed. */
export const closeRun = (ctx: RequestContext, runUlid: string) => endRun(ctx, runUlid, 'closed');

/** POST /runs/{runUlid}/abort (contract §3): closed with abortedAt, frozen from then on; untested cases stay. */
export const abortRun = (ctx: RequestContext, runUlid: string) => endRun(ctx, runUlid, 'aborted');

/**
 * DELETE /runs/{runUlid} (owner/admin), whatever its state, aborted runs included. run.deleted is
 * recorded first; deleting the run then nulls the run reference of its events, which stay.
 */
export async function deleteRun(ctx: RequestContext, runUlid: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'run.delete', { allowClosed: 'always', allowAborted: true });
    await emitAudit(tx, ctx, {
      action: 'run.deleted',
      ...runEvent(run),
      metadata: { runAggregates: runAggregates(run), wasState: run.state, closedAt: epochMsOrNull(run.closedAt) },
    });
    await releaseRunAttachments(tx, ctx.org.id, run.id);
    await tx.testRun.delete({ where: { id: run.id } });
  });
}

/**
 * PUT /runs/{runUlid}/custom-field-values: the listed values become the run's whole set (rows of
 * fields no longer visible in the project are kept); a changed set is one run.updated.
 */
export async function setRunFieldValues(ctx: RequestContext, runUlid: string, values: FieldValueInput[]) {
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute');
    const customFieldChanges = await writeValues(tx, ctx, { entity: 'test_run', id: run.id, projectId: run.projectId }, values, {
      mode: 'replace',
      pathOf: (index) => ['values', index],
      listPath: ['values'],
    });
    if (customFieldChanges.length > 0) {
      await tx.testRun.update({ where: { id: run.id }, data: { updatedAt: new Date() } });
      await emitAudit(tx, ctx, { action: 'run.updated', ...runEvent(run), metadata: { customFieldChanges } });
    }
    return (await readFieldValues(ctx, 'test_run', [run], tx)).get(run.id) ?? [];
  });
}

export function toRunResponse(run: RunRecord) {
  return {
    ulid: run.id,
    projectUlid: run.projectId,
    planUlid: run.planId,
    name: run.name,
    description: run.description,
    state: run.state as 'open' | 'closed',
    status: projectedStatus(run),
    closedAt: epochMsOrNull(run.closedAt),
    abortedAt: epochMsOrNull(run.abortedAt),
    defaultAssigneeUlid: run.defaultAssigneeId,
    milestoneUlid: run.milestoneId,
    milestone: run.milestone ? { ulid: run.milestone.id, name: run.milestone.name } : null,
    environmentId: run.environmentId,
    environment: run.environment ? { ulid: run.environment.id, name: run.environment.name, slug: run.environment.slug } : null,
    environmentName: run.environmentName,
    comboKey: run.comboKey,
    configurations: run.configurations.map((each) => ({
      ulid: each.id,
      configurationUlid: each.configurationId,
      groupName: each.groupName,
      valueName: each.valueName,
    })),
    ...runProgress(run),
    counts: runCounts(run),
    firstResultAt: epochMsOrNull(run.firstResultAt),
    lastResultAt: epochMsOrNull(run.lastResultAt),
    totalDurationMs: Number(run.totalDurationMs),
    author: toAuthor(run),
    createdAt: run.createdAt.getTime(),
    updatedAt: run.updatedAt.getTime(),
  };
}

export type RunResponse = ReturnType<typeof toRunResponse>;

/** The single-run GET: RunResponse with the run's custom field values. */
export const withFieldValues = (run: RunRecord, customFieldValues: CustomFieldValue[]) => ({
  ...toRunResponse(run),
  customFieldValues,
});
