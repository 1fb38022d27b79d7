import { describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { type ConfigurationValueBody, comboKeyOf, configurationGroup, createPlan } from '../support/runs.ts';

const t = useTestApp();

const putConfigurations = (caller: Caller, planUlid: string, body: unknown) =>
  t.http
    .put(`/api/v1/plans/${planUlid}/configurations`)
    .set(caller.headers)
    .send(body as object);
const putExcluded = (caller: Caller, planUlid: string, body: unknown) =>
  t.http
    .put(`/api/v1/plans/${planUlid}/excluded-combinations`)
    .set(caller.headers)
    .send(body as object);

const getJson = async (caller: Caller, path: string) => {
  const response = await t.http.get(`/api/v1${path}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

/** A project with groups OS (Linux, Windows, macOS) and Browser (Chrome, Firefox), and a plan. */
async function scenario() {
  const { owner, code } = await ownerWithProject(t.http);
  const os = await configurationGroup(t.http, owner, code, 'OS', ['Linux', 'Windows', 'macOS']);
  const browser = await configurationGroup(t.http, owner, code, 'Browser', ['Chrome', 'Firefox']);
  const plan = await createPlan(t.http, owner, code);
  return { owner, code, os, browser, plan };
}

const itemOf = (group: { ulid: string; name: string }, value: ConfigurationValueBody) => ({
  configurationUlid: value.ulid,
  groupUlid: group.ulid,
  groupName: group.name,
  valueName: value.name,
});

describe('PUT /api/v1/plans/{planUlid}/configurations', () => {
  it('replaces the selection, answers it by group position then value position and records plan.configurations_replaced', async () => {
    const { owner, os, browser, plan } = await scenario();
    const [linux, windows, macos] = os.values as [ConfigurationValueBody, ConfigurationValueBody, ConfigurationValueBody];
    const [chrome, firefox] = browser.values as [ConfigurationValueBody, ConfigurationValueBody];
    const response = await putConfigurations(owner, plan.ulid, { configurationUlids: [firefox.ulid, macos.ulid, chrome.ulid, linux.ulid] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      items: [itemOf(os, linux), itemOf(os, macos), itemOf(browser, chrome), itemOf(browser, firefox)],
    });
    expect(await getJson(owner, `/plans/${plan.ulid}/configurations`)).toEqual(response.body);

    // Positions decide the order: Browser before OS, Windows first among the OS values.
    await t.http.patch(`/api/v1/configuration-groups/${browser.ulid}`).set(owner.headers).send({ position: 0 });
    await t.http.patch(`/api/v1/configuration-groups/${os.ulid}`).set(owner.headers).send({ position: 5 });
    await putConfigurations(owner, plan.ulid, { configurationUlids: [linux.ulid, windows.ulid, chrome.ulid] });
    await t.http.patch(`/api/v1/configurations/${windows.ulid}`).set(owner.headers).send({ position: 0 });
    await t.http.patch(`/api/v1/configurations/${linux.ulid}`).set(owner.headers).send({ position: 3 });
    expect((await getJson(owner, `/plans/${plan.ulid}/configurations`)).items).toEqual([
      itemOf(browser, chrome),
      itemOf(os, windows),
      itemOf(os, linux),
    ]);

    const events = await auditEvents(t.http, owner, { action: 'plan.configurations_replaced', entityUlid: plan.ulid });
    expect(events.map((event) => event.metadata)).toEqual([
      { added: 1, removed: 2, total: 3 },
      { added: 4, removed: 0, total: 4 },
    ]);
    expect(events[0]).toMatchObject({ entityType: 'test_plan', entityLabel: plan.name });
  });

  it('records nothing for a replace that changes nothing (in any order) and clears with an empty array', async () => {
    const { owner, os, plan } = await scenario();
    const [linux, windows] = os.values as [ConfigurationValueBody, ConfigurationValueBody];
    await putConfigurations(owner, plan.ulid, { configurationUlids: [linux.ulid, windows.ulid] });
    const same = await putConfigurations(owner, plan.ulid, { configurationUlids: [windows.ulid, linux.ulid] });
    expect(same.body.items).toEqual([itemOf(os, linux), itemOf(os, windows)]);
    expect(await auditEvents(t.http, owner, { action: 'plan.configurations_replaced' })).toHaveLength(1);
    expect((await putConfigurations(owner, plan.ulid, { configurationUlids: [] })).body).toEqual({ items: [] });
    expect(await auditEvents(t.http, owner, { action: 'plan.configurations_replaced' })).toHaveLength(2);
  });

  it('answers 404 for an unknown, soft-deleted or other project value and leaves the selection unchanged', async () => {
    const { owner, os, browser, plan } = await scenario();
    const other = await createProject(t.http, owner);
    const foreign = await configurationGroup(t.http, owner, other.id, 'OS', ['Linux']);
    const [linux, windows, macos] = os.values as [ConfigurationValueBody, ConfigurationValueBody, ConfigurationValueBody];
    await t.http.delete(`/api/v1/configurations/${macos.ulid}`).set(owner.headers);
    await putConfigurations(owner, plan.ulid, { configurationUlids: [linux.ulid] });

    for (const configurationUlid of [newId(), macos.ulid, foreign.values[0]!.ulid]) {
      expectError(await putConfigurations(owner, plan.ulid, { configurationUlids: [windows.ulid, configurationUlid] }), 404, 'not_found');
    }
    // A value of a deleted group is gone too.
    await t.http.delete(`/api/v1/configuration-groups/${browser.ulid}`).set(owner.headers);
    expectError(await putConfigurations(owner, plan.ulid, { configurationUlids: [browser.values[0]!.ulid] }), 404, 'not_found');
    expect((await getJson(owner, `/plans/${plan.ulid}/configurations`)).items).toEqual([itemOf(os, linux)]);
  });

  it.each([
    ['a duplicate value', (ids: string[]) => ({ configurationUlids: [ids[0], ids[0]] }), ['configurationUlids']],
    ['a malformed ULID', () => ({ configurationUlids: ['linux'] }), ['configurationUlids', 0]],
    ['a missing configurationUlids', () => ({}), ['configurationUlids']],
    ['an unknown key', (ids: string[]) => ({ configurationUlids: [ids[0]], groups: [] }), ['groups']],
  ])('answers 422 for %s', async (_label, bodyOf, path) => {
    const { owner, os, plan } = await scenario();
    const response = await putConfigurations(owner, plan.ulid, bodyOf(os.values.map((value) => value.ulid)));
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    expect((await getJson(owner, `/plans/${plan.ulid}/configurations`)).items).toEqual([]);
  });

  it('answers 422 for a selection of more than 1000 combinations', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const groups = [];
    for (const name of ['A', 'B', 'C', 'D'])
      groups.push(await configurationGroup(t.http, owner, code, name, ['1', '2', '3', '4', '5', '6']));
    const plan = await createPlan(t.http, owner, code);
    const all = groups.flatMap((group) => group.values.map((value) => value.ulid));
    const response = await putConfigurations(owner, plan.ulid, { configurationUlids: all });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(['configurationUlids']);
    // 6 × 6 × 6 × 4 = 864 is fine.
    const response864 = await putConfigurations(owner, plan.ulid, { configurationUlids: all.slice(0, 22) });
    expect(response864.status).toBe(200);
    expect((await getJson(owner, `/plans/${plan.ulid}/combinations`)).totalCount).toBe(864);
  });

  it('answers 403 to a viewer and 404 for a foreign plan; a viewer reads', async () => {
    const { owner, os, plan } = await scenario();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const body = { configurationUlids: [os.values[0]!.ulid] };
    expectError(await putConfigurations(viewer, plan.ulid, body), 403, 'forbidden');
    expectError(await putConfigurations(stranger, plan.ulid, body), 404, 'not_found');
    expectError(await putExcluded(viewer, plan.ulid, { comboKeys: [] }), 403, 'forbidden');
    expectError(await t.http.get(`/api/v1/plans/${plan.ulid}/combinations`).set(stranger.headers), 404, 'not_found');
    expect(await getJson(viewer, `/plans/${plan.ulid}/configurations`)).toEqual({ items: [] });
    expect((await getJson(viewer, `/plans/${plan.ulid}/combinations`)).totalCount).toBe(1);
  });
});

describe('GET /api/v1/plans/{planUlid}/combinations', () => {
  it('yields one empty combination without a selection', async () => {
    const { owner, plan } = await scenario();
    expect(await getJson(owner, `/plans/${plan.ulid}/combinations`)).toEqual({
      items: [{ comboKey: '', values: [], included: true }],
      totalCount: 1,
      includedCount: 1,
    });
  });

  it('is the cartesian product, one value per group in group order, with sorted comboKeys and exclusions applied', async () => {
    const { owner, os, browser, plan } = await scenario();
    const [linux, windows, macos] = os.values as [ConfigurationValueBody, ConfigurationValueBody, ConfigurationValueBody];
    const [chrome, firefox] = browser.values as [ConfigurationValueBody, ConfigurationValueBody];
    await putConfigurations(owner, plan.ulid, { configurationUlids: [chrome.ulid, firefox.ulid, linux.ulid, macos.ulid] });
    const combination = (a: ConfigurationValueBody, b: ConfigurationValueBody, included = true) => ({
      comboKey: comboKeyOf(a, b),
      values: [
        { groupUlid: os.ulid, groupName: 'OS', configurationUlid: a.ulid, valueName: a.name },
        { groupUlid: browser.ulid, groupName: 'Browser', configurationUlid: b.ulid, valueName: b.name },
      ],
      included,
    });
    expect(await getJson(owner, `/plans/${plan.ulid}/combinations`)).toEqual({
      items: [combination(linux, chrome), combination(linux, firefox), combination(macos, chrome), combination(macos, firefox)],
      totalCount: 4,
      includedCount: 4,
    });
    expect(comboKeyOf(linux, chrome)).toBe([linux.ulid, chrome.ulid].sort().join(':'));

    const inert = `${windows.ulid}:${chrome.ulid}`;
    const excluded = await putExcluded(owner, plan.ulid, { comboKeys: [comboKeyOf(macos, firefox), inert, 'anything'] });
    expect(excluded.status, JSON.stringify(excluded.body)).toBe(200);
    expect(excluded.body).toEqual({ comboKeys: [comboKeyOf(macos, firefox), inert, 'anything'] });
    expect(await getJson(owner, `/plans/${plan.ulid}/combinations`)).toEqual({
      items: [combination(linux, chrome), combination(linux, firefox), combination(macos, chrome), combination(macos, firefox, false)],
      totalCount: 4,
      includedCount: 3,
    });

    // A value deleted later drops out of the selection and of the combinations.
    await t.http.delete(`/api/v1/configurations/${linux.ulid}`).set(owner.headers);
    expect((await getJson(owner, `/plans/${plan.ulid}/configurations`)).items).toEqual([
      itemOf(os, macos),
      itemOf(browser, chrome),
      itemOf(browser, firefox),
    ]);
    const after = await getJson(owner, `/plans/${plan.ulid}/combinations`);
    expect(after.items.map((item: { comboKey: string }) => item.comboKey)).toEqual([comboKeyOf(macos, chrome), comboKeyOf(macos, firefox)]);
    expect(after.includedCount).toBe(1);
  });
});

describe('PUT /api/v1/plans/{planUlid}/excluded-combinations', () => {
  it('stores the keys, records plan.excluded_combinations_replaced only when the set changes, and clears with []', async () => {
    const { owner, os, browser, plan } = await scenario();
    const a = comboKeyOf(os.values[0]!, browser.values[0]!);
    const b = comboKeyOf(os.values[1]!, browser.values[1]!);
    expect((await putExcluded(owner, plan.ulid, { comboKeys: [a, b] })).body).toEqual({ comboKeys: [a, b] });
    const before = await getJson(owner, `/plans/${plan.ulid}`);
    expect((await putExcluded(owner, plan.ulid, { comboKeys: [b, a] })).body).toEqual({ comboKeys: [a, b] });
    expect((await getJson(owner, `/plans/${plan.ulid}`)).updatedAt).toBe(before.updatedAt);
    expect((await putExcluded(owner, plan.ulid, { comboKeys: [b] })).body).toEqual({ comboKeys: [b] });
    expect((await putExcluded(owner, plan.ulid, { comboKeys: [] })).body).toEqual({ comboKeys: [] });

    const events = await auditEvents(t.http, owner, { action: 'plan.excluded_combinations_replaced' });
    expect(events.map((event) => event.metadata)).toEqual([
      { added: 0, removed: 1, total: 0 },
      { added: 0, removed: 1, total: 1 },
      { added: 2, removed: 0, total: 2 },
    ]);
    expect(events[0]).toMatchObject({ entityType: 'test_plan', entityUlid: plan.ulid, entityLabel: plan.name });
  });

  it.each([
    ['a duplicate key', { comboKeys: ['x', 'x'] }, ['comboKeys']],
    ['an empty key', { comboKeys: [''] }, ['comboKeys', 0]],
    ['a missing comboKeys', {}, ['comboKeys']],
    ['a non-string key', { comboKeys: [1] }, ['comboKeys', 0]],
  ])('answers 422 for %s', async (_label, body, path) => {
    const { owner, plan } = await scenario();
    await putExcluded(owner, plan.ulid, { comboKeys: ['kept'] });
    const response = await putExcluded(owner, plan.ulid, body);
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(path);
    expect(await auditEvents(t.http, owner, { action: 'plan.excluded_combinations_replaced' })).toHaveLength(1);
  });
});
