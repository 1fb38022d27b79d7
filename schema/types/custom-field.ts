import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';
import {
  createCustomFieldBodySchema,
  customFieldFilterSchema,
  ENTITIES,
  type Entity,
  updateCustomFieldBodySchema,
  VALUE_TYPES,
  type ValueType,
} from '../../src/custom-fields/custom-fields.schemas.ts';
import {
  countCustomFields,
  createCustomField,
  deleteCustomField,
  findCustomFields,
  getCustomField,
  resetCustomField,
  updateCustomField,
} from '../../src/custom-fields/custom-fields.service.ts';
import { type CustomFieldValue, readFieldValues, type ValueEntity } from '../../src/custom-fields/field-values.service.ts';
import { type Locale, localized } from '../../src/kernel/i18n.ts';
import { validate } from '../../src/kernel/validation.ts';
import { builder } from '../builder.ts';
import { type GraphQLContext, requestOf } from '../context.ts';

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** Any JSON value (custom field values and defaults). */
export const JsonScalar = builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'Any JSON value',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables ?? undefined),
  }),
);

const localeOf = (context: GraphQLContext): Locale => context.caller?.locale ?? 'en';

type LocalizedShape = { en: string | null; es: string | null };

const LocalizedText = builder.objectRef<LocalizedShape>('LocalizedText').implement({
  description: 'A text in every supported locale; null where not authored',
  fields: (t) => ({
    en: t.exposeString('en', { nullable: true }),
    es: t.exposeString('es', { nullable: true }),
  }),
});

const CustomFieldEntity = builder.enumType('CustomFieldEntity', { values: ENTITIES });
const CustomFieldValueType = builder.enumType('CustomFieldValueType', { values: VALUE_TYPES });
const CustomFieldGroup = builder.enumType('CustomFieldGroup', { values: ['system', 'custom'] as const });

builder.prismaObject('CustomFieldOption', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    name: t.string({
      description: 'Resolved for the request locale (Accept-Language), English when no Spanish name is authored',
      resolve: (option, _args, context) => localized(localeOf(context), option.nameEn, option.nameEs),
    }),
    nameI18n: t.field({ type: LocalizedText, resolve: (option) => ({ en: option.nameEn, es: option.nameEs }) }),
    icon: t.exposeString('icon', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    position: t.exposeInt('position'),
  }),
});

