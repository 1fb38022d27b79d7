import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type Caller, joinAs, ownerWithProject, useTestApp } from '../support/app.ts';

const t = useTestApp();

const FIVE_MIB = 5 * 1024 * 1024;

type Rgb = { r: number; g: number; b: number };

const solid = (width: number, height: number, background: Rgb) => sharp({ create: { width, height, channels: 3, background } });

const images = {
  png: (color: Rgb = { r: 255, g: 0, b: 0 }) => solid(640, 480, color).png().toBuffer(),
  jpeg: (color: Rgb = { r: 0, g: 255, b: 0 }) => solid(300, 500, color).jpeg().toBuffer(),
  webp: (color: Rgb = { r: 0, g: 0, b: 255 }) => solid(100, 100, color).webp().toBuffer(),
  gif: () => solid(64, 64, { r: 10, g: 20, b: 30 }).gif().toBuffer(),
};

/** Collects any response body as raw bytes (supertest would otherwise parse or drop it). */
const binary = (response: unknown, callback: (error: Error | null, body: Buffer) => void) => {
  const res = response as http.IncomingMessage;
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
  res.on('error', (error) => callback(error, Buffer.alloc(0)));
};

function upload(caller: Caller, code: string, data: Buffer, options: { filename?: string; contentType?: string } = {}) {
  return t.http
    .post(`/api/v1/projects/${code}/avatar`)
    .set(caller.headers)
    .attach('file', data, { filename: options.filename ?? 'avatar.png', contentType: options.contentType ?? 'image/png' });
}

function fetchAsset(key: string, version?: number) {
  return t.http
    .get(`/__assets/${key}${version === undefined ? '' : `?v=${version}`}`)
    .buffer(true)
    .parse(binary);
}

