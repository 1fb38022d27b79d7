import { z } from 'zod';
import { assertMembers } from '../foundation/actors.ts';
import { clipSnapshot } from '../foundation/audit/clip.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRows } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { type Locale, localized } from '../kernel/i18n.ts';
import { ULID_PATTERN } from '../kernel/ids.ts';
import { ulidSchema } from '../kernel/validation.ts';

/** Longest paragraph value. */
export const PARAGRAPH_MAX = 10000;

export type FieldValueInput = { fieldUlid: string; value: unknown };

export const fieldValueInputSchema = z
  .strictObject({
    fieldUlid: ulidSchema,
    value: z.unknown().meta({
      description:
        'select_single/radio: option ULID; select_multi: array of distinct option ULIDs; checkbox: boolean (or "true"/"false"); paragraph: string (max 10000); user_picker: member user ULID. Null or empty clears.',
    }),
  })
  .meta({ id: 'CustomFieldValueInput' });

export const customFieldValueSchema = z
  .object({
    fieldUlid: z.string(),
    value: z.unknown().meta({ description: "The stored value, or the definition's defaultValue, or null" }),
    systemKey: z.string().nullable(),
    optionName: z.string().nullable(),
  })
  .meta({ id: 'CustomFieldValue' });

export type CustomFieldValue = { fieldUlid: string; value: unknown; systemKey: string | null; optionName: string | null };

export type CustomFieldChange = { fieldUlid: string; fieldLabel: string; from: unknown; to: unknown; truncated?: true };

/** A definition with what value handling needs: its options and its project scope. */
export const definitionInclude = {
  options: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  projects: { select: { projectId: true } },
} satisfies Prisma.CustomFieldInclude;

export const DEFINITION_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.CustomFieldOrderByWithRelationInput[];

export type DefinitionRow = Prisma.CustomFieldGetPayload<{ include: typeof definitionInclude }>;

/** What reading values needs of a definition (loadReadDefinitions); a DefinitionRow is one. */
export type ReadDefinition = Pick<DefinitionRow, 'id' | 'valueType' | 'systemKey' | 'defaultValue' | 'allProjects' | 'projects'> & {
  options: Array<Pick<DefinitionRow['options'][number], 'id' | 'nameEn' | 'nameEs'>>;
};

export const isVisibleIn = (definition: Pick<DefinitionRow, 'allProjects' | 'projects'>, projectId: string) =>
  definition.allProjects || definition.projects.some((scope) => scope.projectId === projectId);

/** Null, an empty string and an empty array are "no value": the row is deleted, the default shows. */
export const isEmptyValue = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The locale-resolved name of the option a select_single/radio value names, else null. */
function optionNameOf(definition: ReadDefinition, value: unknown, locale: Locale): string | null {
  if (definition.valueType !== 'select_single' && definition.valueType !== 'radio') return null;
  if (typeof value !== 'string') return null;
  const option = definition.options.find((each) => each.id === value);
  return option ? localized(locale, option.nameEn, option.nameEs) : null;
}

/** Checkbox values are JSON booleans on read, whatever an older row holds. */
function readValue(definition: ReadDefinition, stored: unknown): unknown {
  const value = stored === undefined ? (definition.defaultValue ?? null) : stored;
  if (definition.valueType === 'checkbox' && typeof value === 'string') return value === 'true';
  return value;
}

export function toCustomFieldValue(definition: ReadDefinition, stored: unknown, locale: Locale): CustomFieldValue {
  const value = readValue(definition, stored);
  return {
    fieldUlid: definition.id,
    value,
    systemKey: definition.systemKey,
    optionName: optionNameOf(definition, value, locale),
  };
}

/** The entities whose records carry custom field values, and where those values are stored. */
export type ValueEntity = 'test_case' | 'test_run' | 'defect';

/** A record that carries values: a test case, a run or a defect. */
export type ValueOwner = { entity: ValueEntity; id: string; projectId: string };

type StoredValueRow = { ownerId: string; fieldId: string; value: unknown };

/** The operations this module needs on a values table, whichever entity's it is. */
type ValueTable = {
  findMany(args: { where: object; select: object }): Promise<Array<Record<string, unknown>>>;
  updateMany(args: { where: object; data: object }): Promise<unknown>;
  deleteMany(args: { where: object }): Promise<unknown>;
  createMany(args: { data: object[] }): Promise<unknown>;
  count(args: { where: object }): Promise<number>;
};

