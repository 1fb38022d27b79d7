import { Prisma as PrismaValues } from '../../prisma/generated/client/client.ts';
import { assertMembers } from '../foundation/actors.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import { newId } from '../kernel/ids.ts';
import { type I18nInput, isOptionType, type OptionInput } from './custom-fields.schemas.ts';
import { type DefinitionRow, isEmptyValue, normalizeFieldValue, type ValueEntity, valueTable } from './field-values.service.ts';

/**
 * The state a write of a field definition leads to, shared by create, PATCH and reset
 * (custom-fields.service.ts): texts by locale, options, project scope and default, checked
 * against each other, and written over the stored definition with what its removed options
 * leave behind in the values.
 */

type CustomFieldRow = DefinitionRow;

export type NextOption = {
  id: string;
  seedKey: string | null;
  nameEn: string;
  nameEs: string | null;
  icon: string | null;
  color: string | null;
  position: number;
  isNew: boolean;
};

export type FieldState = {
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

export type FieldKind = { id: string; entity: string; valueType: string; systemKey: string | null };

export const bothGiven = (path: Array<string | number>, a: string, b: string) =>
  validationFailed(`${path.join('.')}: give ${a} or ${b}, not both`, { path });

/** Applies a `{ en?, es? }` map (or the English-only shorthand) to stored texts. */
export function applyI18n(
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
export function nextOptions(kind: FieldKind, stored: CustomFieldRow['options'], input: OptionInput[]): NextOption[] {
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
    throw new AppError('system_field_readonly', `The seeded option "${removedSeed.nameEn}" of a system field cannot be removed`, {
      path: ['options'],
      optionUlid: removedSeed.id,
    });
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
export async function nextScope(
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
export async function checkDefault(db: Db, kind: FieldKind, state: FieldState, defaultGiven: boolean): Promise<unknown> {
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

export const jsonInput = (value: unknown) =>
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
export async function applyState(tx: Db, ctx: RequestContext, before: CustomFieldRow, next: FieldState) {
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
