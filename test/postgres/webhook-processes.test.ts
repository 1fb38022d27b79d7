import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMilestone, ownerWithProject } from '../support/app.ts';
import { killNow, startServer, stopServer, useServerProcess } from '../support/processes.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { createWebhook, untilDeliveries } from '../support/webhooks.ts';

/**
 * The webhook outbox under real processes: server processes share one PostgreSQL database and
 * its `webhook_deliveries` table; no process of the test itself dispatches anything.
 */

const DISPATCH = {
  TCMS_WEBHOOK_DISPATCH: 'true',
  TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true',
  TCMS_WEBHOOK_RETRY_BASE_MS: '1',
  TCMS_WEBHOOK_POLL_MS: '20',
  TCMS_WEBHOOK_COOLDOWN_MS: '1',
};

describe('webhook deliveries across server processes', { timeout: 240_000 }, () => {
  const first = useServerProcess(DISPATCH);
  const second = useServerProcess(DISPATCH);

  it('sends each attempt once when two processes dispatch the same outbox', async () => {
    const hook = await startReceiver();
    onTestFinished(() => hook.close());
    const [a, b] = [request(first.current.baseUrl), request(second.current.baseUrl)];
    const { owner, code } = await ownerWithProject(a);
    const webhook = await createWebhook(a, owner, { url: hook.url, events: ['milestone.created'] });
    await Promise.all(
      Array.from({ length: 40 }, (_, index) => createMilestone(index % 2 === 0 ? a : b, owner, code, { name: `Release ${index}` })),
    );

    const deliveries = await untilDeliveries(
      b,
      owner,
      webhook.ulid,
      (list) => list.length === 40 && list.every((each) => each.status === 'delivered'),
      60_000,
    );
    expect(deliveries.every((each) => each.attempts === 1)).toBe(true);
    expect(hook.received).toHaveLength(40);
    expect(new Set(hook.received.map((each) => each.id))).toEqual(new Set(deliveries.map((each) => each.ulid)));
  });

  it('leaves a delivery whose process was killed mid-send to be sent again by a process started afterwards', async () => {
    const hook = await startReceiver();
    onTestFinished(() => hook.close());
    hook.answerWith((_, index) => (index === 0 ? 'hang' : 200));
    // Neither process of this file must take the delivery over: their outbox is left alone here.
    await stopServer(first.current);
    await stopServer(second.current);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-server-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const env = { ...DISPATCH, TCMS_WEBHOOK_TIMEOUT_MS: '1500' };

    const doomed = await startServer({ dataDir, env });
    const http = request(doomed.baseUrl);
    const { owner, code } = await ownerWithProject(http);
    const webhook = await createWebhook(http, owner, { url: hook.url, events: ['milestone.created'] });
    await createMilestone(http, owner, code);
    const [sent] = await hook.until((received) => received.length === 1);
    await killNow(doomed);

    const successor = await startServer({ dataDir, env });
    onTestFinished(() => stopServer(successor));
    await hook.until((received) => received.length === 2, 30_000);
    expect(hook.received[1]!.id).toBe(sent!.id);
    const [delivery] = await untilDeliveries(request(successor.baseUrl), owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ ulid: sent!.id, attempts: 2, lastStatusCode: 200 });
    hook.release();
  });
});
