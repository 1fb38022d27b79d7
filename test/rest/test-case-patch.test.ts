import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import {
  auditEvents,
  type Caller,
  createMilestone,
  createProject,
  createSuite,
  joinAs,
  ownerWithProject,
  useTestApp,
} from '../support/app.ts';

const t = useTestApp();

type Step = { ulid: string; position: number; action: string; expectedResult: string | null };
type TestCase = {
  ulid: string;
  title: string;
  description: string | null;
  suiteUlid: string | null;
  milestoneUlid: string | null;
  tags: string[];
  steps: Step[];
  customFieldValues: Array<{ fieldUlid: string; value: unknown }>;
  updatedAt: number;
};
/** The events recorded for the case after its creation, newest first. */
const updatesOf = async (caller: Caller, entityUlid: string) =>
  (await auditEvents(t.http, caller, { entityUlid })).filter((event) => event.action !== 'test_case.created');

async function createCase(caller: Caller, code: string, body: Record<string, unknown> = {}): Promise<TestCase> {
  const response = await t.http
    .post(`/api/v1/projects/${code}/test-cases`)
    .set(caller.headers)
    .send({ title: 'Original', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as TestCase;
}

async function readCase(caller: Caller, ulid: string): Promise<TestCase> {
  const response = await t.http.get(`/api/v1/test-cases/${ulid}`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body as TestCase;
}

const patch = (caller: Caller, ulid: string, body: unknown) =>
  t.http
    .patch(`/api/v1/test-cases/${ulid}`)
    .set(caller.headers)
    .send(body as object);

/** Definitions are the custom-fields module's API; here they are fixtures. */
async function field(caller: Caller, valueType: 'paragraph' | 'checkbox', titleEn: string) {
  return prisma().customField.create({
    data: { id: newId(), orgId: caller.orgId, entity: 'test_case', group: 'custom', valueType, titleEn, position: 100 },
  });
}

const valueIn = (testCase: TestCase, fieldUlid: string) => testCase.customFieldValues.find((entry) => entry.fieldUlid === fieldUlid)?.value;

describe('PATCH /api/v1/test-cases/{caseUlid}: scalars', () => {
  it('updates scalars with one test_case.updated event listing only the changed fields', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const milestone = await createMilestone(t.http, owner, code, { name: 'Beta' });
    const testCase = await createCase(owner, code, { description: 'Same', tags: ['a', 'b'] });
    const response = await patch(owner, testCase.ulid, {
      patch: { title: 'Renamed', description: 'Same', milestoneUlid: milestone.ulid, tags: ['b', 'c', 'c'] },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ title: 'Renamed', description: 'Same', milestoneUlid: milestone.ulid, tags: ['b', 'c'] });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(testCase.updatedAt);
    expect(await readCase(owner, testCase.ulid)).toEqual(response.body);

    const events = await updatesOf(owner, testCase.ulid);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'test_case.updated', entityType: 'test_case', entityLabel: `${code}-1 · Renamed` });
    expect(events[0]!.metadata).toEqual({
      changes: [
        { field: 'title', from: 'Original', to: 'Renamed' },
        { field: 'milestoneUlid', from: null, to: milestone.ulid, fromLabel: null, toLabel: 'Beta' },
        // Tags are recorded as one comma-separated scalar.
        { field: 'tags', from: 'a, b', to: 'b, c' },
      ],
    });
  });

  it('records test_case.moved instead when suiteUlid changes, with the same metadata buckets', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const from = await createSuite(t.http, owner, code, { name: 'Checkout' });
    const to = await createSuite(t.http, owner, code, { name: 'Payments' });
    const testCase = await createCase(owner, code, { suiteUlid: from.ulid });
    const response = await patch(owner, testCase.ulid, { patch: { suiteUlid: to.ulid, title: 'Moved' } });
    expect(response.status).toBe(200);
    expect(response.body.suiteUlid).toBe(to.ulid);
    const events = await updatesOf(owner, testCase.ulid);
    expect(events.map((event) => event.action)).toEqual(['test_case.moved']);
    expect(events[0]!.metadata).toEqual({
      changes: [
        { field: 'title', from: 'Original', to: 'Moved' },
        { field: 'suiteUlid', from: from.ulid, to: to.ulid, fromLabel: 'Checkout', toLabel: 'Payments' },
      ],
    });

    const unassigned = await patch(owner, testCase.ulid, { patch: { suiteUlid: null } });
    expect(unassigned.body.suiteUlid).toBeNull();
    expect((await updatesOf(owner, testCase.ulid))[0]).toMatchObject({ action: 'test_case.moved' });
  });

  it('answers 404 for a suite or milestone that is not live in the project and changes nothing', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const other = await createProject(t.http, owner);
    const foreignSuite = await createSuite(t.http, owner, other.id, { name: 'Elsewhere' });
    const gone = await createMilestone(t.http, owner, code, { name: 'Gone' });
    expect((await t.http.delete(`/api/v1/milestones/${gone.ulid}`).set(owner.headers)).status).toBe(204);
    const testCase = await createCase(owner, code);
    for (const body of [
      { patch: { title: 'Nope', suiteUlid: foreignSuite.ulid } },
      { patch: { title: 'Nope', milestoneUlid: gone.ulid } },
      { patch: { title: 'Nope', milestoneUlid: newId() } },
    ]) {
      const response = await patch(owner, testCase.ulid, body);
      expect(response.status, JSON.stringify(body)).toBe(404);
    }
    expect(await readCase(owner, testCase.ulid)).toEqual(testCase);
    expect(await updatesOf(owner, testCase.ulid)).toEqual([]);
  });

  it('answers 200 with no event when nothing changes', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const notes = await field(owner, 'paragraph', 'Notes');
    const testCase = await createCase(owner, code, {
      tags: ['x'],
      steps: [{ action: 'One', expectedResult: 'Ok' }],
      customFieldValues: [{ fieldUlid: notes.id, value: 'kept' }],
    });
    const response = await patch(owner, testCase.ulid, {
      patch: { title: 'Original', tags: ['x'], suiteUlid: null, description: null },
      steps: [{ ulid: testCase.steps[0]!.ulid, action: 'One', expectedResult: 'Ok' }],
      customFieldValues: [{ fieldUlid: notes.id, value: 'kept' }],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(testCase);
    expect(await updatesOf(owner, testCase.ulid)).toEqual([]);
  });

  it('validates the body: at least one key, no empty patch, no unknown keys', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    for (const [body, path] of [
      [{}, []],
      [{ patch: {} }, ['patch']],
      [{ patch: { title: '' } }, ['patch', 'title']],
      [{ patch: { caseNumber: 9 } }, ['patch', 'caseNumber']],
      [{ title: 'top level' }, ['title']],
      [{ steps: [{ action: 'x', bogus: 1 }] }, ['steps', 0, 'bogus']],
      [{ customFieldValues: [{ fieldUlid: 'nope', value: 1 }] }, ['customFieldValues', 0, 'fieldUlid']],
    ] as const) {
      const response = await patch(owner, testCase.ulid, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details.path).toEqual(path);
    }
    expect((await patch(owner, newId(), { patch: { title: 'x' } })).status).toBe(404);
  });
});