/** Sends a request path byte for byte (supertest normalizes `..` segments away). */
async function rawGet(requestPath: string): Promise<{ status: number; contentType: string | undefined; body: string }> {
  const server = t.app.express.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: requestPath, method: 'GET' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      request.on('error', reject);
      request.end();
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function readProject(caller: Caller, code: string) {
  const response = await t.http.get(`/api/v1/projects/${code}`).set(caller.headers);
  expect(response.status).toBe(200);
  return response.body as { ulid: string; avatarKey: string | null; avatarVersion: number };
}

describe('POST /api/v1/projects/{projectId}/avatar', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('accepts a %s and stores a 256×256 WebP served publicly', async (format) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await upload(owner, project.id, await images[format](), {
      filename: `avatar.${format}`,
      contentType: `image/${format}`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ avatarKey: `avatars/projects/${project.ulid}.webp`, avatarVersion: 1 });

    const read = await readProject(owner, project.id);
    expect(read).toMatchObject({ avatarKey: response.body.avatarKey, avatarVersion: 1 });

    // No credentials at all.
    const asset = await fetchAsset(response.body.avatarKey, response.body.avatarVersion);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^image\/webp/);
    const maxAge = Number(/max-age=(\d+)/.exec(asset.headers['cache-control'] ?? '')?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(30 * 24 * 60 * 60);
    expect(asset.headers['cache-control']).toMatch(/public/);
    const metadata = await sharp(asset.body as Buffer).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('increments the version on every upload and serves the latest image', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const red = await upload(owner, project.id, await images.png({ r: 255, g: 0, b: 0 }));
    expect(red.body.avatarVersion).toBe(1);
    const blue = await upload(owner, project.id, await images.png({ r: 0, g: 0, b: 255 }));
    expect(blue.status).toBe(200);
    expect(blue.body).toEqual({ avatarKey: red.body.avatarKey, avatarVersion: 2 });
    const third = await upload(owner, project.id, await images.jpeg());
    expect(third.body.avatarVersion).toBe(3);
    expect((await readProject(owner, project.id)).avatarVersion).toBe(3);

    const asset = await fetchAsset(third.body.avatarKey, 3);
    const { dominant } = await sharp(asset.body as Buffer).stats();
    expect(dominant.g).toBeGreaterThan(200);
    expect(dominant.r).toBeLessThan(60);
  });

  it.each([
    ['GIF bytes declared as GIF', async () => images.gif(), 'image/gif', 'avatar.gif'],
    ['GIF bytes declared as PNG', async () => images.gif(), 'image/png', 'avatar.png'],
    ['text bytes declared as PNG', async () => Buffer.from('definitely not an image\n'.repeat(20)), 'image/png', 'avatar.png'],
    [
      'an SVG declared as PNG',
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      'image/png',
      'a.png',
    ],
  ])('answers 415 unsupported_media_type for %s and keeps the avatar', async (_label, bytes, contentType, filename) => {
    const { owner, project } = await ownerWithProject(t.http);
    const response = await upload(owner, project.id, await bytes(), { contentType, filename });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
    expect(await readProject(owner, project.id)).toMatchObject({ avatarKey: null, avatarVersion: 0 });
  });

  it.each(['png', 'jpeg'] as const)(
    'answers 422 validation_failed for a %s cut short (it cannot be decoded) and keeps the avatar',
    async (format) => {
      const { owner, project } = await ownerWithProject(t.http);
      const whole = await images[format]();
      const response = await upload(owner, project.id, whole.subarray(0, Math.floor(whole.length / 2)), { contentType: `image/${format}` });
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_failed', details: { path: ['file'] } });
      expect(await readProject(owner, project.id)).toMatchObject({ avatarKey: null, avatarVersion: 0 });
    },
  );

  it('answers 413 file_too_large for a valid PNG over 5 MiB', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const width = 1400;
    const height = 1400;
    const noise = Buffer.alloc(width * height * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(FIVE_MIB);
    expect((await sharp(big).metadata()).format).toBe('png');

    const response = await upload(owner, project.id, big);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('file_too_large');
    expect(await readProject(owner, project.id)).toMatchObject({ avatarKey: null, avatarVersion: 0 });
  });

  it('answers 422 validation_failed without a file part', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const fieldOnly = await t.http.post(`/api/v1/projects/${project.id}/avatar`).set(owner.headers).field('name', 'no file here');
    expect(fieldOnly.status).toBe(422);
    expect(fieldOnly.body.error.code).toBe('validation_failed');

    const wrongPart = await t.http
      .post(`/api/v1/projects/${project.id}/avatar`)
      .set(owner.headers)
      .attach('image', await images.png(), { filename: 'a.png', contentType: 'image/png' });
    expect(wrongPart.status).toBe(422);
    expect(wrongPart.body.error.code).toBe('validation_failed');
    expect(await readProject(owner, project.id)).toMatchObject({ avatarKey: null, avatarVersion: 0 });
  });

  it('answers 415 unsupported_media_type for a JSON body', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const png = await images.png();
    const response = await t.http
      .post(`/api/v1/projects/${project.id}/avatar`)
      .set(owner.headers)
      .send({ file: png.toString('base64') });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it('is refused to member and viewer (403) and answers 404 for an unknown project', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    await upload(owner, project.id, await images.png());
    for (const role of ['member', 'viewer'] as const) {
      const person = await joinAs(t.http, owner, role);
      const refused = await upload(person, project.id, await images.webp());
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
      const removal = await t.http.delete(`/api/v1/projects/${project.id}/avatar`).set(person.headers);
      expect(removal.status).toBe(403);
      expect(removal.body.error.code).toBe('forbidden');
    }
    expect(await readProject(owner, project.id)).toMatchObject({ avatarVersion: 1 });
    expect((await fetchAsset(`avatars/projects/${project.ulid}.webp`, 1)).status).toBe(200);

    const unknown = await upload(owner, 'NOPE', await images.png());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('needs credentials', async () => {
    const { project } = await ownerWithProject(t.http);
    const response = await t.http
      .post(`/api/v1/projects/${project.id}/avatar`)
      .attach('file', await images.png(), { filename: 'a.png', contentType: 'image/png' });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });
});

describe('DELETE /api/v1/projects/{projectId}/avatar', () => {
  it('removes the avatar, bumps the version, and the asset answers 404', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const uploaded = await upload(owner, project.id, await images.png());
    expect(uploaded.status).toBe(200);
    const key = uploaded.body.avatarKey as string;

    const removed = await t.http.delete(`/api/v1/projects/${project.id}/avatar`).set(owner.headers);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ avatarKey: null, avatarVersion: 2 });
    expect(await readProject(owner, project.id)).toMatchObject({ avatarKey: null, avatarVersion: 2 });

    for (const version of [1, 2, undefined]) {
      const asset = await t.http.get(`/__assets/${key}${version === undefined ? '' : `?v=${version}`}`);
      expect(asset.status).toBe(404);
      expect(asset.headers['content-type']).toMatch(/application\/json/);
      expect(asset.body.error.code).toBe('not_found');
    }

    // A new upload continues the version sequence.
    const again = await upload(owner, project.id, await images.webp());
    expect(again.body).toEqual({ avatarKey: key, avatarVersion: 3 });
  });

  it('answers 200 with a null key when there is no avatar', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const removed = await t.http.delete(`/api/v1/projects/${project.id}/avatar`).set(owner.headers);
    expect(removed.status).toBe(200);
    expect(removed.body.avatarKey).toBeNull();
    expect(Number.isInteger(removed.body.avatarVersion)).toBe(true);
  });

  it('deleting the project removes its avatar file', async () => {
    const { owner, project } = await ownerWithProject(t.http);
    const uploaded = await upload(owner, project.id, await images.png());
    expect((await fetchAsset(uploaded.body.avatarKey, 1)).status).toBe(200);
    expect((await t.http.delete(`/api/v1/projects/${project.id}`).set(owner.headers)).status).toBe(204);
    expect((await fetchAsset(uploaded.body.avatarKey, 1)).status).toBe(404);
  });
});

describe('GET /__assets/{key}', () => {
  it('answers 404 JSON for unknown keys and never leaves the asset directory', async () => {
    // A file outside the asset directory that a traversal would reach.
    await writeFile(path.join(t.dataDir, 'secret.txt'), 'top secret');
    const attempts = [
      '/__assets/../../etc/passwd',
      '/__assets/avatars/../../secret.txt',
      '/__assets/avatars/%2e%2e/%2e%2e/secret.txt',
      '/__assets/avatars/..%2F..%2Fsecret.txt',
      '/__assets/..%2F..%2F..%2Fetc%2Fpasswd',
      '/__assets/avatars/projects/..%5C..%5C..%5Csecret.txt',
      '/__assets/avatars/projects/01ARZ3NDEKTSV4RRFFQ69G5FAV.webp',
      '/__assets/secret.txt',
      '/__assets/avatars/projects',
      '/__assets/avatars',
    ];
    for (const attempt of attempts) {
      const response = await rawGet(attempt);
      expect(response.status, attempt).toBe(404);
      expect(response.contentType, attempt).toMatch(/application\/json/);
      expect(JSON.parse(response.body).error.code, attempt).toBe('not_found');
      expect(response.body).not.toContain('top secret');
      expect(response.body).not.toContain('root:');
    }
  });
});
