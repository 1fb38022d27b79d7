import { assertMembers } from '../actors.ts';
import { Prisma as PrismaValues } from '../../prisma/generated/client/client.ts';
import { emitAudit } from '../audit/audit.service.ts';
import { change, type Change } from '../audit/clip.ts';
import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import type { Db, Prisma } from '../database/client.ts';
import { AppError, notFound, validationFailed } from '../errors.ts';
import { localized, type Locale } from '../i18n.ts';
import { newId, ULID_PATTERN } from '../ids.ts';
import { inCaseTransaction } from '../test-cases/test-cases.service.ts';
import { likeLiteral } from '../validation.ts';
import { pageOf, pageWindow } from '../pagination.ts';
import {
  isOptionType,
  type CreateCustomFieldInput,
  type CustomFieldFilters,
  type CustomFieldListQuery,
  type Entity,
  type I18nInput,
  type OptionInput,
  type UpdateCustomFieldInput,
  type ValueType,
} from './custom-fields.schemas.ts';
import {
  DEFINITION_ORDER,
  definitionInclude,
  isEmptyValue,
  normalizeFieldValue,
  readCaseFieldValues,
  valueTable,
  writeValues,
  type ValueEntity,
  type CustomFieldValue,
  type DefinitionRow,
  type FieldValueInput,
} from './field-values.service.ts';
import { seedDefaultValue, seedOf } from './system-fields.service.ts';
import { inTransaction } from '../database/transactions.ts';
import { lockRow } from '../database/locks.ts';

export type CustomFieldRow = DefinitionRow;

