import { describe, expect, it } from 'vitest';
import { fileStorage } from '../../src/foundation/storage/file-storage.ts';
import { newId } from '../../src/kernel/ids.ts';
import { grant, setAccessMode } from '../support/access-fixtures.ts';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';
import { createCase, createRun } from '../support/runs.ts';
import * as uploads from '../support/uploads.ts';
import { filesUnder, type UploadPart, usedBytes } from '../support/uploads.ts';

const t = useTestApp();

type Step = { ulid: string; position: number; action: string };
type RunCase = { ulid: string; displayId: string; title: string; steps: Step[] };
type Attachment = {
  ulid: string;
  resultUlid: string;
  stepUlid: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  createdAt: number;
};

/**
 * An owner, a run of two cases (so that marking one leaves the run open), the first titled
 * "Checkout" with two steps, and one failed result of it.
 */
async function scenario() {
  const { owner, code, project } = await ownerWithProject(t.http);
  const first = await createCase(t.http, owner, code, { title: 'Checkout', steps: [{ action: 'Open cart' }, { action: 'Pay' }] });
  const second = await createCase(t.http, owner, code, { title: 'Refund' });
  const run = await createRun(t.http, owner, code, { caseUlids: [first.ulid, second.ulid] });
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
  const [runCase, otherCase] = listed.body.items as RunCase[];
  const resultUlid = await mark(owner, run.ulid, runCase!.ulid, 'failed');
  return { owner, code, project, run, runCase: runCase!, otherCase: otherCase!, resultUlid };
}

async function mark(caller: Caller, runUlid: string, runCaseUlid: string, status: string): Promise<string> {
  const marked = await t.http.patch(`/api/v1/runs/${runUlid}/cases/${runCaseUlid}`).set(caller.headers).send({ status });
  expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  return marked.body.resultUlid as string;
}

type Target = { runUlid: string; runCaseUlid: string; resultUlid: string };
const base = (target: Target) => `/api/v1/runs/${target.runUlid}/cases/${target.runCaseUlid}/results/${target.resultUlid}/attachments`;

function stage(caller: Caller, target: Target, files: UploadPart[]) {
  let request = t.http.post(`${base(target)}:stage`).set(caller.headers);
  for (const file of files) request = request.attach('file', file.bytes, { filename: file.name, contentType: file.type ?? 'image/png' });
  return request;
}

const commit = (caller: Caller, target: Target, body: Record<string, unknown>) => t.http.post(base(target)).set(caller.headers).send(body);

async function stagedKeys(caller: Caller, target: Target, files: UploadPart[]): Promise<string[]> {
  const response = await stage(caller, target, files);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body.items as Array<{ key: string }>).map((item) => item.key);
}

