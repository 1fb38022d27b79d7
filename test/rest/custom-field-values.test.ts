import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Option = { ulid: string; name: string };
type Field = { ulid: string; systemKey: string | null; title: string; options: Option[]; defaultValue: unknown };
type Value = { fieldUlid: string; value: unknown; systemKey: string | null; optionName: string | null };

const fieldsPath = (caller: Caller, rest = '') => `/api/v1/orgs/${caller.orgId}/custom-fields${rest}`;

async function systemFields(caller: Caller): Promise<Record<string, Field>> {
  const response = await t.http.get(fieldsPath(caller, '?pageSize=200')).set(caller.headers);
  expect(response.status).toBe(200);
  return Object.fromEntries((response.body.items as Field[]).filter((field) => field.systemKey).map((field) => [field.systemKey, field]));
}

async function createField(caller: Caller, body: Record<string, unknown>): Promise<Field> {
  const response = await t.http.post(fieldsPath(caller)).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.field as Field;
}

const patchField = (caller: Caller, ulid: string, body: Record<string, unknown>) =>
  t.http
    .patch(fieldsPath(caller, `/${ulid}`))
    .set(caller.headers)
    .send(body);

async function createCase(caller: Caller, projectCode: string): Promise<{ ulid: string; customFieldValues: Value[] }> {
  const response = await t.http.post(`/api/v1/projects/${projectCode}/test-cases`).set(caller.headers).send({ title: 'Login works' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const putValues = (caller: Caller, caseUlid: string, values: unknown[], headers: Record<string, string> = {}) =>
  t.http.put(`/api/v1/test-cases/${caseUlid}/custom-field-values`).set(caller.headers).set(headers).send({ values });

const patchValue = (caller: Caller, caseUlid: string, fieldUlid: string, body: unknown) =>
  t.http
    .patch(`/api/v1/test-cases/${caseUlid}/custom-field-values/${fieldUlid}`)
    .set(caller.headers)
    .send(body as object);

async function caseValues(caller: Caller, caseUlid: string, headers: Record<string, string> = {}): Promise<Value[]> {
  const response = await t.http.get(`/api/v1/test-cases/${caseUlid}`).set(caller.headers).set(headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.customFieldValues as Value[];
}

const valueIn = (values: Value[], fieldUlid: string) => values.find((entry) => entry.fieldUlid === fieldUlid);

/** An owner with a project, a case in it and the seeded system fields. */
async function scenario() {
  const owner = await signUp(t.http);
  const project = await createProject(t.http, owner);
  const testCase = await createCase(owner, project.id);
  return { owner, project, testCase, system: await systemFields(owner) };
}

describe('PUT /api/v1/test-cases/{caseUlid}/custom-field-values', () => {
  it('replaces the values atomically and answers the full customFieldValues array', async () => {
    const { owner, testCase, system } = await scenario();
    const platforms = await createField(owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Platforms',
      options: [{ name: 'Linux' }, { name: 'macOS' }, { name: 'Windows' }],
    });
    const reviewer = await createField(owner, { entity: 'test_case', valueType: 'user_picker', title: 'Reviewer' });
    const high = system.priority!.options[2]!;
    const before = (await auditEvents(t.http, owner)).length;
    const response = await putValues(
      owner,
      testCase.ulid,
      [
        { fieldUlid: system.priority!.ulid, value: high.ulid },
        { fieldUlid: system.is_flaky!.ulid, value: 'true' },
        { fieldUlid: system.preconditions!.ulid, value: 'Logged out' },
        { fieldUlid: platforms.ulid, value: [platforms.options[2]!.ulid, platforms.options[0]!.ulid] },
        { fieldUlid: reviewer.ulid, value: owner.userId },
      ],
      { 'Accept-Language': 'es' },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(Object.keys(response.body)).toEqual(['customFieldValues']);
    const values = response.body.customFieldValues as Value[];
    expect(values.map((entry) => entry.fieldUlid)).toEqual([
      ...Object.values(system).map((field) => field.ulid),
      platforms.ulid,
      reviewer.ulid,
    ]);
    expect(valueIn(values, system.priority!.ulid)).toEqual({
      fieldUlid: system.priority!.ulid,
      value: high.ulid,
      systemKey: 'priority',
      optionName: 'Alta',
    });
    expect(valueIn(values, system.is_flaky!.ulid)).toMatchObject({ value: true, optionName: null });
    expect(valueIn(values, system.preconditions!.ulid)).toMatchObject({ value: 'Logged out', systemKey: 'preconditions' });
    expect(valueIn(values, platforms.ulid)).toEqual({
      fieldUlid: platforms.ulid,
      value: [platforms.options[2]!.ulid, platforms.options[0]!.ulid],
      systemKey: null,
      optionName: null,
    });
    expect(valueIn(values, reviewer.ulid)).toMatchObject({ value: owner.userId });
    // Fields without a stored value materialize their default (or null).
    expect(valueIn(values, system.severity!.ulid)).toMatchObject({ value: system.severity!.defaultValue, optionName: 'Normal' });
    expect(valueIn(values, system.layer!.ulid)).toMatchObject({ value: null, optionName: null });
    expect(await caseValues(owner, testCase.ulid, { 'Accept-Language': 'es' })).toEqual(values);
    expect(await auditEvents(t.http, owner)).toHaveLength(before);

    // The listed values become the whole set: omitted fields lose their stored rows.
    const replaced = await putValues(owner, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid, value: false }]);
    expect(replaced.status).toBe(200);
    const after = replaced.body.customFieldValues as Value[];
    expect(valueIn(after, system.is_flaky!.ulid)!.value).toBe(false);
    expect(valueIn(after, system.priority!.ulid)).toMatchObject({ value: system.priority!.defaultValue, optionName: 'Medium' });
    expect(valueIn(after, system.preconditions!.ulid)!.value).toBeNull();
    expect(valueIn(after, platforms.ulid)!.value).toBeNull();
    // Empty and null values delete the row.
    const cleared = await putValues(owner, testCase.ulid, [
      { fieldUlid: system.preconditions!.ulid, value: '' },
      { fieldUlid: platforms.ulid, value: [] },
      { fieldUlid: system.layer!.ulid, value: null },
    ]);
    expect(cleared.status).toBe(200);
    expect(valueIn(cleared.body.customFieldValues, system.is_flaky!.ulid)!.value).toBe(false);
  });

  it('validates each value against its definition (422 at values.i.value) and changes nothing', async () => {
    const { owner, testCase, system } = await scenario();
    const multi = await createField(owner, { entity: 'test_case', valueType: 'select_multi', title: 'Tags', options: [{ name: 'A' }] });
    await putValues(owner, testCase.ulid, [{ fieldUlid: system.priority!.ulid, value: system.priority!.options[0]!.ulid }]).expect(200);
    const stored = await caseValues(owner, testCase.ulid);
    const invalid: unknown[] = [
      system.severity!.options[0]!.ulid, // an option of another field
      'low',
      [system.priority!.options[0]!.ulid],
      42,
    ];
    for (const value of invalid) {
      const response = await putValues(owner, testCase.ulid, [
        { fieldUlid: system.is_flaky!.ulid, value: true },
        { fieldUlid: system.priority!.ulid, value },
      ]);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(['values', 1, 'value']);
    }
    for (const [field, value] of [
      [system.is_flaky!, 'yes'],
      [system.is_flaky!, 1],
      [system.preconditions!, 'x'.repeat(10001)],
      [system.preconditions!, ['a']],
      [multi, [multi.options[0]!.ulid, multi.options[0]!.ulid]],
      [multi, multi.options[0]!.ulid],
    ] as const) {
      const response = await putValues(owner, testCase.ulid, [{ fieldUlid: field.ulid, value }]);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(['values', 0, 'value']);
    }
    const duplicate = await putValues(owner, testCase.ulid, [
      { fieldUlid: system.is_flaky!.ulid, value: true },
      { fieldUlid: system.is_flaky!.ulid, value: false },
    ]);
    expectError(duplicate, 422, 'validation_failed');
    expect(duplicate.body.error.details.path).toEqual(['values', 1, 'fieldUlid']);
    expectError(await putValues(owner, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid }]), 422, 'validation_failed');
    expectError(await putValues(owner, testCase.ulid, [{ fieldUlid: 'nope', value: true }]), 422, 'validation_failed');
    expect(await caseValues(owner, testCase.ulid)).toEqual(stored);
    const paragraph = await putValues(owner, testCase.ulid, [{ fieldUlid: system.preconditions!.ulid, value: 'x'.repeat(10000) }]);
    expect(paragraph.status).toBe(200);
  });

  it('answers 404 for unknown fields, other entities, fields not visible in the project and non-members', async () => {
    const { owner, project, testCase, system } = await scenario();
    const other = await createProject(t.http, owner);
    const hidden = await createField(owner, { entity: 'test_case', valueType: 'checkbox', title: 'Hidden', projectUlids: [other.ulid] });
    const visible = await createField(owner, { entity: 'test_case', valueType: 'checkbox', title: 'Here', projectUlids: [project.ulid] });
    const runField = await createField(owner, { entity: 'test_run', valueType: 'checkbox', title: 'Run only' });
    const picker = await createField(owner, { entity: 'test_case', valueType: 'user_picker', title: 'Reviewer' });
    const stranger = await signUp(t.http);
    const foreignField = (await systemFields(stranger)).is_flaky!;
    await putValues(owner, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid, value: true }]).expect(200);
    const stored = await caseValues(owner, testCase.ulid);
    expect(stored.some((entry) => entry.fieldUlid === hidden.ulid)).toBe(false);
    expect(stored.some((entry) => entry.fieldUlid === visible.ulid)).toBe(true);
    for (const values of [
      [{ fieldUlid: newId(), value: true }],
      [{ fieldUlid: runField.ulid, value: true }],
      [{ fieldUlid: hidden.ulid, value: true }],
      [{ fieldUlid: foreignField.ulid, value: true }],
      [{ fieldUlid: picker.ulid, value: stranger.userId }],
      [{ fieldUlid: picker.ulid, value: newId() }],
    ]) {
      expectError(await putValues(owner, testCase.ulid, values), 404, 'not_found');
    }
    expect(await caseValues(owner, testCase.ulid)).toEqual(stored);
    expectError(await putValues(owner, newId(), []), 404, 'not_found');
    expectError(await putValues(stranger, testCase.ulid, []), 404, 'not_found');
    const member = await joinAs(t.http, owner, 'member');
    await putValues(member, testCase.ulid, [{ fieldUlid: picker.ulid, value: member.userId }]).expect(200);
  });

  it('serializes concurrent writes to one case: each answers 200 and one whole set wins', async () => {
    const { owner, testCase, system } = await scenario();
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const responses = await Promise.all(
      texts.map((text) =>
        putValues(owner, testCase.ulid, [
          { fieldUlid: system.preconditions!.ulid, value: text },
          { fieldUlid: system.postconditions!.ulid, value: text },
        ]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const values = await caseValues(owner, testCase.ulid);
    const pre = valueIn(values, system.preconditions!.ulid)!.value;
    expect(texts).toContain(pre);
    expect(valueIn(values, system.postconditions!.ulid)!.value).toBe(pre);
  });

  it('requires every visible required field in the resulting state (a default satisfies it)', async () => {
    const { owner, testCase, system } = await scenario();
    const required = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Purpose', isRequired: true });
    await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Scope', isRequired: true, defaultValue: 'All' });
    const missing = await putValues(owner, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid, value: true }]);
    expectError(missing, 422, 'validation_failed');
    expect(missing.body.error.details).toMatchObject({ path: ['values'], fieldUlid: required.ulid });
    const cleared = await putValues(owner, testCase.ulid, [
      { fieldUlid: system.is_flaky!.ulid, value: true },
      { fieldUlid: required.ulid, value: '' },
    ]);
    expectError(cleared, 422, 'validation_failed');
    expect(cleared.body.error.details.path).toEqual(['values', 1, 'value']);
    const ok = await putValues(owner, testCase.ulid, [{ fieldUlid: required.ulid, value: 'Smoke' }]);
    expect(ok.status).toBe(200);
  });

  it('is refused to viewers (403) and to locked projects', async () => {
    const { owner, testCase, system } = await scenario();
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await putValues(viewer, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid, value: true }]), 403, 'forbidden');
    expectError(await patchValue(viewer, testCase.ulid, system.is_flaky!.ulid, { value: true }), 403, 'forbidden');
    expect(valueIn(await caseValues(owner, testCase.ulid), system.is_flaky!.ulid)!.value).toBe(false);
    // A case of a locked project (the older one beyond the plan's allowance) is gated too.
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { maxProjects: 1 });
    expectError(await putValues(owner, testCase.ulid, [{ fieldUlid: system.is_flaky!.ulid, value: true }]), 403, 'project_locked');
    expectError(await patchValue(owner, testCase.ulid, system.is_flaky!.ulid, { value: true }), 403, 'project_locked');
  });
});

