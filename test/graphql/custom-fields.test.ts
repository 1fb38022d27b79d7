import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { dataOf, onlyError } from '../support/graphql.ts';

const t = useTestApp();

const FIELD = `ulid entity group systemKey valueType title titleI18n { en es } placeholder placeholderI18n { en es }
  options { ulid name nameI18n { en es } icon color position } isRequired defaultValue allProjects projectUlids position`;

const LIST = `query($entity: CustomFieldEntity, $q: String, $projectUlid: String, $first: Int) {
  customFields(entity: $entity, q: $q, projectUlid: $projectUlid, first: $first) { totalCount edges { node { ${FIELD} } } }
}`;
const CREATE = `mutation($input: CreateCustomFieldInput!) { createCustomField(input: $input) { ${FIELD} } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateCustomFieldInput!) { updateCustomField(ulid: $ulid, input: $input) { ${FIELD} } }`;
const RESET = `mutation($ulid: String!) { resetCustomField(ulid: $ulid) { ${FIELD} } }`;
const DELETE = `mutation($ulid: String!) { deleteCustomField(ulid: $ulid) }`;

type Field = { ulid: string; systemKey: string | null; title: string; options: Array<{ ulid: string; name: string }> } & Record<
  string,
  unknown
>;

async function listFields(caller: Caller, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await t.http.post('/graphql').set(caller.headers).set(headers).send({ query: LIST, variables });
  const data = dataOf(response);
  return {
    total: data.customFields.totalCount as number,
    fields: data.customFields.edges.map((edge: { node: Field }) => edge.node) as Field[],
  };
}

