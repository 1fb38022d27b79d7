import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/live/progress-fanout.service.ts';
import { type Caller, useTestApp } from '../support/app.ts';
import { type EventStream, openEventStream, progressOf } from '../support/event-streams.ts';
import { exitWithin, logMessages, useServerProcess } from '../support/processes.ts';
import { type RunCaseBody, runWithCases } from '../support/runs.ts';

/**
 * Two server processes on one PostgreSQL database: a mark made through one reaches a stream held
 * on the other through LISTEN/NOTIFY, also after the listening connections were cut; and a
 * process shutting down ends its open streams instead of waiting for their clients.
 */

const t = useTestApp();

type RunProgress = { counts: Record<string, number> };

describe('live progress across server processes', { timeout: 240_000 }, () => {
  const a = useServerProcess();
  const b = useServerProcess();
  let owner: Caller;
  let runUlid: string;
  let runCases: RunCaseBody[];
  const streams: EventStream[] = [];

  beforeAll(async () => {
    ({
      owner,
      run: { ulid: runUlid },
      runCases,
    } = await runWithCases(t.http, 3));
  }, 120_000);

  const streamOnB = async () => {
    const stream = await openEventStream(`${b.current.baseUrl}/api/v1/runs/${runUlid}/events`, { headers: owner.headers });
    streams.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  };

  const markThroughA = async (index: number, status: string) => {
    const response = await fetch(`${a.current.baseUrl}/api/v1/runs/${runUlid}/cases/${runCases[index]!.ulid}`, {
      method: 'PATCH',
      headers: { ...owner.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status }),
    });
    expect(response.status, await response.text()).toBe(200);
  };

  it('a mark made through process A reaches a stream held on process B within one second', async () => {
    const stream = await streamOnB();
    expect(progressOf<RunProgress>(await stream.nextEvent()).counts).toMatchObject({ passed: 0, untested: 3 });
    await markThroughA(0, 'passed');
    expect(progressOf<RunProgress>(await stream.nextEvent(undefined, 1_000)).counts).toMatchObject({ passed: 1, untested: 2 });
    await markThroughA(1, 'failed');
    expect(progressOf<RunProgress>(await stream.nextEvent(undefined, 1_000)).counts).toMatchObject({ passed: 1, failed: 1, untested: 1 });
  });

  it('listens again after its connection was cut, reporting the loss once', async () => {
    const stream = await streamOnB();
    await stream.nextEvent();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ cut: boolean }>(
        'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [LISTENER_APPLICATION_NAME],
      );
      // This test's own app listens too: A, B and it.
      expect(rows.length).toBeGreaterThanOrEqual(3);
    } finally {
      await admin.end();
    }
    await b.current.waitFor(/listening for run changes again/, 10_000);
    await a.current.waitFor(/listening for run changes again/, 10_000);
    await markThroughA(2, 'blocked');
    expect(
      progressOf<RunProgress>(await stream.nextEvent((message) => progressOf<RunProgress>(message).counts.blocked === 1, 1_000)).counts,
    ).toMatchObject({
      blocked: 1,
      untested: 0,
    });
    expect(
      logMessages(b.current.output()).filter((message) => message.includes('LISTEN connection to the database was lost')),
    ).toHaveLength(1);
  });

  it('ends the open streams on SIGTERM, so that the process exits at once', async () => {
    const stream = await streamOnB();
    await stream.nextEvent();
    b.current.process.kill('SIGTERM');
    await stream.ended;
    expect(await exitWithin(b.current, 10_000), b.current.output().slice(-3000)).toEqual({ code: 0, signal: null });
    for (const each of streams) each.close();
  });
});
