import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { fileStorage } from '../../src/foundation/storage/file-storage.ts';
import { STAGING_TTL_MS } from '../../src/foundation/storage/staged-uploads.ts';
import { PLAN_TIERS } from '../../src/kernel/billing-tiers.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { setOrganizationPlan } from '../../src/orgs/orgs.service.ts';
import { type Caller, expectError, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import * as uploads from '../support/uploads.ts';
import { filesUnder, setUsedBytes, usedBytes } from '../support/uploads.ts';

const t = useTestApp();

const FREE_QUOTA = PLAN_TIERS.free.maxStorageBytes;

const newCase = (owner: Caller, projectCode?: string) => uploads.newCase(t.http, owner, projectCode);
const stage = (caller: Caller, caseUlid: string, sizes: number[]) =>
  uploads.stage(
    t.http,
    caller,
    caseUlid,
    sizes.map((size, index) => ({ name: `f${index}.bin`, bytes: Buffer.alloc(size, index + 1) })),
  );
const putSteps = (caller: Caller, caseUlid: string, steps: unknown[]) => uploads.putSteps(t.http, caller, caseUlid, steps);

/** Stages files of these sizes and commits them to the case's first step; answers the attachments' ulids. */
async function attach(owner: Caller, testCase: uploads.NewCase, sizes: number[], stepIndex = 0) {
  const staged = await stage(owner, testCase.ulid, sizes);
  expect(staged.status, JSON.stringify(staged.body)).toBe(201);
  const step = testCase.steps[stepIndex]!;
  const saved = await putSteps(
    owner,
    testCase.ulid,
    testCase.steps.map((each) =>
      each === step
        ? { ulid: step.ulid, action: step.action, attachments: staged.body.items.map((item: { key: string }) => ({ key: item.key })) }
        : { ulid: each.ulid, action: each.action },
    ),
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.steps[stepIndex].attachments.map((attachment: { ulid: string }) => attachment.ulid) as string[];
}

const stagedRowsOf = (orgId: string) => prisma().stagedUpload.count({ where: { orgId } });

const png = (color: { r: number; g: number; b: number }, size = 300) =>
  sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();

const uploadAvatar = async (caller: Caller, code: string, image: Buffer) =>
  t.http.post(`/api/v1/projects/${code}/avatar`).set(caller.headers).attach('file', image, { filename: 'a.png', contentType: 'image/png' });

async function storedSize(key: string): Promise<number> {
  const data = await fileStorage().get(key);
  expect(data).not.toBeNull();
  return data!.length;
}

describe('the storage quota of an organization', () => {
  it('charges staged uploads by their size, and a commit keeps the charge while the staged copy goes', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    expect(await usedBytes(owner.orgId)).toBe(0);
    const staged = await stage(owner, testCase.ulid, [100, 50]);
    expect(staged.status).toBe(201);
    expect(await usedBytes(owner.orgId)).toBe(150);
    expect(await stagedRowsOf(owner.orgId)).toBe(2);

    const step = testCase.steps[0]!;
    const saved = await putSteps(owner, testCase.ulid, [
      { ulid: step.ulid, action: step.action, attachments: [{ key: staged.body.items[0].key }] },
    ]);
    expect(saved.status).toBe(200);
    expect(await usedBytes(owner.orgId)).toBe(150);
    expect(await stagedRowsOf(owner.orgId)).toBe(1);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([staged.body.items[1].key]);
  });

  it('refuses uploads past the quota with 413 storage_quota_exceeded: nothing stored, usage unchanged', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    await setUsedBytes(owner.orgId, FREE_QUOTA - 100);

    expectError(await stage(owner, testCase.ulid, [60, 41]), 413, 'storage_quota_exceeded');
    expect(await usedBytes(owner.orgId)).toBe(FREE_QUOTA - 100);
    expect(await stagedRowsOf(owner.orgId)).toBe(0);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([]);

    // The last bytes fit exactly; then not one more.
    expect((await stage(owner, testCase.ulid, [60, 40])).status).toBe(201);
    expect(await usedBytes(owner.orgId)).toBe(FREE_QUOTA);
    expectError(await stage(owner, testCase.ulid, [1]), 413, 'storage_quota_exceeded');
    expect(await usedBytes(owner.orgId)).toBe(FREE_QUOTA);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toHaveLength(2);
  });

  it('counts by plan: team allows 100 GiB and enterprise has no ceiling', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    await setUsedBytes(owner.orgId, FREE_QUOTA);
    await setOrganizationPlan(owner.orgId, 'team');
    expect((await stage(owner, testCase.ulid, [10])).status).toBe(201);
    await setUsedBytes(owner.orgId, 100 * 1024 ** 3);
    expectError(await stage(owner, testCase.ulid, [10]), 413, 'storage_quota_exceeded');
    await setOrganizationPlan(owner.orgId, 'enterprise');
    expect((await stage(owner, testCase.ulid, [10])).status).toBe(201);
    expect(await usedBytes(owner.orgId)).toBe(100 * 1024 ** 3 + 10);
  });

  it('does not charge a keyed staging again when it is replayed', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    const keyed = () =>
      t.http
        .post(`/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`)
        .set(owner.headers)
        .set('Idempotency-Key', 'stage-once')
        .attach('file', Buffer.alloc(70, 7), { filename: 'a.bin', contentType: 'application/octet-stream' });
    const first = await keyed();
    expect(first.status).toBe(201);
    const again = await keyed();
    expect(again.status).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await usedBytes(owner.orgId)).toBe(70);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([first.body.items[0].key]);

    // Other bytes under the same key are another request (the fingerprint hashes each file).
    const different = await t.http
      .post(`/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`)
      .set(owner.headers)
      .set('Idempotency-Key', 'stage-once')
      .attach('file', Buffer.alloc(70, 8), { filename: 'a.bin', contentType: 'application/octet-stream' });
    expectError(different, 422, 'validation_failed');
    expect(await usedBytes(owner.orgId)).toBe(70);
  });

  it('refuses a keyed staging past the quota and keeps nothing of it', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    await setUsedBytes(owner.orgId, FREE_QUOTA - 5);
    const refused = await t.http
      .post(`/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`)
      .set(owner.headers)
      .set('Idempotency-Key', 'too-big')
      .attach('file', Buffer.alloc(6), { filename: 'a.bin', contentType: 'application/octet-stream' });
    expectError(refused, 413, 'storage_quota_exceeded');
    expect(await usedBytes(owner.orgId)).toBe(FREE_QUOTA - 5);
    expect(await stagedRowsOf(owner.orgId)).toBe(0);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([]);
  });
});

