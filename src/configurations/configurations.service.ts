import { emitAudit } from '../foundation/audit/audit.service.ts';
import { changesBetween } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { LIVE, softDelete } from '../foundation/soft-delete.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { uniqueOrConflict } from '../kernel/database/constraints.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { assertProjectUnlocked, resolveProject } from '../projects/projects.service.ts';
import type {
  ConfigurationGroupListQuery,
  CreateConfigurationGroupInput,
  CreateConfigurationInput,
  UpdateConfigurationGroupInput,
  UpdateConfigurationInput,
} from './configurations.schemas.ts';

type ValueRow = Awaited<ReturnType<Db['configuration']['findFirstOrThrow']>>;
type GroupRow = Awaited<ReturnType<Db['configurationGroup']['findFirstOrThrow']>>;

export const toConfiguration = (row: ValueRow) => ({
  ulid: row.id,
  projectUlid: row.projectId,
  groupUlid: row.groupId,
  name: row.name,
  position: row.position,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

export const toConfigurationGroup = (row: GroupRow & { values: ValueRow[] }) => ({
  ulid: row.id,
  projectUlid: row.projectId,
  name: row.name,
  position: row.position,
  values: row.values.map(toConfiguration),
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

export const GROUP_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.ConfigurationGroupOrderByWithRelationInput[];
export const VALUE_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.ConfigurationOrderByWithRelationInput[];
/** A group's live values in order: what every read of a group includes. */
export const LIVE_VALUES = { where: LIVE, orderBy: VALUE_ORDER } satisfies Prisma.ConfigurationGroup$valuesArgs;
const WITH_LIVE_VALUES = { values: LIVE_VALUES } satisfies Prisma.ConfigurationGroupInclude;

/** A live configuration group by ULID with its project and live values (locked project: 403). */
export async function resolveConfigurationGroup(ctx: RequestContext, groupUlid: string, options: { db?: Db } = {}) {
  authorize(ctx, 'project.read');
  const group = await (options.db ?? ctx.db).configurationGroup.findFirst({
    where: { id: groupUlid, ...LIVE },
    include: { project: true, ...WITH_LIVE_VALUES },
  });
  if (!group) throw notFound('Configuration group');
  assertProjectUnlocked(group.project);
  return group;
}

/** A configuration value by ULID with its group and project; `anyState` also finds a soft-deleted one. */
async function resolveConfiguration(_ctx: RequestContext, db: Db, configurationUlid: string, anyState = false) {
  const value = await db.configuration.findFirst({
    where: anyState ? { id: configurationUlid } : { id: configurationUlid, ...LIVE, group: LIVE },
    include: { group: true, project: true },
  });
  if (!value) throw notFound('Configuration');
  assertProjectUnlocked(value.project);
  return value;
}

/**
 * Names are unique, case-insensitively, among the live siblings (groups of a project, values of
 * a group): partial unique indexes on lower(name) keep them so, also between concurrent requests.
 */
const uniqueGroupName = <T>(name: string | undefined, write: () => Promise<T>) =>
  name === undefined ? write() : uniqueOrConflict(write, { field: 'name', message: `A configuration group named ${name} already exists` });
const uniqueValueName = <T>(name: string | undefined, write: () => Promise<T>) =>
  name === undefined
    ? write()
    : uniqueOrConflict(write, { field: 'name', message: `A configuration of this group named ${name} already exists` });

/** The position after the last live sibling; callers hold the parent's row lock, so two creates cannot take the same. */
const nextPosition = (siblings: Array<{ position: number }>) =>
  siblings.length === 0 ? 0 : Math.max(...siblings.map((sibling) => sibling.position)) + 1;

const groupEvent = (group: GroupRow) => ({ entityType: 'configuration_group', entityUlid: group.id, entityLabel: group.name });
const valueEvent = (group: GroupRow, value: ValueRow) => ({
  entityType: 'configuration',
  entityUlid: value.id,
  entityLabel: `${group.name} / ${value.name}`,
});

export async function createConfigurationGroup(ctx: RequestContext, projectCode: string, input: CreateConfigurationGroupInput) {
  authorize(ctx, 'planning.write');
  return uniqueGroupName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const project = await resolveProject(ctx, projectCode, { db: tx });
      await lockRow(tx, 'projects', project.id, { orgId: ctx.org.id });
      const siblings = await tx.configurationGroup.findMany({ where: { projectId: project.id, ...LIVE }, select: { position: true } });
      const created = await tx.configurationGroup.create({
        data: {
          id: newId(),
          orgId: ctx.org.id,
          projectId: project.id,
          name: input.name,
          position: input.position ?? nextPosition(siblings),
        },
      });
      await emitAudit(tx, ctx, {
        action: 'configuration_group.created',
        ...groupEvent(created),
        metadata: { name: created.name, position: created.position },
      });
      return { ...created, values: [] };
    }),
  );
}

/** Live groups of a project by position, then ULID, each with its live values. */
export async function listConfigurationGroups(ctx: RequestContext, projectCode: string, query: ConfigurationGroupListQuery) {
  const project = await resolveProject(ctx, projectCode);
  const where = { projectId: project.id, ...LIVE };
  const [items, total] = await Promise.all([
    ctx.db.configurationGroup.findMany({ where, orderBy: GROUP_ORDER, include: WITH_LIVE_VALUES, ...pageWindow(query) }),
    ctx.db.configurationGroup.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** Live groups for GraphQL: `selection` carries what Pothos needs (values come through their relation). */
export async function findConfigurationGroups(
  ctx: RequestContext,
  project: { id: string },
  selection: Omit<Prisma.ConfigurationGroupFindManyArgs, 'where' | 'orderBy'>,
) {
  authorize(ctx, 'project.read');
  return ctx.db.configurationGroup.findMany({ ...selection, where: { projectId: project.id, ...LIVE }, orderBy: GROUP_ORDER });
}

/** Renames or moves a group; unchanged values answer the group as it is and record nothing. */
export async function updateConfigurationGroup(ctx: RequestContext, groupUlid: string, input: UpdateConfigurationGroupInput) {
  authorize(ctx, 'planning.write');
  return uniqueGroupName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const before = await resolveConfigurationGroup(ctx, groupUlid, { db: tx });
      const changes = changesBetween({ name: before.name, position: before.position }, input);
      if (changes.length === 0) return before;
      const updated = await tx.configurationGroup.update({
        where: { id: before.id },
        data: { name: input.name, position: input.position, updatedAt: new Date() },
        include: WITH_LIVE_VALUES,
      });
      await emitAudit(tx, ctx, { action: 'configuration_group.updated', ...groupEvent(updated), metadata: { changes } });
      return updated;
    }),
  );
}

/** Soft-deletes the group and its live values in one event. */
export async function deleteConfigurationGroup(ctx: RequestContext, groupUlid: string): Promise<void> {
  authorize(ctx, 'planning.write');
  await inTransaction(ctx.db, async (tx) => {
    const group = await resolveConfigurationGroup(ctx, groupUlid, { db: tx });
    const deletedAt = await softDelete(
      tx,
      ctx,
      { table: 'configuration_groups', id: group.id, what: 'Configuration group' },
      {
        action: 'configuration_group.deleted',
        ...groupEvent(group),
        metadata: {
          name: group.name,
          valueCount: group.values.length,
          values: group.values.map((value) => ({ ulid: value.id, name: value.name })),
        },
      },
    );
    await tx.configuration.updateMany({ where: { groupId: group.id, ...LIVE }, data: { deletedAt, updatedAt: deletedAt } });
  });
}

/** Adds a value after the group's last live value. */
export async function createConfiguration(ctx: RequestContext, groupUlid: string, input: CreateConfigurationInput) {
  authorize(ctx, 'planning.write');
  return uniqueValueName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const group = await resolveConfigurationGroup(ctx, groupUlid, { db: tx });
      await lockRow(tx, 'configuration_groups', group.id, { orgId: ctx.org.id });
      const siblings = await tx.configuration.findMany({ where: { groupId: group.id, ...LIVE }, select: { position: true } });
      const created = await tx.configuration.create({
        data: {
          id: newId(),
          orgId: ctx.org.id,
          projectId: group.projectId,
          groupId: group.id,
          name: input.name,
          position: nextPosition(siblings),
        },
      });
      await emitAudit(tx, ctx, {
        action: 'configuration.created',
        ...valueEvent(group, created),
        metadata: { groupUlid: group.id, groupName: group.name, name: created.name, position: created.position },
      });
      return created;
    }),
  );
}

