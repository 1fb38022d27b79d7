import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/database/client.ts';
import { newId } from '../../src/ids.ts';
import { tokenFor, useTestApp } from '../support/app.ts';
import { killNow, startServer, type ServerProcess } from '../support/processes.ts';
import { runWithCases } from '../support/runs.ts';

/**
 * Idempotency-Key across a crash: a server process is killed (SIGKILL) while it handles a bulk
 * submit-result, at the worst moments — after its transaction committed but before it answered,
 * and in the middle of its transaction. The client retries with the same key on a fresh process:
 * a committed request replays, an uncommitted one executes, and nothing ever executes twice.
 */

const CASES = 200;
const t = useTestApp();
let dataDir: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-crash-'));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => killNow(server)));
  await rm(dataDir, { recursive: true, force: true });
});

async function freshServer(): Promise<ServerProcess> {
  const server = await startServer({ dataDir });
  servers.push(server);
  return server;
}

/** POSTs without waiting for (or caring about) the answer: the process may die before giving one. */
function fireAndForget(server: ServerProcess, target: string, headers: Record<string, string>, body: string) {
  const request = http.request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: target,
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  });
  request.on('error', () => {});
  request.on('response', (response) => response.resume());
  request.end(body);
}

/** The same request as a client that honours 409 + Retry-After (the key may still be in flight). */
async function retry(server: ServerProcess, target: string, headers: Record<string, string>, body: string) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${server.baseUrl}${target}`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
    if (response.status !== 409 || attempt === 10) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
  }
}

/** Polls until `condition` holds, as fast as the database answers. */
async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

async function bulkSubmit() {
  const { owner, run, runCases } = await runWithCases(t.http, CASES);
  const token = await tokenFor(t.http, owner);
  const body = JSON.stringify({ results: runCases.map((runCase) => ({ runCaseUlid: runCase.ulid, status: 'passed', elapsedMs: 10 })) });
  const key = `crash-${newId()}`;
  return {
    run,
    target: `/api/v1/runs/${run.ulid}/results/bulk`,
    headers: { ...token.headers, 'Idempotency-Key': key },
    body,
    // What the service locks while the request is in flight (src/idempotency/idempotency.service.ts).
    lockName: `token:${token.tokenUlid}\n${key}`,
  };
}

const bulkEvents = (runUlid: string) => prisma().auditEvent.count({ where: { runId: runUlid, action: 'run.cases_bulk_marked' } });
const results = (runUlid: string) => prisma().testRunResult.count({ where: { runId: runUlid } });

describe('Idempotency-Key when the process dies', { timeout: 240_000 }, () => {
  it('replays a request whose transaction committed before the process was killed', async () => {
    const request = await bulkSubmit();
    const first = await freshServer();
    fireAndForget(first, request.target, request.headers, request.body);
    await until(async () => (await bulkEvents(request.run.ulid)) > 0);
    await killNow(first);

    const second = await freshServer();
    const replay = await retry(second, request.target, request.headers, request.body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect((await replay.json()).resultUlids).toHaveLength(CASES);
    expect(await results(request.run.ulid)).toBe(CASES);
    expect(await bulkEvents(request.run.ulid)).toBe(1);
  });

  it('executes once a request whose transaction was cut short by the kill', async () => {
    const request = await bulkSubmit();
    const first = await freshServer();
    const heldKeys = () =>
      prisma().$queryRaw<Array<{ held: bigint }>>`
        SELECT count(*) AS held FROM pg_locks
        WHERE locktype = 'advisory' AND granted
          AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(${request.lockName}, 0)`;
    fireAndForget(first, request.target, request.headers, request.body);
    // The request's transaction is open: it holds its key's advisory lock.
    await until(async () => (await heldKeys())[0]!.held > 0n);
    await killNow(first);
    expect(await results(request.run.ulid)).toBe(0);

    const second = await freshServer();
    const executed = await retry(second, request.target, request.headers, request.body);
    expect(executed.status).toBe(200);
    expect(executed.headers.get('idempotency-replayed')).toBeNull();
    expect(await results(request.run.ulid)).toBe(CASES);
    expect(await bulkEvents(request.run.ulid)).toBe(1);

    const replay = await retry(second, request.target, request.headers, request.body);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await results(request.run.ulid)).toBe(CASES);
  });
});
