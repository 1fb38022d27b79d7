import { describe, expect, it } from 'vitest';
import { SYSTEM_KEYS, seedMissingSystemFields } from '../../src/custom-fields/system-fields.service.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Option = { ulid: string; name: string; icon: string | null; color: string | null; position: number; nameI18n?: unknown };
type Field = {
  ulid: string;
  entity: string;
  group: string;
  systemKey: string | null;
  valueType: string;
  title: string;
  placeholder: string | null;
  options: Option[];
  isRequired: boolean;
  defaultValue: unknown;
  allProjects: boolean;
  projectUlids: string[];
  position: number;
  createdAt: number;
  updatedAt: number;
  titleI18n?: { en: string | null; es: string | null };
  placeholderI18n?: { en: string | null; es: string | null };
};

const FIELD_KEYS = [
  'allProjects',
  'createdAt',
  'defaultValue',
  'entity',
  'group',
  'isRequired',
  'options',
  'placeholder',
  'position',
  'projectUlids',
  'systemKey',
  'title',
  'ulid',
  'updatedAt',
  'valueType',
];

const fieldsPath = (caller: Caller, rest = '') => `/api/v1/orgs/${caller.orgId}/custom-fields${rest}`;

async function list(caller: Caller, query = '', headers: Record<string, string> = {}) {
  const response = await t.http.get(fieldsPath(caller, query)).set(caller.headers).set(headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: Field[]; page: number; pageSize: number; total: number };
}

async function systemField(caller: Caller, systemKey: string, query = '?locales=all&pageSize=200'): Promise<Field> {
  const page = await list(caller, query);
  const field = page.items.find((each) => each.systemKey === systemKey);
  expect(field, systemKey).toBeDefined();
  return field!;
}

async function getField(caller: Caller, ulid: string, query = '?locales=all') {
  const response = await t.http.get(fieldsPath(caller, `/${ulid}${query}`)).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.field as Field;
}

async function createField(caller: Caller, body: Record<string, unknown>, query = '?locales=all'): Promise<Field> {
  const response = await t.http.post(fieldsPath(caller, query)).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(Object.keys(response.body)).toEqual(['field']);
  return response.body.field as Field;
}

const patchField = (caller: Caller, ulid: string, body: Record<string, unknown>, query = '?locales=all') =>
  t.http
    .patch(fieldsPath(caller, `/${ulid}${query}`))
    .set(caller.headers)
    .send(body);

const resetField = (caller: Caller, ulid: string, query = '?locales=all') =>
  t.http
    .post(fieldsPath(caller, `/${ulid}/reset${query}`))
    .set(caller.headers)
    .send({});

/** Every key anywhere in a JSON value. */
function keysDeep(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const each of value) keysDeep(each, keys);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      keysDeep(inner, keys);
    }
  }
  return keys;
}

const selectBody = (extra: Record<string, unknown> = {}) => ({
  entity: 'test_case',
  valueType: 'select_single',
  titleI18n: { en: 'Browser', es: 'Navegador' },
  options: [{ nameI18n: { en: 'Chrome', es: 'Chrome' } }, { name: 'Firefox' }, { name: 'Safari', icon: 'compass', color: '#00f' }],
  ...extra,
});

