import { describe, expect, it, vi } from 'vitest';
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../src/kernel/database/client.ts';
import { onQuery, prisma, type QueryEvent } from '../../src/kernel/database/client.ts';
import {
  executeRaw,
  HASHED_ARRAY_MIN,
  MAX_STATEMENT_NAMES,
  queryRaw,
  sql,
  TRANSACTION_TIMEOUT_MS,
} from '../../src/kernel/database/raw-sql.ts';
import { tenantClient } from '../../src/kernel/database/tenant.ts';
import { inTransaction } from '../../src/kernel/database/transactions.ts';
import { newId } from '../../src/kernel/ids.ts';
import { useTestApp } from '../support/app.ts';

/**
 * Raw statements skip Prisma's client runtime (src/kernel/database/raw-sql.ts): they must answer what
 * `$queryRaw` answers, run on the connection and in the transaction of the `db` they are given,
 * and still be heard by `onQuery`.
 */

const t = useTestApp();

/** What `work` sent, as `onQuery` heard it. */
async function heard(work: () => Promise<unknown>): Promise<QueryEvent[]> {
  const events: QueryEvent[] = [];
  const stop = onQuery((event) => events.push(event));
  try {
    await work();
  } finally {
    stop();
  }
  return events;
}

const everyType = () => sql`
  SELECT ${42}::int AS int, ${9007199254740993n}::bigint AS big, ${'12.50'}::numeric AS decimal, 1.5::float8 AS float,
         ${true}::boolean AS yes, ${'text'}::text AS text, ${'ab'}::char(3) AS fixed, ${newId()}::char(26) AS ulid,
         ${new Date('2026-11-27T10:11:12.345Z')}::timestamp(3) AS at, ${new Date('2026-11-27T10:11:12.345Z')}::timestamptz AS "atZone",
         '2026-11-27'::date AS day, '10:11:12'::time AS "timeOfDay", ${{ a: [1, 'b'] }}::jsonb AS jsonb, json_build_object('n', 1) AS json,
         ${[1, 2, 3]}::int[] AS ints, ${['x', 'y']}::text[] AS texts, ARRAY[1, 2]::bigint[] AS bigs, ${Buffer.from('bytes')}::bytea AS bytes,
         gen_random_uuid() IS NOT NULL AS "uuidMade", NULL::int AS nothing, count(*) AS counted
  FROM (VALUES (1), (2)) AS two(n)`;

