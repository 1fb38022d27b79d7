import { readFile, rm } from 'node:fs/promises';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { sweepExpired } from '../../app/maintenance.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { guardedLookup, RefusedAddressError } from '../../src/webhooks/receiver-address.ts';
import {
  DEACTIVATION_THRESHOLD,
  DELIVERY_RETENTION_MS,
  MAX_ATTEMPTS,
  WEBHOOK_CONCURRENCY,
} from '../../src/webhooks/webhook-dispatcher.service.ts';
import { auditEvents, type Caller, createMilestone, ownerWithProject, useTestApp } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';
import { freshServerDatabase } from '../support/databases.ts';
import { createCases, createRun, patchRunCase, runWithCases } from '../support/runs.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { createWebhook, deliveriesOf, untilDeliveries, webhookOf } from '../support/webhooks.ts';

/**
 * Webhook deliveries end to end (contract §13): a real receiver in the test process, the real
 * dispatcher of the app, signatures checked with the `standardwebhooks` package. Retries, polls
 * and the breaker's cool-downs are shortened through configuration; everything else is as in
 * production.
 */

const FAST = {
  TCMS_WEBHOOK_DISPATCH: 'true',
  TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true',
  TCMS_WEBHOOK_TIMEOUT_MS: '400',
  TCMS_WEBHOOK_RETRY_BASE_MS: '1',
  TCMS_WEBHOOK_POLL_MS: '20',
  TCMS_WEBHOOK_COOLDOWN_MS: '1',
};

const t = useTestApp(FAST);

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  onTestFinished(() => started.close());
  return started;
}

const milestone = (owner: Caller, code: string, name = 'Release') => createMilestone(t.http, owner, code, { name });