describe('system fields of a new organization', () => {
  it('seeds the ten system fields with English titles, options and defaults', async () => {
    const owner = await signUp(t.http);
    const page = await list(owner);
    expect(page.total).toBe(10);
    expect(page.items.map((field) => field.systemKey)).toEqual([...SYSTEM_KEYS]);
    expect(SYSTEM_KEYS).toEqual([
      'priority',
      'severity',
      'status',
      'type',
      'layer',
      'behavior',
      'automation_status',
      'is_flaky',
      'preconditions',
      'postconditions',
    ]);
    for (const field of page.items) {
      expect(Object.keys(field).sort()).toEqual(FIELD_KEYS);
      expect(field).toMatchObject({ entity: 'test_case', group: 'system', placeholder: null, allProjects: true, projectUlids: [] });
    }
    const byKey: Record<string, Field> = Object.fromEntries(page.items.map((field) => [field.systemKey ?? '', field]));
    const priority = byKey.priority!;
    expect(priority).toMatchObject({ title: 'Priority', valueType: 'select_single', isRequired: false });
    expect(priority.options.map((option) => option.name)).toEqual(['Low', 'Medium', 'High', 'Critical']);
    expect(priority.options.map((option) => option.position)).toEqual([0, 1, 2, 3]);
    expect(priority.defaultValue).toBe(priority.options[1]!.ulid);
    expect(byKey.is_flaky).toMatchObject({ valueType: 'checkbox', title: 'Flaky', options: [], defaultValue: false });
    expect(byKey.preconditions).toMatchObject({ valueType: 'paragraph', title: 'Preconditions', options: [], defaultValue: null });
    expect(byKey.postconditions).toMatchObject({ valueType: 'paragraph', title: 'Postconditions' });
    expect(byKey.automation_status!.options.map((option) => option.name)).toEqual(['Manual', 'To be automated', 'Automated']);
  });

  it('answers Spanish titles and option names for Accept-Language: es, English elsewhere', async () => {
    const owner = await signUp(t.http);
    const spanish = await list(owner, '', { 'Accept-Language': 'es-MX,es;q=0.9' });
    const priority = spanish.items.find((field) => field.systemKey === 'priority')!;
    expect(priority.title).toBe('Prioridad');
    expect(priority.options.map((option) => option.name)).toEqual(['Baja', 'Media', 'Alta', 'Crítica']);
    expect(spanish.items.find((field) => field.systemKey === 'preconditions')!.title).toBe('Precondiciones');
    const unsupported = await list(owner, '', { 'Accept-Language': 'fr' });
    expect(unsupported.items.find((field) => field.systemKey === 'priority')!.title).toBe('Priority');
  });

  it('the startup backfill seeds organizations that lack system fields, idempotently and concurrently', async () => {
    const owner = await signUp(t.http);
    // Fixture: an organization from before system fields existed.
    await prisma().customField.deleteMany({ where: { orgId: owner.orgId } });
    expect((await list(owner)).total).toBe(0);
    await Promise.all([seedMissingSystemFields(), seedMissingSystemFields()]);
    const page = await list(owner, '?locales=all');
    expect(page.items.map((field) => field.systemKey)).toEqual([...SYSTEM_KEYS]);
    expect(page.items.find((field) => field.systemKey === 'priority')!.titleI18n).toEqual({ en: 'Priority', es: 'Prioridad' });
    const options = page.items.flatMap((field) => field.options.map((option) => option.ulid));
    await seedMissingSystemFields();
    const again = await list(owner);
    expect(again.total).toBe(10);
    expect(again.items.flatMap((field) => field.options.map((option) => option.ulid))).toEqual(options);
  });

  it('the backfill adds only the missing system fields and keeps the others', async () => {
    const owner = await signUp(t.http);
    const before = await systemField(owner, 'priority');
    await prisma().customField.deleteMany({ where: { orgId: owner.orgId, systemKey: 'severity' } });
    await seedMissingSystemFields();
    const after = await list(owner, '?pageSize=200');
    expect(after.items.map((field) => field.systemKey)).toEqual([...SYSTEM_KEYS]);
    expect(after.items.find((field) => field.systemKey === 'priority')!.ulid).toBe(before.ulid);
  });
});

