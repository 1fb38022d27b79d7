import { rm } from 'node:fs/promises';
import http from 'node:http';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.ts';
import { tokenFor } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';
import { killNow, type ServerProcess, startServer } from '../support/processes.ts';
import { runWithCases } from '../support/runs.ts';

/**
 * Idempotency-Key across a crash: a server process is killed (SIGKILL) while it handles a bulk
 * submit-result, at the worst moments — after its transaction committed but before it answered,
 * and in the middle of its transaction. The client retries with the same key on a fresh process
 * on the same database: a committed request replays, an uncommitted one executes, and nothing
 * ever executes twice. On the embedded database the test reads the data through the owner's
 * socket, as an operator's psql would.
 */

const CASES = 200;
const onServer = Boolean(process.env.DATABASE_URL);
let dataDir: string;
let server: ServerProcess | undefined;
let database: pg.Client | undefined;

beforeAll(async () => {
  dataDir = await newDataDir('tcms-crash-');
});

afterAll(async () => {
  await database?.end().catch(() => {});
  if (server) await killNow(server);
  await rm(dataDir, { recursive: true, force: true });
});

/** A fresh server process on the test's data directory (and on DATABASE_URL's database if set). */
async function restart(): Promise<ServerProcess> {
  if (server) await killNow(server);
  await database?.end().catch(() => {});
  server = await startServer({ dataDir });
  database = new pg.Client({ connectionString: process.env.DATABASE_URL ?? `postgresql://postgres@localhost/postgres?host=${dataDir}` });
  // On the embedded database the connection goes down with the server the test kills.
  database.on('error', () => {});
  await database.connect();
  return server;
}

const count = async (sql: string, params: unknown[]) => Number((await database!.query<{ count: string }>(sql, params)).rows[0]!.count);
const bulkEvents = (runUlid: string) =>
  count(`SELECT count(*) FROM audit_events WHERE run_id = $1 AND action = 'run.cases_bulk_marked'`, [runUlid]);
const results = (runUlid: string) => count('SELECT count(*) FROM test_run_results WHERE run_id = $1', [runUlid]);

/** POSTs and does not care for the answer: the process may die before giving one. Resolves once the body is sent. */
function fireAndForget(target: string, headers: Record<string, string>, body: string): Promise<void> {
  const outgoing = http.request({
    host: '127.0.0.1',
    port: server!.port,
    method: 'POST',
    path: target,
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  });
  outgoing.on('error', () => {});
  outgoing.on('response', (response) => response.resume());
  return new Promise((resolve) => outgoing.end(body, resolve));
}

/** The same request as a client that honours 409 + Retry-After (the key may still be in flight). */
async function retry(target: string, headers: Record<string, string>, body: string) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${server!.baseUrl}${target}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body,
    });
    if (response.status !== 409 || attempt === 10) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
  }
}

async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

/** A run of 200 cases and the bulk submit-result that marks them all, under a fresh key. */
async function bulkSubmit() {
  const agent = request(server!.baseUrl);
  const { owner, run, runCases } = await runWithCases(agent, CASES);
  const token = await tokenFor(agent, owner);
  const key = `crash-${newId()}`;
  return {
    run,
    target: `/api/v1/runs/${run.ulid}/results/bulk`,
    headers: { ...token.headers, 'Idempotency-Key': key },
    body: JSON.stringify({ results: runCases.map((runCase) => ({ runCaseUlid: runCase.ulid, status: 'passed', elapsedMs: 10 })) }),
    // What the service locks while the request is in flight (src/foundation/idempotency/idempotency.service.ts).
    lockName: `token:${token.tokenUlid}\n${key}`,
  };
}

describe('Idempotency-Key when the process dies', { timeout: 300_000 }, () => {
  it('replays a request whose transaction committed before the process was killed', async () => {
    await restart();
    const submit = await bulkSubmit();
    await fireAndForget(submit.target, submit.headers, submit.body);
    await until(async () => (await bulkEvents(submit.run.ulid)) > 0);
    await killNow(server!);

    await restart();
    const replay = await retry(submit.target, submit.headers, submit.body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect((await replay.json()).resultUlids).toHaveLength(CASES);
    expect(await results(submit.run.ulid)).toBe(CASES);
    expect(await bulkEvents(submit.run.ulid)).toBe(1);
  });

  it('executes once a request cut short by the kill, and replays it from then on', async () => {
    await restart();
    const submit = await bulkSubmit();
    await fireAndForget(submit.target, submit.headers, submit.body);
    if (onServer) {
      // Deterministic on a server: the request's transaction is open, holding its key's lock.
      await until(
        async () =>
          (await count(
            `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
               AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
            [submit.lockName],
          )) > 0,
      );
    }
    // On the embedded database the request runs as the body arrives: the kill lands before,
    // during or after its transaction, and each way the rule below must hold.
    await killNow(server!);
    if (onServer) expect(await results(submit.run.ulid)).toBe(0);

    await restart();
    const first = await retry(submit.target, submit.headers, submit.body);
    expect(first.status).toBe(200);
    expect(await results(submit.run.ulid)).toBe(CASES);
    expect(await bulkEvents(submit.run.ulid)).toBe(1);
    const again = await retry(submit.target, submit.headers, submit.body);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await results(submit.run.ulid)).toBe(CASES);
  });
});
