import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { onQuery, prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { TEST_DEFAULTS } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';

/**
 * The periodic jobs every server process starts (the sweep, subscription renewals) run on the
 * background client: a request never waits for their connection, and a count of the statements a
 * request sends never hears theirs, whenever they come.
 */

let dataDir: string;
const openApp = () => createApp(loadConfig({ ...process.env, TCMS_DATA_DIR: dataDir, NODE_ENV: 'test', ...TEST_DEFAULTS }));

beforeAll(async () => {
  dataDir = await newDataDir('tcms-maintenance-');
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the maintenance jobs', () => {
  it('sweep on the background client, unheard by onQuery', async () => {
    const first = await openApp();
    const key = newId();
    await prisma().idempotencyKey.create({
      data: {
        principal: 'maintenance-test',
        key,
        requestHash: '0'.repeat(64),
        responseStatus: 200,
        responseHeaders: {},
        createdAt: new Date(0),
      },
    });
    await first.close();

    const statements: string[] = [];
    const stop = onQuery((event) => statements.push(event.query));
    const second = await openApp();
    try {
      await vi.waitFor(async () => {
        expect(await prisma().idempotencyKey.findUnique({ where: { principal_key: { principal: 'maintenance-test', key } } })).toBeNull();
      }, 20_000);
    } finally {
      // Its close waits for the job in progress: every statement of the first sweep was sent by then.
      await second.close();
      stop();
    }
    expect(statements.filter((statement) => /DELETE FROM|\bsubscriptions\b/.test(statement))).toEqual([]);
  }, 60_000);
});
