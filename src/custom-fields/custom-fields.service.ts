import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { type Locale, localized } from '../kernel/i18n.ts';
import { newId, ULID_PATTERN } from '../kernel/ids.ts';
import { pageOf, pageWindow } from '../kernel/pagination.ts';
import { likeLiteral } from '../kernel/validation.ts';
import type {
  CreateCustomFieldInput,
  CustomFieldFilters,
  CustomFieldListQuery,
  Entity,
  UpdateCustomFieldInput,
  ValueType,
} from './custom-fields.schemas.ts';
import {
  applyI18n,
  applyState,
  bothGiven,
  checkDefault,
  type FieldKind,
  type FieldState,
  jsonInput,
  type NextOption,
  nextOptions,
  nextScope,
} from './definition-changes.ts';
import { DEFINITION_ORDER, type DefinitionRow, definitionInclude, type ValueEntity, valueTable } from './field-values.service.ts';
import { seedDefaultValue, seedOf } from './system-fields.service.ts';

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
      OR: [{ titleEn: { contains, mode: 'insensitive' } }, { titleEs: { contains, mode: 'insensitive' } }],
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
