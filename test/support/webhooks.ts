import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import type { Caller } from './app.ts';

export type WebhookBody = { ulid: string; url: string; events: string[]; active: boolean; consecutiveFailures: number; secret?: string };

export type DeliveryBody = {
  ulid: string;
  eventUlid: string;
  action: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  createdAt: number;
};

/** A webhook of the caller's organization, created over REST; its `secret` is only in this answer. */
export async function createWebhook(http: TestAgent, caller: Caller, body: Record<string, unknown>) {
  const response = await http.post(`/api/v1/orgs/${caller.orgId}/webhooks`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as WebhookBody & { secret: string };
}

export async function webhookOf(http: TestAgent, caller: Caller, webhookUlid: string) {
  const response = await http.get(`/api/v1/orgs/${caller.orgId}/webhooks/${webhookUlid}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as WebhookBody;
}

/** The webhook's deliveries, newest first. */
export async function deliveriesOf(http: TestAgent, caller: Caller, webhookUlid: string, query = '') {
  const response = await http.get(`/api/v1/orgs/${caller.orgId}/webhooks/${webhookUlid}/deliveries?pageSize=100${query}`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as DeliveryBody[];
}

/** Polls the webhook's deliveries until `predicate` holds for them; fails after `timeoutMs`. */
export async function untilDeliveries(
  http: TestAgent,
  caller: Caller,
  webhookUlid: string,
  predicate: (deliveries: DeliveryBody[]) => boolean,
  timeoutMs = 15_000,
): Promise<DeliveryBody[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const deliveries = await deliveriesOf(http, caller, webhookUlid);
    if (predicate(deliveries)) return deliveries;
    if (Date.now() > deadline) throw new Error(`deliveries did not reach the awaited state: ${JSON.stringify(deliveries)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
