import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import type { Caller } from './app.ts';

/**
 * History at known instants for the reports (contract §20): the data is made through the API,
 * which stamps everything with the current time, and then moved to the instants a test names
 * (ISO strings) with SQL.
 */

export const ms = (iso: string) => new Date(iso).getTime();

type Entry = { runCaseUlid: string; status: 'passed' | 'failed' | 'blocked' | 'skipped'; elapsedMs?: number; comment?: string; at: string };

/** Appends one result per entry with POST /runs/{runUlid}/results/bulk, then dates each at its `at`; answers their ULIDs. */
export async function submitAt(http: TestAgent, caller: Caller, runUlid: string, entries: Entry[]): Promise<string[]> {
  const response = await http
    .post(`/api/v1/runs/${runUlid}/results/bulk`)
    .set(caller.headers)
    .send({ results: entries.map(({ at: _at, ...entry }) => entry) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const ids = response.body.resultUlids as string[];
  await prisma().$executeRaw`
    UPDATE test_run_results AS result SET executed_at = moved.at
    FROM unnest(${ids}::text[], ${entries.map((entry) => new Date(entry.at))}::timestamptz[]) AS moved(id, at)
    WHERE result.id = moved.id`;
  return ids;
}

/** Dates a run and its cases' creation at `createdAt`, and its closing at `closedAt` (null: open). */
export async function dateRun(runUlid: string, createdAt: string, closedAt: string | null = null): Promise<void> {
  const created = new Date(createdAt);
  const closed = closedAt === null ? null : new Date(closedAt);
  await prisma().$executeRaw`
    UPDATE test_runs SET created_at = ${created}, closed_at = ${closed}, state = ${closed === null ? 'open' : 'closed'} WHERE id = ${runUlid}`;
  await prisma().$executeRaw`UPDATE test_run_cases SET created_at = ${created} WHERE run_id = ${runUlid}`;
}

/**
 * Dates a defect's creation, and its audit events (the status history the defect report reads) in
 * the order they were written, at `changes`. The audit log refuses updates (a trigger), so this
 * fixture turns triggers off for its own transaction only.
 */
export async function dateDefect(defectUlid: string, createdAt: string, changes: string[] = []): Promise<void> {
  await prisma().$transaction(async (tx) => {
    await tx.$executeRaw`UPDATE defects SET created_at = ${new Date(createdAt)} WHERE id = ${defectUlid}`;
    await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
    await tx.$executeRaw`
      UPDATE audit_events AS event SET created_at = moved.at
      FROM (
        SELECT id, row_number() OVER (ORDER BY id) AS position FROM audit_events
        WHERE entity_ulid = ${defectUlid} AND action = 'defect.updated'
      ) AS written
      JOIN unnest(${changes.map((at) => new Date(at))}::timestamptz[]) WITH ORDINALITY AS moved(at, position) ON moved.position = written.position
      WHERE event.id = written.id`;
  });
}
