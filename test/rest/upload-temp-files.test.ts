import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { TEMPORARY_UPLOAD_TTL_MS } from '../../src/foundation/storage/temporary-uploads.ts';
import { PLAN_TIERS } from '../../src/kernel/billing-tiers.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { ATTACHMENT_MAX_BYTES } from '../../src/test-cases/attachments.schemas.ts';
import { type Caller, expectError, signUp, useTestApp } from '../support/app.ts';
import * as uploads from '../support/uploads.ts';

/**
 * Uploads are streamed to temporary files under the OS temp directory; these tests point it
 * (TMPDIR) at a folder of their own and check that nothing is left there once a request has
 * ended, whichever way it ended.
 */

const t = useTestApp();
let temporaryDir: string;
const originalTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  temporaryDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-upload-test-'));
  process.env.TMPDIR = temporaryDir;
});
afterAll(async () => {
  if (originalTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmpdir;
  await rm(temporaryDir, { recursive: true, force: true });
});

const leftovers = () => readdir(temporaryDir);
/** The response may reach the client a moment before the server's clean-up has run. */
const expectNoLeftovers = () => vi.waitFor(async () => expect(await leftovers()).toEqual([]), { timeout: 5_000 });

const stage = (caller: Caller, caseUlid: string, files: uploads.UploadPart[]) => uploads.stage(t.http, caller, caseUlid, files);
const file = (size: number, name = 'f.bin'): uploads.UploadPart => ({
  name,
  bytes: Buffer.alloc(size, 1),
  type: 'application/octet-stream',
});

describe('temporary files of uploads', () => {
  it('are written while a request is received and removed after it succeeded', async () => {
    const owner = await signUp(t.http);
    const testCase = await uploads.newCase(t.http, owner);
    const response = await stage(owner, testCase.ulid, [file(3 * 1024 * 1024), file(10)]);
    expect(response.status).toBe(201);
    expect(response.body.items.map((item: { sizeBytes: number }) => item.sizeBytes)).toEqual([3 * 1024 * 1024, 10]);
    await expectNoLeftovers();
  });

  it('are removed after a refusal: a file too large, one file too many, the quota, an undecodable avatar', async () => {
    const owner = await signUp(t.http);
    const testCase = await uploads.newCase(t.http, owner);
    expectError(await stage(owner, testCase.ulid, [file(10), file(ATTACHMENT_MAX_BYTES + 1)]), 413, 'file_too_large');
    await expectNoLeftovers();

    expectError(
      await stage(
        owner,
        testCase.ulid,
        Array.from({ length: 11 }, () => file(10)),
      ),
      422,
      'too_many_attachments',
    );
    await expectNoLeftovers();

    await uploads.setUsedBytes(owner.orgId, PLAN_TIERS.free.maxStorageBytes);
    expectError(await stage(owner, testCase.ulid, [file(10)]), 413, 'storage_quota_exceeded');
    await expectNoLeftovers();

    const avatar = await t.http
      .post(`/api/v1/projects/${testCase.projectCode}/avatar`)
      .set(owner.headers)
      .attach('file', Buffer.from('not an image at all'), { filename: 'a.png', contentType: 'image/png' });
    expectError(avatar, 415, 'unsupported_media_type');
    await expectNoLeftovers();
  });

  it('are removed when the client aborts in the middle of an upload', async () => {
    const owner = await signUp(t.http);
    const testCase = await uploads.newCase(t.http, owner);
    const server = t.app.express.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const boundary = 'tcms-abort-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const request = http.request({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: `/api/v1/test-cases/${testCase.ulid}/step-attachments:stage`,
        headers: {
          ...owner.headers,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          // Announces 8 MiB of which only 1 MiB ever comes.
          'Content-Length': String(head.length + 8 * 1024 * 1024),
        },
      });
      request.on('error', () => undefined);
      request.write(head);
      request.write(Buffer.alloc(1024 * 1024, 2));

      // The part is being written to a temporary file …
      await vi.waitFor(
        async () => {
          const [name] = await leftovers();
          expect(name).toMatch(/^tcms-upload-/);
          expect((await stat(path.join(temporaryDir, name!))).size).toBeGreaterThan(0);
        },
        { timeout: 10_000 },
      );
      // … when the client goes away.
      request.destroy();
      await expectNoLeftovers();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('left behind by a killed process are removed by the maintenance sweep once no request can still hold them', async () => {
    const stale = path.join(temporaryDir, 'tcms-upload-left-by-a-killed-process');
    const recent = path.join(temporaryDir, 'tcms-upload-of-a-request-in-flight');
    const unrelated = path.join(temporaryDir, 'someone-elses-file');
    for (const target of [stale, recent, unrelated]) await writeFile(target, 'x');
    const longAgo = new Date(Date.now() - TEMPORARY_UPLOAD_TTL_MS - 60_000);
    await utimes(stale, longAgo, longAgo);
    await utimes(unrelated, longAgo, longAgo);

    await sweepExpired(prisma());
    expect((await leftovers()).sort()).toEqual(['someone-elses-file', 'tcms-upload-of-a-request-in-flight']);
    await rm(recent);
    await rm(unrelated);
  });
});