describe('raw statements', () => {
  it('answer every column type as $queryRaw does, outside and inside a transaction', async () => {
    const statement = everyType();
    const expected = await prisma().$queryRaw<unknown[]>(statement);
    expect(await queryRaw(prisma(), statement)).toEqual(expected);
    expect(await inTransaction(prisma(), (tx) => queryRaw(tx, statement))).toEqual(expected);
    expect(expected).toMatchObject([{ int: 42, big: 9007199254740993n, yes: true, ints: [1, 2, 3], counted: 2n, nothing: null }]);
  });

  it('run on the connection of their transaction, never on another, and are heard by onQuery', async () => {
    const txid = sql`SELECT txid_current()::text AS id`;
    const both = async (tx: Db) => {
      const [mine] = await queryRaw<Array<{ id: string }>>(tx, txid);
      const [prismas] = await tx.$queryRaw<Array<{ id: string }>>(txid);
      return { mine: mine!.id, prismas: prismas!.id };
    };
    const events = await heard(async () => {
      const [first, second] = await Promise.all([inTransaction(prisma(), both), inTransaction(tenantClient(newId()), both)]);
      expect(first.mine).toBe(first.prismas);
      expect(second.mine).toBe(second.prismas);
      expect(first.mine).not.toBe(second.mine);
    });
    const raw = events.filter((event) => event.target === 'raw' && event.query === txid.text);
    expect(raw).toHaveLength(2);
  });

  it('count the rows a statement changed', async () => {
    const changed = await inTransaction(prisma(), async (tx) => {
      await executeRaw(tx, sql`CREATE TEMPORARY TABLE raw_probe (n int) ON COMMIT DROP`);
      return executeRaw(tx, sql`INSERT INTO raw_probe SELECT generate_series(1, ${3}::int)`);
    });
    expect(changed).toBe(3);
  });

  it('are refused once their transaction has ended: its connection may serve another by then', async () => {
    let ended: Db | undefined;
    await inTransaction(prisma(), async (tx) => {
      ended = tx;
    });
    await expect(queryRaw(ended!, sql`SELECT 1`)).rejects.toThrow('The transaction has already ended');
  });

  it('are named prepared statements on a PostgreSQL server when they have parameters and no long array, parsed once per connection', async () => {
    const probe = (n: number) => sql`SELECT ${n}::int + 1 AS next`;
    const numbers = (length: number) => Array.from({ length }, (_, index) => index);
    const short = sql`SELECT cardinality(${numbers(HASHED_ARRAY_MIN - 1)}::int[]) AS short`;
    const long = sql`SELECT cardinality(${numbers(HASHED_ARRAY_MIN)}::int[]) AS long`;
    const prepared = await inTransaction(prisma(), async (tx) => {
      expect(await queryRaw(tx, probe(1))).toEqual([{ next: 2 }]);
      expect(await queryRaw(tx, probe(41))).toEqual([{ next: 42 }]);
      await queryRaw(tx, sql`SELECT 'no parameters' AS text`);
      expect(await queryRaw(tx, short)).toEqual([{ short: HASHED_ARRAY_MIN - 1 }]);
      // A long array is planned for its values, the only plan where PostgreSQL hashes it.
      expect(await queryRaw(tx, long)).toEqual([{ long: HASHED_ARRAY_MIN }]);
      return queryRaw<Array<{ name: string; statement: string }>>(tx, sql`SELECT name, statement FROM pg_prepared_statements`);
    });
    const probes = [probe(1).text, short.text, long.text];
    const ours = prepared.filter((each) => probes.includes(each.statement) || each.statement.includes('no parameters'));
    // The embedded database is one session shared by every connection to it: names would clash there.
    if (t.app.database.engine === 'postgres') {
      expect(ours.map((each) => each.statement).sort()).toEqual([probe(1).text, short.text].sort());
      expect(ours.every((each) => each.name.startsWith('tcms_'))).toBe(true);
    } else expect(prepared).toEqual([]);
  });

  it(`name at most ${MAX_STATEMENT_NAMES} texts: past them, statements go unnamed and still answer`, async () => {
    const distinct = (n: number) => sql`SELECT ${n}::int AS ${Prisma.raw(`"n${n}"`)}`;
    const count = MAX_STATEMENT_NAMES + 5;
    const prepared = await inTransaction(prisma(), async (tx) => {
      for (let n = 0; n < count; n++) expect(await queryRaw(tx, distinct(n))).toEqual([{ [`n${n}`]: n }]);
      return queryRaw<Array<{ statement: string }>>(tx, sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tcms\_%'`);
    });
    expect(prepared.length).toBeLessThanOrEqual(MAX_STATEMENT_NAMES);
    expect(prepared.map((each) => each.statement)).not.toContain(distinct(count - 1).text);
    if (t.app.database.engine === 'postgres') expect(prepared.map((each) => each.statement)).toContain(distinct(0).text);
  });
});

/**
 * A transaction begins on the driver adapter; a Prisma interactive transaction adopts it when the
 * work first asks for a model query (src/kernel/database/raw-sql.ts, `transaction`). Either way the work
 * is one transaction: it commits whole, or nothing of it stays.
 */
describe('transactions', () => {
  const insertUser = (tx: Db, email: string) =>
    executeRaw(
      tx,
      sql`INSERT INTO users (id, email, password_hash, first_name, last_name) VALUES (${newId()}, ${email}, 'x', 'Raw', 'Insert')`,
    );
  const stored = (email: string) => prisma().user.findUnique({ where: { email } });
  const email = () => `${newId().toLowerCase()}@tx.example`;

  it('see their raw writes in their model queries and the other way round, and commit both', async () => {
    const [raw, modelled] = [email(), email()];
    const events = await heard(() =>
      inTransaction(tenantClient(newId()), async (tx) => {
        await insertUser(tx, raw);
        expect(await tx.user.findUnique({ where: { email: raw } })).toMatchObject({ firstName: 'Raw' });
        await tx.user.update({ where: { email: raw }, data: { firstName: 'Modelled' } });
        await tx.user.create({ data: { id: newId(), email: modelled, passwordHash: 'x', firstName: 'Model', lastName: 'Create' } });
        expect(
          await queryRaw(tx, sql`SELECT first_name AS "firstName" FROM users WHERE email IN (${raw}, ${modelled}) ORDER BY first_name`),
        ).toEqual([{ firstName: 'Model' }, { firstName: 'Modelled' }]);
        // Prisma's own methods run in the same transaction.
        expect(await tx.$queryRaw`SELECT count(*)::int AS n FROM users WHERE email = ${modelled}`).toEqual([{ n: 1 }]);
      }),
    );
    expect(await stored(raw)).toMatchObject({ firstName: 'Modelled' });
    expect(await stored(modelled)).toMatchObject({ firstName: 'Model' });
    expect(events.filter((event) => event.query.includes('COMMIT'))).toHaveLength(1);
  });

  it.each([
    ['only raw statements', false],
    ['raw statements and model queries', true],
  ])('with %s, keep nothing of work that fails', async (_, modelled) => {
    const [first, second] = [email(), email()];
    const failure = new Error('the work failed');
    await expect(
      inTransaction(prisma(), async (tx) => {
        await insertUser(tx, first);
        if (modelled) await tx.user.update({ where: { email: first }, data: { lastName: 'Updated' } });
        await insertUser(tx, second);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect([await stored(first), await stored(second)]).toEqual([null, null]);
  });

  it.each([
    ['only raw statements', false],
    ['raw statements and model queries', true],
  ])('with %s, fail whole when COMMIT fails, and give their connection back', async (_, modelled) => {
    const [kept, refused] = [email(), email()];
    // A deferred constraint is checked at COMMIT: the transaction fails there, after all its statements ran.
    const commitFails = async (tx: Db) => {
      await executeRaw(tx, sql`CREATE TEMPORARY TABLE deferred_probe (n int UNIQUE DEFERRABLE INITIALLY DEFERRED) ON COMMIT DROP`);
      await executeRaw(tx, sql`INSERT INTO deferred_probe VALUES (1), (1)`);
    };
    await expect(
      inTransaction(prisma(), async (tx) => {
        await insertUser(tx, refused);
        if (modelled) await tx.user.update({ where: { email: refused }, data: { lastName: 'Updated' } });
        await commitFails(tx);
      }),
    ).rejects.toThrow();
    expect(await stored(refused)).toBeNull();
    // Every connection is usable again: as many transactions as the pool holds connections commit.
    await Promise.all(Array.from({ length: 12 }, (_, n) => inTransaction(prisma(), (tx) => insertUser(tx, `${n}.${kept}`))));
    expect(await prisma().user.count({ where: { email: { endsWith: kept } } })).toBe(12);
  });

  it(`are rolled back after ${TRANSACTION_TIMEOUT_MS / 1000} s: their statements are refused from then on, and the work fails`, async () => {
    const abandoned = email();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await expect(
        inTransaction(prisma(), async (tx) => {
          await insertUser(tx, abandoned);
          vi.advanceTimersByTime(TRANSACTION_TIMEOUT_MS);
          vi.useRealTimers();
          await expect(queryRaw(tx, sql`SELECT ${1}::int AS one`)).rejects.toThrow('The transaction has already ended');
        }),
      ).rejects.toThrow('The transaction has already ended');
    } finally {
      vi.useRealTimers();
    }
    expect(await stored(abandoned)).toBeNull();
  });
});
