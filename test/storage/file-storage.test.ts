import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { type FileStorage, LocalDirectoryStorage } from '../../src/foundation/storage/file-storage.ts';
import { S3Storage } from '../../src/foundation/storage/s3-storage.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { createProject, signUp } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';

/** The FileStorage contract, run against the local directory and an S3-compatible server (s3rver). */
type Backend = { storage: FileStorage; close(): Promise<void> };

async function localBackend(): Promise<Backend> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tcms-files-'));
  return { storage: new LocalDirectoryStorage(root), close: () => rm(root, { recursive: true, force: true }) };
}

async function s3Backend(): Promise<Backend> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'tcms', configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const storage = new S3Storage({
    bucket: 'tcms',
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });
  return {
    storage,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['a local directory', localBackend],
  ['an S3-compatible server', s3Backend],
];

describe.each(backends)('file storage on %s', (_name, open) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('stores, reads back, lists by prefix and deletes objects', async () => {
    const { storage } = backend;
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await storage.put('staging/ORG/A', bytes);
    await storage.put('staging/ORG/B', Buffer.from('second'));
    await storage.put('attachments/ORG/C', Buffer.from('elsewhere'));

    expect(await storage.get('staging/ORG/A')).toEqual(bytes);
    const listed = [];
    for await (const object of storage.list('staging/')) listed.push(object);
    expect(listed.map((object) => object.key).sort()).toEqual(['staging/ORG/A', 'staging/ORG/B']);
    for (const object of listed) expect(Math.abs(object.lastModified.getTime() - Date.now())).toBeLessThan(60_000);

    await storage.delete('staging/ORG/A');
    expect(await storage.get('staging/ORG/A')).toBeNull();
    expect(await storage.get('attachments/ORG/C')).toEqual(Buffer.from('elsewhere'));
  });

  it('answers null for a missing object, lists nothing under an empty prefix and deletes a missing key quietly', async () => {
    const { storage } = backend;
    expect(await storage.get('nothing/here')).toBeNull();
    const listed = [];
    for await (const object of storage.list('nothing/')) listed.push(object);
    expect(listed).toEqual([]);
    await expect(storage.delete('nothing/here')).resolves.toBeUndefined();
  });

  it('stores a local file by streaming it, copies objects within the storage, and leaves the source file', async () => {
    const { storage } = backend;
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tcms-source-'));
    try {
      const source = path.join(folder, 'upload');
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      await writeFile(source, bytes);
      // Compared by digest: a deep equality of megabytes is slow.
      const digestOf = (data: Buffer | null) => data && createHash('sha256').update(data).digest('hex');
      const digest = digestOf(bytes);
      await storage.putFile('staging/ORG/F', source);
      expect(digestOf(await storage.get('staging/ORG/F'))).toBe(digest);
      expect(await readdir(folder)).toEqual(['upload']);

      expect(await storage.copy('staging/ORG/F', 'attachments/ORG/CASE/F')).toBe(true);
      expect(digestOf(await storage.get('attachments/ORG/CASE/F'))).toBe(digest);
      expect(digestOf(await storage.get('staging/ORG/F'))).toBe(digest);

      expect(await storage.copy('staging/ORG/missing', 'attachments/ORG/CASE/G')).toBe(false);
      expect(await storage.get('attachments/ORG/CASE/G')).toBeNull();
      const listed = [];
      for await (const object of storage.list('attachments/ORG/CASE/')) listed.push(object.key);
      expect(listed).toEqual(['attachments/ORG/CASE/F']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses keys that could escape the storage root', async () => {
    await expect(backend.storage.put('../escape', Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
    await expect(backend.storage.get('a/../../b')).rejects.toThrow(/Unsafe storage key/);
  });
});

describe('the app configured for an S3-compatible store', () => {
  let bucketServer: { endpoint: string; close(): Promise<void> };
  let app: App;
  let dataDir: string;

  beforeAll(async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-s3rver-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'files', configs: [] }],
    });
    const address = (await server.run()) as AddressInfo;
    bucketServer = {
      endpoint: `http://127.0.0.1:${address.port}`,
      close: async () => {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
    dataDir = await newDataDir('tcms-test-');
    app = await createApp(
      loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        TCMS_DATA_DIR: dataDir,
        TCMS_S3_BUCKET: 'files',
        TCMS_S3_ENDPOINT: bucketServer.endpoint,
        TCMS_S3_ACCESS_KEY_ID: 'S3RVER',
        TCMS_S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await bucketServer?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stages and commits step attachments in the bucket, not on local disk', async () => {
    const http = request(app.express);
    const owner = await signUp(http);
    const project = await createProject(http, owner);
    const created = await http
      .post(`/api/v1/projects/${project.id}/test-cases`)
      .set(owner.headers)
      .send({ title: 'S3', steps: [{ action: 'Look' }] });
    const staged = await http
      .post(`/api/v1/test-cases/${created.body.ulid}/step-attachments:stage`)
      .set(owner.headers)
      .attach('file', Buffer.from('in the bucket'), { filename: 'b.txt', contentType: 'text/plain' });
    expect(staged.status).toBe(201);
    const saved = await http
      .put(`/api/v1/test-cases/${created.body.ulid}/steps`)
      .set(owner.headers)
      .send({ steps: [{ ulid: created.body.steps[0].ulid, action: 'Look', attachments: [{ key: staged.body.items[0].key }] }] });
    expect(saved.status).toBe(200);
    const attachment = saved.body.steps[0].attachments[0];

    const bucket = new S3Storage({
      bucket: 'files',
      endpoint: bucketServer.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    });
    expect(await bucket.get(`attachments/${owner.orgId}/${created.body.ulid}/${attachment.ulid}`)).toEqual(Buffer.from('in the bucket'));
    expect(await bucket.get(staged.body.items[0].key)).toBeNull();
    await expect(readdir(path.join(dataDir, 'files'))).rejects.toThrow(/ENOENT/);
  });
});
