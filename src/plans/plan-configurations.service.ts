import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE } from '../foundation/soft-delete.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { comboKeyOf } from '../runs/runs.service.ts';
import { type ExcludedCombinationsInput, PLAN_COMBINATIONS_MAX, type SetPlanConfigurationsInput } from './plans.schemas.ts';
import { lockPlan, planEvent, resolvePlan, touchPlan } from './plans.service.ts';

const LIVE_VALUE = { ...LIVE, group: LIVE } satisfies Prisma.ConfigurationWhereInput;

/** What a selected value reads: the value and its group's name. */
export const SELECTED_VALUE = {
  configuration: { select: { id: true, name: true, groupId: true, group: { select: { name: true } } } },
} satisfies Prisma.TestPlanConfigurationSelect;

/**
 * The plan's selected configuration values that are still live (a value or group deleted later
 * drops out), by group position, then value position (ties by ULID).
 */
export const CONFIGURATION_SELECTION_QUERY = {
  where: { configuration: LIVE_VALUE },
  orderBy: [
    { configuration: { group: { position: 'asc' } } },
    { configuration: { group: { id: 'asc' } } },
    { configuration: { position: 'asc' } },
    { configuration: { id: 'asc' } },
  ],
  include: SELECTED_VALUE,
} satisfies Prisma.TestPlanConfigurationFindManyArgs;

type SelectedValue = Prisma.TestPlanConfigurationGetPayload<{ select: typeof SELECTED_VALUE }>;

export const toPlanConfiguration = ({ configuration }: SelectedValue) => ({
  configurationUlid: configuration.id,
  groupUlid: configuration.groupId,
  groupName: configuration.group.name,
  valueName: configuration.name,
});

const selectedValuesOf = (db: Db, plan: { id: string }) =>
  db.testPlanConfiguration.findMany({
    ...CONFIGURATION_SELECTION_QUERY,
    where: { ...CONFIGURATION_SELECTION_QUERY.where, planId: plan.id },
  });

/** GET /plans/{planUlid}/configurations. */
export async function listPlanConfigurations(ctx: RequestContext, planUlid: string) {
  const plan = await resolvePlan(ctx, planUlid);
  return selectedValuesOf(ctx.db, plan);
}

/** The values of a selection grouped per group, groups in the selection's (group position) order. */
function valuesPerGroup<V extends { groupId: string }>(values: V[]): V[][] {
  const groups = new Map<string, V[]>();
  for (const value of values) groups.set(value.groupId, [...(groups.get(value.groupId) ?? []), value]);
  return [...groups.values()];
}

/**
 * The combinations of a selection: the cartesian product taking one value of each selected group,
 * values in group position order, `included` unless the comboKey is excluded. No selection yields
 * one empty combination (comboKey '').
 */
export function combinationsOf(selection: SelectedValue[], excludedComboKeys: string[]) {
  const excluded = new Set(excludedComboKeys);
  const product = valuesPerGroup(selection.map((each) => each.configuration)).reduce<Array<SelectedValue['configuration'][]>>(
    (prefixes, group) => prefixes.flatMap((prefix) => group.map((value) => [...prefix, value])),
    [[]],
  );
  const items = product.map((values) => {
    const comboKey = comboKeyOf(values.map((value) => value.id));
    return {
      comboKey,
      values: values.map((value) => ({
        groupUlid: value.groupId,
        groupName: value.group.name,
        configurationUlid: value.id,
        valueName: value.name,
      })),
      included: !excluded.has(comboKey),
    };
  });
  return { items, totalCount: items.length, includedCount: items.filter((item) => item.included).length };
}

/** GET /plans/{planUlid}/combinations. */
export async function planCombinations(ctx: RequestContext, planUlid: string) {
  const plan = await resolvePlan(ctx, planUlid);
  return combinationsOf(await selectedValuesOf(ctx.db, plan), plan.excludedComboKeys);
}

/**
 * PUT /plans/{planUlid}/configurations: the selection becomes exactly these values. Each must be a
 * live value (of a live group) of the plan's project, else 404 and nothing changes; a selection
 * with more than PLAN_COMBINATIONS_MAX combinations is 422. A replace that changes nothing
 * records nothing; otherwise one plan.configurations_replaced event.
 */
export async function setPlanConfigurations(ctx: RequestContext, planUlid: string, input: SetPlanConfigurationsInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const plan = await lockPlan(tx, ctx, planUlid);
    const values = await tx.configuration.findMany({
      where: { id: { in: input.configurationUlids }, projectId: plan.projectId, ...LIVE_VALUE },
      select: { id: true, groupId: true },
    });
    if (values.length !== input.configurationUlids.length) throw notFound('Configuration');
    const combinations = valuesPerGroup(values).reduce((product, group) => product * group.length, 1);
    if (combinations > PLAN_COMBINATIONS_MAX) {
      throw validationFailed(`The selection yields ${combinations} combinations; at most ${PLAN_COMBINATIONS_MAX} are allowed`, {
        path: ['configurationUlids'],
      });
    }

    const wanted = new Set(input.configurationUlids);
    const current = new Set(
      (await tx.testPlanConfiguration.findMany({ where: { planId: plan.id }, select: { configurationId: true } })).map(
        (row) => row.configurationId,
      ),
    );
    const added = input.configurationUlids.filter((id) => !current.has(id));
    const removed = [...current].filter((id) => !wanted.has(id));
    if (added.length + removed.length > 0) {
      if (removed.length > 0) await tx.testPlanConfiguration.deleteMany({ where: { planId: plan.id, configurationId: { in: removed } } });
      if (added.length > 0) {
        await tx.testPlanConfiguration.createMany({
          data: added.map((configurationId) => ({ planId: plan.id, configurationId, orgId: ctx.org.id })),
        });
      }
      await touchPlan(tx, plan);
      await emitAudit(tx, ctx, {
        action: 'plan.configurations_replaced',
        ...planEvent(plan),
        metadata: { added: added.length, removed: removed.length, total: input.configurationUlids.length },
      });
    }
    return selectedValuesOf(tx, plan);
  });
}

/**
 * PUT /plans/{planUlid}/excluded-combinations: the comboKeys left out of the plan's combinations,
 * stored as given (a key matching no combination is kept, inert). The same set again records
 * nothing; otherwise one plan.excluded_combinations_replaced event.
 */
export async function setExcludedCombinations(ctx: RequestContext, planUlid: string, input: ExcludedCombinationsInput) {
  authorize(ctx, 'planning.write');
  return inTransaction(ctx.db, async (tx) => {
    const plan = await lockPlan(tx, ctx, planUlid);
    const before = new Set(plan.excludedComboKeys);
    const wanted = new Set(input.comboKeys);
    const added = input.comboKeys.filter((key) => !before.has(key));
    const removed = plan.excludedComboKeys.filter((key) => !wanted.has(key));
    if (added.length + removed.length === 0) return plan.excludedComboKeys;
    await tx.testPlan.update({ where: { id: plan.id }, data: { excludedComboKeys: input.comboKeys, updatedAt: new Date() } });
    await emitAudit(tx, ctx, {
      action: 'plan.excluded_combinations_replaced',
      ...planEvent(plan),
      metadata: { added: added.length, removed: removed.length, total: input.comboKeys.length },
    });
    return input.comboKeys;
  });
}