/** Stages `files` and commits them (at `stepUlid` when given); the committed attachments. */
async function attach(caller: Caller, target: Target, files: UploadPart[], stepUlid?: string): Promise<Attachment[]> {
  const keys = await stagedKeys(caller, target, files);
  const response = await commit(caller, target, { attachments: keys.map((key) => ({ key })), ...(stepUlid ? { stepUlid } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.items as Attachment[];
}

const file = (name: string, text: string, type = 'text/plain'): UploadPart => ({ name, bytes: Buffer.from(text), type });

describe('result attachments', () => {
  it('stages, commits at a step, lists them on the run-case detail, serves the bytes and records the commit', async () => {
    const { owner, run, runCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const step = runCase.steps[1]!;
    const keys = await stagedKeys(owner, target, [file('trace.log', 'stack trace'), file('shot.png', 'png bytes', 'image/png')]);
    for (const key of keys) expect(key).toMatch(new RegExp(`^staging/${owner.orgId}/[0-9A-HJKMNP-TV-Z]{26}$`));
    expect(await usedBytes(owner.orgId)).toBe(20);

    const committed = await commit(owner, target, { attachments: keys.map((key) => ({ key })), stepUlid: step.ulid });
    expect(committed.status, JSON.stringify(committed.body)).toBe(201);
    const items = committed.body.items as Attachment[];
    expect(items.map((item) => [item.resultUlid, item.stepUlid, item.fileName, item.contentType, item.sizeBytes])).toEqual([
      [resultUlid, step.ulid, 'trace.log', 'text/plain', 11],
      [resultUlid, step.ulid, 'shot.png', 'image/png', 9],
    ]);
    // The staged bytes became the attachments': charged once; the staged copies are gone.
    expect(await usedBytes(owner.orgId)).toBe(20);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([]);
    expect(await filesUnder(`attachments/${owner.orgId}/${run.ulid}/`)).toHaveLength(2);

    const detail = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(owner.headers);
    expect(detail.status).toBe(200);
    expect(detail.body.attachments).toEqual(items);

    const download = await t.http
      .get(`${base(target)}/${items[0]!.ulid}`)
      .set(owner.headers)
      .buffer(true);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/plain/);
    expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''trace.log");
    expect(download.text).toBe('stack trace');

    const [event] = await auditEvents(t.http, owner, { action: 'run.result_attachment_committed' });
    expect(event).toMatchObject({
      entityType: 'test_run_case_step',
      entityUlid: step.ulid,
      entityLabel: `${runCase.displayId} · Checkout — Pay`,
      runUlid: run.ulid,
    });
    expect(event!.metadata).toEqual({
      caseDisplayId: runCase.displayId,
      titleSnapshot: 'Checkout',
      stepUlid: step.ulid,
      stepPosition: step.position,
      attachments: items.map(({ ulid, fileName, contentType, sizeBytes }) => ({ ulid, fileName, contentType, sizeBytes })),
    });
  });

  it('attaches to the attempt as a whole without a step, after those it holds, across the case results', async () => {
    const { owner, run, runCase, resultUlid } = await scenario();
    const first = await attach(owner, { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid }, [file('a.txt', 'a')]);
    const retest = await mark(owner, run.ulid, runCase.ulid, 'passed');
    const second = await attach(owner, { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid: retest }, [
      file('b.txt', 'b'),
      file('c.txt', 'c'),
    ]);
    const more = await attach(owner, { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid }, [file('d.txt', 'd')]);
    expect(first[0]!.stepUlid).toBeNull();

    const detail = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(owner.headers);
    // By result in history order, then in their order within it.
    expect(detail.body.attachments.map((item: Attachment) => item.fileName)).toEqual(['a.txt', 'd.txt', 'b.txt', 'c.txt']);
    expect(detail.body.attachments.map((item: Attachment) => item.ulid)).toEqual([
      first[0]!.ulid,
      more[0]!.ulid,
      ...second.map((item) => item.ulid),
    ]);

    const events = await auditEvents(t.http, owner, { action: 'run.result_attachment_committed' });
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({
      entityType: 'test_run_case',
      entityUlid: runCase.ulid,
      entityLabel: `${runCase.displayId} · Checkout`,
      runUlid: run.ulid,
    });
    expect(events[2]!.metadata).toEqual({
      caseDisplayId: runCase.displayId,
      titleSnapshot: 'Checkout',
      stepUlid: null,
      stepPosition: null,
      attachments: [{ ulid: first[0]!.ulid, fileName: 'a.txt', contentType: 'text/plain', sizeBytes: 1 }],
    });
  });

  it('keeps a UTF-8 file name, and clips a long one by graphemes in the event, flagging the entry truncated', async () => {
    const { owner, run, runCase, resultUlid } = await scenario();
    const name = `${'é'.repeat(300)}.txt`;
    const [item] = await attach(owner, { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid }, [file(name, 'x')]);
    expect(item!.fileName).toBe(name);
    const [event] = await auditEvents(t.http, owner, { action: 'run.result_attachment_committed' });
    expect(event!.metadata.attachments).toEqual([
      { ulid: item!.ulid, fileName: 'é'.repeat(240), contentType: 'text/plain', sizeBytes: 1, truncated: true },
    ]);
  });

  it('answers 409 staging_already_committed for a key committed before, to a result or to a step', async () => {
    const { owner, code, run, runCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const [key] = await stagedKeys(owner, target, [file('a.txt', 'a')]);
    expect((await commit(owner, target, { attachments: [{ key }] })).status).toBe(201);
    expectError(await commit(owner, target, { attachments: [{ key }] }), 409, 'staging_already_committed');

    const testCase = await uploads.newCase(t.http, owner, code);
    const steps = testCase.steps.map((step, index) => ({
      ulid: step.ulid,
      action: step.action,
      ...(index === 0 ? { attachments: [{ key }] } : {}),
    }));
    expectError(await uploads.putSteps(t.http, owner, testCase.ulid, steps), 409, 'staging_already_committed');

    const staged = await uploads.stage(t.http, owner, testCase.ulid, [file('s.txt', 's')]);
    const stepKey = staged.body.items[0].key as string;
    steps[0] = { ...steps[0]!, attachments: [{ key: stepKey }] };
    expect((await uploads.putSteps(t.http, owner, testCase.ulid, steps)).status).toBe(200);
    expectError(await commit(owner, target, { attachments: [{ key: stepKey }] }), 409, 'staging_already_committed');
  });

  it('refuses bad commits and writes nothing: unknown key, another tenant, step or result of another case, duplicates, over 10', async () => {
    const { owner, run, runCase, otherCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const [key] = await stagedKeys(owner, target, [file('a.txt', 'a')]);
    const stranger = await scenario();
    const [foreignKey] = await stagedKeys(
      stranger.owner,
      { runUlid: stranger.run.ulid, runCaseUlid: stranger.runCase.ulid, resultUlid: stranger.resultUlid },
      [file('f.txt', 'f')],
    );

    expectError(await commit(owner, target, { attachments: [{ key: `staging/${owner.orgId}/${newId()}` }] }), 404, 'not_found');
    expectError(await commit(owner, target, { attachments: [{ key: foreignKey }] }), 404, 'not_found');
    expectError(await commit(owner, target, { attachments: [{ key }], stepUlid: otherCase.ulid }), 404, 'not_found');
    expectError(await commit(owner, target, { attachments: [{ key }], stepUlid: stranger.runCase.steps[0]!.ulid }), 404, 'not_found');
    const otherResult = await mark(owner, run.ulid, otherCase.ulid, 'passed');
    expectError(await commit(owner, { ...target, resultUlid: otherResult }, { attachments: [{ key }] }), 404, 'not_found');
    expectError(await commit(owner, { ...target, runCaseUlid: otherCase.ulid }, { attachments: [{ key }] }), 404, 'not_found');
    const duplicate = await commit(owner, target, { attachments: [{ key }, { key }] });
    expectError(duplicate, 422, 'validation_failed');
    expectError(await commit(owner, target, { attachments: [{ key: 'attachments/x' }] }), 422, 'validation_failed');
    expectError(await commit(owner, target, { attachments: [] }), 422, 'validation_failed');

    const nine = await stagedKeys(
      owner,
      target,
      Array.from({ length: 9 }, (_, i) => file(`n${i}.txt`, 'n')),
    );
    expect((await commit(owner, target, { attachments: nine.map((each) => ({ key: each })) })).status).toBe(201);
    const [extra] = await stagedKeys(owner, target, [file('x.txt', 'x')]);
    expectError(await commit(owner, target, { attachments: [{ key }, { key: extra }] }), 422, 'too_many_attachments');
    expect((await commit(owner, target, { attachments: [{ key }] })).status).toBe(201);

    const elevenFiles = await stage(
      owner,
      target,
      Array.from({ length: 11 }, (_, i) => file(`e${i}.txt`, 'e')),
    );
    expectError(elevenFiles, 422, 'too_many_attachments');
    expect(await auditEvents(t.http, owner, { action: 'run.result_attachment_committed' })).toHaveLength(2);
  });

  it('deletes one attachment: its bytes and file go, it is recorded, and a second delete answers 404', async () => {
    const { owner, run, runCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const step = runCase.steps[0]!;
    const [kept, removed] = await attach(owner, target, [file('keep.txt', 'keep'), file('drop.txt', 'dropped')], step.ulid);
    expect(await usedBytes(owner.orgId)).toBe(11);

    expect((await t.http.delete(`${base(target)}/${removed!.ulid}`).set(owner.headers)).status).toBe(204);
    expect(await usedBytes(owner.orgId)).toBe(4);
    expect(await filesUnder(`attachments/${owner.orgId}/${run.ulid}/`)).toHaveLength(1);
    expectError(await t.http.delete(`${base(target)}/${removed!.ulid}`).set(owner.headers), 404, 'not_found');
    expectError(await t.http.get(`${base(target)}/${removed!.ulid}`).set(owner.headers), 404, 'not_found');
    const detail = await t.http.get(`/api/v1/runs/${run.ulid}/cases/${runCase.ulid}`).set(owner.headers);
    expect(detail.body.attachments.map((item: Attachment) => item.ulid)).toEqual([kept!.ulid]);

    const [event] = await auditEvents(t.http, owner, { action: 'run.result_attachment_deleted' });
    expect(event).toMatchObject({ entityType: 'test_run_case_step', entityUlid: step.ulid, runUlid: run.ulid });
    expect(event!.metadata).toEqual({
      caseDisplayId: runCase.displayId,
      titleSnapshot: 'Checkout',
      stepUlid: step.ulid,
      stepPosition: step.position,
      attachments: [{ ulid: removed!.ulid, fileName: 'drop.txt', contentType: 'text/plain', sizeBytes: 7 }],
    });
  });

  it('goes through the run gate: a viewer gets 403, an aborted or closed run 409, and nothing is stored', async () => {
    const { owner, code, run, runCase, otherCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const [attached] = await attach(owner, target, [file('a.txt', 'a')]);
    const [key] = await stagedKeys(owner, target, [file('b.txt', 'b')]);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expectError(await stage(viewer, target, [file('v.txt', 'v')]), 403, 'forbidden');
    expectError(await commit(viewer, target, { attachments: [{ key }] }), 403, 'forbidden');
    expectError(await t.http.delete(`${base(target)}/${attached!.ulid}`).set(viewer.headers), 403, 'forbidden');
    // Reading stays open to any member who can read the run.
    expect((await t.http.get(`${base(target)}/${attached!.ulid}`).set(viewer.headers)).status).toBe(200);

    // The last case with an outcome closes the run, which takes attachments while the run settings allow changes to closed runs.
    await mark(owner, run.ulid, otherCase.ulid, 'passed');
    expect((await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers)).body.state).toBe('closed');
    const [closedKey] = await stagedKeys(owner, target, [file('c.txt', 'c')]);
    expect((await commit(owner, target, { attachments: [{ key: closedKey }] })).status).toBe(201);
    const settings = await t.http
      .patch(`/api/v1/projects/${code}/run-settings`)
      .set(owner.headers)
      .send({ allowResultsInClosedRuns: false });
    expect(settings.status).toBe(200);
    expectError(await stage(owner, target, [file('c.txt', 'c')]), 409, 'conflict');
    expectError(await commit(owner, target, { attachments: [{ key }] }), 409, 'conflict');
    expectError(await t.http.delete(`${base(target)}/${attached!.ulid}`).set(owner.headers), 409, 'conflict');

    const aborted = await scenario();
    const abortedTarget = { runUlid: aborted.run.ulid, runCaseUlid: aborted.runCase.ulid, resultUlid: aborted.resultUlid };
    const [abortedKey] = await stagedKeys(aborted.owner, abortedTarget, [file('d.txt', 'd')]);
    expect((await t.http.post(`/api/v1/runs/${aborted.run.ulid}/abort`).set(aborted.owner.headers)).status).toBe(200);
    expectError(await stage(aborted.owner, abortedTarget, [file('e.txt', 'e')]), 409, 'conflict');
    expectError(await commit(aborted.owner, abortedTarget, { attachments: [{ key: abortedKey }] }), 409, 'conflict');

    // Only the uploads that passed the gate are charged: a, b, c; d in the other organization.
    expect(await usedBytes(owner.orgId)).toBe(3);
    expect(await usedBytes(aborted.owner.orgId)).toBe(1);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toHaveLength(1);
  });

  it('gives the bytes back and removes the files when the run or the project is deleted', async () => {
    const { owner, run, runCase, resultUlid } = await scenario();
    await attach(owner, { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid }, [file('a.txt', 'aaaa'), file('b.txt', 'bb')]);
    const second = await scenario();
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}`).set(owner.headers)).status).toBe(204);
    expect(await usedBytes(owner.orgId)).toBe(0);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toEqual([]);

    await attach(second.owner, { runUlid: second.run.ulid, runCaseUlid: second.runCase.ulid, resultUlid: second.resultUlid }, [
      file('c.txt', 'ccc'),
    ]);
    expect(await usedBytes(second.owner.orgId)).toBe(3);
    expect((await t.http.delete(`/api/v1/projects/${second.code}`).set(second.owner.headers)).status).toBe(204);
    expect(await usedBytes(second.owner.orgId)).toBe(0);
    expect(await filesUnder(`attachments/${second.owner.orgId}/`)).toEqual([]);
  });

  it('hides the attachments of a private project from a member off its allowlist', async () => {
    const { owner, project, run, runCase, resultUlid } = await scenario();
    const target = { runUlid: run.ulid, runCaseUlid: runCase.ulid, resultUlid };
    const [item] = await attach(owner, target, [file('a.txt', 'a')]);
    const [outsider, allowed] = await Promise.all([joinAs(t.http, owner, 'member'), joinAs(t.http, owner, 'member')]);
    await setAccessMode(owner.orgId, project, 'private');
    await grant(owner.orgId, project, allowed.userId);
    expectError(await t.http.get(`${base(target)}/${item!.ulid}`).set(outsider.headers), 404, 'not_found');
    expectError(await stage(outsider, target, [file('o.txt', 'o')]), 404, 'not_found');
    expectError(await t.http.delete(`${base(target)}/${item!.ulid}`).set(outsider.headers), 404, 'not_found');
    expect((await t.http.get(`${base(target)}/${item!.ulid}`).set(allowed.headers)).status).toBe(200);
    expect(await fileStorage().get(`attachments/${owner.orgId}/${run.ulid}/${item!.ulid}`)).toEqual(Buffer.from('a'));
  });
});
