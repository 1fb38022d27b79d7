import { describe, expect, it, onTestFinished } from 'vitest';
import { BREAKER_THRESHOLD, ORGANIZATION_SLOTS, WEBHOOK_CONCURRENCY } from '../../src/webhooks/webhook-dispatcher.service.ts';
import { type Caller, createMilestone, ownerWithProject } from '../support/app.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { createWebhook, deliveriesOf, untilDeliveries, useDispatchingApp, webhookOf } from '../support/webhooks.ts';

/**
 * Receivers that fail or never answer cost their own organization, not the others (issue 28):
 * the send slots shared out per organization and per webhook, and the circuit breaker, end to end
 * with real receivers. The timeout is the production one, so that a hanging receiver holds its
 * slot for the whole test; retries and polls are shortened, and the first cool-down is a second.
 */

const COOLDOWN_MS = 1_000;

const t = useDispatchingApp({
  TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true',
  TCMS_WEBHOOK_TIMEOUT_MS: '10000',
  TCMS_WEBHOOK_RETRY_BASE_MS: '1',
  TCMS_WEBHOOK_POLL_MS: '20',
  TCMS_WEBHOOK_COOLDOWN_MS: String(COOLDOWN_MS),
});

async function receiver(answer: (index: number) => number | 'hang' = () => 200): Promise<Receiver> {
  const started = await startReceiver();
  started.answerWith((_, index) => answer(index));
  onTestFinished(() => started.close());
  return started;
}

const milestone = (owner: Caller, code: string, name: string) => createMilestone(t.http, owner, code, { name });

/** Renames the milestone: its `milestone.updated` reaches a watcher once every send queued before it had its chance. */
async function renameMilestone(owner: Caller, milestoneUlid: string, name: string) {
  const response = await t.http.patch(`/api/v1/milestones/${milestoneUlid}`).set(owner.headers).send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

describe('webhook deliveries of two organizations', () => {
  it("reach one organization's receiver within seconds while five receivers of another never answer", async () => {
    const hanging = await Promise.all(Array.from({ length: 5 }, () => receiver(() => 'hang')));
    const healthy = await receiver();
    const a = await ownerWithProject(t.http);
    const b = await ownerWithProject(t.http);
    for (const each of hanging) await createWebhook(t.http, a.owner, { url: each.url, events: ['milestone.*'] });
    await createWebhook(t.http, b.owner, { url: healthy.url, events: ['milestone.*'] });
    // 30 deliveries: enough for every slot of the process, were they A's for the taking.
    for (let index = 0; index < 6; index += 1) await milestone(a.owner, a.code, `A ${index}`);
    const heardByA = () => hanging.reduce((sum, each) => sum + each.received.length, 0);
    await expect.poll(heardByA, { timeout: 10_000, interval: 10 }).toBe(ORGANIZATION_SLOTS);

    for (let index = 0; index < 3; index += 1) {
      const queued = Date.now();
      await milestone(b.owner, b.code, `B ${index}`);
      const heard = await healthy.until((received) => received.length === index + 1);
      expect(heard[index]!.at - queued).toBeLessThan(3_000);
    }
    // A's sends still hang, and A took no slot more.
    expect(heardByA()).toBe(ORGANIZATION_SLOTS);
  });
});

describe('the circuit breaker of a webhook', () => {
  it(`opens after ${BREAKER_THRESHOLD} failures in a row, holds the deliveries back without spending their attempts, then probes one at a time with a growing cool-down until a probe succeeds`, async () => {
    let firstProbe = Number.POSITIVE_INFINITY;
    const failing = await receiver((index) => (index <= firstProbe ? 500 : 200));
    const watching = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: failing.url, events: ['milestone.created'] });
    await createWebhook(t.http, owner, { url: watching.url, events: ['milestone.updated'] });
    const created = await milestone(owner, code, 'Release 0');
    for (let index = 1; index < 6; index += 1) await milestone(owner, code, `Release ${index}`);

    await failing.until((received) => received.length >= BREAKER_THRESHOLD);
    await renameMilestone(owner, created.ulid, 'Renamed');
    await watching.until((received) => received.length === 1);
    // Sends under way when it opened still finish; nothing was claimed after, though every retry fell due at once.
    const opened = failing.received.length;
    expect(opened).toBeLessThanOrEqual(BREAKER_THRESHOLD + WEBHOOK_CONCURRENCY - 1);
    await expect.poll(async () => (await webhookOf(t.http, owner, webhook.ulid)).consecutiveFailures, { interval: 10 }).toBe(opened);
    const held = await deliveriesOf(t.http, owner, webhook.ulid);
    expect(held.map((each) => each.status)).toEqual(Array(6).fill('pending'));
    expect(held.reduce((sum, each) => sum + each.attempts, 0)).toBe(opened);
    expect(held.filter((each) => each.attempts === 0).length).toBeGreaterThanOrEqual(6 - opened);

    // The first probe fails, the second succeeds and the rest follow.
    firstProbe = opened;
    const deliveries = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list.every((each) => each.status === 'delivered'));
    const [probe, secondProbe] = failing.received.slice(opened);
    expect(probe!.at - failing.received[BREAKER_THRESHOLD - 1]!.at).toBeGreaterThanOrEqual(COOLDOWN_MS - 5);
    expect(secondProbe!.at - probe!.at).toBeGreaterThanOrEqual(2 * COOLDOWN_MS - 5);
    expect(deliveries.reduce((sum, each) => sum + each.attempts, 0)).toBe(failing.received.length);
    expect((await webhookOf(t.http, owner, webhook.ulid)).consecutiveFailures).toBe(0);
  });

  it('starts a re-activated webhook probing: one delivery at a time until one succeeds, then as many as a webhook may', async () => {
    const hook = await receiver((index) => (index === 0 ? 200 : 'hang'));
    const watching = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await createWebhook(t.http, owner, { url: watching.url, events: ['milestone.updated'] });
    const created = await milestone(owner, code, 'Release');
    const [delivered] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    const path = `/api/v1/orgs/${owner.orgId}/webhooks/${webhook.ulid}`;
    expect((await t.http.patch(path).set(owner.headers).send({ active: false })).status).toBe(200);
    for (let index = 0; index < 4; index += 1) {
      expect((await t.http.post(`${path}/deliveries/${delivered!.ulid}/redeliver`).set(owner.headers)).status).toBe(202);
    }

    expect((await t.http.patch(path).set(owner.headers).send({ active: true })).status).toBe(200);
    await hook.until((received) => received.length === 2);
    await renameMilestone(owner, created.ulid, 'Renamed');
    await watching.until((received) => received.length === 1);
    expect(hook.received).toHaveLength(2);
    expect(hook.open()).toBe(1);

    hook.release(200);
    await hook.until((received) => received.length === 2 + WEBHOOK_CONCURRENCY);
    await expect.poll(() => hook.open(), { interval: 10 }).toBe(WEBHOOK_CONCURRENCY);
    hook.answerWith(() => 200);
    hook.release(200);
    await untilDeliveries(t.http, owner, webhook.ulid, (list) => list.length === 5 && list.every((each) => each.status === 'delivered'));
    expect(hook.maxOpen()).toBe(WEBHOOK_CONCURRENCY);
  });
});