describe('GraphQL: custom field definitions', () => {
  it('lists the seeded system fields with localized texts and i18n maps', async () => {
    const owner = await signUp(t.http);
    const { total, fields } = await listFields(owner);
    expect(total).toBe(10);
    expect(fields[0]).toMatchObject({
      systemKey: 'priority',
      entity: 'test_case',
      group: 'system',
      valueType: 'select_single',
      title: 'Priority',
      titleI18n: { en: 'Priority', es: 'Prioridad' },
      placeholder: null,
      placeholderI18n: { en: null, es: null },
      allProjects: true,
      projectUlids: [],
    });
    expect(fields[0]!.defaultValue).toBe(fields[0]!.options[1]!.ulid);
    expect(fields.find((field) => field.systemKey === 'is_flaky')).toMatchObject({ valueType: 'checkbox', defaultValue: false });
    const spanish = await listFields(owner, {}, { 'Accept-Language': 'es' });
    expect(spanish.fields[0]!.title).toBe('Prioridad');
    expect(spanish.fields[0]!.options.map((option) => option.name)).toEqual(['Baja', 'Media', 'Alta', 'Crítica']);
    const searched = await listFields(owner, { q: 'precondiciones' });
    expect(searched.fields.map((field) => field.systemKey)).toEqual(['preconditions']);
    expect((await listFields(owner, { entity: 'test_run' })).total).toBe(0);
    expect((await listFields(owner, { first: 3 })).fields).toHaveLength(3);
    const unknownProject = await t.http
      .post('/graphql')
      .set(owner.headers)
      .send({ query: LIST, variables: { projectUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' } });
    expect(onlyError(unknownProject).extensions?.code).toBe('not_found');
  });

  it('creates, updates (keeping option ULIDs), resets and deletes', async () => {
    const owner = await signUp(t.http);
    const created = dataOf(
      await graphql(t.http, owner, CREATE, {
        input: {
          entity: 'test_case',
          valueType: 'select_multi',
          titleI18n: { en: 'Platforms', es: 'Plataformas' },
          placeholder: 'Choose',
          options: [{ name: 'Linux' }, { nameI18n: { en: 'Windows', es: 'Windows ES' }, color: '#00f' }],
        },
      }),
    ).createCustomField as Field;
    expect(created).toMatchObject({
      group: 'custom',
      systemKey: null,
      title: 'Platforms',
      placeholder: 'Choose',
      defaultValue: null,
      options: [
        { name: 'Linux', nameI18n: { en: 'Linux', es: null }, position: 0, color: null },
        { name: 'Windows', nameI18n: { en: 'Windows', es: 'Windows ES' }, position: 1, color: '#00f' },
      ],
    });
    const [linux, windows] = created.options;
    const updated = dataOf(
      await graphql(t.http, owner, UPDATE, {
        ulid: created.ulid,
        input: { options: [{ ulid: windows!.ulid }, { name: 'macOS' }], defaultValue: [windows!.ulid], placeholder: null },
      }),
    ).updateCustomField as Field;
    expect(updated.options.map((option) => option.ulid).slice(0, 1)).toEqual([windows!.ulid]);
    expect(updated.options.map((option) => option.name)).toEqual(['Windows', 'macOS']);
    expect(updated.options.some((option) => option.ulid === linux!.ulid)).toBe(false);
    expect(updated).toMatchObject({ defaultValue: [windows!.ulid], placeholder: null, title: 'Platforms' });

    const resetCustom = onlyError(await graphql(t.http, owner, RESET, { ulid: created.ulid }));
    expect(resetCustom.extensions?.code).toBe('not_system_field');

    const priority = (await listFields(owner, { q: 'priority' })).fields[0]!;
    dataOf(await graphql(t.http, owner, UPDATE, { ulid: priority.ulid, input: { title: 'Importance' } }));
    const reset = dataOf(await graphql(t.http, owner, RESET, { ulid: priority.ulid })).resetCustomField as Field;
    expect(reset).toEqual(priority);

    const system = onlyError(await graphql(t.http, owner, DELETE, { ulid: priority.ulid }));
    expect(system.extensions?.code).toBe('system_field');
    expect(dataOf(await graphql(t.http, owner, DELETE, { ulid: created.ulid })).deleteCustomField).toBe(true);
    expect((await listFields(owner)).total).toBe(10);

    expect((await auditEvents(t.http, owner, { actionPrefix: 'custom_field.' })).map((event) => event.action)).toEqual([
      'custom_field.deleted',
      'custom_field.reset',
      'custom_field.updated',
      'custom_field.updated',
      'custom_field.created',
    ]);
  });

  it('applies the same rules as REST: test_run default rule, validation, roles', async () => {
    const owner = await signUp(t.http);
    const rule = onlyError(
      await graphql(t.http, owner, CREATE, { input: { entity: 'test_run', valueType: 'paragraph', title: 'Build', isRequired: true } }),
    );
    expect(rule.extensions?.code).toBe('validation_failed');
    expect(rule.extensions?.details?.field).toBe('defaultValue');
    const noTitle = onlyError(await graphql(t.http, owner, CREATE, { input: { entity: 'test_case', valueType: 'paragraph' } }));
    expect(noTitle.extensions?.code).toBe('validation_failed');
    const priority = (await listFields(owner, { q: 'priority' })).fields[0]!;
    const readonly = onlyError(
      await graphql(t.http, owner, UPDATE, { ulid: priority.ulid, input: { options: [{ ulid: priority.options[0]!.ulid }] } }),
    );
    expect(readonly.extensions?.code).toBe('system_field_readonly');
    const empty = onlyError(await graphql(t.http, owner, UPDATE, { ulid: priority.ulid, input: {} }));
    expect(empty.extensions?.code).toBe('validation_failed');
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expect((await listFields(caller)).total).toBe(10);
      const created = onlyError(
        await graphql(t.http, caller, CREATE, { input: { entity: 'test_case', valueType: 'paragraph', title: 'X' } }),
      );
      expect(created.extensions?.code).toBe('forbidden');
      expect(onlyError(await graphql(t.http, caller, RESET, { ulid: priority.ulid })).extensions?.code).toBe('forbidden');
    }
    expect((await listFields(owner)).total).toBe(10);
    const stranger = await signUp(t.http);
    expect(onlyError(await graphql(t.http, stranger, RESET, { ulid: priority.ulid })).extensions?.code).toBe('not_found');
  });
});