describe('webhook deliveries', () => {
  it('posts each matching event once, signed by the Standard Webhooks scheme, with the audit event as its data', async () => {
    const hook = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.*'] });
    const created = await milestone(owner, code, 'Release 7');

    const [heard] = await hook.until((received) => received.length === 1);
    const [delivery] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    expect(delivery).toMatchObject({
      action: 'milestone.created',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(heard!.id).toBe(delivery!.ulid);
    expect(heard!.headers['content-type']).toBe('application/json');

    const verified = new Webhook(webhook.secret).verify(heard!.body, {
      'webhook-id': heard!.id,
      'webhook-timestamp': heard!.timestamp,
      'webhook-signature': heard!.signature,
    });
    const [event] = await auditEvents(t.http, owner, { action: 'milestone.created' });
    expect(verified).toEqual({ type: 'milestone.created', timestamp: event!.createdAt, organizationUlid: owner.orgId, data: event });
    expect(event!.entityUlid).toBe(created.ulid);
    expect(delivery!.eventUlid).toBe(event!.ulid);
    expect(Math.abs(Number(heard!.timestamp) - Date.now() / 1000)).toBeLessThan(60);

    // A body changed on the way, or another secret, does not verify.
    const headers = { 'webhook-id': heard!.id, 'webhook-timestamp': heard!.timestamp, 'webhook-signature': heard!.signature };
    expect(() => new Webhook(webhook.secret).verify(heard!.body.replace('Release 7', 'Release 8'), headers)).toThrow();
    const other = await createWebhook(t.http, owner, { url: hook.url, events: ['nothing.*'] });
    expect(() => new Webhook(other.secret).verify(heard!.body, headers)).toThrow();
    // Events the patterns do not match are not sent.
    expect(hook.received).toHaveLength(1);
  });

  it('retries a failing receiver under the same webhook-id until it answers 2xx, and a success resets the failure count', async () => {
    const hook = await receiver();
    hook.answerWith((_, index) => (index < 3 ? 500 : 204));
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await milestone(owner, code);

    await hook.until((received) => received.length === 4);
    expect(new Set(hook.received.map((each) => each.id)).size).toBe(1);
    const [delivery] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 4, lastStatusCode: 204, lastError: null });
    expect((await webhookOf(t.http, owner, webhook.ulid)).consecutiveFailures).toBe(0);
  });

  it(`gives a delivery up after ${MAX_ATTEMPTS} failed attempts and says why`, async () => {
    const hook = await receiver();
    hook.answerWith(() => 503);
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await milestone(owner, code);

    const [delivery] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'failed', 30_000);
    expect(delivery).toMatchObject({ attempts: MAX_ATTEMPTS, lastStatusCode: 503, nextAttemptAt: null, deliveredAt: null });
    expect(delivery!.lastError).toContain('503');
    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
    expect((await webhookOf(t.http, owner, webhook.ulid)).consecutiveFailures).toBe(MAX_ATTEMPTS);
  });

  it('counts a receiver that never answers as a failed attempt once the timeout has passed', async () => {
    const hook = await receiver();
    hook.answerWith((_, index) => (index === 0 ? 'hang' : 200));
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await milestone(owner, code);

    const [delivery] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    expect(delivery!.attempts).toBe(2);
    expect(hook.received.map((each) => each.id)).toEqual([delivery!.ulid, delivery!.ulid]);
    hook.release();
  });

  it(`deactivates a webhook after ${DEACTIVATION_THRESHOLD} consecutive failures, audits webhook.disabled as the system, and tells the other webhooks`, async () => {
    const failing = await receiver();
    failing.answerWith(() => 500);
    const watching = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: failing.url, events: ['milestone.*'] });
    const watcher = await createWebhook(t.http, owner, { url: watching.url, events: ['webhook.disabled', 'milestone.updated'] });
    for (let index = 0; index < 3; index += 1) await milestone(owner, code, `Release ${index}`);

    const typeOf = (request: { body: string }) => (JSON.parse(request.body) as { type: string }).type;
    const [heard] = await watching.until((received) => received.length === 1, 30_000);
    expect(JSON.parse(heard!.body)).toMatchObject({
      type: 'webhook.disabled',
      data: { entityUlid: webhook.ulid, actor: { kind: 'system' } },
    });
    expect((await webhookOf(t.http, owner, webhook.ulid)).active).toBe(false);
    // Sends under way when the 20th failure came in still finish, and count; nothing is claimed after it.
    await expect
      .poll(async () => (await webhookOf(t.http, owner, webhook.ulid)).consecutiveFailures - failing.received.length, {
        timeout: 10_000,
        interval: 25,
      })
      .toBe(0);
    const sent = failing.received.length;
    expect(sent).toBeGreaterThanOrEqual(DEACTIVATION_THRESHOLD);
    expect(sent).toBeLessThan(DEACTIVATION_THRESHOLD + 4);
    const [event] = await auditEvents(t.http, owner, { action: 'webhook.disabled' });
    expect(event).toMatchObject({
      entityType: 'webhook',
      entityUlid: webhook.ulid,
      actor: { kind: 'system' },
      metadata: { consecutiveFailures: DEACTIVATION_THRESHOLD },
    });
    expect((await webhookOf(t.http, owner, watcher.ulid)).active).toBe(true);

    // Its retries, due at once, are not sent by the time the watcher hears of a later event, and new events queue nothing for it.
    const queued = (await deliveriesOf(t.http, owner, webhook.ulid)).length;
    const later = await milestone(owner, code, 'After');
    expect((await t.http.patch(`/api/v1/milestones/${later.ulid}`).set(owner.headers).send({ name: 'Later' })).status).toBe(200);
    await watching.until((received) => received.some((request) => typeOf(request) === 'milestone.updated'));
    expect(failing.received).toHaveLength(sent);
    expect(await deliveriesOf(t.http, owner, webhook.ulid)).toHaveLength(queued);
  });

  it('sends a redelivery under a new webhook-id with the same body, and signs with the previous secret too for a day after a rotation', async () => {
    const hook = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await milestone(owner, code);
    const [delivery] = await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');

    const rotated = await t.http.post(`/api/v1/orgs/${owner.orgId}/webhooks/${webhook.ulid}/rotate-secret`).set(owner.headers);
    expect(rotated.status).toBe(200);
    const redelivered = await t.http
      .post(`/api/v1/orgs/${owner.orgId}/webhooks/${webhook.ulid}/deliveries/${delivery!.ulid}/redeliver`)
      .set(owner.headers);
    expect(redelivered.status).toBe(202);

    const [first, second] = await hook.until((received) => received.length === 2);
    expect(second!.id).not.toBe(first!.id);
    expect(second!.body).toBe(first!.body);
    const headers = { 'webhook-id': second!.id, 'webhook-timestamp': second!.timestamp, 'webhook-signature': second!.signature };
    expect(second!.signature.split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.body.secret).verify(second!.body, headers)).toMatchObject({ type: 'milestone.created' });
    expect(new Webhook(webhook.secret).verify(second!.body, headers)).toMatchObject({ type: 'milestone.created' });
  });

  it("sends a single mark's event, and the automatic close it causes, each to the webhooks matching it", async () => {
    const hook = await receiver();
    const { owner, runCases, run } = await runWithCases(t.http, 1);
    const marks = await createWebhook(t.http, owner, { url: hook.url, events: ['run.case_marked'] });
    const closes = await createWebhook(t.http, owner, { url: hook.url, events: ['run.closed'] });
    const others = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.*'] });
    const marked = await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);

    const [markDelivery] = await untilDeliveries(t.http, owner, marks.ulid, (list) => list[0]?.status === 'delivered');
    const [closeDelivery] = await untilDeliveries(t.http, owner, closes.ulid, (list) => list[0]?.status === 'delivered');
    const [markEvent] = await auditEvents(t.http, owner, { action: 'run.case_marked' });
    const [closeEvent] = await auditEvents(t.http, owner, { action: 'run.closed' });
    expect(markDelivery).toMatchObject({ action: 'run.case_marked', eventUlid: markEvent!.ulid });
    expect(closeDelivery).toMatchObject({ action: 'run.closed', eventUlid: closeEvent!.ulid });
    expect(markEvent!.entityUlid).toBe(runCases[0]!.ulid);
    expect(markEvent!.ulid < closeEvent!.ulid).toBe(true);
    expect(await deliveriesOf(t.http, owner, others.ulid)).toEqual([]);
    expect(hook.received).toHaveLength(2);
  });

  // Its 500 cases are created one request each: about 13 s on the embedded database on a quiet machine.
  it('sends one delivery for a bulk mark of 500 cases and one for a result import', { timeout: 90_000 }, async () => {
    const hook = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 500);
    const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['run.cases_bulk_marked'] });
    const marked = await t.http
      .post(`/api/v1/runs/${run.ulid}/cases/bulk-mark`)
      .set(owner.headers)
      .send({ caseUlids: cases.map((each) => each.ulid), status: 'passed' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const report = await readFile(new URL('../fixtures/reports/pytest.xml', import.meta.url));
    const imported = await t.http
      .post(`/api/v1/projects/${code}/result-imports`)
      .set(owner.headers)
      .set('Content-Type', 'application/xml')
      .send(report);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);

    const deliveries = await untilDeliveries(
      t.http,
      owner,
      webhook.ulid,
      (list) => list.length === 2 && list.every((each) => each.status === 'delivered'),
    );
    expect(deliveries.map((each) => each.action)).toEqual(['run.cases_bulk_marked', 'run.cases_bulk_marked']);
    expect(hook.received).toHaveLength(2);
  });

  it('keeps the log of settled deliveries for 30 days, and pending ones until they settle', async () => {
    const hook = await receiver();
    hook.answerWith((_, index) => (index === 0 ? 200 : 'hang'));
    const { owner, code } = await ownerWithProject(t.http);
    const webhook = await createWebhook(t.http, owner, { url: hook.url, events: ['milestone.created'] });
    await milestone(owner, code, 'Delivered');
    await untilDeliveries(t.http, owner, webhook.ulid, (list) => list[0]?.status === 'delivered');
    await milestone(owner, code, 'Pending');
    await hook.until((received) => received.length === 2);

    const ageBy = (ms: number) =>
      prisma().webhookDelivery.updateMany({ where: { webhookId: webhook.ulid }, data: { createdAt: new Date(Date.now() - ms) } });
    await ageBy(DELIVERY_RETENTION_MS - 60_000);
    await sweepExpired(prisma());
    expect(await deliveriesOf(t.http, owner, webhook.ulid)).toHaveLength(2);
    await ageBy(DELIVERY_RETENTION_MS + 60_000);
    await sweepExpired(prisma());
    expect((await deliveriesOf(t.http, owner, webhook.ulid)).map((each) => each.status)).toEqual(['pending']);
    hook.release();
  });

  it('keeps a slow receiver to a few sends at once while another webhook gets all of its deliveries', async () => {
    const slow = await receiver();
    slow.answerWith(() => 'hang');
    const fast = await receiver();
    const { owner, code } = await ownerWithProject(t.http);
    await createWebhook(t.http, owner, { url: slow.url, events: ['milestone.*'] });
    await createWebhook(t.http, owner, { url: fast.url, events: ['milestone.*'] });
    for (let index = 0; index < 12; index += 1) await milestone(owner, code, `Release ${index}`);

    await fast.until((received) => received.length === 12);
    expect(slow.maxOpen()).toBeLessThanOrEqual(WEBHOOK_CONCURRENCY);
    slow.release();
  });
});

