import { describe, expect, it } from 'vitest';
import { type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCases, createRun, createRunField, type RunBody } from '../support/runs.ts';

const t = useTestApp();

async function markAll(caller: Caller, run: RunBody, status: string) {
  const cases = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(caller.headers);
  for (const each of cases.body.items as Array<{ ulid: string }>) {
    const response = await t.http.patch(`/api/v1/runs/${run.ulid}/cases/${each.ulid}`).set(caller.headers).send({ status });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
}

async function putValues(caller: Caller, run: RunBody, values: Array<{ fieldUlid: string; value: unknown }>) {
  const response = await t.http.put(`/api/v1/runs/${run.ulid}/custom-field-values`).set(caller.headers).send({ values });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/**
 * Five runs, oldest first: A failed (linked to Staging, default assignee, Gold, checked, Web+iOS),
 * B passed (token-authored, legacy "QA, Berlin", Silver, unchecked, owner picked), C in progress
 * (nothing), D in progress (legacy "staging" linked to Staging, iOS), E aborted (legacy blank text).
 */
async function fixture() {
  const { owner, project, code } = await ownerWithProject(t.http);
  const member = await joinAs(t.http, owner, 'member');
  const token = await tokenFor(t.http, owner);
  const staging = await t.http.post(`/api/v1/projects/${code}/environments`).set(owner.headers).send({ name: 'Staging' });
  const [first, second] = await createCases(t.http, owner, code, 2);
  const tier = await createRunField(t.http, owner, {
    valueType: 'select_single',
    title: 'Tier',
    options: [{ name: 'Gold' }, { name: 'Silver' }],
  });
  const smoke = await createRunField(t.http, owner, { valueType: 'checkbox', title: 'Smoke' });
  const picker = await createRunField(t.http, owner, { valueType: 'user_picker', title: 'Owner' });
  const platforms = await createRunField(t.http, owner, {
    valueType: 'select_multi',
    title: 'Platforms',
    options: [{ name: 'Web' }, { name: 'iOS' }],
  });
  const notes = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Notes' });
  const [gold, silver] = tier.options.map((option) => option.ulid);
  const [web, ios] = platforms.options.map((option) => option.ulid);

  const a = await createRun(t.http, owner, code, {
    name: 'Nightly Chrome',
    caseUlids: [first!.ulid],
    environmentId: staging.body.ulid,
    defaultAssigneeUlid: member.userId,
    customFieldValues: [
      { fieldUlid: tier.ulid, value: gold },
      { fieldUlid: smoke.ulid, value: true },
      { fieldUlid: platforms.ulid, value: [web, ios] },
    ],
  });
  await markAll(owner, a, 'failed');
  const b = await createRun(t.http, token, code, { name: 'Smoke', caseUlids: [second!.ulid], environment: 'QA, Berlin' });
  await markAll(owner, b, 'passed');
  await putValues(owner, b, [
    { fieldUlid: tier.ulid, value: silver },
    { fieldUlid: smoke.ulid, value: false },
    { fieldUlid: picker.ulid, value: owner.userId },
  ]);
  const c = await createRun(t.http, owner, code, { name: 'Release candidate', caseUlids: [first!.ulid] });
  const d = await createRun(t.http, owner, code, { name: 'Hotfix', caseUlids: [], environment: 'staging' });
  await putValues(owner, d, [{ fieldUlid: platforms.ulid, value: [ios] }]);
  const e = await createRun(t.http, owner, code, { name: 'Abandoned', caseUlids: [], environment: '   ' });
  expect((await t.http.post(`/api/v1/runs/${e.ulid}/abort`).set(owner.headers)).status).toBe(200);

  const names = async (query: string, caller: Caller = owner) => {
    const response = await t.http.get(`/api/v1/projects/${code}/runs${query}`).set(caller.headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.total).toBe(response.body.items.length);
    return (response.body.items as Array<{ name: string }>).map((item) => item.name);
  };
  return {
    owner,
    member,
    project,
    code,
    names,
    staging: staging.body.ulid as string,
    fields: { tier: tier.ulid, smoke: smoke.ulid, picker: picker.ulid, platforms: platforms.ulid, notes: notes.ulid },
    options: { gold, silver, web, ios },
    runs: { a, b, c, d, e },
  };
}

const ALL = ['Abandoned', 'Hotfix', 'Release candidate', 'Smoke', 'Nightly Chrome'];

describe('GET /api/v1/projects/{projectId}/runs', () => {
  it('pages the runs most recent first (pageSize 50 by default) as RunResponse items without customFieldValues', async () => {
    const { owner, code, names, runs } = await fixture();
    expect(await names('')).toEqual(ALL);
    const first = await t.http.get(`/api/v1/projects/${code}/runs`).set(owner.headers);
    expect(first.body).toMatchObject({ page: 1, pageSize: 50, total: 5 });
    const single = await t.http.get(`/api/v1/runs/${runs.a.ulid}`).set(owner.headers);
    const { customFieldValues, ...withoutValues } = single.body;
    expect(customFieldValues.length).toBeGreaterThan(0);
    expect(first.body.items[4]).toEqual(withoutValues);
    for (const item of first.body.items) expect(item).not.toHaveProperty('customFieldValues');

    const second = await t.http.get(`/api/v1/projects/${code}/runs?pageSize=2&page=2`).set(owner.headers);
    expect(second.body).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(second.body.items.map((item: { name: string }) => item.name)).toEqual(['Release candidate', 'Smoke']);
    const past = await t.http.get(`/api/v1/projects/${code}/runs?page=9`).set(owner.headers);
    expect(past.body).toMatchObject({ items: [], total: 5 });
    for (const query of ['pageSize=0', 'pageSize=201', 'page=0', 'page=1.5']) {
      expectError(await t.http.get(`/api/v1/projects/${code}/runs?${query}`).set(owner.headers), 422, 'validation_failed');
    }
  });

  it('q matches the run name, the legacy environment text and the linked environment name, case-insensitively', async () => {
    const { names } = await fixture();
    expect(await names('?q=NIGHT')).toEqual(['Nightly Chrome']);
    expect(await names('?q=berlin')).toEqual(['Smoke']);
    expect(await names('?q=stag')).toEqual(['Hotfix', 'Nightly Chrome']);
    expect(await names('?q=%25')).toEqual([]);
    expect(await names('?q=stag&status=failed')).toEqual(['Nightly Chrome']);
  });

  it('status filters by projected status (CSV or repeated); aborted runs match none; unknown values are 422', async () => {
    const { owner, code, names } = await fixture();
    expect(await names('?status=failed')).toEqual(['Nightly Chrome']);
    expect(await names('?status=passed')).toEqual(['Smoke']);
    expect(await names('?status=in_progress')).toEqual(['Hotfix', 'Release candidate']);
    expect(await names('?status=passed,failed')).toEqual(['Smoke', 'Nightly Chrome']);
    expect(await names('?status=passed&status=in_progress')).toEqual(['Hotfix', 'Release candidate', 'Smoke']);
    expect(await names('?status=in_progress,passed,failed')).toEqual(ALL.slice(1));
    const bad = await t.http.get(`/api/v1/projects/${code}/runs?status=aborted`).set(owner.headers);
    expectError(bad, 422, 'validation_failed');
    expect(bad.body.error.details.path).toEqual(['status', 0]);
  });

  it('env: a ULID matches the linked environment, free text the legacy text exactly; repeated values OR, commas stay', async () => {
    const { names, staging } = await fixture();
    expect(await names(`?env=${staging}`)).toEqual(['Hotfix', 'Nightly Chrome']);
    expect(await names('?env=staging')).toEqual(['Hotfix']);
    expect(await names('?env=Staging')).toEqual([]);
    expect(await names(`?env=${encodeURIComponent('QA, Berlin')}`)).toEqual(['Smoke']);
    expect(await names('?env=QA')).toEqual([]);
    expect(await names('?env=')).toEqual(ALL);
    expect(await names(`?env=${staging}&env=${encodeURIComponent('QA, Berlin')}`)).toEqual(['Hotfix', 'Smoke', 'Nightly Chrome']);
  });

  it('authorUlid keeps runs a user created in a session, never token-authored ones', async () => {
    const { owner, member, names } = await fixture();
    expect(await names(`?authorUlid=${owner.userId}`)).toEqual(['Abandoned', 'Hotfix', 'Release candidate', 'Nightly Chrome']);
    expect(await names(`?authorUlid=${member.userId}`)).toEqual([]);
    expect(await names(`?authorUlid=${owner.userId}&status=passed`)).toEqual([]);
  });

  it('assigneeUlid keeps runs with that default assignee; empty keeps runs without one', async () => {
    const { member, names } = await fixture();
    expect(await names(`?assigneeUlid=${member.userId}`)).toEqual(['Nightly Chrome']);
    expect(await names('?assigneeUlid=')).toEqual(ALL.slice(0, 4));
  });

  it('cf: values OR within an entry, entries AND; option, checkbox, user_picker and empty tokens', async () => {
    const { owner, names, fields, options } = await fixture();
    expect(await names(`?cf=${fields.tier}:${options.gold}`)).toEqual(['Nightly Chrome']);
    expect(await names(`?cf=${fields.tier}:${options.gold},${options.silver}`)).toEqual(['Smoke', 'Nightly Chrome']);
    expect(await names(`?cf=${fields.tier}:empty`)).toEqual(['Abandoned', 'Hotfix', 'Release candidate']);
    expect(await names(`?cf=${fields.tier}:${options.gold},empty`)).toEqual(['Abandoned', 'Hotfix', 'Release candidate', 'Nightly Chrome']);
    expect(await names(`?cf=${fields.smoke}:false`)).toEqual(['Smoke']);
    expect(await names(`?cf=${fields.smoke}:true`)).toEqual(['Nightly Chrome']);
    expect(await names(`?cf=${fields.tier}:${options.silver}&cf=${fields.smoke}:false`)).toEqual(['Smoke']);
    expect(await names(`?cf=${fields.tier}:${options.gold}&cf=${fields.smoke}:false`)).toEqual([]);
    expect(await names(`?cf=${fields.platforms}:${options.ios}`)).toEqual(['Hotfix', 'Nightly Chrome']);
    expect(await names(`?cf=${fields.platforms}:${options.web}`)).toEqual(['Nightly Chrome']);
    expect(await names(`?cf=${fields.picker}:${owner.userId}`)).toEqual(['Smoke']);
    expect(await names(`?cf=${fields.tier}:01JD3Z8Q4V5W6X7Y8Z9A0B1C2D`)).toEqual([]);
    expect(await names(`?cf=${fields.platforms}:${options.ios}&status=in_progress`)).toEqual(['Hotfix']);
  });

  it('cf matches stored values only: a materialized default never matches', async () => {
    const { owner, code, names, runs } = await fixture();
    const required = await createRunField(t.http, owner, {
      valueType: 'checkbox',
      title: 'Signed off',
      isRequired: true,
      defaultValue: true,
    });
    const read = await t.http.get(`/api/v1/runs/${runs.c.ulid}`).set(owner.headers);
    expect(read.body.customFieldValues.find((each: { fieldUlid: string }) => each.fieldUlid === required.ulid).value).toBe(true);
    expect(await names(`?cf=${required.ulid}:true`)).toEqual([]);
    expect(await names(`?cf=${required.ulid}:empty`)).toEqual(ALL);
    await createRun(t.http, owner, code, { name: 'Newest', caseUlids: [] });
    expect(await names(`?cf=${required.ulid}:true`)).toEqual(['Newest']);
  });

  it('answers 422 for a malformed cf entry, naming it in details.path', async () => {
    const { owner, code, fields } = await fixture();
    const malformed = [
      'nonsense',
      `${fields.tier}:`,
      `${fields.tier}:empty,,empty`,
      'tier:empty',
      '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D:empty',
      `${fields.smoke}:yes`,
      `${fields.tier}:Gold`,
      `${fields.notes}:hello`,
    ];
    for (const entry of malformed) {
      const response = await t.http
        .get(`/api/v1/projects/${code}/runs?cf=${fields.smoke}:true&cf=${encodeURIComponent(entry)}`)
        .set(owner.headers);
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path, entry).toEqual(['cf', 1]);
    }
  });

  it('answers viewers; 404 for an unknown project or one of another organization', async () => {
    const { owner, code } = await fixture();
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect((await t.http.get(`/api/v1/projects/${code}/runs`).set(viewer.headers)).body.total).toBe(5);
    expectError(await t.http.get('/api/v1/projects/NOPE/runs').set(owner.headers), 404, 'not_found');
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/projects/${code}/runs`).set(stranger.headers), 404, 'not_found');
  });
});

describe('GET /api/v1/projects/{projectId}/runs/environments (deprecated)', () => {
  it('lists the distinct non-blank legacy environment texts of the project, ascending', async () => {
    const { owner, code } = await fixture();
    await createRun(t.http, owner, code, { caseUlids: [], environment: 'staging' });
    const other = await createProject(t.http, owner);
    await createRun(t.http, owner, other.id, { caseUlids: [], environment: 'Elsewhere' });
    const response = await t.http.get(`/api/v1/projects/${code}/runs/environments`).set(owner.headers);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: ['QA, Berlin', 'staging'] });
    const empty = await ownerWithProject(t.http);
    expect((await t.http.get(`/api/v1/projects/${empty.code}/runs/environments`).set(empty.owner.headers)).body).toEqual({ items: [] });
  });
});