/** The values table of an entity and the column that names the owning record. */
export function valueTable(db: Db, entity: ValueEntity): { table: ValueTable; ownerKey: 'caseId' | 'runId' | 'defectId' } {
  switch (entity) {
    case 'test_run':
      return { table: db.testRunFieldValue as unknown as ValueTable, ownerKey: 'runId' };
    case 'defect':
      return { table: db.defectFieldValue as unknown as ValueTable, ownerKey: 'defectId' };
    default:
      return { table: db.testCaseFieldValue as unknown as ValueTable, ownerKey: 'caseId' };
  }
}

async function readStored(db: Db, entity: ValueEntity, ownerIds: string[], fieldIds?: string[]): Promise<StoredValueRow[]> {
  const { table, ownerKey } = valueTable(db, entity);
  const rows = await table.findMany({
    where: { [ownerKey]: { in: ownerIds }, ...(fieldIds ? { fieldId: { in: fieldIds } } : {}) },
    select: { [ownerKey]: true, fieldId: true, value: true },
  });
  return rows.map((row) => ({ ownerId: row[ownerKey] as string, fieldId: row.fieldId as string, value: row.value }));
}

/** The organization's definitions for an entity in field order, with options and project scope. */
export const loadDefinitions = (db: Db, entity: ValueEntity) =>
  db.customField.findMany({ where: { entity }, include: definitionInclude, orderBy: DEFINITION_ORDER });

/**
 * loadDefinitions for reading values, in one typed statement: this runs on every read of a
 * record with values (case lists, runs, defects), where Prisma's nested include and its result
 * mapping cost more than the database's work.
 */
export const loadReadDefinitions = (db: Db, orgId: string, entity: ValueEntity) =>
  queryRaw<ReadDefinition[]>(
    db,
    sql`
  SELECT f.id, f.value_type AS "valueType", f.system_key AS "systemKey", f.default_value AS "defaultValue",
    f.all_projects AS "allProjects",
    COALESCE((SELECT json_agg(json_build_object('id', o.id, 'nameEn', o.name_en, 'nameEs', o.name_es) ORDER BY o.position, o.id)
      FROM custom_field_options o WHERE o.field_id = f.id), '[]') AS options,
    COALESCE((SELECT json_agg(json_build_object('projectId', p.project_id)) FROM custom_field_projects p WHERE p.field_id = f.id), '[]') AS projects
  FROM custom_fields f
  WHERE f.org_id = ${orgId} AND f.entity = ${entity}
  ORDER BY f.position, f.id`,
  );

/**
 * The values of one record, in field order, from `definitions` (those visible in its project) and
 * its stored values by field ULID: a field without a stored value shows its defaultValue or null;
 * optionName is the locale-resolved name for select_single/radio values naming a valid option,
 * else null; checkbox values are JSON booleans.
 */
export const presentFieldValues = (definitions: ReadDefinition[], stored: Readonly<Record<string, unknown>>, locale: Locale) =>
  definitions.map((definition) => toCustomFieldValue(definition, stored[definition.id], locale));

/**
 * Read shape (presentFieldValues) for many records of one entity at once (any projects), in a
 * constant number of queries: the org's definitions for the entity with options and project
 * scope, then the stored values.
 */
export async function readFieldValues(
  ctx: RequestContext,
  entity: ValueEntity,
  owners: Array<{ id: string; projectId: string }>,
  db: Db = ctx.db,
): Promise<Map<string, CustomFieldValue[]>> {
  const result = new Map<string, CustomFieldValue[]>();
  if (owners.length === 0) return result;
  const definitions = await loadReadDefinitions(db, ctx.org.id, entity);
  const rows = definitions.length === 0 ? [] : await readStored(db, entity, [...new Set(owners.map((each) => each.id))]);
  const stored = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const values = stored.get(row.ownerId) ?? {};
    values[row.fieldId] = row.value;
    stored.set(row.ownerId, values);
  }
  for (const owner of owners) {
    const visible = definitions.filter((definition) => isVisibleIn(definition, owner.projectId));
    result.set(owner.id, presentFieldValues(visible, stored.get(owner.id) ?? {}, ctx.locale));
  }
  return result;
}

