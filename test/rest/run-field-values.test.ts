import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { createRun, createRunField } from '../support/runs.ts';

const t = useTestApp();

type Value = { fieldUlid: string; value: unknown; systemKey: string | null; optionName: string | null };

const putValues = (caller: Caller, runUlid: string, values: unknown[]) =>
  t.http.put(`/api/v1/runs/${runUlid}/custom-field-values`).set(caller.headers).send({ values });

async function readValues(caller: Caller, runUlid: string): Promise<Value[]> {
  const response = await t.http.get(`/api/v1/runs/${runUlid}`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body.customFieldValues;
}

/** A run and three run fields: a select (Tier), a required checkbox defaulting to true, a paragraph. */
async function scenario() {
  const { owner, project, code } = await ownerWithProject(t.http);
  const tier = await createRunField(t.http, owner, {
    valueType: 'select_single',
    title: 'Tier',
    options: [{ name: 'Gold' }, { name: 'Silver' }],
  });
  const signedOff = await createRunField(t.http, owner, {
    valueType: 'checkbox',
    title: 'Signed off',
    isRequired: true,
    defaultValue: true,
  });
  const notes = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
  const run = await createRun(t.http, owner, code, { caseUlids: [] });
  return { owner, project, code, run, tier, signedOff, notes, gold: tier.options[0]!.ulid, silver: tier.options[1]!.ulid };
}

describe('PUT /api/v1/runs/{runUlid}/custom-field-values', () => {
  it('replaces the set and answers the full array in field order, with optionName and checkbox booleans', async () => {
    const { owner, run, tier, signedOff, notes, gold } = await scenario();
    const response = await putValues(owner, run.ulid, [
      { fieldUlid: notes.ulid, value: 'All green' },
      { fieldUlid: signedOff.ulid, value: 'false' },
      { fieldUlid: tier.ulid, value: gold },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const expected = [
      { fieldUlid: tier.ulid, value: gold, systemKey: null, optionName: 'Gold' },
      { fieldUlid: signedOff.ulid, value: false, systemKey: null, optionName: null },
      { fieldUlid: notes.ulid, value: 'All green', systemKey: null, optionName: null },
    ];
    expect(response.body).toEqual({ customFieldValues: expected });
    expect(await readValues(owner, run.ulid)).toEqual(expected);
  });

  it('deletes the stored rows of omitted visible fields (defaults show again)', async () => {
    const { owner, run, tier, signedOff, notes, gold } = await scenario();
    await putValues(owner, run.ulid, [
      { fieldUlid: tier.ulid, value: gold },
      { fieldUlid: signedOff.ulid, value: false },
      { fieldUlid: notes.ulid, value: 'x' },
    ]);
    const response = await putValues(owner, run.ulid, [{ fieldUlid: notes.ulid, value: 'y' }]);
    expect(response.body.customFieldValues.map((entry: Value) => entry.value)).toEqual([null, true, 'y']);
    const emptied = await putValues(owner, run.ulid, []);
    expect(emptied.body.customFieldValues.map((entry: Value) => entry.value)).toEqual([null, true, null]);
  });

  it('keeps the rows of fields no longer visible in the project', async () => {
    const { owner, run, notes } = await scenario();
    const other = await createProject(t.http, owner);
    await putValues(owner, run.ulid, [{ fieldUlid: notes.ulid, value: 'kept' }]);
    const fieldPath = `/api/v1/orgs/${owner.orgId}/custom-fields/${notes.ulid}`;
    expect(
      (
        await t.http
          .patch(fieldPath)
          .set(owner.headers)
          .send({ projectUlids: [other.ulid] })
      ).status,
    ).toBe(200);
    const replaced = await putValues(owner, run.ulid, []);
    expect(replaced.body.customFieldValues.map((entry: Value) => entry.fieldUlid)).not.toContain(notes.ulid);
    // Writing a field that is not visible in the run's project is refused.
    expectError(await putValues(owner, run.ulid, [{ fieldUlid: notes.ulid, value: 'again' }]), 404, 'not_found');
    expect((await t.http.patch(fieldPath).set(owner.headers).send({ allProjects: true })).status).toBe(200);
    expect((await readValues(owner, run.ulid)).find((entry) => entry.fieldUlid === notes.ulid)!.value).toBe('kept');
  });

  it('folds a changed set into one run.updated (customFieldChanges); an identical set records nothing', async () => {
    const { owner, run, tier, signedOff, gold, silver } = await scenario();
    await putValues(owner, run.ulid, [{ fieldUlid: tier.ulid, value: gold }]);
    const before = await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers);
    expect(before.body.updatedAt).toBeGreaterThanOrEqual(run.updatedAt as number);
    const changed = await putValues(owner, run.ulid, [
      { fieldUlid: tier.ulid, value: silver },
      { fieldUlid: signedOff.ulid, value: false },
    ]);
    expect(changed.status).toBe(200);
    const events = await auditEvents(t.http, owner, { action: 'run.updated' });
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ entityType: 'test_run', entityUlid: run.ulid, entityLabel: run.name, runUlid: run.ulid });
    expect(events[0]!.metadata).toEqual({
      customFieldChanges: [
        { fieldUlid: tier.ulid, fieldLabel: 'Tier', from: gold, to: silver },
        { fieldUlid: signedOff.ulid, fieldLabel: 'Signed off', from: null, to: false },
      ],
    });
    const updatedAt = (await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers)).body.updatedAt;
    const same = await putValues(owner, run.ulid, [
      { fieldUlid: signedOff.ulid, value: 'false' },
      { fieldUlid: tier.ulid, value: silver },
    ]);
    expect(same.status).toBe(200);
    expect(await auditEvents(t.http, owner, { action: 'run.updated' })).toHaveLength(2);
    expect((await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers)).body.updatedAt).toBe(updatedAt);
  });

  it('validates every value (422), refuses unknown, test-case and invisible fields and non-members (404), and writes nothing', async () => {
    const { owner, run, tier, notes, gold } = await scenario();
    const caseField = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/custom-fields`)
      .set(owner.headers)
      .send({ entity: 'test_case', valueType: 'paragraph', title: 'Case only' });
    const picker = await createRunField(t.http, owner, { valueType: 'user_picker', title: 'Owner' });
    const stranger = await signUp(t.http);
    await putValues(owner, run.ulid, [{ fieldUlid: tier.ulid, value: gold }]);

    const invalid = await putValues(owner, run.ulid, [
      { fieldUlid: notes.ulid, value: 'ok' },
      { fieldUlid: tier.ulid, value: 'Gold' },
    ]);
    expectError(invalid, 422, 'validation_failed');
    expect(invalid.body.error.details.path).toEqual(['values', 1, 'value']);
    const twice = await putValues(owner, run.ulid, [
      { fieldUlid: notes.ulid, value: 'a' },
      { fieldUlid: notes.ulid, value: 'b' },
    ]);
    expectError(twice, 422, 'validation_failed');
    expectError(await t.http.put(`/api/v1/runs/${run.ulid}/custom-field-values`).set(owner.headers).send({}), 422, 'validation_failed');
    expectError(await putValues(owner, run.ulid, [{ fieldUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', value: 'x' }]), 404, 'not_found');
    expectError(await putValues(owner, run.ulid, [{ fieldUlid: caseField.body.field.ulid, value: 'x' }]), 404, 'not_found');
    expectError(await putValues(owner, run.ulid, [{ fieldUlid: picker.ulid, value: stranger.userId }]), 404, 'not_found');
    expect((await readValues(owner, run.ulid)).find((entry) => entry.fieldUlid === tier.ulid)!.value).toBe(gold);
    expect(await auditEvents(t.http, owner, { action: 'run.updated' })).toHaveLength(1);
  });

  it('is refused to viewers (403) and on aborted runs (409), allowed on closed ones; 404 for unknown runs', async () => {
    const { owner, code, run, notes } = await scenario();
    const viewer = await joinAs(t.http, owner, 'viewer');
    const member = await joinAs(t.http, owner, 'member');
    expectError(await putValues(viewer, run.ulid, [{ fieldUlid: notes.ulid, value: 'x' }]), 403, 'forbidden');
    expect((await t.http.post(`/api/v1/runs/${run.ulid}/close`).set(owner.headers)).status).toBe(200);
    expect((await putValues(member, run.ulid, [{ fieldUlid: notes.ulid, value: 'after close' }])).status).toBe(200);
    const aborted = await createRun(t.http, owner, code, { caseUlids: [] });
    expect((await t.http.post(`/api/v1/runs/${aborted.ulid}/abort`).set(owner.headers)).status).toBe(200);
    expectError(await putValues(owner, aborted.ulid, [{ fieldUlid: notes.ulid, value: 'x' }]), 409, 'conflict');
    expectError(await putValues(owner, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', []), 404, 'not_found');
  });
});