describe('GET /api/v1/orgs/{orgUlid}/custom-fields', () => {
  it('adds *I18n maps only with locales=all', async () => {
    const owner = await signUp(t.http);
    const plain = await list(owner);
    for (const key of keysDeep(plain)) expect(key).not.toMatch(/I18n$/);
    const all = await list(owner, '?locales=all');
    const priority = all.items.find((field) => field.systemKey === 'priority')!;
    expect(priority.titleI18n).toEqual({ en: 'Priority', es: 'Prioridad' });
    expect(priority.placeholderI18n).toEqual({ en: null, es: null });
    expect(priority.options[0]!.nameI18n).toEqual({ en: 'Low', es: 'Baja' });
    for (const field of all.items) {
      expect(field).toHaveProperty('titleI18n');
      expect(field).toHaveProperty('placeholderI18n');
      for (const option of field.options) expect(option).toHaveProperty('nameI18n');
    }
    const one = await t.http.get(fieldsPath(owner, `/${priority.ulid}`)).set(owner.headers);
    expect(one.status).toBe(200);
    for (const key of keysDeep(one.body)) expect(key).not.toMatch(/I18n$/);
    expectError(await t.http.get(fieldsPath(owner, '?locales=es')).set(owner.headers), 422, 'validation_failed');
  });

  it('falls back to English where no Spanish text is authored', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, {
      entity: 'test_case',
      valueType: 'radio',
      title: 'Region',
      placeholder: 'Pick one',
      options: [{ name: 'North' }, { nameI18n: { en: 'South', es: 'Sur' } }],
    });
    expect(field.titleI18n).toEqual({ en: 'Region', es: null });
    const spanish = await t.http
      .get(fieldsPath(owner, `/${field.ulid}`))
      .set(owner.headers)
      .set('Accept-Language', 'es');
    expect(spanish.body.field).toMatchObject({ title: 'Region', placeholder: 'Pick one' });
    expect(spanish.body.field.options.map((option: Option) => option.name)).toEqual(['North', 'Sur']);
  });

  it('q matches the title in either language, case-insensitively and literally', async () => {
    const owner = await signUp(t.http);
    await createField(owner, selectBody());
    const spanish = await list(owner, '?q=PRIORIDAD');
    expect(spanish.total).toBe(1);
    expect(spanish.items[0]).toMatchObject({ systemKey: 'priority', title: 'Priority' });
    expect((await list(owner, '?q=navega')).items.map((field) => field.title)).toEqual(['Browser']);
    expect((await list(owner, '?q=brow')).total).toBe(1);
    expect((await list(owner, '?q=condi')).items.map((field) => field.systemKey)).toEqual(['preconditions', 'postconditions']);
    expect((await list(owner, '?q=%25')).total).toBe(0);
    expect((await list(owner, '?q=_')).total).toBe(0);
  });

  it('filters by entity and by project visibility, and paginates', async () => {
    const owner = await signUp(t.http);
    const alpha = await createProject(t.http, owner);
    const beta = await createProject(t.http, owner);
    const scoped = await createField(owner, selectBody({ projectUlids: [alpha.ulid] }));
    expect(scoped).toMatchObject({ allProjects: false, projectUlids: [alpha.ulid] });
    const run = await createField(owner, { entity: 'test_run', valueType: 'checkbox', title: 'Nightly' });
    expect((await list(owner, '?entity=test_run')).items.map((field) => field.ulid)).toEqual([run.ulid]);
    expect((await list(owner, '?entity=defect')).total).toBe(0);
    expect((await list(owner, '?entity=test_case')).total).toBe(11);
    const inAlpha = await list(owner, `?projectUlid=${alpha.ulid}&pageSize=200`);
    expect(inAlpha.items.some((field) => field.ulid === scoped.ulid)).toBe(true);
    const inBeta = await list(owner, `?projectUlid=${beta.ulid}&pageSize=200`);
    expect(inBeta.items.some((field) => field.ulid === scoped.ulid)).toBe(false);
    expect(inBeta.total).toBe(11);
    const second = await list(owner, '?page=2&pageSize=5');
    expect(second).toMatchObject({ page: 2, pageSize: 5, total: 12 });
    expect(second.items.map((field) => field.systemKey)).toEqual([
      'behavior',
      'automation_status',
      'is_flaky',
      'preconditions',
      'postconditions',
    ]);
    expect((await list(owner, '?page=3&pageSize=5')).items.map((field) => field.title)).toEqual(['Browser', 'Nightly']);
    expect((await list(owner, '?page=9')).items).toEqual([]);
    expectError(await t.http.get(fieldsPath(owner, `?projectUlid=${newId()}`)).set(owner.headers), 404, 'not_found');
    expectError(await t.http.get(fieldsPath(owner, '?projectUlid=nope')).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(fieldsPath(owner, '?pageSize=0')).set(owner.headers), 422, 'validation_failed');
    expectError(await t.http.get(fieldsPath(owner, '?entity=suite')).set(owner.headers), 422, 'validation_failed');
  });

  it('is open to every member; another organization answers 404', async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await list(viewer)).total).toBe(10);
    const priority = await systemField(owner, 'priority');
    expect((await getField(viewer, priority.ulid)).ulid).toBe(priority.ulid);
    const stranger = await signUp(t.http);
    expectError(await t.http.get(fieldsPath(owner)).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.get(`/api/v1/orgs/${stranger.orgId}/custom-fields/${priority.ulid}`).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.get(fieldsPath(owner, `/${newId()}`)).set(owner.headers), 404, 'not_found');
    expectError(await t.http.get(fieldsPath(owner, '/not-a-ulid')).set(owner.headers), 404, 'not_found');
  });
});