describe('PATCH /api/v1/test-cases/{caseUlid}: viewer', () => {
  it('refuses a viewer with 403 before any write', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const notes = await field(owner, 'paragraph', 'Notes');
    const testCase = await createCase(owner, code, { steps: [{ action: 'One' }] });
    const response = await patch(viewer, testCase.ulid, {
      patch: { title: 'By a viewer' },
      steps: [{ action: 'Replaced' }],
      customFieldValues: [{ fieldUlid: notes.id, value: 'x' }],
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
    expect(await readCase(owner, testCase.ulid)).toEqual(testCase);
    expect(await updatesOf(owner, testCase.ulid)).toEqual([]);
  });
});

describe('PATCH /api/v1/test-cases/{caseUlid}: steps and custom fields', () => {
  it('describes step edits as a detailed stepsChange', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, {
      steps: [{ action: 'A' }, { action: 'B' }, { action: 'C' }, { action: 'D', expectedResult: 'd' }],
    });
    const [a, b, c, d] = testCase.steps.map((step) => step.ulid);
    // Move C to the front, edit D's expected result, drop B, add E.
    const response = await patch(owner, testCase.ulid, {
      steps: [{ ulid: c, action: 'C' }, { ulid: a, action: 'A' }, { ulid: d, action: 'D', expectedResult: 'd2' }, { action: 'E' }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.steps.map((step: Step) => [step.ulid, step.action])).toEqual([
      [c, 'C'],
      [a, 'A'],
      [d, 'D'],
      [response.body.steps[3].ulid, 'E'],
    ]);
    const events = await updatesOf(owner, testCase.ulid);
    expect(events.map((event) => event.action)).toEqual(['test_case.updated']);
    expect(events[0]!.metadata).toEqual({
      stepsChange: {
        kind: 'detailed',
        previousCount: 4,
        nextCount: 4,
        summary: { added: 1, removed: 1, modified: 1, reordered: 1 },
        entries: [
          { ulid: c, change: 'reordered', position: 0, previousPosition: 2, action: 'C' },
          { ulid: d, change: 'modified', position: 2, fields: ['expectedResult'], action: 'D' },
          { ulid: response.body.steps[3].ulid, change: 'added', position: 3, action: 'E' },
          { ulid: b, change: 'removed', position: 1, action: 'B' },
        ],
      },
    });
  });

  it('reports a changed action with both snapshots, clipped to 240 graphemes', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Short' }] });
    const long = 'é'.repeat(300);
    const response = await patch(owner, testCase.ulid, { steps: [{ ulid: testCase.steps[0]!.ulid, action: long }] });
    expect(response.status).toBe(200);
    expect(response.body.steps[0].action).toBe(long);
    const [event] = await updatesOf(owner, testCase.ulid);
    const entry = (event!.metadata.stepsChange as { entries: Array<Record<string, unknown>> }).entries[0]!;
    expect(entry).toMatchObject({ change: 'modified', fields: ['action'], previousAction: 'Short', truncated: true });
    expect(entry.action).toBe('é'.repeat(240));
  });

  it("reports kind 'replaced' when the body names no step while the case had steps", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'One' }, { action: 'Two' }] });
    const response = await patch(owner, testCase.ulid, { steps: [{ action: 'Only' }] });
    expect(response.status).toBe(200);
    expect(response.body.steps.map((step: Step) => step.action)).toEqual(['Only']);
    expect(response.body.steps[0].ulid).not.toBe(testCase.steps[0]!.ulid);
    const [event] = await updatesOf(owner, testCase.ulid);
    expect(event!.metadata).toEqual({ stepsChange: { kind: 'replaced', previousCount: 2, nextCount: 1 } });
  });

  it('keeps 20 entries and counts the rest in omittedCount', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code);
    const response = await patch(owner, testCase.ulid, { steps: Array.from({ length: 25 }, (_, index) => ({ action: `Step ${index}` })) });
    expect(response.status).toBe(200);
    const [event] = await updatesOf(owner, testCase.ulid);
    const stepsChange = event!.metadata.stepsChange as Record<string, unknown> & { entries: unknown[] };
    expect(stepsChange).toMatchObject({
      kind: 'detailed',
      previousCount: 0,
      nextCount: 25,
      summary: { added: 25, removed: 0, modified: 0, reordered: 0 },
      omittedCount: 5,
    });
    expect(stepsChange.entries).toHaveLength(20);
  });

  it('merges custom field values and records customFieldChanges', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const notes = await field(owner, 'paragraph', 'Notes');
    const flaky = await field(owner, 'checkbox', 'Flaky');
    const testCase = await createCase(owner, code, { customFieldValues: [{ fieldUlid: notes.id, value: 'before' }] });
    const response = await patch(owner, testCase.ulid, { customFieldValues: [{ fieldUlid: flaky.id, value: 'true' }] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(valueIn(response.body, flaky.id)).toBe(true);
    expect(valueIn(response.body, notes.id)).toBe('before');
    const [event] = await updatesOf(owner, testCase.ulid);
    expect(event).toMatchObject({ action: 'test_case.updated' });
    expect(event!.metadata).toEqual({ customFieldChanges: [{ fieldUlid: flaky.id, fieldLabel: 'Flaky', from: null, to: true }] });
  });

  it('applies scalars, steps and values together with exactly one event holding every bucket', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const suite = await createSuite(t.http, owner, code, { name: 'Target' });
    const notes = await field(owner, 'paragraph', 'Notes');
    const testCase = await createCase(owner, code, { steps: [{ action: 'One' }] });
    const response = await patch(owner, testCase.ulid, {
      patch: { title: 'All at once', suiteUlid: suite.ulid },
      steps: [{ ulid: testCase.steps[0]!.ulid, action: 'One' }, { action: 'Two' }],
      customFieldValues: [{ fieldUlid: notes.id, value: 'written' }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const events = await updatesOf(owner, testCase.ulid);
    expect(events).toHaveLength(1);
    expect(events[0]!.action).toBe('test_case.moved');
    expect(Object.keys(events[0]!.metadata).sort()).toEqual(['changes', 'customFieldChanges', 'stepsChange']);
    expect(events[0]!.metadata.stepsChange).toMatchObject({
      kind: 'detailed',
      summary: { added: 1, removed: 0, modified: 0, reordered: 0 },
    });
  });
});

describe('PATCH /api/v1/test-cases/{caseUlid}: atomicity', () => {
  it('writes nothing and records nothing when the custom field values fail after valid title and steps', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const notes = await field(owner, 'paragraph', 'Notes');
    const testCase = await createCase(owner, code, { steps: [{ action: 'One' }, { action: 'Two' }] });
    const response = await patch(owner, testCase.ulid, {
      patch: { title: 'Should not stick', tags: ['nope'] },
      steps: [{ action: 'Replacement' }],
      customFieldValues: [
        { fieldUlid: notes.id, value: 'fine' },
        { fieldUlid: notes.id, value: 'listed twice' },
      ],
    });
    expect(response.status).toBe(422);
    const invalid = await patch(owner, testCase.ulid, {
      patch: { title: 'Should not stick' },
      steps: [{ action: 'Replacement' }],
      customFieldValues: [{ fieldUlid: notes.id, value: { not: 'a string' } }],
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.path).toEqual(['customFieldValues', 0, 'value']);
    const unknownField = await patch(owner, testCase.ulid, {
      patch: { title: 'Should not stick' },
      customFieldValues: [{ fieldUlid: newId(), value: 'x' }],
    });
    expect(unknownField.status).toBe(404);

    const after = await readCase(owner, testCase.ulid);
    expect(after).toEqual(testCase);
    expect(after.title).toBe('Original');
    expect(after.steps.map((step) => step.action)).toEqual(['One', 'Two']);
    expect(await prisma().testCaseStep.count({ where: { caseId: testCase.ulid } })).toBe(2);
    expect(await updatesOf(owner, testCase.ulid)).toEqual([]);
  });

  it('writes nothing when a step names a step of another case', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await createCase(owner, code, { steps: [{ action: 'Mine' }] });
    const other = await createCase(owner, code, { steps: [{ action: 'Theirs' }] });
    const response = await patch(owner, testCase.ulid, {
      patch: { title: 'Should not stick' },
      steps: [{ ulid: other.steps[0]!.ulid, action: 'Stolen' }],
    });
    expect(response.status).toBe(404);
    expect(await readCase(owner, testCase.ulid)).toEqual(testCase);
    expect(await readCase(owner, other.ulid)).toEqual(other);
    expect(await updatesOf(owner, testCase.ulid)).toEqual([]);
  });
});