/**
 * Two apps one after the other on a database of their own (on a PostgreSQL server, a fresh one:
 * every other app of the suite there would gladly send to a private receiver).
 */
describe('receivers on private addresses', () => {
  let dataDir: string;
  let isolated: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let apps: App[] = [];
  beforeAll(async () => {
    dataDir = await newDataDir('tcms-test-');
    if (process.env.DATABASE_URL) isolated = await freshServerDatabase(process.env.DATABASE_URL);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await isolated?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const open = async (env: NodeJS.ProcessEnv) => {
    const database = isolated ? { DATABASE_URL: isolated.url } : {};
    const app = await createApp(loadConfig({ ...process.env, TCMS_DATA_DIR: dataDir, NODE_ENV: 'test', ...FAST, ...database, ...env }));
    apps.push(app);
    return { app, http: request(app.express) };
  };

  it('are refused again when the delivery is sent, by IP literal and by a name resolving to loopback', async () => {
    const hook = await receiver();
    // Saved while private receivers were allowed…
    const allowing = await open({});
    const { owner, code } = await ownerWithProject(allowing.http);
    const byAddress = await createWebhook(allowing.http, owner, { url: hook.url, events: ['milestone.created'] });
    const byName = await createWebhook(allowing.http, owner, { url: `http://localhost:${hook.port}/hook`, events: ['milestone.created'] });
    // IPv6 forms of 127.0.0.1 (through a dual-stack socket the mapped one reaches the receiver).
    const byIpv6 = await Promise.all(
      ['[::ffff:7f00:1]', '[::7f00:1]', '[64:ff9b::7f00:1]'].map((host) =>
        createWebhook(allowing.http, owner, { url: `http://${host}:${hook.port}/hook`, events: ['milestone.created'] }),
      ),
    );
    await allowing.app.close();
    apps = apps.filter((app) => app !== allowing.app);

    // …and sent by a server that refuses them.
    const refusing = await open({ TCMS_WEBHOOKS_ALLOW_PRIVATE: 'false' });
    await createMilestone(refusing.http, owner, code);
    for (const webhook of [byAddress, byName, ...byIpv6]) {
      const [delivery] = await untilDeliveries(
        refusing.http,
        owner,
        webhook.ulid,
        (list) => (list[0]?.attempts ?? 0) >= 1 && list[0]?.lastError !== null,
      );
      expect(delivery!.lastError).toMatch(/127\.0\.0\.1|::1|7f00:1/);
      expect(delivery!.lastError).toContain('private');
      expect(delivery!.lastStatusCode).toBeNull();
    }
    expect(hook.received).toHaveLength(0);
  });

  it("are refused by the connection's own DNS lookup in their IPv6 forms too", async () => {
    const lookup = guardedLookup(false);
    const resolve = (host: string) =>
      new Promise<{ error: Error | null; address: unknown }>((done) => lookup(host, {}, (error, address) => done({ error, address })));
    for (const host of ['::ffff:7f00:1', '::7f00:1', '64:ff9b::7f00:1', '::ffff:0:a00:1']) {
      const { error } = await resolve(host);
      expect(error, host).toBeInstanceOf(RefusedAddressError);
      expect(error!.message).toContain(host);
    }
    expect(await resolve('64:ff9b::5db8:d70e')).toEqual({ error: null, address: '64:ff9b::5db8:d70e' });
  });
});