describe('bytes given back', () => {
  it('when a committed attachment is deleted, dropped from its step, its step removed or its case deleted', async () => {
    const owner = await signUp(t.http);
    const first = await newCase(owner);
    const second = await newCase(owner, first.projectCode);
    const [a] = await attach(owner, first, [10, 20], 0);
    await attach(owner, first, [30], 1);
    await attach(owner, second, [40]);
    expect(await usedBytes(owner.orgId)).toBe(100);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toHaveLength(4);

    expect((await t.http.delete(`/api/v1/test-cases/${first.ulid}/step-attachments/${a}`).set(owner.headers)).status).toBe(204);
    expect(await usedBytes(owner.orgId)).toBe(90);

    const [stepA, stepB] = first.steps;
    const dropped = await putSteps(owner, first.ulid, [
      { ulid: stepA!.ulid, action: stepA!.action, attachments: [] },
      { ulid: stepB!.ulid, action: stepB!.action },
    ]);
    expect(dropped.status).toBe(200);
    expect(await usedBytes(owner.orgId)).toBe(70);

    const removedStep = await putSteps(owner, first.ulid, [{ ulid: stepA!.ulid, action: stepA!.action }]);
    expect(removedStep.status).toBe(200);
    expect(removedStep.body.steps).toHaveLength(1);
    expect(await usedBytes(owner.orgId)).toBe(40);

    expect((await t.http.delete(`/api/v1/test-cases/${second.ulid}`).set(owner.headers)).status).toBe(204);
    expect(await usedBytes(owner.orgId)).toBe(0);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toEqual([]);
  });

  it("when a project is deleted: its cases' attachments and its avatar, files too", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const testCase = await newCase(owner, code);
    await attach(owner, testCase, [1000, 24]);
    const avatar = await uploadAvatar(owner, code, await png({ r: 200, g: 10, b: 10 }));
    expect(avatar.status).toBe(200);
    expect(await usedBytes(owner.orgId)).toBe(1024 + (await storedSize(avatar.body.avatarKey)));

    expect((await t.http.delete(`/api/v1/projects/${code}`).set(owner.headers)).status).toBe(204);
    expect(await usedBytes(owner.orgId)).toBe(0);
    expect(await filesUnder(`attachments/${owner.orgId}/`)).toEqual([]);
    expect(await fileStorage().get(avatar.body.avatarKey)).toBeNull();
  });

  it('when the sweep removes staged uploads nobody committed within a day', async () => {
    const owner = await signUp(t.http);
    const testCase = await newCase(owner);
    expect((await stage(owner, testCase.ulid, [7, 5])).status).toBe(201);
    await sweepExpired(prisma());
    expect(await usedBytes(owner.orgId)).toBe(12);

    await uploads.ageStagedUploads(t.dataDir, owner.orgId, STAGING_TTL_MS + 60_000);
    await sweepExpired(prisma());
    expect(await usedBytes(owner.orgId)).toBe(0);
    expect(await stagedRowsOf(owner.orgId)).toBe(0);
    expect(await filesUnder(`staging/${owner.orgId}/`)).toEqual([]);
    // A second sweep finds nothing left to give back.
    await sweepExpired(prisma());
    expect(await usedBytes(owner.orgId)).toBe(0);
  });
});

