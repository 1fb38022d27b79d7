import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { searchQuerySchema, ulidSchema } from '../kernel/validation.ts';
import { customFieldValueSchema, fieldValueInputSchema, PARAGRAPH_MAX } from './field-values.service.ts';

export const ENTITIES = ['test_case', 'test_run', 'defect'] as const;
export type Entity = (typeof ENTITIES)[number];

export const FIELD_GROUPS = ['system', 'custom'] as const;

export const VALUE_TYPES = ['select_single', 'select_multi', 'radio', 'checkbox', 'paragraph', 'user_picker'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** Value types whose values name options of the field. */
export const OPTION_TYPES: readonly ValueType[] = ['select_single', 'select_multi', 'radio'];
export const isOptionType = (valueType: string) => (OPTION_TYPES as readonly string[]).includes(valueType);

export { PARAGRAPH_MAX };
export const TITLE_MAX = 200;
export const PLACEHOLDER_MAX = 500;
export const OPTION_NAME_MAX = 200;
export const OPTIONS_MAX = 200;
export const PROJECT_SCOPE_MAX = 200;

export const entitySchema = z.enum(ENTITIES);
export const valueTypeSchema = z.enum(VALUE_TYPES);

const requiredText = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().max(max).nullable();

/** `{ en, es }`: English is required and non-empty; Spanish may be absent or null (falls back to English). */
const requiredI18n = (max: number) => z.strictObject({ en: requiredText(max), es: requiredText(max).nullable().optional() });
/** On PATCH a map changes only the locales it names; `es: null` removes the Spanish text. */
const partialI18n = (max: number) => z.strictObject({ en: requiredText(max).optional(), es: requiredText(max).nullable().optional() });
/** Placeholders may be null in every locale (`placeholderI18n.en` may be null). */
const placeholderI18n = z.strictObject({
  en: optionalText(PLACEHOLDER_MAX).optional(),
  es: optionalText(PLACEHOLDER_MAX).optional(),
});

export type I18nInput = { en?: string | null; es?: string | null };

const optionFields = {
  icon: z.string().min(1).max(64).nullable().optional(),
  color: z.string().min(1).max(32).nullable().optional(),
  position: z.number().int().min(0).max(100000).optional(),
};

/**
 * An option as written. `ulid` names a stored option (kept, updated in place); without it a new
 * option is inserted. The name is `name` (English) or `nameI18n`. A missing position is the
 * entry's index in the array.
 */
export const optionInputSchema = z
  .strictObject({
    ulid: ulidSchema.optional(),
    name: requiredText(OPTION_NAME_MAX).optional(),
    nameI18n: partialI18n(OPTION_NAME_MAX).optional(),
    ...optionFields,
  })
  .meta({ id: 'CustomFieldOptionInput' });
export type OptionInput = z.output<typeof optionInputSchema>;

const optionsInput = z.array(optionInputSchema).max(OPTIONS_MAX);

const scopeFields = {
  isRequired: z.boolean().optional(),
  defaultValue: z.unknown().optional().meta({ description: 'A value valid for the field (see CustomFieldValueInput); null clears' }),
  allProjects: z.boolean().optional(),
  projectUlids: z.array(ulidSchema).max(PROJECT_SCOPE_MAX).optional(),
};

export const createCustomFieldBodySchema = z
  .strictObject({
    entity: entitySchema,
    valueType: valueTypeSchema,
    title: requiredText(TITLE_MAX).optional().meta({ description: 'The English title (or give titleI18n)' }),
    titleI18n: requiredI18n(TITLE_MAX).optional(),
    placeholder: optionalText(PLACEHOLDER_MAX).optional().meta({ description: 'The English placeholder' }),
    placeholderI18n: placeholderI18n.optional(),
    options: optionsInput.optional(),
    ...scopeFields,
  })
  .meta({ id: 'CreateCustomFieldRequest', description: 'Give exactly one of title, titleI18n' });
export type CreateCustomFieldInput = z.output<typeof createCustomFieldBodySchema>;

// entity, valueType, group and systemKey are parsed so that the service can answer 422 immutable_field.
export const updateCustomFieldBodySchema = z
  .strictObject({
    title: requiredText(TITLE_MAX).optional(),
    titleI18n: partialI18n(TITLE_MAX).optional(),
    placeholder: optionalText(PLACEHOLDER_MAX).optional(),
    placeholderI18n: placeholderI18n.optional(),
    options: optionsInput.optional(),
    ...scopeFields,
    entity: z.unknown().optional(),
    valueType: z.unknown().optional(),
    group: z.unknown().optional(),
    systemKey: z.unknown().optional(),
  })
  .meta({
    id: 'UpdateCustomFieldRequest',
    description: 'At least one key. entity, valueType, group and systemKey cannot change (422 immutable_field).',
  });
export type UpdateCustomFieldInput = z.output<typeof updateCustomFieldBodySchema>;

export const resetCustomFieldBodySchema = z.strictObject({}).meta({ id: 'ResetCustomFieldRequest' });

export const localesQuerySchema = z.object({
  locales: z.enum(['all']).optional().meta({ description: "`all` adds titleI18n, placeholderI18n and each option's nameI18n" }),
});
export type LocalesQuery = z.output<typeof localesQuerySchema>;

/** `q` matches the title in either locale; `projectUlid` keeps the definitions visible in that project. */
export const customFieldFilterSchema = searchQuerySchema.extend({
  entity: entitySchema.optional(),
  projectUlid: ulidSchema.optional().meta({ description: 'Only definitions visible in this project' }),
});
export type CustomFieldFilters = z.output<typeof customFieldFilterSchema>;

export const customFieldListQuerySchema = pageQuerySchema().extend(customFieldFilterSchema.shape).extend(localesQuerySchema.shape);
export type CustomFieldListQuery = z.output<typeof customFieldListQuerySchema>;

export const customFieldPathSchema = z.object({ orgUlid: z.string(), fieldUlid: z.string() });
export const caseValuesPathSchema = z.object({ caseUlid: z.string() });
export const caseValuePathSchema = z.object({ caseUlid: z.string(), fieldUlid: z.string() });

const i18nSchema = z.object({ en: z.string().nullable(), es: z.string().nullable() });

export const customFieldOptionSchema = z
  .object({
    ulid: z.string(),
    name: z.string(),
    nameI18n: i18nSchema.optional().meta({ description: 'Only with locales=all' }),
    icon: z.string().nullable(),
    color: z.string().nullable(),
    position: z.number().int(),
  })
  .meta({ id: 'CustomFieldOption' });

export const customFieldSchema = z
  .object({
    ulid: z.string(),
    entity: entitySchema,
    group: z.enum(FIELD_GROUPS),
    systemKey: z.string().nullable(),
    valueType: valueTypeSchema,
    title: z.string(),
    titleI18n: i18nSchema.optional().meta({ description: 'Only with locales=all' }),
    placeholder: z.string().nullable(),
    placeholderI18n: i18nSchema.optional().meta({ description: 'Only with locales=all' }),
    options: z.array(customFieldOptionSchema),
    isRequired: z.boolean(),
    defaultValue: z.unknown(),
    allProjects: z.boolean(),
    projectUlids: z.array(z.string()),
    position: z.number().int(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'CustomField' });

export const customFieldEnvelopeSchema = z.object({ field: customFieldSchema }).meta({ id: 'CustomFieldResponse' });
export const customFieldPageSchema = pageSchema(customFieldSchema).meta({ id: 'CustomFieldPage' });

export const putCaseValuesBodySchema = z
  .strictObject({ values: z.array(fieldValueInputSchema).max(OPTIONS_MAX) })
  .meta({ id: 'PutCustomFieldValuesRequest' });
export const patchCaseValueBodySchema = z
  .strictObject({ value: z.unknown() })
  .meta({ id: 'PatchCustomFieldValueRequest', description: 'The new value; null or empty clears it' });
export const caseValuesResponseSchema = z
  .object({ customFieldValues: z.array(customFieldValueSchema) })
  .meta({ id: 'CustomFieldValuesResponse' });