describe('POST /api/v1/orgs/{orgUlid}/custom-fields', () => {
  it('creates a custom definition with stable option ULIDs and records custom_field.created', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody({ placeholderI18n: { en: 'Which browser?', es: '¿Qué navegador?' } }));
    expect(field).toMatchObject({
      entity: 'test_case',
      group: 'custom',
      systemKey: null,
      valueType: 'select_single',
      title: 'Browser',
      titleI18n: { en: 'Browser', es: 'Navegador' },
      placeholder: 'Which browser?',
      placeholderI18n: { en: 'Which browser?', es: '¿Qué navegador?' },
      isRequired: false,
      defaultValue: null,
      allProjects: true,
      projectUlids: [],
      position: 10,
    });
    expect(field.options).toEqual([
      { ulid: expect.any(String), name: 'Chrome', nameI18n: { en: 'Chrome', es: 'Chrome' }, icon: null, color: null, position: 0 },
      { ulid: expect.any(String), name: 'Firefox', nameI18n: { en: 'Firefox', es: null }, icon: null, color: null, position: 1 },
      { ulid: expect.any(String), name: 'Safari', nameI18n: { en: 'Safari', es: null }, icon: 'compass', color: '#00f', position: 2 },
    ]);
    expect(await getField(owner, field.ulid)).toEqual(field);
    const [created] = await auditEvents(t.http, owner, { action: 'custom_field.created' });
    expect(created).toMatchObject({
      entityType: 'custom_field',
      entityUlid: field.ulid,
      entityLabel: 'Browser',
      metadata: { entity: 'test_case', valueType: 'select_single', title: 'Browser' },
    });
    const next = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    expect(next.position).toBe(11);
  });

  it('validates defaults against the new options and the value type', async () => {
    const owner = await signUp(t.http);
    const multi = await createField(owner, {
      entity: 'test_case',
      valueType: 'select_multi',
      title: 'Platforms',
      options: [{ name: 'Linux' }, { name: 'macOS' }],
    });
    const withDefault = await patchField(owner, multi.ulid, { defaultValue: [multi.options[1]!.ulid] });
    expect(withDefault.status).toBe(200);
    expect(withDefault.body.field.defaultValue).toEqual([multi.options[1]!.ulid]);
    const checkbox = await createField(owner, { entity: 'defect', valueType: 'checkbox', title: 'Regression', defaultValue: 'true' });
    expect(checkbox.defaultValue).toBe(true);
    const bad = await t.http
      .post(fieldsPath(owner))
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'checkbox', title: 'X', defaultValue: 3 });
    expectError(bad, 422, 'validation_failed');
    expect(bad.body.error.details.path).toEqual(['defaultValue']);
    const picker = await t.http
      .post(fieldsPath(owner))
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'user_picker', title: 'Reviewer', defaultValue: newId() });
    expectError(picker, 404, 'not_found');
    const member = await createField(owner, { entity: 'test_case', valueType: 'user_picker', title: 'Owner', defaultValue: owner.userId });
    expect(member.defaultValue).toBe(owner.userId);
  });

  it('rejects malformed bodies with 422 and writes nothing', async () => {
    const owner = await signUp(t.http);
    const cases: Array<[Record<string, unknown>, unknown[]]> = [
      [{ entity: 'test_case', valueType: 'select_single', title: 'No options' }, ['options']],
      [{ entity: 'test_case', valueType: 'select_single', title: 'Empty', options: [] }, ['options']],
      [{ entity: 'test_case', valueType: 'checkbox', title: 'Box', options: [{ name: 'A' }] }, ['options']],
      [{ entity: 'test_case', valueType: 'paragraph' }, ['title']],
      [{ entity: 'test_case', valueType: 'paragraph', title: 'A', titleI18n: { en: 'A' } }, ['title']],
      [{ entity: 'test_case', valueType: 'paragraph', titleI18n: { es: 'Solo' } }, ['titleI18n', 'en']],
      [{ entity: 'test_case', valueType: 'paragraph', title: '   ' }, ['title']],
      [{ entity: 'test_case', valueType: 'paragraph', title: 'A', systemKey: 'priority' }, ['systemKey']],
      [{ entity: 'test_case', valueType: 'paragraph', title: 'A', group: 'system' }, ['group']],
      [{ entity: 'suite', valueType: 'paragraph', title: 'A' }, ['entity']],
      [{ entity: 'test_case', valueType: 'date', title: 'A' }, ['valueType']],
      [{ entity: 'test_case', valueType: 'radio', title: 'A', options: [{ icon: 'x' }] }, ['options', 0, 'name']],
      [{ entity: 'test_case', valueType: 'radio', title: 'A', options: [{ ulid: newId(), name: 'x' }] }, ['options', 0, 'ulid']],
      [{ entity: 'test_case', valueType: 'paragraph', title: 'A', allProjects: true, projectUlids: [newId()] }, ['projectUlids']],
      [{ entity: 'test_case', valueType: 'paragraph', title: 'A', placeholder: 'x'.repeat(501) }, ['placeholder']],
    ];
    for (const [body, path] of cases) {
      const response = await t.http.post(fieldsPath(owner)).set(owner.headers).send(body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path, JSON.stringify(body)).toEqual(path);
    }
    const project = await createProject(t.http, owner);
    const duplicate = await t.http
      .post(fieldsPath(owner))
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'paragraph', title: 'A', projectUlids: [project.ulid, project.ulid] });
    expectError(duplicate, 422, 'validation_failed');
    const stranger = await signUp(t.http);
    const foreign = await createProject(t.http, stranger);
    const crossTenant = await t.http
      .post(fieldsPath(owner))
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'paragraph', title: 'A', projectUlids: [foreign.ulid] });
    expectError(crossTenant, 404, 'not_found');
    expect((await list(owner)).total).toBe(10);
    expect(await auditEvents(t.http, owner, { action: 'custom_field.created' })).toEqual([]);
  });

  it('is refused to members and viewers with 403 before any write', async () => {
    const owner = await signUp(t.http);
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expectError(await t.http.post(fieldsPath(owner)).set(caller.headers).send(selectBody()), 403, 'forbidden');
    }
    const admin = await joinAs(t.http, owner, 'admin');
    await createField(admin, selectBody());
    expect((await list(owner)).total).toBe(11);
  });
});

