import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { fileStorage } from '../../src/foundation/storage/file-storage.ts';
import { STAGING_TTL_MS } from '../../src/foundation/storage/staged-uploads.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, joinAs, signUp, useTestApp } from '../support/app.ts';
import * as uploads from '../support/uploads.ts';

const app = useTestApp();

const newCase = (owner: Caller) => uploads.newCase(app.http, owner);
const stage = (caller: Caller, caseUlid: string, files: uploads.UploadPart[]) => uploads.stage(app.http, caller, caseUlid, files);
const putSteps = (caller: Caller, caseUlid: string, steps: unknown[]) => uploads.putSteps(app.http, caller, caseUlid, steps);
const { filesUnder } = uploads;

describe('POST /api/v1/test-cases/{caseUlid}/step-attachments:stage', () => {
  it('stores several multipart files under staging/<orgUlid>/, attached to no step until committed', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const response = await stage(owner, testCase.ulid, [
      { name: 'screen.png', bytes: Buffer.from('png bytes') },
      { name: 'log.txt', bytes: Buffer.from('log line'), type: 'text/plain' },
    ]);
    expect(response.status).toBe(201);
    expect(response.body.items).toHaveLength(2);
    for (const item of response.body.items) expect(item.key).toMatch(new RegExp(`^staging/${owner.orgId}/[0-9A-HJKMNP-TV-Z]{26}$`));
    expect(
      response.body.items.map((item: { fileName: string; contentType: string; sizeBytes: number }) => [
        item.fileName,
        item.contentType,
        item.sizeBytes,
      ]),
    ).toEqual([
      ['screen.png', 'image/png', 9],
      ['log.txt', 'text/plain', 8],
    ]);
    expect(await fileStorage().get(response.body.items[0].key)).toEqual(Buffer.from('png bytes'));
    const detail = await app.http.get(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers);
    expect(detail.body.steps.every((step: { attachments: unknown[] }) => step.attachments.length === 0)).toBe(true);
  });

  it('bounds the count (too_many_attachments) and the size (file_too_large), and needs multipart (415)', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.png`, bytes: Buffer.from(`file ${i}`) }));
    const tooMany = await stage(owner, testCase.ulid, eleven);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('too_many_attachments');

    const tooLarge = await stage(owner, testCase.ulid, [{ name: 'big.bin', bytes: Buffer.alloc(10 * 1024 * 1024 + 1) }]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('file_too_large');

    const json = await app.http.post(`/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`).set(owner.headers).send({ file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');

    const none = await app.http
      .post(`/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`)
      .set(owner.headers)
      .field('note', 'no file part');
    expect(none.status).toBe(422);
  });

  it('answers 403 to a viewer and 404 for a case of another organization', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const viewer = await joinAs(app.http, owner, 'viewer');
    const denied = await stage(viewer, testCase.ulid, [{ name: 'a.png', bytes: Buffer.from('a') }]);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
    const stranger = await signUp(app.http);
    const hidden = await stage(stranger, testCase.ulid, [{ name: 'a.png', bytes: Buffer.from('a') }]);
    expect(hidden.status).toBe(404);
  });
});

describe('committing staged attachments by saving steps', () => {
  it('commits listed keys, serves the bytes, and answers 409 staging_already_committed for a second commit', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const staged = await stage(owner, testCase.ulid, [
      { name: 'one.png', bytes: Buffer.from('first image') },
      { name: 'two.png', bytes: Buffer.from('second image') },
    ]);
    const [first, second] = staged.body.items as Array<{ key: string }>;
    const [stepA, stepB] = testCase.steps;
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: stepA!.ulid, action: stepA!.action, attachments: [{ key: first!.key }, { key: second!.key }] },
      { ulid: stepB!.ulid, action: stepB!.action },
    ]);
    expect(saved.status).toBe(200);
    const attachments = saved.body.steps[0].attachments;
    expect(attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['one.png', 'two.png']);
    expect(attachments[0]).toEqual({
      ulid: expect.any(String),
      fileName: 'one.png',
      contentType: 'image/png',
      sizeBytes: 11,
      createdAt: expect.any(Number),
    });

    const download = await app.http
      .get(`/api/v1/test-cases/${testCase.ulid}/step-attachments/${attachments[1].ulid}`)
      .set(owner.headers)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.body).toEqual(Buffer.from('second image'));
    // The staged object is gone once committed; the committed copy lives elsewhere.
    expect(await fileStorage().get(first!.key)).toBeNull();

    const again = await putSteps(owner, testCase.ulid, [{ ulid: stepA!.ulid, action: stepA!.action, attachments: [{ key: first!.key }] }]);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('staging_already_committed');
    const unchanged = await app.http.get(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers);
    expect(unchanged.body.steps).toHaveLength(2);
    expect(unchanged.body.steps[0].attachments).toHaveLength(2);
  });

  it('keeps attachments by ulid, moves them between steps, and removes the ones left out (file too)', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const staged = await stage(owner, testCase.ulid, [
      { name: 'keep.png', bytes: Buffer.from('keep') },
      { name: 'drop.png', bytes: Buffer.from('drop') },
    ]);
    const [keep, drop] = staged.body.items as Array<{ key: string }>;
    const [stepA, stepB] = testCase.steps;
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: stepA!.ulid, action: stepA!.action, attachments: [{ key: keep!.key }, { key: drop!.key }] },
      { ulid: stepB!.ulid, action: stepB!.action },
    ]);
    const [kept, dropped] = saved.body.steps[0].attachments as Array<{ ulid: string }>;
    const droppedKey = `attachments/${owner.orgId}/${testCase.ulid}/${dropped!.ulid}`;
    expect(await fileStorage().get(droppedKey)).toEqual(Buffer.from('drop'));

    const moved = await putSteps(owner, testCase.ulid, [
      { ulid: stepA!.ulid, action: stepA!.action, attachments: [] },
      { ulid: stepB!.ulid, action: stepB!.action, attachments: [{ ulid: kept!.ulid }] },
    ]);
    expect(moved.status).toBe(200);
    expect(moved.body.steps[0].attachments).toEqual([]);
    expect(moved.body.steps[1].attachments.map((a: { ulid: string }) => a.ulid)).toEqual([kept!.ulid]);
    expect(await fileStorage().get(droppedKey)).toBeNull();
  });

  it('answers 404 for a key that was never staged or belongs to another organization, and writes nothing', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const stranger = await signUp(app.http);
    const strangerCase = await newCase(stranger);
    const theirs = await stage(stranger, strangerCase.ulid, [{ name: 'x.png', bytes: Buffer.from('x') }]);
    const step = testCase.steps[0]!;
    for (const key of [`staging/${owner.orgId}/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D`, theirs.body.items[0].key]) {
      const response = await putSteps(owner, testCase.ulid, [{ ulid: step.ulid, action: 'Changed', attachments: [{ key }] }]);
      expect(response.status).toBe(404);
    }
    const detail = await app.http.get(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers);
    expect(detail.body.steps.map((s: { action: string }) => s.action)).toEqual(['Open the page', 'Sign in']);
    expect(await fileStorage().get(theirs.body.items[0].key)).toEqual(Buffer.from('x'));
  });
});

describe('DELETE /api/v1/test-cases/{caseUlid}/step-attachments/{attachmentUlid}', () => {
  it('removes one committed attachment and its file, records it, and answers 404 afterwards', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const staged = await stage(owner, testCase.ulid, [{ name: 'a.png', bytes: Buffer.from('a') }]);
    const step = testCase.steps[0]!;
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: step.ulid, action: step.action, attachments: [{ key: staged.body.items[0].key }] },
    ]);
    const attachment = saved.body.steps[0].attachments[0];

    const viewer = await joinAs(app.http, owner, 'viewer');
    const denied = await app.http.delete(`/api/v1/test-cases/${testCase.ulid}/step-attachments/${attachment.ulid}`).set(viewer.headers);
    expect(denied.status).toBe(403);

    const removed = await app.http.delete(`/api/v1/test-cases/${testCase.ulid}/step-attachments/${attachment.ulid}`).set(owner.headers);
    expect(removed.status).toBe(204);
    expect(await fileStorage().get(`attachments/${owner.orgId}/${testCase.ulid}/${attachment.ulid}`)).toBeNull();
    const detail = await app.http.get(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers);
    expect(detail.body.steps[0].attachments).toEqual([]);
    const events = await app.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(owner.headers);
    const event = events.body.events.find((e: { action: string }) => e.action === 'test_case.attachment_deleted');
    expect(event).toMatchObject({
      entityType: 'test_case',
      entityUlid: testCase.ulid,
      metadata: { attachmentUlid: attachment.ulid, fileName: 'a.png' },
    });

    const again = await app.http.delete(`/api/v1/test-cases/${testCase.ulid}/step-attachments/${attachment.ulid}`).set(owner.headers);
    expect(again.status).toBe(404);
  });

  it('releases the files of a deleted test case', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const staged = await stage(owner, testCase.ulid, [{ name: 'a.png', bytes: Buffer.from('a') }]);
    const step = testCase.steps[0]!;
    await putSteps(owner, testCase.ulid, [{ ulid: step.ulid, action: step.action, attachments: [{ key: staged.body.items[0].key }] }]);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toHaveLength(1);
    expect((await app.http.delete(`/api/v1/test-cases/${testCase.ulid}`).set(owner.headers)).status).toBe(204);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toEqual([]);
  });
});

describe('the staging sweep', () => {
  it('removes staged objects older than 24 hours and leaves fresh and committed ones', async () => {
    const owner = await signUp(app.http);
    const testCase = await newCase(owner);
    const staged = await stage(owner, testCase.ulid, [{ name: 'a.png', bytes: Buffer.from('a') }]);
    const key = staged.body.items[0].key as string;
    const kept = await stage(owner, testCase.ulid, [{ name: 'b.png', bytes: Buffer.from('b') }]);
    const step = testCase.steps[0]!;
    await putSteps(owner, testCase.ulid, [{ ulid: step.ulid, action: step.action, attachments: [{ key: kept.body.items[0].key }] }]);

    await sweepExpired(prisma());
    expect(await fileStorage().get(key)).toEqual(Buffer.from('a'));

    await uploads.ageStagedUploads(app.dataDir, owner.orgId, STAGING_TTL_MS + 60_000);
    await sweepExpired(prisma());
    expect(await fileStorage().get(key)).toBeNull();
    const left = await readdir(path.join(app.dataDir, 'files', 'staging', owner.orgId)).catch(() => []);
    expect(left).toEqual([]);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toHaveLength(1);
  });
});