export async function updateConfiguration(ctx: RequestContext, configurationUlid: string, input: UpdateConfigurationInput) {
  authorize(ctx, 'planning.write');
  return uniqueValueName(input.name, () =>
    inTransaction(ctx.db, async (tx) => {
      const before = await resolveConfiguration(ctx, tx, configurationUlid);
      const changes = changesBetween({ name: before.name, position: before.position }, input);
      if (changes.length === 0) return before;
      const updated = await tx.configuration.update({
        where: { id: before.id },
        data: { name: input.name, position: input.position, updatedAt: new Date() },
      });
      await emitAudit(tx, ctx, {
        action: 'configuration.updated',
        ...valueEvent(before.group, updated),
        metadata: { groupUlid: before.groupId, changes },
      });
      return updated;
    }),
  );
}

/**
 * DELETE of a value: a soft delete (a live value only), or with `purge` (owner/admin) a hard
 * delete of the row, also of a value that was already soft-deleted.
 */
export async function deleteConfiguration(ctx: RequestContext, configurationUlid: string, options: { purge: boolean }): Promise<void> {
  authorize(ctx, 'planning.write');
  if (options.purge) authorize(ctx, 'configuration.purge');
  await inTransaction(ctx.db, async (tx) => {
    const value = await resolveConfiguration(ctx, tx, configurationUlid, options.purge);
    const metadata = { groupUlid: value.groupId, groupName: value.group.name, name: value.name };
    if (options.purge) {
      const { count } = await tx.configuration.deleteMany({ where: { id: value.id } });
      if (count === 0) throw notFound('Configuration');
      await emitAudit(tx, ctx, {
        action: 'configuration.purged',
        ...valueEvent(value.group, value),
        metadata: { ...metadata, wasDeleted: value.deletedAt !== null },
      });
      return;
    }
    await softDelete(
      tx,
      ctx,
      { table: 'configurations', id: value.id, what: 'Configuration' },
      {
        action: 'configuration.deleted',
        ...valueEvent(value.group, value),
        metadata,
      },
    );
  });
}