describe('a required test_run field needs a non-empty defaultValue', () => {
  it('on POST: 422 with details.field = defaultValue and nothing created', async () => {
    const owner = await signUp(t.http);
    for (const body of [
      { entity: 'test_run', valueType: 'paragraph', title: 'Build', isRequired: true },
      { entity: 'test_run', valueType: 'paragraph', title: 'Build', isRequired: true, defaultValue: '' },
      { entity: 'test_run', valueType: 'select_multi', title: 'OS', isRequired: true, options: [{ name: 'Linux' }], defaultValue: [] },
    ]) {
      const response = await t.http.post(fieldsPath(owner)).set(owner.headers).send(body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.field).toBe('defaultValue');
    }
    expect((await list(owner, '?entity=test_run')).total).toBe(0);
    const ok = await createField(owner, {
      entity: 'test_run',
      valueType: 'paragraph',
      title: 'Build',
      isRequired: true,
      defaultValue: 'main',
    });
    expect(ok).toMatchObject({ isRequired: true, defaultValue: 'main' });
    // test_case and defect fields are exempt.
    await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Must', isRequired: true });
    await createField(owner, { entity: 'defect', valueType: 'paragraph', title: 'Must', isRequired: true });
  });

  it('on PATCH: evaluated on the state after the write; nothing changes on violation', async () => {
    const owner = await signUp(t.http);
    const optional = await createField(owner, { entity: 'test_run', valueType: 'paragraph', title: 'Build' });
    const makeRequired = await patchField(owner, optional.ulid, { isRequired: true });
    expectError(makeRequired, 422, 'validation_failed');
    expect(makeRequired.body.error.details.field).toBe('defaultValue');
    expect(await getField(owner, optional.ulid)).toEqual(optional);
    const both = await patchField(owner, optional.ulid, { isRequired: true, defaultValue: 'main' });
    expect(both.status).toBe(200);
    const required = both.body.field as Field;
    const clear = await patchField(owner, optional.ulid, { defaultValue: null, title: 'Renamed' });
    expectError(clear, 422, 'validation_failed');
    expect(clear.body.error.details.field).toBe('defaultValue');
    expect(await getField(owner, optional.ulid)).toEqual(required);
    const relax = await patchField(owner, optional.ulid, { isRequired: false, defaultValue: null });
    expect(relax.status).toBe(200);
    expect(relax.body.field).toMatchObject({ isRequired: false, defaultValue: null });
    expect((await auditEvents(t.http, owner, { action: 'custom_field.updated' })).length).toBe(2);
  });
});