export const readCaseFieldValues = (ctx: RequestContext, cases: Array<{ id: string; projectId: string }>, db: Db = ctx.db) =>
  readFieldValues(ctx, 'test_case', cases, db);

type ValueCheck = { value: unknown } | { invalid: string };

/** Checks one non-empty value against its definition and normalizes it (checkbox strings → booleans). */
function checkValue(definition: DefinitionRow, value: unknown): ValueCheck {
  const optionIds = new Set(definition.options.map((option) => option.id));
  switch (definition.valueType) {
    case 'select_single':
    case 'radio':
      return typeof value === 'string' && optionIds.has(value) ? { value } : { invalid: 'must be the ULID of an option of this field' };
    case 'select_multi': {
      if (!Array.isArray(value) || !value.every((each) => typeof each === 'string' && optionIds.has(each))) {
        return { invalid: 'must be an array of ULIDs of options of this field' };
      }
      if (new Set(value).size !== value.length) return { invalid: 'must not repeat an option' };
      return { value };
    }
    case 'checkbox':
      if (typeof value === 'boolean') return { value };
      if (value === 'true' || value === 'false') return { value: value === 'true' };
      return { invalid: 'must be a boolean' };
    case 'paragraph':
      if (typeof value !== 'string') return { invalid: 'must be a string' };
      return value.length > PARAGRAPH_MAX ? { invalid: `must be at most ${PARAGRAPH_MAX} characters` } : { value };
    case 'user_picker':
      return typeof value === 'string' && ULID_PATTERN.test(value) ? { value } : { invalid: 'must be a user ULID' };
    default:
      return { invalid: 'cannot be set on this field' };
  }
}

/**
 * Validates `value` for a definition (outside any case): the normalized value, or null for "no
 * value". Throws 422 validation_failed at `path`. user_picker membership is checked by the caller.
 */
export function normalizeFieldValue(definition: DefinitionRow, value: unknown, path: Array<string | number>): unknown {
  if (isEmptyValue(value)) return null;
  const checked = checkValue(definition, value);
  if ('invalid' in checked) throw validationFailed(`${path.join('.')}: ${checked.invalid}`, { path });
  return checked.value;
}

/** An audit entry `{ fieldUlid, fieldLabel, from, to }` with string snapshots clipped. */
export function fieldChange(definition: Pick<DefinitionRow, 'id' | 'titleEn'>, from: unknown, to: unknown): CustomFieldChange {
  let truncated = false;
  const clip = (value: unknown) => {
    if (typeof value !== 'string') return value ?? null;
    const clipped = clipSnapshot(value);
    truncated ||= clipped.truncated;
    return clipped.text;
  };
  const entry: CustomFieldChange = { fieldUlid: definition.id, fieldLabel: definition.titleEn, from: clip(from), to: clip(to) };
  if (truncated) entry.truncated = true;
  return entry;
}

const requiredMissing = (path: Array<string | number>, definition: DefinitionRow) =>
  new AppError('validation_failed', `${definition.titleEn} is required`, { path, fieldUlid: definition.id, code: 'required' });

/**
 * Writes the values of one case inside tx, whose caller holds the case's row lock. 'merge': only listed fields change; 'replace': the
 * listed values become the whole stored set (of the fields visible in the case's project; rows of
 * fields no longer visible there are kept). Empty or null values delete the row. Validates each
 * value against its definition (422 validation_failed with details.path = [...pathPrefix, index,
 * 'value']); duplicates 422; unknown field, another entity's field or a field not visible in the
 * case's project → 404 not_found. Required: in 'merge' a listed required field may not be cleared
 * (422, details.path [...pathPrefix, index, 'value']); in 'replace' the resulting state must
 * satisfy every visible required field (a defaultValue satisfies it). Checkbox accepts booleans
 * and the strings 'true'/'false'. Returns the customFieldChanges of what actually changed
 * (fieldLabel = English title, clipped snapshots).
 */
