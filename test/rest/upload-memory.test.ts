import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_STEP } from '../../src/test-cases/attachments.schemas.ts';
import { signUp, useTestApp } from '../support/app.ts';
import * as uploads from '../support/uploads.ts';

/**
 * Uploads stream through temporary files: 8 parallel stagings of 10 × 10 MiB (800 MiB) must not
 * make the process grow by anything like their size. When parts were buffered in memory the same
 * load raised the RSS by about 840 MB. The app runs in this process, so its RSS is the server's.
 */

const t = useTestApp();

const PARALLEL = 8;
const MIB = 1024 * 1024;
const RSS_GROWTH_BOUND = 200 * MIB;

describe('memory while uploading', () => {
  it(`stays bounded for ${PARALLEL} parallel stagings of ${ATTACHMENTS_PER_STEP} files of 10 MiB`, { timeout: 180_000 }, async () => {
    const owner = await signUp(t.http);
    const testCase = await uploads.newCase(t.http, owner);
    // One buffer for every part: the test's own requests add no more than this.
    const content = Buffer.alloc(ATTACHMENT_MAX_BYTES, 7);
    const files = Array.from({ length: ATTACHMENTS_PER_STEP }, (_, index) => ({ name: `part-${index}.bin`, bytes: content }));
    // Warm-up: code paths loaded, pools and caches filled before measuring.
    expect((await uploads.stage(t.http, owner, testCase.ulid, files.slice(0, 2))).status).toBe(201);

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      const responses = await Promise.all(Array.from({ length: PARALLEL }, () => uploads.stage(t.http, owner, testCase.ulid, files)));
      for (const response of responses) {
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        expect(response.body.items.map((item: { sizeBytes: number }) => item.sizeBytes)).toEqual(files.map(() => ATTACHMENT_MAX_BYTES));
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    console.info(`upload memory: RSS ${Math.round(before / MIB)} MiB before, peak growth ${Math.round((peak - before) / MIB)} MiB`);
    expect(peak - before).toBeLessThan(RSS_GROWTH_BOUND);
    expect(await uploads.usedBytes(owner.orgId)).toBe((PARALLEL * ATTACHMENTS_PER_STEP + 2) * ATTACHMENT_MAX_BYTES);
  });
});