describe('PATCH /api/v1/orgs/{orgUlid}/custom-fields/{fieldUlid}', () => {
  it('keeps, inserts and deletes options and records optionsChange', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody());
    const [chrome, firefox, safari] = field.options;
    const response = await patchField(owner, field.ulid, {
      options: [
        { ulid: safari!.ulid, nameI18n: { es: 'Safari ES' }, color: null, position: 0 },
        { ulid: chrome!.ulid, name: 'Google Chrome', icon: 'globe' },
        { name: 'Edge', nameI18n: undefined },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const updated = response.body.field as Field;
    expect(updated.options).toEqual([
      { ulid: safari!.ulid, name: 'Safari', nameI18n: { en: 'Safari', es: 'Safari ES' }, icon: 'compass', color: null, position: 0 },
      {
        ulid: chrome!.ulid,
        name: 'Google Chrome',
        nameI18n: { en: 'Google Chrome', es: 'Chrome' },
        icon: 'globe',
        color: null,
        position: 1,
      },
      { ulid: expect.any(String), name: 'Edge', nameI18n: { en: 'Edge', es: null }, icon: null, color: null, position: 2 },
    ]);
    const edge = updated.options[2]!;
    expect([chrome!.ulid, firefox!.ulid, safari!.ulid]).not.toContain(edge.ulid);
    const [event] = await auditEvents(t.http, owner, { action: 'custom_field.updated' });
    expect(event).toMatchObject({ entityType: 'custom_field', entityUlid: field.ulid, entityLabel: 'Browser' });
    expect(event!.metadata.optionsChange).toEqual({
      added: [{ ulid: edge.ulid, name: 'Edge' }],
      removed: [{ ulid: firefox!.ulid, name: 'Firefox' }],
      renamed: [
        { ulid: safari!.ulid, locale: 'es', from: null, to: 'Safari ES' },
        { ulid: chrome!.ulid, locale: 'en', from: 'Chrome', to: 'Google Chrome' },
      ],
    });
    expect(event!.metadata.changes).toEqual(
      expect.arrayContaining([
        { field: `options.${safari!.ulid}.color`, from: '#00f', to: null },
        { field: `options.${chrome!.ulid}.icon`, from: null, to: 'globe' },
      ]),
    );
    expect(event!.metadata).not.toHaveProperty('visibilityChange');
    const unknownOption = await patchField(owner, field.ulid, { options: [{ ulid: newId(), name: 'Ghost' }] });
    expectError(unknownOption, 404, 'not_found');
    const twice = await patchField(owner, field.ulid, { options: [{ ulid: edge.ulid }, { ulid: edge.ulid }] });
    expectError(twice, 422, 'validation_failed');
    expect(twice.body.error.details.path).toEqual(['options', 1, 'ulid']);
    expect(await getField(owner, field.ulid)).toEqual(updated);
  });

  it('updates texts in both locales and records changes; a no-op records nothing', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, { entity: 'test_case', valueType: 'paragraph', title: 'Notes' });
    const response = await patchField(owner, field.ulid, {
      titleI18n: { es: 'Notas' },
      placeholderI18n: { en: 'Write here', es: 'Escribe aquí' },
      isRequired: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.field).toMatchObject({
      title: 'Notes',
      titleI18n: { en: 'Notes', es: 'Notas' },
      placeholder: 'Write here',
      placeholderI18n: { en: 'Write here', es: 'Escribe aquí' },
      isRequired: true,
    });
    const spanish = await t.http
      .get(fieldsPath(owner, `/${field.ulid}`))
      .set(owner.headers)
      .set('Accept-Language', 'es');
    expect(spanish.body.field).toMatchObject({ title: 'Notas', placeholder: 'Escribe aquí' });
    const [event] = await auditEvents(t.http, owner, { action: 'custom_field.updated' });
    expect(event!.metadata.changes).toEqual([
      { field: 'title.es', from: null, to: 'Notas' },
      { field: 'placeholder', from: null, to: 'Write here' },
      { field: 'placeholder.es', from: null, to: 'Escribe aquí' },
      { field: 'isRequired', from: false, to: true },
    ]);
    const english = await patchField(owner, field.ulid, { title: 'Remarks', placeholder: null });
    expect(english.body.field).toMatchObject({
      titleI18n: { en: 'Remarks', es: 'Notas' },
      placeholderI18n: { en: null, es: 'Escribe aquí' },
    });
    const noop = await patchField(owner, field.ulid, { title: 'Remarks', isRequired: true });
    expect(noop.status).toBe(200);
    expect((await auditEvents(t.http, owner, { action: 'custom_field.updated' })).length).toBe(2);
    expectError(await patchField(owner, field.ulid, {}), 422, 'validation_failed');
    expectError(await patchField(owner, field.ulid, { title: 'A', titleI18n: { en: 'B' } }), 422, 'validation_failed');
    expectError(await patchField(owner, field.ulid, { titleI18n: { en: null } }), 422, 'validation_failed');
    expectError(await patchField(owner, field.ulid, { options: [{ name: 'A' }] }), 422, 'validation_failed');
  });

  it('changes the project scope and records visibilityChange', async () => {
    const owner = await signUp(t.http);
    const alpha = await createProject(t.http, owner);
    const beta = await createProject(t.http, owner);
    const field = await createField(owner, { entity: 'test_case', valueType: 'checkbox', title: 'Mobile' });
    const scoped = await patchField(owner, field.ulid, { projectUlids: [alpha.ulid, beta.ulid] });
    expect(scoped.body.field).toMatchObject({ allProjects: false, projectUlids: [alpha.ulid, beta.ulid].sort() });
    const narrowed = await patchField(owner, field.ulid, { projectUlids: [beta.ulid] });
    expect(narrowed.body.field.projectUlids).toEqual([beta.ulid]);
    const everywhere = await patchField(owner, field.ulid, { allProjects: true });
    expect(everywhere.body.field).toMatchObject({ allProjects: true, projectUlids: [] });
    const updates = (await auditEvents(t.http, owner, { action: 'custom_field.updated' })).reverse();
    expect(updates.map((event) => event.metadata.visibilityChange)).toEqual([
      { allProjectsFrom: true, allProjectsTo: false, added: [alpha.ulid, beta.ulid], removed: [] },
      { allProjectsFrom: false, allProjectsTo: false, added: [], removed: [alpha.ulid] },
      { allProjectsFrom: false, allProjectsTo: true, added: [], removed: [beta.ulid] },
    ]);
    expect(updates.every((event) => !('optionsChange' in event.metadata))).toBe(true);
    expectError(await patchField(owner, field.ulid, { projectUlids: [newId()] }), 404, 'not_found');
    expectError(await patchField(owner, field.ulid, { allProjects: true, projectUlids: [alpha.ulid] }), 422, 'validation_failed');
  });

  it('answers 422 immutable_field for entity, valueType, group and systemKey', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody());
    const priority = await systemField(owner, 'priority');
    for (const [target, body] of [
      [field, { entity: 'test_run' }],
      [field, { valueType: 'radio' }],
      [field, { group: 'system' }],
      [field, { systemKey: 'priority' }],
      [priority, { systemKey: 'severity' }],
      [priority, { group: 'custom' }],
    ] as const) {
      const response = await patchField(owner, target.ulid, { ...body, title: 'Changed' });
      expectError(response, 422, 'immutable_field');
      expect(response.body.error.details.path).toEqual(Object.keys(body));
    }
    expect(await getField(owner, field.ulid)).toEqual(field);
    const same = await patchField(owner, field.ulid, {
      entity: 'test_case',
      valueType: 'select_single',
      group: 'custom',
      title: 'Browsers',
    });
    expect(same.status).toBe(200);
    expect(same.body.field.title).toBe('Browsers');
  });

  it('refuses to remove a seeded option of a system field (422 system_field_readonly)', async () => {
    const owner = await signUp(t.http);
    const priority = await systemField(owner, 'priority');
    const withoutLow = priority.options.slice(1).map((option) => ({ ulid: option.ulid }));
    const response = await patchField(owner, priority.ulid, { options: [...withoutLow, { name: 'Urgent' }] });
    expectError(response, 422, 'system_field_readonly');
    expect(response.body.error.details).toMatchObject({ path: ['options'], optionUlid: priority.options[0]!.ulid });
    expect(await systemField(owner, 'priority')).toEqual(priority);
    // Renaming seeded options and adding new ones is allowed.
    const renamed = await patchField(owner, priority.ulid, {
      options: [...priority.options.map((option) => ({ ulid: option.ulid })), { nameI18n: { en: 'Urgent', es: 'Urgente' } }],
      titleI18n: { es: 'Prioridad del caso' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.field.options.map((option: Option) => option.ulid).slice(0, 4)).toEqual(
      priority.options.map((option) => option.ulid),
    );
  });

  it('refuses a stored default that names a removed option unless a new default is given', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody());
    const [chrome, firefox] = field.options;
    await patchField(owner, field.ulid, { defaultValue: firefox!.ulid }).expect(200);
    const drop = await patchField(owner, field.ulid, { options: [{ ulid: chrome!.ulid }] });
    expectError(drop, 422, 'validation_failed');
    expect(drop.body.error.details).toMatchObject({ path: ['defaultValue'], field: 'defaultValue' });
    const withDefault = await patchField(owner, field.ulid, { options: [{ ulid: chrome!.ulid }], defaultValue: chrome!.ulid });
    expect(withDefault.status).toBe(200);
    expect(withDefault.body.field).toMatchObject({ defaultValue: chrome!.ulid, options: [{ ulid: chrome!.ulid }] });
  });

  it('is owner/admin only (403) and 404 for unknown or foreign fields', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody());
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expectError(await patchField(caller, field.ulid, { title: 'Nope' }), 403, 'forbidden');
    }
    expect((await getField(owner, field.ulid)).title).toBe('Browser');
    expectError(await patchField(owner, newId(), { title: 'X' }), 404, 'not_found');
    const stranger = await signUp(t.http);
    const foreign = await t.http
      .patch(`/api/v1/orgs/${stranger.orgId}/custom-fields/${field.ulid}`)
      .set(stranger.headers)
      .send({ title: 'X' });
    expectError(foreign, 404, 'not_found');
    expectError(
      await t.http
        .patch(fieldsPath(owner, `/${field.ulid}`))
        .set(stranger.headers)
        .send({ title: 'X' }),
      404,
      'not_found',
    );
  });
});