builder.prismaObject('CustomField', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    entity: t.field({ type: CustomFieldEntity, resolve: (field) => field.entity as Entity }),
    group: t.field({ type: CustomFieldGroup, resolve: (field) => field.group as 'system' | 'custom' }),
    systemKey: t.exposeString('systemKey', { nullable: true }),
    valueType: t.field({ type: CustomFieldValueType, resolve: (field) => field.valueType as ValueType }),
    title: t.string({
      description: 'Resolved for the request locale (Accept-Language)',
      resolve: (field, _args, context) => localized(localeOf(context), field.titleEn, field.titleEs),
    }),
    titleI18n: t.field({ type: LocalizedText, resolve: (field) => ({ en: field.titleEn, es: field.titleEs }) }),
    placeholder: t.string({
      nullable: true,
      resolve: (field, _args, context) => (localeOf(context) === 'es' && field.placeholderEs ? field.placeholderEs : field.placeholderEn),
    }),
    placeholderI18n: t.field({
      type: LocalizedText,
      resolve: (field) => ({ en: field.placeholderEn, es: field.placeholderEs }),
    }),
    options: t.relation('options', { query: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } }),
    isRequired: t.exposeBoolean('isRequired'),
    defaultValue: t.field({ type: JsonScalar, nullable: true, resolve: (field) => field.defaultValue ?? null }),
    allProjects: t.exposeBoolean('allProjects'),
    projectUlids: t.stringList({
      description: 'The projects the field is visible in when allProjects is false',
      select: { allProjects: true, projects: { select: { projectId: true } } },
      resolve: (field) => (field.allProjects ? [] : field.projects.map((scope) => scope.projectId).sort()),
    }),
    position: t.exposeInt('position'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

/** A value entry of `customFieldValues` (test cases use it for `TestCase.customFieldValues`). */
export const CustomFieldValueRef = builder.objectRef<CustomFieldValue>('CustomFieldValue').implement({
  fields: (t) => ({
    fieldUlid: t.exposeString('fieldUlid'),
    value: t.field({ type: JsonScalar, nullable: true, resolve: (entry) => entry.value ?? null }),
    systemKey: t.exposeString('systemKey', { nullable: true }),
    optionName: t.exposeString('optionName', { nullable: true }),
  }),
});

/**
 * The options of a `customFieldValues` loadable list: the values of every record of one entity
 * in a response are read in one batch per request (a suite tree of 500 cases included).
 */
export const fieldValuesOf = (entity: ValueEntity, description: string) => ({
  type: CustomFieldValueRef,
  description,
  load: async (keys: string[], context: GraphQLContext) => {
    const owners = keys.map((key) => {
      const [id, projectId] = key.split(':') as [string, string];
      return { id, projectId };
    });
    const values = await readFieldValues(requestOf(context), entity, owners);
    return owners.map((owner) => values.get(owner.id) ?? []);
  },
  resolve: (owner: { id: string; projectId: string }) => `${owner.id}:${owner.projectId}`,
});

/** `customFieldValues` of a GraphQL input as the REST body carries them: a missing value is null. */
export const fieldValueInputsOf = (values: ReadonlyArray<{ fieldUlid: string; value?: unknown }> | null | undefined) =>
  values?.map((entry) => ({ fieldUlid: entry.fieldUlid, value: entry.value ?? null }));

const filtersOf = (args: { entity?: Entity | null; projectUlid?: string | null; q?: string | null }) =>
  validate(customFieldFilterSchema, {
    entity: args.entity ?? undefined,
    projectUlid: args.projectUlid ?? undefined,
    q: args.q ?? undefined,
  });

builder.queryFields((t) => ({
  customFields: t.prismaConnection(
    {
      type: 'CustomField',
      cursor: 'id',
      description: 'Custom field definitions of the organization, in position order',
      authScopes: { member: true },
      args: {
        entity: t.arg({ type: CustomFieldEntity }),
        projectUlid: t.arg.string({ description: 'Only definitions visible in this project' }),
        q: t.arg.string({ description: 'Case-insensitive substring of the title in either locale' }),
      },
      resolve: (query, _root, args, context) => findCustomFields(requestOf(context), filtersOf(args), query),
      totalCount: (_root, args, context) => countCustomFields(requestOf(context), filtersOf(args)),
    },
    {},
    {},
  ),
  customField: t.prismaField({
    type: 'CustomField',
    description: 'One definition; an unknown ULID is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => getCustomField(requestOf(context), args.ulid),
  }),
}));

const LocalizedTextInput = builder.inputType('LocalizedTextInput', {
  fields: (t) => ({ en: t.string(), es: t.string() }),
});

const CustomFieldOptionInput = builder.inputType('CustomFieldOptionInput', {
  description: 'With ulid: a stored option, kept and updated in place; without: a new option',
  fields: (t) => ({
    ulid: t.string(),
    name: t.string({ description: 'The English name (or give nameI18n)' }),
    nameI18n: t.field({ type: LocalizedTextInput }),
    icon: t.string(),
    color: t.string(),
    position: t.int({ description: 'Defaults to the index in the list' }),
  }),
});

const scopeInputFields = (t: PothosSchemaTypes.InputFieldBuilder<BuilderTypes, 'InputObject'>) => ({
  title: t.string({ description: 'The English title (or give titleI18n)' }),
  titleI18n: t.field({ type: LocalizedTextInput }),
  placeholder: t.string({ description: 'The English placeholder; null clears it' }),
  placeholderI18n: t.field({ type: LocalizedTextInput }),
  options: t.field({ type: [CustomFieldOptionInput] }),
  isRequired: t.boolean(),
  defaultValue: t.field({ type: JsonScalar, description: 'A value valid for the field; null clears it' }),
  allProjects: t.boolean(),
  projectUlids: t.stringList(),
});

const CreateCustomFieldInput = builder.inputType('CreateCustomFieldInput', {
  fields: (t) => ({
    entity: t.field({ type: CustomFieldEntity, required: true }),
    valueType: t.field({ type: CustomFieldValueType, required: true }),
    ...scopeInputFields(t),
  }),
});

const UpdateCustomFieldInput = builder.inputType('UpdateCustomFieldInput', {
  fields: (t) => scopeInputFields(t),
});

type Nullable<T> = { [K in keyof T]?: T[K] | null };
type LocalizedInput = Nullable<LocalizedShape>;
type OptionArgs = Nullable<{ ulid: string; name: string; nameI18n: LocalizedInput; icon: string; color: string; position: number }>;
type FieldArgs = Nullable<{
  title: string;
  titleI18n: LocalizedInput;
  placeholder: string;
  placeholderI18n: LocalizedInput;
  options: OptionArgs[];
  isRequired: boolean;
  defaultValue: unknown;
  allProjects: boolean;
  projectUlids: string[];
}>;

/** GraphQL null means "absent" except where REST gives null a meaning (clearing a text or value). */
const absent = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const i18nBody = (map: LocalizedInput | null | undefined, englishNullable: boolean) =>
  map ? { en: englishNullable ? map.en : absent(map.en), es: map.es } : undefined;

function fieldBody(input: FieldArgs) {
  return {
    title: absent(input.title),
    titleI18n: i18nBody(input.titleI18n, false),
    placeholder: input.placeholder,
    placeholderI18n: i18nBody(input.placeholderI18n, true),
    options: input.options?.map((option) => ({
      ulid: absent(option.ulid),
      name: absent(option.name),
      nameI18n: i18nBody(option.nameI18n, false),
      icon: option.icon,
      color: option.color,
      position: absent(option.position),
    })),
    isRequired: absent(input.isRequired),
    defaultValue: input.defaultValue,
    allProjects: absent(input.allProjects),
    projectUlids: absent(input.projectUlids),
  };
}

/** Drops the keys left undefined, so that strict schemas and "at least one key" see the real input. */
const defined = <T extends object>(body: T) =>
  JSON.parse(JSON.stringify(body, (_key, value) => (value === undefined ? undefined : value))) as T;

builder.mutationFields((t) => ({
  createCustomField: t.prismaField({
    type: 'CustomField',
    authScopes: { member: true },
    args: { input: t.arg({ type: CreateCustomFieldInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      createCustomField(
        requestOf(context),
        validate(createCustomFieldBodySchema, defined({ entity: input.entity, valueType: input.valueType, ...fieldBody(input) })),
      ),
  }),
  updateCustomField: t.prismaField({
    type: 'CustomField',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: UpdateCustomFieldInput, required: true }) },
    resolve: (_query, _root, { ulid, input }, context) =>
      updateCustomField(requestOf(context), ulid, validate(updateCustomFieldBodySchema, defined(fieldBody(input)))),
  }),
  resetCustomField: t.prismaField({
    type: 'CustomField',
    description: 'Restores a system field to its seed state (owner/admin)',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: (_query, _root, { ulid }, context) => resetCustomField(requestOf(context), ulid),
  }),
  deleteCustomField: t.boolean({
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => {
      await deleteCustomField(requestOf(context), ulid);
      return true;
    },
  }),
}));