export function writeCaseFieldValues(
  tx: Db,
  ctx: RequestContext,
  testCase: { id: string; projectId: string },
  values: FieldValueInput[],
  options: { mode: 'merge' | 'replace'; pathPrefix: Array<string | number> },
): Promise<CustomFieldChange[]> {
  return writeValues(tx, ctx, { entity: 'test_case', ...testCase }, values, {
    mode: options.mode,
    pathOf: (index) => [...options.pathPrefix, index],
    listPath: options.pathPrefix,
  });
}

/**
 * writeCaseFieldValues for any owner, with the error paths spelled out: `pathOf(index)` locates
 * entry `index` (the single-field PATCH reports its value at ['value']), `listPath` the list
 * itself. Mode 'create' (a new run) is 'merge' where an omitted required field is stored with
 * its defaultValue.
 */
export async function writeValues(
  tx: Db,
  ctx: RequestContext,
  owner: ValueOwner,
  values: FieldValueInput[],
  options: { mode: 'merge' | 'replace' | 'create'; pathOf: (index: number) => Array<string | number>; listPath: Array<string | number> },
): Promise<CustomFieldChange[]> {
  const { mode, pathOf, listPath } = options;
  const seen = new Map<string, number>();
  values.forEach((entry, index) => {
    if (seen.has(entry.fieldUlid)) {
      const path = [...pathOf(index), 'fieldUlid'];
      throw validationFailed(`${path.join('.')}: the field is listed twice`, { path });
    }
    seen.set(entry.fieldUlid, index);
  });

  // The caller holds the case's row lock (inCaseTransaction, or a case created in this
  // transaction); a definition whose options are being edited (FOR UPDATE in the custom-fields
  // service) is not read half-way.
  await lockRows(
    tx,
    'custom_fields',
    values.map((entry) => entry.fieldUlid),
    { orgId: ctx.org.id, strength: 'share' },
  );
  const definitions = await loadDefinitions(tx, owner.entity);
  const visible = definitions.filter((definition) => isVisibleIn(definition, owner.projectId));
  const byId = new Map(visible.map((definition) => [definition.id, definition]));

  // The next stored value of each listed field (null = no row).
  const next = new Map<string, unknown>();
  const users: string[] = [];
  values.forEach((entry, index) => {
    const definition = byId.get(entry.fieldUlid);
    if (!definition) throw notFound('Custom field');
    const path = [...pathOf(index), 'value'];
    const value = normalizeFieldValue(definition, entry.value, path);
    if (value === null && definition.isRequired && mode !== 'replace') throw requiredMissing(path, definition);
    if (definition.valueType === 'user_picker' && typeof value === 'string') users.push(value);
    next.set(definition.id, value);
  });

  if (mode === 'create') {
    for (const definition of visible) {
      if (definition.isRequired && !next.has(definition.id) && !isEmptyValue(definition.defaultValue)) {
        next.set(definition.id, definition.defaultValue);
      }
    }
  }
  if (mode === 'replace') {
    for (const definition of visible) {
      if (!next.has(definition.id)) next.set(definition.id, null);
      if (definition.isRequired && next.get(definition.id) === null && isEmptyValue(definition.defaultValue)) {
        const index = seen.get(definition.id);
        throw requiredMissing(index === undefined ? listPath : [...pathOf(index), 'value'], definition);
      }
    }
  }
  await assertMembers(tx, users);

  const rows = await readStored(tx, owner.entity, [owner.id], [...next.keys()]);
  const current = new Map(rows.map((row) => [row.fieldId, row.value]));
  const changes: CustomFieldChange[] = [];
  const touched: string[] = [];
  const created: Array<{ fieldId: string; value: unknown }> = [];
  // In definition order, so that the audit entries read like the record's field list.
  for (const definition of visible) {
    if (!next.has(definition.id)) continue;
    const from = current.get(definition.id) ?? null;
    const to = next.get(definition.id) ?? null;
    if (sameValue(from, to)) continue;
    changes.push(fieldChange(definition, from, to));
    touched.push(definition.id);
    if (to !== null) created.push({ fieldId: definition.id, value: to });
  }
  if (touched.length > 0) {
    const { table, ownerKey } = valueTable(tx, owner.entity);
    await table.deleteMany({ where: { [ownerKey]: owner.id, fieldId: { in: touched } } });
    if (created.length > 0) {
      await table.createMany({ data: created.map((row) => ({ [ownerKey]: owner.id, orgId: ctx.org.id, ...row })) });
    }
  }
  return changes;
}
