import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import type { Caller } from './app.ts';

export type Field = { ulid: string; systemKey: string | null; title: string; options: Array<{ ulid: string; name: string }> };

/** The organization's custom fields by system key (or title, for fields of its own). */
export async function fieldsOf(http: TestAgent, caller: Caller): Promise<Record<string, Field>> {
  const response = await http.get(`/api/v1/orgs/${caller.orgId}/custom-fields?pageSize=200`).set(caller.headers);
  expect(response.status).toBe(200);
  return Object.fromEntries((response.body.items as Field[]).map((field) => [field.systemKey ?? field.title, field]));
}

/** A custom field of the organization, created over REST. */
export async function createField(http: TestAgent, caller: Caller, body: Record<string, unknown>): Promise<Field> {
  const response = await http.post(`/api/v1/orgs/${caller.orgId}/custom-fields`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.field as Field;
}
