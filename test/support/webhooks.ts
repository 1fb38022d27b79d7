import { rm } from 'node:fs/promises';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { type Caller, TEST_DEFAULTS, type TestApp } from './app.ts';
import { newDataDir } from './data-directories.ts';
import { freshServerDatabase } from './databases.ts';

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
  const response = await http
    .get(`/api/v1/orgs/${caller.orgId}/webhooks/${webhookUlid}/deliveries?pageSize=100${query}`)
    .set(caller.headers);
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

/**
 * The real app once per test file, sending webhook deliveries with the settings of `env`, on a
 * database no other file's dispatcher works on: on the PostgreSQL server named by DATABASE_URL a
 * fresh one (every dispatching app there would otherwise send this file's deliveries with its
 * own settings), else the file's own embedded one.
 */
export function useDispatchingApp(env: NodeJS.ProcessEnv): TestApp {
  const handle = {} as TestApp;
  let isolated: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  beforeAll(async () => {
    handle.dataDir = await newDataDir();
    if (process.env.DATABASE_URL) isolated = await freshServerDatabase(process.env.DATABASE_URL);
    const database = isolated ? { DATABASE_URL: isolated.url } : {};
    const config = loadConfig({
      ...process.env,
      TCMS_DATA_DIR: handle.dataDir,
      NODE_ENV: 'test',
      ...TEST_DEFAULTS,
      TCMS_WEBHOOK_DISPATCH: 'true',
      ...env,
      ...database,
    });
    handle.app = await createApp(config);
    handle.http = request(handle.app.express);
  });
  afterAll(async () => {
    await handle.app?.close();
    await isolated?.drop();
    await rm(handle.dataDir, { recursive: true, force: true });
  });
  return handle;
}
