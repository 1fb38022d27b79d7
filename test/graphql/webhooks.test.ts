import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { auditEvents, type Caller, createProject, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf, onlyError } from '../support/graphql.ts';

// Receivers on 127.0.0.1 where nothing listens, first retry ten minutes away: deliveries stay pending.
const t = useTestApp({ TCMS_WEBHOOKS_ALLOW_PRIVATE: 'true', TCMS_WEBHOOK_RETRY_BASE_MS: '600000' });
let receiver = '';
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  await new Promise((resolve) => server.close(resolve));
});

const WEBHOOK = 'ulid url events description active consecutiveFailures createdAt updatedAt';
const DELIVERY = 'ulid eventUlid action status lastStatusCode nextAttemptAt deliveredAt createdAt';
const CREATE = `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK} } } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateWebhookInput!) { updateWebhook(ulid: $ulid, input: $input) { ${WEBHOOK} } }`;
const DELETE = `mutation($ulid: String!) { deleteWebhook(ulid: $ulid) }`;
const ROTATE = `mutation($ulid: String!) { rotateWebhookSecret(ulid: $ulid) { secret webhook { ulid } } }`;
const REDELIVER = `mutation($webhookUlid: String!, $deliveryUlid: String!) {
  redeliverWebhookDelivery(webhookUlid: $webhookUlid, deliveryUlid: $deliveryUlid) { ${DELIVERY} attempts }
}`;
const READ = `query($ulid: String!, $status: WebhookDeliveryStatus) {
  webhook(ulid: $ulid) { ${WEBHOOK} deliveries(status: $status) { totalCount edges { node { ${DELIVERY} } } } }
}`;
const LIST = `query { organization { webhooks { totalCount edges { node { ${WEBHOOK} } } } } }`;

const gql = (caller: Caller, query: string, variables: Record<string, unknown> = {}) => graphql(t.http, caller, query, variables);

type Delivery = { ulid: string; eventUlid: string; action: string; status: string };

async function createWebhook(caller: Caller, input: Record<string, unknown> = {}) {
  return dataOf(await gql(caller, CREATE, { input: { url: receiver, events: ['*'], ...input } })).createWebhook as {
    secret: string;
    webhook: { ulid: string; url: string; events: string[]; active: boolean };
  };
}

async function deliveriesOf(caller: Caller, ulid: string, status?: string) {
  const read = dataOf(await gql(caller, READ, { ulid, status })).webhook.deliveries;
  return { total: read.totalCount as number, items: read.edges.map((edge: { node: Delivery }) => edge.node) as Delivery[] };
}