/** The contract's definition; the `*I18n` maps only when the caller asked for `locales=all`. */
export function toCustomField(row: CustomFieldRow, locale: Locale, allLocales = false) {
  const placeholder = locale === 'es' && row.placeholderEs ? row.placeholderEs : row.placeholderEn;
  return {
    ulid: row.id,
    entity: row.entity as Entity,
    group: row.group as 'system' | 'custom',
    systemKey: row.systemKey,
    valueType: row.valueType as ValueType,
    title: localized(locale, row.titleEn, row.titleEs),
    ...(allLocales ? { titleI18n: { en: row.titleEn, es: row.titleEs } } : {}),
    placeholder,
    ...(allLocales ? { placeholderI18n: { en: row.placeholderEn, es: row.placeholderEs } } : {}),
    options: row.options.map((option) => ({
      ulid: option.id,
      name: localized(locale, option.nameEn, option.nameEs),
      ...(allLocales ? { nameI18n: { en: option.nameEn, es: option.nameEs } } : {}),
      icon: option.icon,
      color: option.color,
      position: option.position,
    })),
    isRequired: row.isRequired,
    defaultValue: (row.defaultValue ?? null) as unknown,
    allProjects: row.allProjects,
    projectUlids: row.allProjects ? [] : row.projects.map((scope) => scope.projectId).sort(),
    position: row.position,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

const fieldNotFound = () => notFound('Custom field');

async function findField(db: Db, fieldUlid: string): Promise<CustomFieldRow> {
  if (!ULID_PATTERN.test(fieldUlid)) throw fieldNotFound();
  const field = await db.customField.findFirst({ where: { id: fieldUlid }, include: definitionInclude });
  if (!field) throw fieldNotFound();
  return field;
}

/** Reads the field under a row lock, so that concurrent edits of its options serialize. */
async function lockField(tx: Db, ctx: RequestContext, fieldUlid: string): Promise<CustomFieldRow> {
  if (!ULID_PATTERN.test(fieldUlid)) throw fieldNotFound();
  await lockRow(tx, 'custom_fields', fieldUlid, { orgId: ctx.org.id });
  return findField(tx, fieldUlid);
}

// ---------------------------------------------------------------------------------------------
// Reading definitions

async function filtersWhere(ctx: RequestContext, filters: CustomFieldFilters): Promise<Prisma.CustomFieldWhereInput> {
  const and: Prisma.CustomFieldWhereInput[] = [];
  if (filters.entity) and.push({ entity: filters.entity });
  if (filters.q) {
    const contains = likeLiteral(filters.q);
    and.push({
      OR: [
        { titleEn: { contains, mode: 'insensitive' } },
        { titleEs: { contains, mode: 'insensitive' } },
      ],
    });
  }
  if (filters.projectUlid) {
    const project = ULID_PATTERN.test(filters.projectUlid)
      ? await ctx.db.project.findFirst({ where: { id: filters.projectUlid }, select: { id: true } })
      : null;
    if (!project) throw notFound('Project');
    and.push({ OR: [{ allProjects: true }, { projects: { some: { projectId: project.id } } }] });
  }
  return { AND: and };
}

export async function listCustomFields(ctx: RequestContext, query: CustomFieldListQuery) {
  authorize(ctx, 'project.read');
  const where = await filtersWhere(ctx, query);
  const [items, total] = await Promise.all([
    ctx.db.customField.findMany({ where, include: definitionInclude, orderBy: DEFINITION_ORDER, ...pageWindow(query) }),
    ctx.db.customField.count({ where }),
  ]);
  return pageOf(items, query, total);
}

/** Definitions for a GraphQL connection (`window` carries Pothos's cursor, take/skip and selection). */
export async function findCustomFields(ctx: RequestContext, filters: CustomFieldFilters, window: Prisma.CustomFieldFindManyArgs) {
  authorize(ctx, 'project.read');
  return ctx.db.customField.findMany({ ...window, where: await filtersWhere(ctx, filters), orderBy: DEFINITION_ORDER });
}

export async function countCustomFields(ctx: RequestContext, filters: CustomFieldFilters) {
  authorize(ctx, 'project.read');
  return ctx.db.customField.count({ where: await filtersWhere(ctx, filters) });
}

export async function getCustomField(ctx: RequestContext, fieldUlid: string): Promise<CustomFieldRow> {
  authorize(ctx, 'project.read');
  return findField(ctx.db, fieldUlid);
}

// ---------------------------------------------------------------------------------------------
// The state a write leads to, shared by create, PATCH and reset

type NextOption = {
  id: string;
  seedKey: string | null;
  nameEn: string;
  nameEs: string | null;
  icon: string | null;
  color: string | null;
  position: number;
  isNew: boolean;
};

type FieldState = {
  titleEn: string;
  titleEs: string | null;
  placeholderEn: string | null;
  placeholderEs: string | null;
  isRequired: boolean;
  defaultValue: unknown;
  allProjects: boolean;
  projectIds: string[];
  options: NextOption[];
};

type FieldKind = { id: string; entity: string; valueType: string; systemKey: string | null };

const bothGiven = (path: Array<string | number>, a: string, b: string) =>
  validationFailed(`${path.join('.')}: give ${a} or ${b}, not both`, { path });

/** Applies a `{ en?, es? }` map (or the English-only shorthand) to stored texts. */
function applyI18n(
  current: { en: string | null; es: string | null },
  english: string | null | undefined,
  map: I18nInput | undefined,
): { en: string | null; es: string | null } {
  const next = { ...current };
  if (english !== undefined) next.en = english;
  if (map?.en !== undefined) next.en = map.en;
  if (map?.es !== undefined) next.es = map.es;
  return next;
}

/** The options after a write: entries with `ulid` update stored ones, others are inserted. */
function nextOptions(kind: FieldKind, stored: CustomFieldRow['options'], input: OptionInput[]): NextOption[] {
  if (!isOptionType(kind.valueType)) {
    if (input.length > 0) throw validationFailed(`options: a ${kind.valueType} field has no options`, { path: ['options'] });
    return [];
  }
  if (input.length === 0) throw validationFailed('options: a field of this type needs at least one option', { path: ['options'] });
  const byId = new Map(stored.map((option) => [option.id, option]));
  const seen = new Set<string>();
  const next = input.map((entry, index): NextOption => {
    const path = ['options', index];
    if (entry.name !== undefined && entry.nameI18n !== undefined) throw bothGiven([...path, 'name'], 'name', 'nameI18n');
    const position = entry.position ?? index;
    if (entry.ulid !== undefined) {
      if (seen.has(entry.ulid)) {
        throw validationFailed(`options.${index}.ulid: the option is listed twice`, { path: [...path, 'ulid'] });
      }
      seen.add(entry.ulid);
      const option = byId.get(entry.ulid);
      if (!option) throw notFound('Option');
      const name = applyI18n({ en: option.nameEn, es: option.nameEs }, entry.name, entry.nameI18n);
      return {
        id: option.id,
        seedKey: option.seedKey,
        nameEn: name.en as string,
        nameEs: name.es,
        icon: entry.icon === undefined ? option.icon : entry.icon,
        color: entry.color === undefined ? option.color : entry.color,
        position,
        isNew: false,
      };
    }
    const name = applyI18n({ en: null, es: null }, entry.name, entry.nameI18n);
    if (!name.en) throw validationFailed(`options.${index}.name: a new option needs an English name`, { path: [...path, 'name'] });
    return {
      id: newId(),
      seedKey: null,
      nameEn: name.en,
      nameEs: name.es,
      icon: entry.icon ?? null,
      color: entry.color ?? null,
      position,
      isNew: true,
    };
  });
  const removedSeed = stored.find((option) => option.seedKey !== null && !seen.has(option.id));
  if (removedSeed && kind.systemKey !== null) {
    throw new AppError('system_field_readonly', `The seeded option "${removedSeed.nameEn}" of a system field cannot be removed`, { path: ['options'], optionUlid: removedSeed.id });
  }
  return next;
}

/** 404 unless every ULID names a project of the organization; duplicates 422. */
async function resolveProjectIds(db: Db, projectUlids: string[]): Promise<string[]> {
  const seen = new Set<string>();
  projectUlids.forEach((ulid, index) => {
    if (seen.has(ulid)) {
      throw validationFailed(`projectUlids.${index}: the project is listed twice`, { path: ['projectUlids', index] });
    }
    seen.add(ulid);
  });
  if (projectUlids.length === 0) return [];
  const found = await db.project.count({ where: { id: { in: projectUlids } } });
  if (found !== projectUlids.length) throw notFound('Project');
  return projectUlids;
}

/** allProjects and projectUlids after a write: giving projectUlids alone scopes the field to them. */
async function nextScope(
  db: Db,
  current: { allProjects: boolean; projectIds: string[] },
  input: { allProjects?: boolean; projectUlids?: string[] },
): Promise<{ allProjects: boolean; projectIds: string[] }> {
  const allProjects = input.allProjects ?? (input.projectUlids !== undefined ? false : current.allProjects);
  if (allProjects) {
    if (input.projectUlids?.length) {
      throw validationFailed('projectUlids: must be empty when allProjects is true', { path: ['projectUlids'] });
    }
    return { allProjects, projectIds: [] };
  }
  const projectIds = input.projectUlids !== undefined ? await resolveProjectIds(db, input.projectUlids) : current.projectIds;
  return { allProjects, projectIds };
}

/**
 * The default value checked against the state after the write (options included), and the
 * contract's rule: a required test_run field needs a non-empty default.
 */
async function checkDefault(db: Db, kind: FieldKind, state: FieldState, defaultGiven: boolean): Promise<unknown> {
  const definition = { ...kind, options: state.options } as unknown as DefinitionRow;
  let value: unknown;
  try {
    value = normalizeFieldValue(definition, state.defaultValue, ['defaultValue']);
  } catch (error) {
    if (defaultGiven || !(error instanceof AppError)) throw error;
    throw validationFailed('defaultValue: the stored default names an option that no longer exists; send a new defaultValue', {
      path: ['defaultValue'],
      field: 'defaultValue',
    });
  }
  if (kind.valueType === 'user_picker' && typeof value === 'string') await assertMembers(db, [value]);
  if (kind.entity === 'test_run' && state.isRequired && isEmptyValue(value)) {
    throw validationFailed('defaultValue: a required test_run field needs a non-empty defaultValue', {
      path: ['defaultValue'],
      field: 'defaultValue',
    });
  }
  return value;
}

const jsonInput = (value: unknown) =>
  value === null || value === undefined ? PrismaValues.DbNull : (value as Prisma.InputJsonValue);

/** `changes` carry scalars: arrays (select_multi defaults) as their JSON text. */
const scalarOf = (value: unknown): Change['from'] =>
  value === null || value === undefined || typeof value !== 'object' ? ((value ?? null) as Change['from']) : JSON.stringify(value);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Writes `next` over `before` inside tx: the field row, its options (update in place, insert,
 * delete + value cascade) and its project scope. Returns the audit metadata of what changed, or
 * null when nothing did.
 */
async function applyState(tx: Db, ctx: RequestContext, before: CustomFieldRow, next: FieldState) {
  const changes: Change[] = [];
  const scalar = (field: string, from: unknown, to: unknown) => {
    if (!sameJson(from, to)) changes.push(change(field, scalarOf(from), scalarOf(to)));
  };
  scalar('title', before.titleEn, next.titleEn);
  scalar('title.es', before.titleEs, next.titleEs);
  scalar('placeholder', before.placeholderEn, next.placeholderEn);
  scalar('placeholder.es', before.placeholderEs, next.placeholderEs);
  scalar('isRequired', before.isRequired, next.isRequired);
  scalar('defaultValue', before.defaultValue, next.defaultValue);

  const kept = new Set(next.options.filter((option) => !option.isNew).map((option) => option.id));
  const removed = before.options.filter((option) => !kept.has(option.id));
  const added = next.options.filter((option) => option.isNew);
  const renamed: Array<{ ulid: string; locale: Locale; from: string | null; to: string | null }> = [];
  const updated: NextOption[] = [];
  for (const option of next.options) {
    const old = before.options.find((each) => each.id === option.id);
    if (!old) continue;
    if (old.nameEn !== option.nameEn) renamed.push({ ulid: option.id, locale: 'en', from: old.nameEn, to: option.nameEn });
    if (old.nameEs !== option.nameEs) renamed.push({ ulid: option.id, locale: 'es', from: old.nameEs, to: option.nameEs });
    for (const attribute of ['icon', 'color', 'position'] as const) {
      scalar(`options.${option.id}.${attribute}`, old[attribute], option[attribute]);
    }
    if (
      old.nameEn !== option.nameEn ||
      old.nameEs !== option.nameEs ||
      old.icon !== option.icon ||
      old.color !== option.color ||
      old.position !== option.position
    ) {
      updated.push(option);
    }
  }
  const optionsChanged = added.length + removed.length + renamed.length > 0;

  const beforeProjects = before.allProjects ? [] : before.projects.map((scope) => scope.projectId);
  const projectsAdded = next.projectIds.filter((id) => !beforeProjects.includes(id));
  const projectsRemoved = beforeProjects.filter((id) => !next.projectIds.includes(id));
  const visibilityChanged = before.allProjects !== next.allProjects || projectsAdded.length + projectsRemoved.length > 0;

  if (changes.length === 0 && !optionsChanged && !visibilityChanged) return null;

  await tx.customField.update({
    where: { id: before.id },
    data: {
      titleEn: next.titleEn,
      titleEs: next.titleEs,
      placeholderEn: next.placeholderEn,
      placeholderEs: next.placeholderEs,
      isRequired: next.isRequired,
      defaultValue: jsonInput(next.defaultValue),
      allProjects: next.allProjects,
      updatedAt: new Date(),
    },
  });
  if (removed.length > 0) {
    await tx.customFieldOption.deleteMany({ where: { id: { in: removed.map((option) => option.id) } } });
  }
  for (const option of updated) {
    await tx.customFieldOption.update({
      where: { id: option.id },
      data: { nameEn: option.nameEn, nameEs: option.nameEs, icon: option.icon, color: option.color, position: option.position },
    });
  }
  if (added.length > 0) {
    await tx.customFieldOption.createMany({
      data: added.map((option) => ({
        id: option.id,
        orgId: ctx.org.id,
        fieldId: before.id,
        seedKey: option.seedKey,
        nameEn: option.nameEn,
        nameEs: option.nameEs,
        icon: option.icon,
        color: option.color,
        position: option.position,
      })),
    });
  }
  if (projectsRemoved.length > 0) {
    await tx.customFieldProject.deleteMany({ where: { fieldId: before.id, projectId: { in: projectsRemoved } } });
  }
  if (projectsAdded.length > 0) {
    await tx.customFieldProject.createMany({
      data: projectsAdded.map((projectId) => ({ fieldId: before.id, projectId, orgId: ctx.org.id })),
    });
  }
  await cascadeRemovedOptions(
    tx,
    before,
    removed.map((option) => option.id),
    new Set(next.options.map((option) => option.id)),
    next.defaultValue,
  );

  const metadata: Record<string, unknown> = { changes };
  if (optionsChanged) {
    metadata.optionsChange = {
      added: added.map((option) => ({ ulid: option.id, name: option.nameEn })),
      removed: removed.map((option) => ({ ulid: option.id, name: option.nameEn })),
      renamed,
    };
  }
  if (visibilityChanged) {
    metadata.visibilityChange = {
      allProjectsFrom: before.allProjects,
      allProjectsTo: next.allProjects,
      added: projectsAdded,
      removed: projectsRemoved,
    };
  }
  return metadata;
}

/**
 * Values that named removed options: select_single/radio fall back to the field's default
 * option when it has one, otherwise the row is deleted; select_multi arrays drop the removed
 * ULIDs and take the default array when nothing would remain (no default: the row is deleted).
 */
async function cascadeRemovedOptions(
  tx: Db,
  field: Pick<CustomFieldRow, 'id' | 'valueType' | 'entity'>,
  removedIds: string[],
  survivingIds: Set<string>,
  defaultValue: unknown,
): Promise<void> {
  if (removedIds.length === 0) return;
  const now = new Date();
  const { table, ownerKey } = valueTable(tx, field.entity as ValueEntity);
  if (field.valueType === 'select_single' || field.valueType === 'radio') {
    const where = { fieldId: field.id, OR: removedIds.map((id) => ({ value: { equals: id } })) };
    const fallback = typeof defaultValue === 'string' && survivingIds.has(defaultValue) ? defaultValue : null;
    if (fallback) await table.updateMany({ where, data: { value: fallback, updatedAt: now } });
    else await table.deleteMany({ where });
    return;
  }
  if (field.valueType !== 'select_multi') return;
  const rows = await table.findMany({
    where: { fieldId: field.id, OR: removedIds.map((id) => ({ value: { array_contains: [id] } })) },
    select: { [ownerKey]: true, value: true },
  });
  const fallback = Array.isArray(defaultValue) ? defaultValue.filter((id) => survivingIds.has(id as string)) : [];
  const removed = new Set(removedIds);
  const ownersByValue = new Map<string, string[]>();
  for (const row of rows) {
    const kept = (row.value as string[]).filter((id) => !removed.has(id));
    const key = JSON.stringify(kept.length > 0 ? kept : fallback);
    ownersByValue.set(key, [...(ownersByValue.get(key) ?? []), row[ownerKey] as string]);
  }
  for (const [key, ownerIds] of ownersByValue) {
    const value = JSON.parse(key) as string[];
    const where = { fieldId: field.id, [ownerKey]: { in: ownerIds } };
    if (value.length === 0) await table.deleteMany({ where });
    else await table.updateMany({ where, data: { value, updatedAt: now } });
  }
}

// ---------------------------------------------------------------------------------------------
// Writing definitions

export async function createCustomField(ctx: RequestContext, input: CreateCustomFieldInput): Promise<CustomFieldRow> {
  authorize(ctx, 'custom_field.manage');
  if (input.title !== undefined && input.titleI18n !== undefined) throw bothGiven(['title'], 'title', 'titleI18n');
  if (input.title === undefined && input.titleI18n === undefined) {
    throw validationFailed('title: give title or titleI18n', { path: ['title'] });
  }
  if (input.placeholder !== undefined && input.placeholderI18n !== undefined) {
    throw bothGiven(['placeholder'], 'placeholder', 'placeholderI18n');
  }
  input.options?.forEach((option, index) => {
    if (option.ulid !== undefined) {
      throw validationFailed(`options.${index}.ulid: a new field has no stored options`, { path: ['options', index, 'ulid'] });
    }
  });
  const id = newId();
  const kind: FieldKind = { id, entity: input.entity, valueType: input.valueType, systemKey: null };
  const title = applyI18n({ en: null, es: null }, input.title, input.titleI18n);
  const placeholder = applyI18n({ en: null, es: null }, input.placeholder, input.placeholderI18n);
  const options = nextOptions(kind, [], input.options ?? []);
  const scope = await nextScope(ctx.db, { allProjects: true, projectIds: [] }, input);
  const state: FieldState = {
    titleEn: title.en as string,
    titleEs: title.es,
    placeholderEn: placeholder.en,
    placeholderEs: placeholder.es,
    isRequired: input.isRequired ?? false,
    defaultValue: input.defaultValue ?? null,
    ...scope,
    options,
  };
  state.defaultValue = await checkDefault(ctx.db, kind, state, true);

  await inTransaction(ctx.db, async (tx) => {
    // Positions are organization-wide: listings of every entity read in one order.
    const last = await tx.customField.aggregate({ _max: { position: true } });
    await tx.customField.create({
      data: {
        id,
        orgId: ctx.org.id,
        entity: input.entity,
        group: 'custom',
        valueType: input.valueType,
        titleEn: state.titleEn,
        titleEs: state.titleEs,
        placeholderEn: state.placeholderEn,
        placeholderEs: state.placeholderEs,
        isRequired: state.isRequired,
        defaultValue: jsonInput(state.defaultValue),
        allProjects: state.allProjects,
        position: (last._max.position ?? -1) + 1,
      },
    });
    if (options.length > 0) {
      await tx.customFieldOption.createMany({
        data: options.map(({ isNew: _isNew, ...option }) => ({ ...option, orgId: ctx.org.id, fieldId: id })),
      });
    }
    if (state.projectIds.length > 0) {
      await tx.customFieldProject.createMany({
        data: state.projectIds.map((projectId) => ({ fieldId: id, projectId, orgId: ctx.org.id })),
      });
    }
    await emitAudit(tx, ctx, {
      action: 'custom_field.created',
      entityType: 'custom_field',
      entityUlid: id,
      entityLabel: state.titleEn,
      metadata: { entity: input.entity, valueType: input.valueType, title: state.titleEn },
    });
  });
  return findField(ctx.db, id);
}

const IMMUTABLE = ['entity', 'valueType', 'group', 'systemKey'] as const;

export async function updateCustomField(ctx: RequestContext, fieldUlid: string, input: UpdateCustomFieldInput): Promise<CustomFieldRow> {
  authorize(ctx, 'custom_field.manage');
  if (Object.values(input).every((value) => value === undefined)) {
    throw validationFailed('Provide at least one attribute to change');
  }
  if (input.title !== undefined && input.titleI18n !== undefined) throw bothGiven(['title'], 'title', 'titleI18n');
  if (input.placeholder !== undefined && input.placeholderI18n !== undefined) {
    throw bothGiven(['placeholder'], 'placeholder', 'placeholderI18n');
  }
  return inTransaction(ctx.db, async (tx) => {
    const before = await lockField(tx, ctx, fieldUlid);
    for (const key of IMMUTABLE) {
      if (input[key] !== undefined && input[key] !== before[key]) {
        throw new AppError('immutable_field', `${key} cannot be changed`, { path: [key] });
      }
    }
    const title = applyI18n({ en: before.titleEn, es: before.titleEs }, input.title, input.titleI18n);
    const placeholder = applyI18n({ en: before.placeholderEn, es: before.placeholderEs }, input.placeholder, input.placeholderI18n);
    const options =
      input.options === undefined
        ? before.options.map((option) => ({ ...option, isNew: false }))
        : nextOptions(before, before.options, input.options);
    const scope = await nextScope(
      tx,
      { allProjects: before.allProjects, projectIds: before.projects.map((scope) => scope.projectId) },
      input,
    );
    const state: FieldState = {
      titleEn: title.en as string,
      titleEs: title.es,
      placeholderEn: placeholder.en,
      placeholderEs: placeholder.es,
      isRequired: input.isRequired ?? before.isRequired,
      defaultValue: input.defaultValue !== undefined ? input.defaultValue : before.defaultValue,
      ...scope,
      options,
    };
    state.defaultValue = await checkDefault(tx, before, state, input.defaultValue !== undefined);
    const metadata = await applyState(tx, ctx, before, state);
    if (!metadata) return before;
    await emitAudit(tx, ctx, {
      action: 'custom_field.updated',
      entityType: 'custom_field',
      entityUlid: before.id,
      entityLabel: state.titleEn,
      metadata,
    });
    return findField(tx, before.id);
  });
}

/** Restores a system field's seed texts, options (same ULIDs), required flag and default; keeps its scope. */
export async function resetCustomField(ctx: RequestContext, fieldUlid: string): Promise<CustomFieldRow> {
  authorize(ctx, 'custom_field.manage');
  return inTransaction(ctx.db, async (tx) => {
    const before = await lockField(tx, ctx, fieldUlid);
    const seed = before.group === 'system' ? seedOf(before.systemKey) : undefined;
    if (!seed) throw new AppError('not_system_field', 'Only system fields can be reset');
    const bySeedKey = new Map(before.options.filter((option) => option.seedKey).map((option) => [option.seedKey, option]));
    const options = seed.options.map((each, position): NextOption => {
      const stored = bySeedKey.get(each.key);
      return {
        id: stored?.id ?? newId(),
        seedKey: each.key,
        nameEn: each.en,
        nameEs: each.es,
        icon: each.icon,
        color: each.color,
        position,
        isNew: !stored,
      };
    });
    const state: FieldState = {
      titleEn: seed.en,
      titleEs: seed.es,
      placeholderEn: null,
      placeholderEs: null,
      isRequired: false,
      defaultValue: seedDefaultValue(seed, new Map(options.map((option) => [option.seedKey as string, option.id]))),
      allProjects: before.allProjects,
      projectIds: before.projects.map((scope) => scope.projectId),
      options,
    };
    const metadata = await applyState(tx, ctx, before, state);
    await emitAudit(tx, ctx, {
      action: 'custom_field.reset',
      entityType: 'custom_field',
      entityUlid: before.id,
      entityLabel: state.titleEn,
      metadata: metadata ?? { changes: [] },
    });
    return findField(tx, before.id);
  });
}

export async function deleteCustomField(ctx: RequestContext, fieldUlid: string): Promise<void> {
  authorize(ctx, 'custom_field.manage');
  await inTransaction(ctx.db, async (tx) => {
    const field = await lockField(tx, ctx, fieldUlid);
    if (field.group === 'system') throw new AppError('system_field', 'System fields cannot be deleted');
    if ((await valueTable(tx, field.entity as ValueEntity).table.count({ where: { fieldId: field.id } })) > 0) {
      throw new AppError('field_has_values', 'The field still holds values; clear them before deleting it');
    }
    await tx.customField.delete({ where: { id: field.id } });
    await emitAudit(tx, ctx, {
      action: 'custom_field.deleted',
      entityType: 'custom_field',
      entityUlid: field.id,
      entityLabel: field.titleEn,
      metadata: { entity: field.entity, valueType: field.valueType, title: field.titleEn },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Values of one test case

async function writeCaseValues(
  ctx: RequestContext,
  caseUlid: string,
  write: (tx: Db, testCase: { id: string; projectId: string }) => Promise<unknown[]>,
): Promise<CustomFieldValue[]> {
  authorize(ctx, 'case.write');
  return inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    const changes = await write(tx, testCase);
    if (changes.length > 0) await tx.testCase.update({ where: { id: testCase.id }, data: { updatedAt: new Date() } });
    return (await readCaseFieldValues(ctx, [testCase], tx)).get(testCase.id) ?? [];
  });
}

/** PUT …/custom-field-values: the listed values become the case's whole set (no audit event). */
export function replaceCaseValues(ctx: RequestContext, caseUlid: string, values: FieldValueInput[]) {
  return writeCaseValues(ctx, caseUlid, (tx, testCase) =>
    writeValues(tx, ctx, { entity: 'test_case', ...testCase }, values, { mode: 'replace', pathOf: (index) => ['values', index], listPath: ['values'] }),
  );
}

/** PATCH …/custom-field-values/{fieldUlid}: one value; required is enforced on that field only. */
export function setCaseValue(ctx: RequestContext, caseUlid: string, fieldUlid: string, value: unknown) {
  return writeCaseValues(ctx, caseUlid, (tx, testCase) => {
    if (!ULID_PATTERN.test(fieldUlid)) throw fieldNotFound();
    return writeValues(tx, ctx, { entity: 'test_case', ...testCase }, [{ fieldUlid, value }], { mode: 'merge', pathOf: () => [], listPath: [] });
  });
}
