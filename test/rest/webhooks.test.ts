import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { onWebhookDeliveriesQueued } from '../../src/webhooks/dispatch-signal.service.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';

/**
 * Receivers are 127.0.0.1 on a port where nothing listens, and the first retry is ten minutes
 * away: deliveries stay pending whatever a dispatcher does meanwhile (attempts are never asserted).
 */
const RECEIVER_SETTINGS = { TCMS_WEBHOOK_RETRY_BASE_MS: '600000' };

type Webhook = {
  ulid: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  consecutiveFailures: number;
  createdAt: number;
  updatedAt: number;
  secret?: string;
};
type Delivery = {
  ulid: string;
  eventUlid: string;
  action: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  createdAt: number;
};

/** A webhook as answered, less its failure count, which the dispatcher moves meanwhile (nothing listens at `receiver`). */
const withoutFailureCount = ({ consecutiveFailures: _failures, ...rest }: Webhook) => rest;

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

/** A local port nothing listens on (taken from the system, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('webhooks with private receivers allowed', () => {
  const t = useTestApp({ ...RECEIVER_SETTINGS, TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true' });
  let receiver = '';
  beforeAll(async () => {
    receiver = `http://127.0.0.1:${await closedPort()}/hook`;
  });

  const webhooksPath = (caller: Caller) => `/api/v1/orgs/${caller.orgId}/webhooks`;
  const webhookPath = (caller: Caller, ulid: string, rest = '') => `${webhooksPath(caller)}/${ulid}${rest}`;

  async function createWebhook(caller: Caller, body: Record<string, unknown> = {}): Promise<Webhook> {
    const response = await t.http
      .post(webhooksPath(caller))
      .set(caller.headers)
      .send({ url: receiver, events: ['*'], ...body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  async function deliveries(
    caller: Caller,
    ulid: string,
    query = '',
  ): Promise<{ items: Delivery[]; total: number; page: number; pageSize: number }> {
    const response = await t.http.get(webhookPath(caller, ulid, `/deliveries${query}`)).set(caller.headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  const actionsOf = async (caller: Caller, ulid: string) => (await deliveries(caller, ulid)).items.map((delivery) => delivery.action);

  /** Every audit event of the organization, as text: no secret may appear in any of them. */
  const auditText = async (caller: Caller) => JSON.stringify(await auditEvents(t.http, caller));

  describe('create, read, list', () => {
    it('answers the webhook with a Standard Webhooks secret once; reads and lists never show it', async () => {
      const owner = await signUp(t.http);
      const response = await t.http
        .post(webhooksPath(owner))
        .set(owner.headers)
        .send({ url: receiver, events: ['run.*', 'project.created'], description: 'CI' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        ulid: expect.stringMatching(/^[0-9A-Z]{26}$/),
        url: receiver,
        events: ['run.*', 'project.created'],
        description: 'CI',
        active: true,
        consecutiveFailures: 0,
        createdAt: expect.any(Number),
        updatedAt: response.body.createdAt,
        secret: expect.stringMatching(SECRET),
      });
      const { secret, ...shown } = response.body;
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

      const read = await t.http.get(webhookPath(owner, shown.ulid)).set(owner.headers);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(shown);
      const list = await t.http.get(webhooksPath(owner)).set(owner.headers);
      expect(list.body).toEqual({ items: [shown], page: 1, pageSize: 50, total: 1 });

      const inactive = await createWebhook(owner, { events: ['*'], active: false, description: null });
      expect(inactive).toMatchObject({ active: false, description: null, secret: expect.stringMatching(SECRET) });
      expect(inactive.secret).not.toBe(secret);
      const paged = await t.http.get(`${webhooksPath(owner)}?page=2&pageSize=1`).set(owner.headers);
      expect(paged.body).toMatchObject({ items: [{ ulid: inactive.ulid }], page: 2, pageSize: 1, total: 2 });
      expect(paged.body.items[0]).not.toHaveProperty('secret');
    });

    it('records webhook.created with the subscription and no secret', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['defect.*'], description: 'Triage' });
      const [created] = await auditEvents(t.http, owner, { action: 'webhook.created', entityUlid: webhook.ulid });
      expect(created).toMatchObject({
        entityType: 'webhook',
        entityLabel: receiver,
        actor: { kind: 'user', ulid: owner.userId },
        metadata: { url: receiver, events: ['defect.*'], description: 'Triage', active: true },
      });
      expect(await auditText(owner)).not.toContain(webhook.secret);
    });
  });

  describe('who may', () => {
    it('owners, admins and admin tokens manage webhooks; members, viewers and member tokens get 403 on every route', async () => {
      const owner = await signUp(t.http);
      const admin = await joinAs(t.http, owner, 'admin');
      const adminToken = await tokenFor(t.http, owner, { role: 'admin' });
      const member = await joinAs(t.http, owner, 'member');
      const viewer = await joinAs(t.http, owner, 'viewer');
      const memberToken = await tokenFor(t.http, owner, { role: 'member' });

      const webhook = await createWebhook(owner);
      await createWebhook(admin);
      await createWebhook(adminToken);
      const [delivery] = (await deliveries(admin, webhook.ulid)).items;
      expect(delivery).toBeDefined();
      const calls = (caller: Caller) => [
        t.http
          .post(webhooksPath(caller))
          .set(caller.headers)
          .send({ url: receiver, events: ['*'] }),
        t.http.get(webhooksPath(caller)).set(caller.headers),
        t.http.get(webhookPath(caller, webhook.ulid)).set(caller.headers),
        t.http.patch(webhookPath(caller, webhook.ulid)).set(caller.headers).send({ active: false }),
        t.http.delete(webhookPath(caller, webhook.ulid)).set(caller.headers),
        t.http.post(webhookPath(caller, webhook.ulid, '/rotate-secret')).set(caller.headers),
        t.http.get(webhookPath(caller, webhook.ulid, '/deliveries')).set(caller.headers),
        t.http.post(webhookPath(caller, webhook.ulid, `/deliveries/${delivery!.ulid}/redeliver`)).set(caller.headers),
      ];
      for (const caller of [member, viewer, memberToken]) {
        for (const response of await Promise.all(calls(caller))) expectError(response, 403, 'forbidden');
      }
      const list = await t.http.get(webhooksPath(adminToken)).set(adminToken.headers);
      expect(list.body.total).toBe(3);
      expect((await t.http.get(webhookPath(owner, webhook.ulid)).set(owner.headers)).body.active).toBe(true);
    });

    it("another organization's webhooks and deliveries are 404, through its own path and through theirs", async () => {
      const owner = await signUp(t.http);
      const stranger = await signUp(t.http);
      const webhook = await createWebhook(owner);
      const [delivery] = (await deliveries(owner, webhook.ulid)).items;
      const strangers = (orgPath: Caller) => [
        t.http.get(webhookPath(orgPath, webhook.ulid)).set(stranger.headers),
        t.http.patch(webhookPath(orgPath, webhook.ulid)).set(stranger.headers).send({ active: false }),
        t.http.delete(webhookPath(orgPath, webhook.ulid)).set(stranger.headers),
        t.http.post(webhookPath(orgPath, webhook.ulid, '/rotate-secret')).set(stranger.headers),
        t.http.get(webhookPath(orgPath, webhook.ulid, '/deliveries')).set(stranger.headers),
        t.http.post(webhookPath(orgPath, webhook.ulid, `/deliveries/${delivery!.ulid}/redeliver`)).set(stranger.headers),
      ];
      for (const response of await Promise.all([...strangers(stranger), ...strangers(owner)])) expectError(response, 404, 'not_found');
      expectError(await t.http.get(webhooksPath(owner)).set(stranger.headers), 404, 'not_found');
      expect((await t.http.get(webhooksPath(stranger)).set(stranger.headers)).body.total).toBe(0);
      expect((await t.http.get(webhookPath(owner, webhook.ulid)).set(owner.headers)).body).toMatchObject({ active: true, url: receiver });
      expect((await deliveries(owner, webhook.ulid)).total).toBe(1);
    });
  });

  describe('validation', () => {
    it.each([
      ['a URL that is not absolute', { url: '/hook' }, 'url'],
      ['an ftp URL', { url: 'ftp://127.0.0.1/hook' }, 'url'],
      ['a javascript URL', { url: 'javascript:alert(1)' }, 'url'],
      ['a URL with a user and password', { url: 'http://user:secret@127.0.0.1/hook' }, 'url'],
      ['a URL with a user name only', { url: 'http://user@127.0.0.1/hook' }, 'url'],
      ['a URL longer than 2048 characters', { url: `http://127.0.0.1/${'a'.repeat(2032)}` }, 'url'],
      ['no events', { events: [] }, 'events'],
      ['51 events', { events: Array.from({ length: 51 }, (_, index) => `run.action_${index}`) }, 'events'],
      ['a repeated event', { events: ['run.*', 'run.*'] }, 'events'],
      ['an uppercase action', { events: ['Run.created'] }, 'events.0'],
      ['a single word', { events: ['run'] }, 'events.0'],
      ['a wildcard inside', { events: ['run.*.x'] }, 'events.0'],
      ['a leading wildcard', { events: ['*.created'] }, 'events.0'],
      ['an empty segment', { events: ['run..created'] }, 'events.0'],
      ['a description of 501 characters', { description: 'd'.repeat(501) }, 'description'],
      ['an unknown key', { secret: 'whsec_mine' }, 'secret'],
      ['active as text', { active: 'yes' }, 'active'],
    ])('refuses %s with 422', async (_label, fields, path) => {
      const owner = await signUp(t.http);
      const response = await t.http
        .post(webhooksPath(owner))
        .set(owner.headers)
        .send({ url: receiver, events: ['*'], ...fields });
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.path.join('.')).toBe(path);
      expect((await t.http.get(webhooksPath(owner)).set(owner.headers)).body.total).toBe(0);
    });

    it('takes *, actions, prefixes of any depth, 50 distinct events and a URL of 2048 characters', async () => {
      const owner = await signUp(t.http);
      const events = ['*', 'run.created', 'run.*', 'test_case.*', 'run_case.result.*', 'v2.thing_1'];
      expect((await createWebhook(owner, { events })).events).toEqual(events);
      const fifty = Array.from({ length: 50 }, (_, index) => `run.action_${index}`);
      expect((await createWebhook(owner, { events: fifty })).events).toEqual(fifty);
      const url = `http://127.0.0.1/${'a'.repeat(2048 - 'http://127.0.0.1/'.length)}`;
      expect((await createWebhook(owner, { url, active: false })).url).toBe(url);
      expect(
        (await createWebhook(owner, { url: 'https://127.0.0.1:8443/hook', description: 'd'.repeat(500), active: false })).description,
      ).toHaveLength(500);
    });

    it('refuses a 21st webhook of an organization with 422 naming the ceiling', async () => {
      const owner = await signUp(t.http);
      const other = await signUp(t.http);
      await Promise.all(Array.from({ length: 20 }, () => createWebhook(owner, { active: false })));
      const response = await t.http
        .post(webhooksPath(owner))
        .set(owner.headers)
        .send({ url: receiver, events: ['*'] });
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.message).toContain('20');
      expect((await t.http.get(webhooksPath(owner)).set(owner.headers)).body.total).toBe(20);
      await createWebhook(other);
      const deleted = (await t.http.get(`${webhooksPath(owner)}?pageSize=1`).set(owner.headers)).body.items[0];
      expect((await t.http.delete(webhookPath(owner, deleted.ulid)).set(owner.headers)).status).toBe(204);
      await createWebhook(owner);
    });

    it('refuses an empty PATCH and PATCH values the create refuses', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner);
      for (const body of [
        {},
        { url: 'ftp://127.0.0.1/' },
        { events: [] },
        { events: ['RUN.*'] },
        { description: 'd'.repeat(501) },
        { secret: 'x' },
      ]) {
        expectError(await t.http.patch(webhookPath(owner, webhook.ulid)).set(owner.headers).send(body), 422, 'validation_failed');
      }
      const { secret: _secret, ...unchanged } = webhook;
      expect(withoutFailureCount((await t.http.get(webhookPath(owner, webhook.ulid)).set(owner.headers)).body)).toEqual(
        withoutFailureCount(unchanged),
      );
    });
  });

  describe('PATCH', () => {
    it('changes fields and records webhook.updated with the changes; unchanged values record nothing', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['run.*'], description: 'Old' });
      const otherUrl = receiver.replace('/hook', '/other');
      const response = await t.http
        .patch(webhookPath(owner, webhook.ulid))
        .set(owner.headers)
        .send({ url: otherUrl, events: ['run.*', 'defect.created'], description: null, active: false });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ url: otherUrl, events: ['run.*', 'defect.created'], description: null, active: false });
      expect(response.body).not.toHaveProperty('secret');
      expect(response.body.updatedAt).toBeGreaterThanOrEqual(webhook.updatedAt);

      const same = await t.http
        .patch(webhookPath(owner, webhook.ulid))
        .set(owner.headers)
        .send({ url: otherUrl, events: ['run.*', 'defect.created'] });
      expect(same.body).toEqual(response.body);
      const updates = await auditEvents(t.http, owner, { action: 'webhook.updated', entityUlid: webhook.ulid });
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({ entityType: 'webhook', entityLabel: otherUrl });
      expect(updates[0]!.metadata).toEqual({
        changes: [
          { field: 'url', from: receiver, to: otherUrl },
          { field: 'description', from: 'Old', to: null },
          { field: 'active', from: true, to: false },
          { field: 'events', from: 'run.*', to: 'run.*, defect.created' },
        ],
      });
      expect(await auditText(owner)).not.toContain(webhook.secret);
    });

    it('reactivating a deactivated webhook resets its consecutive failures; other changes keep them', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['project.*'] });
      await prisma().webhook.update({ where: { id: webhook.ulid }, data: { active: false, consecutiveFailures: 20 } });
      const renamed = await t.http.patch(webhookPath(owner, webhook.ulid)).set(owner.headers).send({ description: 'Still off' });
      expect(renamed.body).toMatchObject({ active: false, consecutiveFailures: 20 });
      const stillOff = await t.http.patch(webhookPath(owner, webhook.ulid)).set(owner.headers).send({ active: false });
      expect(stillOff.body).toMatchObject({ active: false, consecutiveFailures: 20 });
      const reactivated = await t.http.patch(webhookPath(owner, webhook.ulid)).set(owner.headers).send({ active: true });
      expect(reactivated.body).toMatchObject({ active: true, consecutiveFailures: 0 });
      const [latest] = await auditEvents(t.http, owner, { action: 'webhook.updated', entityUlid: webhook.ulid });
      expect(latest!.metadata).toEqual({ changes: [{ field: 'active', from: false, to: true }] });
    });
  });

  describe('rotate-secret', () => {
    it('answers a new secret and keeps the previous one signing for 24 hours; records secretRotated without secrets', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner);
      const before = Date.now();
      const response = await t.http.post(webhookPath(owner, webhook.ulid, '/rotate-secret')).set(owner.headers);
      const after = Date.now();
      expect(response.status).toBe(200);
      const { secret, ...shown } = response.body;
      expect(secret).toMatch(SECRET);
      expect(secret).not.toBe(webhook.secret);
      expect(shown).toMatchObject({ ulid: webhook.ulid, url: receiver, events: ['*'], active: true });
      expect(withoutFailureCount((await t.http.get(webhookPath(owner, webhook.ulid)).set(owner.headers)).body)).toEqual(
        withoutFailureCount(shown),
      );

      const row = await prisma().webhook.findUniqueOrThrow({ where: { id: webhook.ulid } });
      expect(row.secret).toBe(secret);
      expect(row.previousSecret).toBe(webhook.secret);
      const day = 24 * 60 * 60 * 1000;
      expect(row.previousSecretUntil!.getTime()).toBeGreaterThanOrEqual(before + day - 1000);
      expect(row.previousSecretUntil!.getTime()).toBeLessThanOrEqual(after + day + 1000);

      const again = await t.http.post(webhookPath(owner, webhook.ulid, '/rotate-secret')).set(owner.headers);
      const rotatedTwice = await prisma().webhook.findUniqueOrThrow({ where: { id: webhook.ulid } });
      expect(rotatedTwice).toMatchObject({ secret: again.body.secret, previousSecret: secret });

      const rotations = await auditEvents(t.http, owner, { action: 'webhook.updated', entityUlid: webhook.ulid });
      expect(rotations.map((event) => event.metadata)).toEqual([{ secretRotated: true }, { secretRotated: true }]);
      const text = await auditText(owner);
      for (const each of [webhook.secret!, secret, again.body.secret]) expect(text).not.toContain(each);
    });
  });

  describe('DELETE', () => {
    it('deletes the webhook with its deliveries and records webhook.deleted', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['*'] });
      await createProject(t.http, owner);
      expect((await deliveries(owner, webhook.ulid)).total).toBe(2);
      expect((await t.http.delete(webhookPath(owner, webhook.ulid)).set(owner.headers)).status).toBe(204);
      expectError(await t.http.get(webhookPath(owner, webhook.ulid)).set(owner.headers), 404, 'not_found');
      expectError(await t.http.delete(webhookPath(owner, webhook.ulid)).set(owner.headers), 404, 'not_found');
      expect(await prisma().webhookDelivery.count({ where: { webhookId: webhook.ulid } })).toBe(0);
      const [deleted] = await auditEvents(t.http, owner, { action: 'webhook.deleted', entityUlid: webhook.ulid });
      expect(deleted).toMatchObject({
        entityType: 'webhook',
        entityLabel: receiver,
        metadata: { url: receiver, events: ['*'], description: null },
      });
      expect(await auditText(owner)).not.toContain(webhook.secret);
    });
  });

  describe('deliveries', () => {
    it('one per matching active webhook and event: a prefix, an exact action, *, and nothing for an inactive one', async () => {
      const owner = await signUp(t.http);
      const projects = await createWebhook(owner, { events: ['project.*'] });
      const exact = await createWebhook(owner, { events: ['user_group.created'] });
      const inactive = await createWebhook(owner, { events: ['*'], active: false });
      const everything = await createWebhook(owner, { events: ['*'] });
      const project = await createProject(t.http, owner);
      const group = await t.http.post('/api/v1/groups').set(owner.headers).send({ name: 'QA' });
      expect(group.status).toBe(201);

      const [projectCreated] = await auditEvents(t.http, owner, { action: 'project.created', entityUlid: project.ulid });
      const [groupCreated] = await auditEvents(t.http, owner, { action: 'user_group.created' });
      const projectDeliveries = await deliveries(owner, projects.ulid);
      expect(projectDeliveries.items).toEqual([
        {
          ulid: expect.stringMatching(/^[0-9A-Z]{26}$/),
          eventUlid: projectCreated!.ulid,
          action: 'project.created',
          status: 'pending',
          attempts: expect.any(Number),
          lastStatusCode: null,
          lastError: expect.toBeOneOf([null, expect.any(String)]),
          nextAttemptAt: expect.any(Number),
          deliveredAt: null,
          createdAt: expect.any(Number),
        },
      ]);
      expect(await actionsOf(owner, exact.ulid)).toEqual(['user_group.created']);
      expect((await deliveries(owner, exact.ulid)).items[0]!.eventUlid).toBe(groupCreated!.ulid);
      expect((await deliveries(owner, inactive.ulid)).total).toBe(0);
      // Newest first; `*` also hears its own creation.
      expect(await actionsOf(owner, everything.ulid)).toEqual(['user_group.created', 'project.created', 'webhook.created']);
    });

    it('filters by status (nextAttemptAt only while pending) and pages', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['project.*'] });
      await createProject(t.http, owner);
      await createProject(t.http, owner);
      const [pending] = (await deliveries(owner, webhook.ulid)).items;
      // Finished deliveries, as a dispatcher leaves them (written directly: no receiver answers here).
      const finishedAt = new Date();
      for (const status of ['delivered', 'failed']) {
        await prisma().webhookDelivery.create({
          data: {
            id: newId(),
            orgId: owner.orgId,
            webhookId: webhook.ulid,
            eventId: pending!.eventUlid,
            action: pending!.action,
            status,
            attempts: 1,
            lastStatusCode: status === 'delivered' ? 204 : 500,
            nextAttemptAt: finishedAt,
            deliveredAt: status === 'delivered' ? finishedAt : null,
          },
        });
      }
      const all = await deliveries(owner, webhook.ulid);
      expect(all.total).toBe(4);
      const delivered = await deliveries(owner, webhook.ulid, '?status=delivered');
      expect(delivered.items).toEqual([
        expect.objectContaining({ status: 'delivered', lastStatusCode: 204, nextAttemptAt: null, deliveredAt: finishedAt.getTime() }),
      ]);
      const failed = await deliveries(owner, webhook.ulid, '?status=failed');
      expect(failed.items).toEqual([
        expect.objectContaining({ status: 'failed', lastStatusCode: 500, nextAttemptAt: null, deliveredAt: null }),
      ]);
      const pendingOnes = await deliveries(owner, webhook.ulid, '?status=pending');
      expect(pendingOnes.total).toBe(2);
      expect(pendingOnes.items.every((delivery) => delivery.status === 'pending' && typeof delivery.nextAttemptAt === 'number')).toBe(true);
      const second = await deliveries(owner, webhook.ulid, '?page=2&pageSize=1&status=pending');
      expect(second).toMatchObject({ page: 2, pageSize: 1, total: 2, items: [{ ulid: pendingOnes.items[1]!.ulid }] });
      expectError(
        await t.http.get(webhookPath(owner, webhook.ulid, '/deliveries?status=sent')).set(owner.headers),
        422,
        'validation_failed',
      );
      expectError(await t.http.get(webhookPath(owner, newId(), '/deliveries')).set(owner.headers), 404, 'not_found');
    });

    it('redeliver queues the same event again as a new pending delivery, wakes the dispatchers, is not audited', async () => {
      const owner = await signUp(t.http);
      const webhook = await createWebhook(owner, { events: ['project.*'] });
      const other = await createWebhook(owner, { events: ['project.*'] });
      await createProject(t.http, owner);
      const [original] = (await deliveries(owner, webhook.ulid)).items;
      const [othersDelivery] = (await deliveries(owner, other.ulid)).items;
      const eventsBefore = await auditEvents(t.http, owner);

      let wakes = 0;
      const stopListening = onWebhookDeliveriesQueued(() => (wakes += 1));
      const response = await t.http.post(webhookPath(owner, webhook.ulid, `/deliveries/${original!.ulid}/redeliver`)).set(owner.headers);
      stopListening();
      expect(response.status).toBe(202);
      expect(wakes).toBe(1);
      expect(response.body).toEqual({
        ulid: expect.stringMatching(/^[0-9A-Z]{26}$/),
        eventUlid: original!.eventUlid,
        action: 'project.created',
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: expect.any(Number),
        deliveredAt: null,
        createdAt: expect.any(Number),
      });
      expect(response.body.ulid).not.toBe(original!.ulid);
      const listed = await deliveries(owner, webhook.ulid);
      expect(listed.items.map((delivery) => delivery.ulid).sort()).toEqual([original!.ulid, response.body.ulid].sort());
      expect(listed.items.every((delivery) => delivery.eventUlid === original!.eventUlid)).toBe(true);
      expect((await deliveries(owner, other.ulid)).total).toBe(1);
      expect(await auditEvents(t.http, owner)).toEqual(eventsBefore);

      const redeliver = (ulid: string) => t.http.post(webhookPath(owner, webhook.ulid, `/deliveries/${ulid}/redeliver`)).set(owner.headers);
      expectError(await redeliver(othersDelivery!.ulid), 404, 'not_found');
      expectError(await redeliver(newId()), 404, 'not_found');
    });
  });
});