describe('GraphQL: webhooks', () => {
  it('creates with the secret in the payload only, reads and lists as REST answers, without a secret field', async () => {
    const owner = await signUp(t.http);
    const { secret, webhook } = await createWebhook(owner, { events: ['run.*'], description: 'CI' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const rest = await t.http.get(`/api/v1/orgs/${owner.orgId}/webhooks/${webhook.ulid}`).set(owner.headers);
    expect(webhook).toEqual(rest.body);
    const read = dataOf(await gql(owner, READ, { ulid: webhook.ulid })).webhook;
    expect(read).toMatchObject(rest.body);
    const list = dataOf(await gql(owner, LIST)).organization.webhooks;
    expect(list).toEqual({ totalCount: 1, edges: [{ node: rest.body }] });
    const noSecret = onlyError(await gql(owner, `query($ulid: String!) { webhook(ulid: $ulid) { secret } }`, { ulid: webhook.ulid }));
    expect(noSecret.message).toContain('Cannot query field "secret" on type "Webhook"');
  });

  it('refuses members and viewers (forbidden) and answers not_found for another organization', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const stranger = await signUp(t.http);
    const { webhook } = await createWebhook(owner);
    const [delivery] = (await deliveriesOf(owner, webhook.ulid)).items;
    const operations: Array<[string, Record<string, unknown>]> = [
      [CREATE, { input: { url: receiver, events: ['*'] } }],
      [LIST, {}],
      [READ, { ulid: webhook.ulid }],
      [UPDATE, { ulid: webhook.ulid, input: { active: false } }],
      [DELETE, { ulid: webhook.ulid }],
      [ROTATE, { ulid: webhook.ulid }],
      [REDELIVER, { webhookUlid: webhook.ulid, deliveryUlid: delivery!.ulid }],
    ];
    for (const caller of [member, viewer]) {
      for (const [query, variables] of operations) expect(codeOf(await gql(caller, query, variables)), query).toBe('forbidden');
    }
    for (const [query, variables] of operations.slice(2)) expect(codeOf(await gql(stranger, query, variables)), query).toBe('not_found');
    expect(dataOf(await gql(stranger, LIST)).organization.webhooks.totalCount).toBe(0);
    expect(dataOf(await gql(owner, READ, { ulid: webhook.ulid })).webhook.active).toBe(true);
  });

  it('validates like REST: scheme, credentials, event patterns, the ceiling', async () => {
    const owner = await signUp(t.http);
    for (const input of [
      { url: 'ftp://127.0.0.1/', events: ['*'] },
      { url: 'http://a:b@127.0.0.1/', events: ['*'] },
      { url: receiver, events: [] },
      { url: receiver, events: ['Run.*'] },
      { url: receiver, events: ['*', '*'] },
    ]) {
      expect(codeOf(await gql(owner, CREATE, { input })), JSON.stringify(input)).toBe('validation_failed');
    }
    const { webhook } = await createWebhook(owner, { active: false });
    expect(codeOf(await gql(owner, UPDATE, { ulid: webhook.ulid, input: {} }))).toBe('validation_failed');
    await Promise.all(Array.from({ length: 19 }, () => createWebhook(owner, { active: false })));
    const error = onlyError(await gql(owner, CREATE, { input: { url: receiver, events: ['*'] } }));
    expect(error.extensions?.code).toBe('validation_failed');
    expect(error.message).toContain('20');
  });

  it('updates with the changes audited, reactivation resets failures, rotation keeps the previous secret a day, delete removes', async () => {
    const owner = await signUp(t.http);
    const { webhook, secret } = await createWebhook(owner, { events: ['run.*'] });
    await prisma().webhook.update({ where: { id: webhook.ulid }, data: { active: false, consecutiveFailures: 7 } });
    const updated = dataOf(
      await gql(owner, UPDATE, { ulid: webhook.ulid, input: { events: ['defect.*'], active: true, description: 'On' } }),
    ).updateWebhook;
    expect(updated).toMatchObject({ events: ['defect.*'], active: true, consecutiveFailures: 0, description: 'On' });
    const [update] = await auditEvents(t.http, owner, { action: 'webhook.updated', entityUlid: webhook.ulid });
    expect(update!.metadata).toEqual({
      changes: [
        { field: 'description', from: null, to: 'On' },
        { field: 'active', from: false, to: true },
        { field: 'events', from: 'run.*', to: 'defect.*' },
      ],
    });

    const rotated = dataOf(await gql(owner, ROTATE, { ulid: webhook.ulid })).rotateWebhookSecret;
    expect(rotated.webhook.ulid).toBe(webhook.ulid);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const row = await prisma().webhook.findUniqueOrThrow({ where: { id: webhook.ulid } });
    expect(row).toMatchObject({ secret: rotated.secret, previousSecret: secret });
    expect(row.previousSecretUntil!.getTime() - Date.now()).toBeGreaterThan(24 * 60 * 60 * 1000 - 60_000);
    const [rotation] = await auditEvents(t.http, owner, { action: 'webhook.updated', entityUlid: webhook.ulid });
    expect(rotation!.metadata).toEqual({ secretRotated: true });

    expect(dataOf(await gql(owner, DELETE, { ulid: webhook.ulid })).deleteWebhook).toBe(true);
    expect(codeOf(await gql(owner, READ, { ulid: webhook.ulid }))).toBe('not_found');
    const [deleted] = await auditEvents(t.http, owner, { action: 'webhook.deleted', entityUlid: webhook.ulid });
    expect(deleted).toMatchObject({ entityType: 'webhook', entityLabel: receiver });
    const text = JSON.stringify(await auditEvents(t.http, owner));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(rotated.secret);
  });

  it('lists deliveries of matching events by status, and redelivers one as a new pending delivery', async () => {
    const owner = await signUp(t.http);
    const projects = await createWebhook(owner, { events: ['project.*'] });
    const runs = await createWebhook(owner, { events: ['run.*'] });
    const project = await createProject(t.http, owner);
    const [event] = await auditEvents(t.http, owner, { action: 'project.created', entityUlid: project.ulid });

    const pending = await deliveriesOf(owner, projects.webhook.ulid, 'pending');
    expect(pending.items).toEqual([
      expect.objectContaining({
        eventUlid: event!.ulid,
        action: 'project.created',
        status: 'pending',
        nextAttemptAt: expect.any(Number),
        deliveredAt: null,
      }),
    ]);
    expect((await deliveriesOf(owner, projects.webhook.ulid, 'delivered')).total).toBe(0);
    expect((await deliveriesOf(owner, runs.webhook.ulid)).total).toBe(0);

    const original = pending.items[0]!;
    const again = dataOf(
      await gql(owner, REDELIVER, { webhookUlid: projects.webhook.ulid, deliveryUlid: original.ulid }),
    ).redeliverWebhookDelivery;
    expect(again).toMatchObject({
      eventUlid: original.eventUlid,
      action: 'project.created',
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
    });
    expect(again.ulid).not.toBe(original.ulid);
    const all = await deliveriesOf(owner, projects.webhook.ulid);
    expect(all.items.map((delivery) => delivery.ulid).sort()).toEqual([original.ulid, again.ulid].sort());
    expect(codeOf(await gql(owner, REDELIVER, { webhookUlid: runs.webhook.ulid, deliveryUlid: original.ulid }))).toBe('not_found');
    expect(codeOf(await gql(owner, REDELIVER, { webhookUlid: projects.webhook.ulid, deliveryUlid: newId() }))).toBe('not_found');
  });
});
