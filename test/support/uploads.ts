import { readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import { fileStorage } from '../../src/foundation/storage/file-storage.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, createProject } from './app.ts';

export type NewCase = { ulid: string; projectCode: string; steps: Array<{ ulid: string; action: string }> };

/** A case with two steps, in a new project unless `projectCode` names one. */
export async function newCase(http: TestAgent, owner: Caller, projectCode?: string): Promise<NewCase> {
  const code = projectCode ?? (await createProject(http, owner)).id;
  const created = await http
    .post(`/api/v1/projects/${code}/test-cases`)
    .set(owner.headers)
    .send({ title: 'Login works', steps: [{ action: 'Open the page' }, { action: 'Sign in' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { ...(created.body as Omit<NewCase, 'projectCode'>), projectCode: code };
}

export type UploadPart = { name: string; bytes: Buffer; type?: string };

/** POST step-attachments:stage with one `file` part per entry. */
export function stage(http: TestAgent, caller: Caller, caseUlid: string, files: UploadPart[]) {
  let request = http.post(`/api/v1/test-cases/${caseUlid}/step-attachments:stage`).set(caller.headers);
  for (const file of files) request = request.attach('file', file.bytes, { filename: file.name, contentType: file.type ?? 'image/png' });
  return request;
}

export const putSteps = (http: TestAgent, caller: Caller, caseUlid: string, steps: unknown[]) =>
  http.put(`/api/v1/test-cases/${caseUlid}/steps`).set(caller.headers).send({ steps });

/** The keys of every stored object under `prefix`. */
export async function filesUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of fileStorage().list(prefix)) keys.push(object.key);
  return keys;
}

/** What the organization's storage usage counts, in bytes. */
export async function usedBytes(orgId: string): Promise<number> {
  const row = await prisma().storageUsage.findUnique({ where: { orgId } });
  return Number(row?.usedBytes ?? 0);
}

export async function setUsedBytes(orgId: string, bytes: number): Promise<void> {
  await prisma().storageUsage.upsert({ where: { orgId }, create: { orgId, usedBytes: bytes }, update: { usedBytes: bytes } });
}

/**
 * Makes the organization's staged uploads (rows and files in the local storage under `dataDir`)
 * `ageMs` old, so that a sweep at the present moment takes them and nothing of another test's.
 */
export async function ageStagedUploads(dataDir: string, orgId: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await prisma().stagedUpload.updateMany({ where: { orgId }, data: { createdAt: then } });
  const folder = path.join(dataDir, 'files', 'staging', orgId);
  for (const name of await readdir(folder)) await utimes(path.join(folder, name), then, then);
}