describe('project avatars', () => {
  it('are charged by their stored size; a replacement counts instead of the old one; a removal gives it back', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const plain = await uploadAvatar(owner, code, await png({ r: 0, g: 0, b: 255 }));
    expect(plain.status).toBe(200);
    const plainSize = await storedSize(plain.body.avatarKey);
    expect(await usedBytes(owner.orgId)).toBe(plainSize);

    const noisy = Buffer.alloc(300 * 300 * 3);
    for (let i = 0; i < noisy.length; i += 1) noisy[i] = (i * 2654435761) >>> 24;
    const replaced = await uploadAvatar(
      owner,
      code,
      await sharp(noisy, { raw: { width: 300, height: 300, channels: 3 } })
        .png()
        .toBuffer(),
    );
    expect(replaced.status).toBe(200);
    const replacedSize = await storedSize(replaced.body.avatarKey);
    expect(replacedSize).not.toBe(plainSize);
    expect(await usedBytes(owner.orgId)).toBe(replacedSize);

    expect((await t.http.delete(`/api/v1/projects/${code}/avatar`).set(owner.headers)).status).toBe(200);
    expect(await usedBytes(owner.orgId)).toBe(0);
  });

  it('past the quota answer 413 storage_quota_exceeded and keep the project as it was', async () => {
    const { owner, project, code } = await ownerWithProject(t.http);
    await setUsedBytes(owner.orgId, FREE_QUOTA - 10);
    expectError(await uploadAvatar(owner, code, await png({ r: 1, g: 2, b: 3 })), 413, 'storage_quota_exceeded');
    const read = await t.http.get(`/api/v1/projects/${code}`).set(owner.headers);
    expect(read.body).toMatchObject({ avatarKey: null, avatarVersion: 0 });
    expect(await fileStorage().get(`avatars/projects/${project.ulid}.webp`)).toBeNull();
    expect(await usedBytes(owner.orgId)).toBe(FREE_QUOTA - 10);
  });
});