describe('PATCH /api/v1/test-cases/{caseUlid}/custom-field-values/{fieldUlid}', () => {
  it('sets one value and answers the full array; other fields stay', async () => {
    const { owner, testCase, system } = await scenario();
    await putValues(owner, testCase.ulid, [{ fieldUlid: system.preconditions!.ulid, value: 'Seeded data' }]).expect(200);
    const before = (await auditEvents(t.http, owner)).length;
    const response = await patchValue(owner, testCase.ulid, system.is_flaky!.ulid, { value: 'true' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const values = response.body.customFieldValues as Value[];
    expect(values).toHaveLength(10);
    expect(valueIn(values, system.is_flaky!.ulid)!.value).toBe(true);
    expect(valueIn(values, system.preconditions!.ulid)!.value).toBe('Seeded data');
    const cleared = await patchValue(owner, testCase.ulid, system.preconditions!.ulid, { value: null });
    expect(valueIn(cleared.body.customFieldValues, system.preconditions!.ulid)!.value).toBeNull();
    expect(await auditEvents(t.http, owner)).toHaveLength(before);
    const invalid = await patchValue(owner, testCase.ulid, system.priority!.ulid, { value: 'nope' });
    expectError(invalid, 422, 'validation_failed');
    expect(invalid.body.error.details.path).toEqual(['value']);
    expectError(await patchValue(owner, testCase.ulid, system.priority!.ulid, {}), 422, 'validation_failed');
    expectError(await patchValue(owner, testCase.ulid, system.priority!.ulid, { value: null, extra: 1 }), 422, 'validation_failed');
    expectError(await patchValue(owner, testCase.ulid, newId(), { value: true }), 404, 'not_found');
    expectError(await patchValue(owner, testCase.ulid, 'nope', { value: true }), 404, 'not_found');
  });

  it('enforces required only on the targeted field; clearing it answers 422 at [value]', async () => {
    const { owner, testCase, system } = await scenario();
    const optional = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    const required = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Purpose', isRequired: true });
    // The case has no value for the required field; writing another field is still fine.
    const other = await patchValue(owner, testCase.ulid, optional.ulid, { value: 'Hello' });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(valueIn(other.body.customFieldValues, required.ulid)!.value).toBeNull();
    await patchValue(owner, testCase.ulid, required.ulid, { value: 'Smoke' }).expect(200);
    for (const value of [null, '']) {
      const response = await patchValue(owner, testCase.ulid, required.ulid, { value });
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path).toEqual(['value']);
    }
    expect(valueIn(await caseValues(owner, testCase.ulid), required.ulid)!.value).toBe('Smoke');
    expect(valueIn(await caseValues(owner, testCase.ulid), system.priority!.ulid)!.value).toBe(system.priority!.defaultValue);
  });
});

describe('value cascade when options are removed', () => {
  it('select_single values fall back to the default option, or lose their row without one', async () => {
    const { owner, project, system } = await scenario();
    const withDefault = await createField(owner, {
      entity: 'test_case',
      valueType: 'select_single',
      title: 'Browser',
      options: [{ name: 'Chrome' }, { name: 'Firefox' }, { name: 'Safari' }],
    });
    const [chrome, firefox, safari] = withDefault.options;
    await patchField(owner, withDefault.ulid, { defaultValue: chrome!.ulid }).expect(200);
    const noDefault = await createField(owner, {
      entity: 'test_case',
      valueType: 'radio',
      title: 'Device',
      options: [{ name: 'Phone' }, { name: 'Tablet' }],
    });
    const first = await createCase(owner, project.id);
    const second = await createCase(owner, project.id);
    await putValues(owner, first.ulid, [
      { fieldUlid: withDefault.ulid, value: firefox!.ulid },
      { fieldUlid: noDefault.ulid, value: noDefault.options[1]!.ulid },
      { fieldUlid: system.is_flaky!.ulid, value: true },
    ]).expect(200);
    await putValues(owner, second.ulid, [{ fieldUlid: withDefault.ulid, value: safari!.ulid }]).expect(200);

    const removed = await patchField(owner, withDefault.ulid, { options: [{ ulid: chrome!.ulid }, { ulid: safari!.ulid }] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await patchField(owner, noDefault.ulid, { options: [{ ulid: noDefault.options[0]!.ulid }] }).expect(200);

    const firstValues = await caseValues(owner, first.ulid);
    expect(valueIn(firstValues, withDefault.ulid)).toMatchObject({ value: chrome!.ulid, optionName: 'Chrome' });
    expect(valueIn(firstValues, noDefault.ulid)).toMatchObject({ value: null, optionName: null });
    expect(valueIn(firstValues, system.is_flaky!.ulid)!.value).toBe(true);
    expect(valueIn(await caseValues(owner, second.ulid), withDefault.ulid)).toMatchObject({ value: safari!.ulid, optionName: 'Safari' });
    // The fallback is stored: it stays when the default changes later.
    await patchField(owner, withDefault.ulid, { defaultValue: safari!.ulid }).expect(200);
    expect(valueIn(await caseValues(owner, first.ulid), withDefault.ulid)!.value).toBe(chrome!.ulid);
  });

  it('select_multi arrays drop removed options and take the default array when nothing remains', async () => {
    const { owner, project } = await scenario();
    const field = await createField(owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Platforms',
      options: [{ name: 'Linux' }, { name: 'macOS' }, { name: 'Windows' }],
    });
    const [linux, mac, windows] = field.options;
    const bare = await createField(owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Locales',
      options: [{ name: 'en' }, { name: 'es' }],
    });
    await patchField(owner, field.ulid, { defaultValue: [linux!.ulid] }).expect(200);
    const cases = [await createCase(owner, project.id), await createCase(owner, project.id), await createCase(owner, project.id)];
    await putValues(owner, cases[0]!.ulid, [
      { fieldUlid: field.ulid, value: [mac!.ulid, windows!.ulid] },
      { fieldUlid: bare.ulid, value: [bare.options[1]!.ulid] },
    ]).expect(200);
    await putValues(owner, cases[1]!.ulid, [{ fieldUlid: field.ulid, value: [mac!.ulid] }]).expect(200);
    await putValues(owner, cases[2]!.ulid, [{ fieldUlid: field.ulid, value: [windows!.ulid, linux!.ulid] }]).expect(200);

    await patchField(owner, field.ulid, { options: [{ ulid: linux!.ulid }, { ulid: windows!.ulid }] }).expect(200);
    await patchField(owner, bare.ulid, { options: [{ ulid: bare.options[0]!.ulid }] }).expect(200);

    expect(valueIn(await caseValues(owner, cases[0]!.ulid), field.ulid)!.value).toEqual([windows!.ulid]);
    expect(valueIn(await caseValues(owner, cases[1]!.ulid), field.ulid)!.value).toEqual([linux!.ulid]);
    expect(valueIn(await caseValues(owner, cases[2]!.ulid), field.ulid)!.value).toEqual([windows!.ulid, linux!.ulid]);
    expect(valueIn(await caseValues(owner, cases[0]!.ulid), bare.ulid)!.value).toBeNull();
    // The default array is stored (not merely materialized); without a default the row is gone.
    const stored = (caseId: string, fieldId: string) =>
      prisma().testCaseFieldValue.findFirst({ where: { caseId, fieldId }, select: { value: true } });
    expect(await stored(cases[1]!.ulid, field.ulid)).toEqual({ value: [linux!.ulid] });
    expect(await stored(cases[0]!.ulid, bare.ulid)).toBeNull();
  });

  it('system fields: user-added options removed by PATCH or reset fall back to the seed default', async () => {
    const { owner, testCase, system } = await scenario();
    const priority = system.priority!;
    const added = await patchField(owner, priority.ulid, {
      options: [...priority.options.map((option) => ({ ulid: option.ulid })), { name: 'Urgent' }, { name: 'Someday' }],
    });
    expect(added.status).toBe(200);
    const urgent = (added.body.field.options as Option[]).find((option) => option.name === 'Urgent')!;
    const someday = (added.body.field.options as Option[]).find((option) => option.name === 'Someday')!;
    const second = await createCase(owner, (await t.http.get('/api/v1/projects').set(owner.headers)).body.items[0].id);
    await putValues(owner, testCase.ulid, [{ fieldUlid: priority.ulid, value: urgent.ulid }]).expect(200);
    await putValues(owner, second.ulid, [{ fieldUlid: priority.ulid, value: someday.ulid }]).expect(200);
    expect(valueIn(await caseValues(owner, testCase.ulid), priority.ulid)!.optionName).toBe('Urgent');

    await patchField(owner, priority.ulid, {
      options: [...priority.options.map((option) => ({ ulid: option.ulid })), { ulid: urgent.ulid }],
    }).expect(200);
    expect(valueIn(await caseValues(owner, second.ulid), priority.ulid)).toMatchObject({
      value: priority.defaultValue,
      optionName: 'Medium',
    });

    const reset = await t.http
      .post(fieldsPath(owner, `/${priority.ulid}/reset`))
      .set(owner.headers)
      .send({});
    expect(reset.status).toBe(200);
    const values = await caseValues(owner, testCase.ulid, { 'Accept-Language': 'es' });
    expect(valueIn(values, priority.ulid)).toMatchObject({ value: priority.defaultValue, optionName: 'Media' });
  });
});

describe('DELETE of a field that holds values', () => {
  it('answers 409 field_has_values until the values are cleared', async () => {
    const { owner, testCase } = await scenario();
    const field = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    await patchValue(owner, testCase.ulid, field.ulid, { value: 'Keep me' }).expect(200);
    expectError(await t.http.delete(fieldsPath(owner, `/${field.ulid}`)).set(owner.headers), 409, 'field_has_values');
    expect(valueIn(await caseValues(owner, testCase.ulid), field.ulid)!.value).toBe('Keep me');
    await patchValue(owner, testCase.ulid, field.ulid, { value: null }).expect(200);
    expect((await t.http.delete(fieldsPath(owner, `/${field.ulid}`)).set(owner.headers)).status).toBe(204);
    expect(valueIn(await caseValues(owner, testCase.ulid), field.ulid)).toBeUndefined();
  });
});