describe('POST /api/v1/orgs/{orgUlid}/custom-fields/{fieldUlid}/reset', () => {
  it('restores the seed state with the same option ULIDs, keeps the scope, and is idempotent', async () => {
    const owner = await signUp(t.http);
    const project = await createProject(t.http, owner);
    const seed = await systemField(owner, 'priority');
    const [low, medium, high, critical] = seed.options;
    const edited = await patchField(owner, seed.ulid, {
      titleI18n: { en: 'Importance', es: 'Importancia' },
      placeholderI18n: { en: 'Pick', es: 'Elige' },
      isRequired: true,
      defaultValue: high!.ulid,
      projectUlids: [project.ulid],
      options: [
        { ulid: critical!.ulid, name: 'Blocker', color: '#000', position: 0 },
        { ulid: low!.ulid },
        { ulid: medium!.ulid },
        { ulid: high!.ulid, icon: null },
        { name: 'Someday' },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const someday = edited.body.field.options.find((option: Option) => option.name === 'Someday') as Option;

    const reset = await resetField(owner, seed.ulid);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(Object.keys(reset.body)).toEqual(['field']);
    const restored = reset.body.field as Field;
    expect({ ...restored, updatedAt: 0 }).toEqual({ ...seed, allProjects: false, projectUlids: [project.ulid], updatedAt: 0 });
    expect(restored.options.map((option) => option.ulid)).toEqual([low!.ulid, medium!.ulid, high!.ulid, critical!.ulid]);
    expect(restored.placeholderI18n).toEqual({ en: null, es: null });
    expect(restored.options.map((option) => option.ulid)).not.toContain(someday.ulid);

    const [event] = await auditEvents(t.http, owner, { action: 'custom_field.reset' });
    expect(event).toMatchObject({ entityType: 'custom_field', entityUlid: seed.ulid, entityLabel: 'Priority' });
    expect(event!.metadata.optionsChange).toMatchObject({ added: [], removed: [{ ulid: someday.ulid, name: 'Someday' }] });
    expect(event!.metadata.changes).toEqual(
      expect.arrayContaining([
        { field: 'title', from: 'Importance', to: 'Priority' },
        { field: 'isRequired', from: true, to: false },
        { field: 'defaultValue', from: high!.ulid, to: medium!.ulid },
      ]),
    );

    const again = await resetField(owner, seed.ulid);
    expect(again.status).toBe(200);
    expect(again.body.field).toEqual(restored);
    expect((await auditEvents(t.http, owner, { action: 'custom_field.reset' })).length).toBe(2);
    const spanish = await t.http
      .get(fieldsPath(owner, `/${seed.ulid}`))
      .set(owner.headers)
      .set('Accept-Language', 'es');
    expect(spanish.body.field.title).toBe('Prioridad');
  });

  it('answers 400 not_system_field, 403 for member/viewer and 404 for unknown or foreign fields', async () => {
    const owner = await signUp(t.http);
    const custom = await createField(owner, selectBody());
    expectError(await resetField(owner, custom.ulid), 400, 'not_system_field');
    expect(await getField(owner, custom.ulid)).toEqual(custom);
    const priority = await systemField(owner, 'priority');
    await patchField(owner, priority.ulid, { title: 'Importance' }).expect(200);
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expectError(await resetField(caller, priority.ulid), 403, 'forbidden');
    }
    expect((await getField(owner, priority.ulid)).title).toBe('Importance');
    expectError(await resetField(owner, newId()), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(
      await t.http.post(`/api/v1/orgs/${stranger.orgId}/custom-fields/${priority.ulid}/reset`).set(stranger.headers).send({}),
      404,
      'not_found',
    );
    expectError(
      await t.http
        .post(fieldsPath(owner, `/${priority.ulid}/reset`))
        .set(stranger.headers)
        .send({}),
      404,
      'not_found',
    );
    expectError(
      await t.http
        .post(fieldsPath(owner, `/${priority.ulid}/reset`))
        .set(owner.headers)
        .send({ force: true }),
      422,
      'validation_failed',
    );
    expect(await auditEvents(t.http, owner, { action: 'custom_field.reset' })).toEqual([]);
  });
});

describe('DELETE /api/v1/orgs/{orgUlid}/custom-fields/{fieldUlid}', () => {
  it('deletes a custom field and records custom_field.deleted; system fields answer 422 system_field', async () => {
    const owner = await signUp(t.http);
    const field = await createField(owner, selectBody());
    const member = await joinAs(t.http, owner, 'member');
    expectError(await t.http.delete(fieldsPath(owner, `/${field.ulid}`)).set(member.headers), 403, 'forbidden');
    const deleted = await t.http.delete(fieldsPath(owner, `/${field.ulid}`)).set(owner.headers);
    expect(deleted.status).toBe(204);
    expectError(await t.http.get(fieldsPath(owner, `/${field.ulid}`)).set(owner.headers), 404, 'not_found');
    expectError(await t.http.delete(fieldsPath(owner, `/${field.ulid}`)).set(owner.headers), 404, 'not_found');
    const [event] = await auditEvents(t.http, owner, { action: 'custom_field.deleted' });
    expect(event).toMatchObject({
      entityUlid: field.ulid,
      entityLabel: 'Browser',
      metadata: { entity: 'test_case', valueType: 'select_single' },
    });
    const priority = await systemField(owner, 'priority');
    expectError(await t.http.delete(fieldsPath(owner, `/${priority.ulid}`)).set(owner.headers), 422, 'system_field');
    expect((await list(owner)).total).toBe(10);
  });
});
