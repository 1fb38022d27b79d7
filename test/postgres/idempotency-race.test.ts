import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useServerProcess } from '../support/processes.ts';

/**
 * Two instances of the service on one PostgreSQL database — this test's in-process app and a
 * second server process — receive the same create with the same Idempotency-Key at the same
 * moment. The key's row is the only thing they share, and it must let exactly one execute.
 */

const ROUNDS = 8;

const t = useTestApp();

type Answer = { status: number; body: unknown; replayed: string | undefined; retryAfter: string | undefined };

describe('one Idempotency-Key, two service instances, one moment', { timeout: 240_000 }, () => {
  const second = useServerProcess();
  let caller: Caller & { token: string; tokenUlid: string };

  beforeAll(async () => {
    const owner = await signUp(t.http);
    caller = await tokenFor(t.http, owner, { role: 'admin' });
    // Room for every round's project and request, whatever the free plan allows.
    await prisma().organization.update({
      where: { id: owner.orgId },
      data: { maxProjectsOverride: 1000, requestsPerMinuteOverride: 10_000 },
    });
  }, 180_000);

  const viaTestApp = async (key: string, body: object): Promise<Answer> => {
    const response = await t.http.post('/api/v1/projects').set(caller.headers).set('Idempotency-Key', key).send(body);
    return {
      status: response.status,
      body: response.body,
      replayed: response.headers['idempotency-replayed'],
      retryAfter: response.headers['retry-after'],
    };
  };

  const viaSecondServer = async (key: string, body: object): Promise<Answer> => {
    const response = await fetch(`${second.current.baseUrl}/api/v1/projects`, {
      method: 'POST',
      headers: { ...caller.headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return {
      status: response.status,
      body: await response.json(),
      replayed: response.headers.get('idempotency-replayed') ?? undefined,
      retryAfter: response.headers.get('retry-after') ?? undefined,
    };
  };

  it('executes the create exactly once; the other answer is the replay or 409 with Retry-After', async () => {
    const outcomes = { replayed: 0, inFlight: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const key = `race-${round}-${newId()}`;
      const body = { name: `Race ${round}`, id: projectCode() };
      // Alternate who is asked first, so that neither side always has the head start.
      const answers =
        round % 2 === 0
          ? await Promise.all([viaTestApp(key, body), viaSecondServer(key, body)])
          : (await Promise.all([viaSecondServer(key, body), viaTestApp(key, body)])).reverse();
      const context = JSON.stringify({ round, answers, server: second.current.output().slice(-2000) });

      const executed = answers.filter((answer) => answer.status === 201 && answer.replayed === undefined);
      expect(executed, context).toHaveLength(1);
      const [winner] = executed;
      expect(winner!.body, context).toMatchObject({ id: body.id, name: body.name });
      const other = answers.find((answer) => answer !== winner)!;
      if (other.status === 201) {
        expect(other.replayed, context).toBe('true');
        expect(other.body, context).toEqual(winner!.body);
        outcomes.replayed += 1;
      } else {
        expect(other.status, context).toBe(409);
        expect(other.retryAfter, context).toMatch(/^\d+$/);
        expect(other.body, context).toMatchObject({ error: { code: 'conflict', message: expect.stringMatching(/in flight/) } });
        outcomes.inFlight += 1;
      }

      const projectUlid = (winner!.body as { ulid: string }).ulid;
      expect(await prisma().project.count({ where: { orgId: caller.orgId, code: body.id } })).toBe(1);
      expect(
        await prisma().auditEvent.count({
          where: { orgId: caller.orgId, action: 'project.created', entityUlid: projectUlid },
        }),
      ).toBe(1);

      // Once the winner has answered, a retry on either instance is the replay.
      for (const retry of [viaTestApp, viaSecondServer]) {
        const again = await retry(key, body);
        expect(again, context).toMatchObject({ status: 201, replayed: 'true', body: winner!.body });
      }
    }
    expect(outcomes.replayed + outcomes.inFlight).toBe(ROUNDS);
    expect(await prisma().project.count({ where: { orgId: caller.orgId } })).toBe(ROUNDS);
    expect(await prisma().auditEvent.count({ where: { orgId: caller.orgId, action: 'project.created' } })).toBe(ROUNDS);
  });

  it('answers 409 with Retry-After while another connection holds the key, then executes once it is free', async () => {
    // Another execution of the very same request holds the key: its transaction-scoped lock, taken
    // here on a connection of its own, as a request in flight on another instance would.
    const key = `held-${newId()}`;
    const body = { name: 'In flight', id: projectCode() };
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`token:${caller.tokenUlid}\n${key}`]);
      for (const attempt of [viaTestApp, viaSecondServer]) {
        const answer = await attempt(key, body);
        expect(answer.status, JSON.stringify(answer)).toBe(409);
        expect(answer.retryAfter).toBe('1');
        expect(answer.replayed).toBeUndefined();
        expect(answer.body).toMatchObject({
          error: { code: 'conflict', details: { code: 'idempotency_key_in_flight', retryAfterSeconds: 1 } },
        });
      }
      expect(await prisma().project.count({ where: { orgId: caller.orgId, code: body.id } })).toBe(0);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    // The holder rolled back: the key is free at once, and the request executes.
    const executed = await viaSecondServer(key, body);
    expect(executed).toMatchObject({ status: 201, replayed: undefined });
    expect(await viaTestApp(key, body)).toMatchObject({ status: 201, replayed: 'true', body: executed.body });
  });
});