describe('webhooks without TCMS_WEBHOOKS_ALLOW_PRIVATE', () => {
  const t = useTestApp({ ...RECEIVER_SETTINGS, TCMS_WEBHOOKS_ALLOW_PRIVATE: 'false' });
  const webhooksPath = (caller: Caller) => `/api/v1/orgs/${caller.orgId}/webhooks`;
  // A public address, taken as it is (no lookup); inactive, so nothing is ever sent there.
  const PUBLIC_RECEIVER = 'https://93.184.215.14/hook';

  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['a private range', 'http://10.1.2.3/hook', '10.1.2.3'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest', '169.254.169.254'],
    ['IPv6 loopback', 'http://[::1]/hook', '::1'],
    ['an IPv4-mapped IPv6 private address', 'http://[::ffff:192.168.0.1]/hook', '::ffff:c0a8:1'],
    ['IPv4-mapped loopback in hex', 'http://[::ffff:7f00:1]/hook', '::ffff:7f00:1'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/hook', '::7f00:1'],
    ['IPv4-compatible loopback in hex', 'http://[::7f00:1]/hook', '::7f00:1'],
    ['IPv4-translated link-local', 'http://[::ffff:0:169.254.169.254]/latest', '::ffff:0:a9fe:a9fe'],
    ['NAT64 of loopback', 'http://[64:ff9b::127.0.0.1]/hook', '64:ff9b::7f00:1'],
    ['NAT64 of a private range', 'http://[64:ff9b::10.0.0.1]/hook', '64:ff9b::a00:1'],
    ['a name resolving to loopback', 'http://localhost:3000/hook', 'localhost resolves to'],
  ])('refuses a receiver on %s with 422 naming the address', async (_label, url, named) => {
    const owner = await signUp(t.http);
    const response = await t.http
      .post(webhooksPath(owner))
      .set(owner.headers)
      .send({ url, events: ['*'] });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.path).toEqual(['url']);
    expect(response.body.error.message).toContain(named);
    expect((await t.http.get(webhooksPath(owner)).set(owner.headers)).body.total).toBe(0);
  });

  it('takes an IPv6 address that carries a public IPv4 address (NAT64, as DNS64 answers on IPv6-only networks)', async () => {
    const owner = await signUp(t.http);
    for (const url of ['https://[64:ff9b::93.184.215.14]/hook', 'https://[::ffff:93.184.215.14]/hook']) {
      const created = await t.http
        .post(webhooksPath(owner))
        .set(owner.headers)
        .send({ url, events: ['*'], active: false });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });

  it('refuses a host that does not resolve', async () => {
    const owner = await signUp(t.http);
    const response = await t.http
      .post(webhooksPath(owner))
      .set(owner.headers)
      .send({ url: 'https://no-such-receiver.invalid/hook', events: ['*'] });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.message).toContain('no-such-receiver.invalid');
  });

  it('takes a public address, and checks a new url on PATCH the same way', async () => {
    const owner = await signUp(t.http);
    const created = await t.http
      .post(webhooksPath(owner))
      .set(owner.headers)
      .send({ url: PUBLIC_RECEIVER, events: ['*'], active: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = `${webhooksPath(owner)}/${created.body.ulid}`;
    const refused = await t.http.patch(path).set(owner.headers).send({ url: 'http://192.168.1.10/hook' });
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.error.message).toContain('192.168.1.10');
    const described = await t.http.patch(path).set(owner.headers).send({ description: 'No url change, no lookup' });
    expect(described.status).toBe(200);
    expect((await t.http.get(path).set(owner.headers)).body).toMatchObject({
      url: PUBLIC_RECEIVER,
      description: 'No url change, no lookup',
    });
  });
});
