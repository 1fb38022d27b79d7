import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  type ArgType,
  type ColumnType,
  ColumnTypeEnum,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlQueryable,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import type { PrismaClient } from '../../../prisma/generated/client/client.ts';
import { Prisma } from '../../../prisma/generated/client/client.ts';
import { sqlStateOf } from '../errors.ts';
import type { Db } from './db.ts';
import { emitQuery, isQueryHeard } from './query-events.ts';

/*
 * Raw SQL past Prisma's client runtime. A one-row `$queryRaw` costs three to four times the CPU
 * of the same statement sent through the driver adapter (request batching, the query
 * interpreter, two conversions of every value; docs/decisions.md, Performance). `queryRaw` and
 * `executeRaw` send the statement to the driver adapter of the client or transaction `db`
 * belongs to — the same connection, in the same transaction — and read the rows as `$queryRaw`
 * reads them. A `db` whose adapter is not known here (none connected yet) goes through Prisma.
 */

/** Prisma's tagged template for a statement with bound parameters, for `queryRaw` and `executeRaw`. */
export const sql = Prisma.sql;

/**
 * Where a client's or a transaction's raw statements go, whether `onQuery` hears them, and whether
 * they are named prepared statements (on a PostgreSQL server, where each connection is a session).
 */
type Route = {
  queryable(): SqlQueryable | undefined;
  /** A client's adapter, which begins its transactions; a transaction has none. */
  adapter?: () => SqlDriverAdapter | undefined;
  heard: boolean;
  named: boolean;
};

const routes = new WeakMap<object, Route>();

/**
 * An expression of a statement that commits alone: the statement fails with nothing written
 * unless `condition` is true, as isRequirementUnmet tells (tcms_require, prisma/migrations).
 */
export const requirement = (condition: Prisma.Sql) => sql`tcms_require(${condition})`;

/** Whether `error` is a statement's failed `requirement`. */
export const isRequirementUnmet = (error: unknown) => sqlStateOf(error) === 'TC001';

/** Runs `statement` on `db` and answers its rows, as `db.$queryRaw` would. */
export async function queryRaw<T = unknown[]>(db: Db, statement: Prisma.Sql): Promise<T> {
  const route = routes.get(db);
  const queryable = route?.queryable();
  if (!route || !queryable) return db.$queryRaw<T>(statement);
  const result = await sent(route, statement, (query) => queryable.queryRaw(query));
  return rowsOf(result) as T;
}

/** Runs `statement` on `db` and answers how many rows it changed, as `db.$executeRaw` would. */
export async function executeRaw(db: Db, statement: Prisma.Sql): Promise<number> {
  const route = routes.get(db);
  const queryable = route?.queryable();
  if (!route || !queryable) return db.$executeRaw(statement);
  return sent(route, statement, (query) => queryable.executeRaw(query));
}

async function sent<T>(route: Route, statement: Prisma.Sql, send: (query: SqlQuery) => Promise<T>): Promise<T> {
  const args = statement.values.map(toArg);
  const query: SqlQuery = { sql: statement.text, args, argTypes: args.map((arg) => (Array.isArray(arg) ? LIST : SCALAR)) };
  if (route.named && worthNaming(args)) nameStatement(query);
  if (!route.heard || !isQueryHeard()) return send(query);
  const started = performance.now();
  try {
    return await send(query);
  } finally {
    emitQuery({ query: query.sql, params: JSON.stringify(args), duration: performance.now() - started, target: 'raw' });
  }
}

const SCALAR: ArgType = { scalarType: 'unknown', arity: 'scalar' };
const LIST: ArgType = { scalarType: 'unknown', arity: 'list' };

/** A parameter as Prisma hands it to the adapter: dates and bytes as they are, JSON as text. */
function toArg(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toArg);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object' || value instanceof Date || ArrayBuffer.isView(value)) return value;
  if (Prisma.Decimal.isDecimal(value)) return value.toString();
  return JSON.stringify(value);
}

function rowsOf({ columnNames, columnTypes, rows }: SqlResultSet): Record<string, unknown>[] {
  return rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let column = 0; column < columnNames.length; column++) {
      record[columnNames[column]!] = decoded(row[column], columnTypes[column]!);
    }
    return record;
  });
}

const ELEMENT_TYPE: Partial<Record<ColumnType, ColumnType>> = {
  [ColumnTypeEnum.Int32Array]: ColumnTypeEnum.Int32,
  [ColumnTypeEnum.Int64Array]: ColumnTypeEnum.Int64,
  [ColumnTypeEnum.NumericArray]: ColumnTypeEnum.Numeric,
  [ColumnTypeEnum.BooleanArray]: ColumnTypeEnum.Boolean,
  [ColumnTypeEnum.DateArray]: ColumnTypeEnum.Date,
  [ColumnTypeEnum.TimeArray]: ColumnTypeEnum.Time,
  [ColumnTypeEnum.DateTimeArray]: ColumnTypeEnum.DateTime,
  [ColumnTypeEnum.JsonArray]: ColumnTypeEnum.Json,
  [ColumnTypeEnum.BytesArray]: ColumnTypeEnum.Bytes,
};

/** A column's value as `$queryRaw` answers it: bigint as BigInt, numeric as Decimal, JSON parsed. */
function decoded(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  const element = ELEMENT_TYPE[type];
  if (element !== undefined) return (value as unknown[]).map((item) => decoded(item, element));
  switch (type) {
    case ColumnTypeEnum.Int32:
      return Math.trunc(Number(value));
    case ColumnTypeEnum.Int64:
      return BigInt(value as string | number);
    case ColumnTypeEnum.Numeric:
      return new Prisma.Decimal(value as string);
    case ColumnTypeEnum.Boolean:
      return typeof value === 'boolean' ? value : value === 'true' || value === '1' || value === 1;
    case ColumnTypeEnum.Date:
    case ColumnTypeEnum.DateTime:
      return new Date(value as string);
    case ColumnTypeEnum.Time:
      return new Date(`1970-01-01T${value as string}Z`);
    case ColumnTypeEnum.Json:
      return typeof value === 'string' ? JSON.parse(value) : value;
    case ColumnTypeEnum.Bytes:
      return new Uint8Array(typeof value === 'string' ? Buffer.from(value, 'base64') : (value as Uint8Array));
    default:
      return value;
  }
}

/*
 * Named prepared statements. An unnamed statement is parsed and planned at every execution; a
 * named one is parsed once per connection, and PostgreSQL keeps its plan once a generic plan
 * serves (after five executions). Only raw statements with parameters are named: their texts
 * are fixed by the code (lists travel as one array parameter), while a statement without any is
 * a one-off (a savepoint's name, an ANALYZE) or too cheap to matter. A statement with an array
 * of HASHED_ARRAY_MIN elements or more goes unnamed: PostgreSQL hashes an `= ANY` array that
 * long only in a plan made for its values, and a generic plan would compare every row with
 * every element (200 plans' progress: 11 ms instead of 0.6). The number of names is bounded all
 * the same, since each costs memory in every session that prepared it.
 */

export const MAX_STATEMENT_NAMES = 500;
/** PostgreSQL's MIN_ARRAY_SIZE_FOR_HASHED_SAOP. */
export const HASHED_ARRAY_MIN = 9;
const statementNames = new Map<string, string>();
const namedQueries = new WeakMap<SqlQuery, string>();

/** Whether a statement with these parameters is named: it has some, and no array of HASHED_ARRAY_MIN elements or more. */
export const worthNaming = (values: readonly unknown[]) =>
  values.length > 0 && values.every((value) => !Array.isArray(value) || value.length < HASHED_ARRAY_MIN);

function nameStatement(query: SqlQuery): void {
  let name = statementNames.get(query.sql);
  if (name === undefined) {
    if (statementNames.size >= MAX_STATEMENT_NAMES) return;
    name = `tcms_${createHash('sha1').update(query.sql).digest('base64url')}`;
    statementNames.set(query.sql, name);
  }
  namedQueries.set(query, name);
}

/** PrismaPg's `statementNameGenerator`: the name of a raw statement, else '' (the protocol's unnamed statement). */
export const statementName = (query: SqlQuery): string => namedQueries.get(query) ?? '';

/** How long a transaction may run before it is rolled back (its statements are then refused). */
export const TRANSACTION_TIMEOUT_MS = 60_000;

/*
 * Transactions. A Prisma interactive transaction costs about 0.8 ms of CPU to open and close
 * (its transaction manager, request batching, the query interpreter), against 0.14 ms for the
 * driver's BEGIN and COMMIT, and the hot paths (a mark, a result) send only raw statements. So a
 * transaction begins on the driver adapter, and becomes a Prisma interactive transaction — which
 * adopts the same connection and transaction — only when its work first asks for a model query
 * or another Prisma method. One Prisma has not adopted ends as Prisma's transaction manager ends
 * one: COMMIT or ROLLBACK as a statement (heard by `onQuery`, as Prisma's are), then the
 * adapter's commit or rollback, which gives the connection back.
 */

/** The transaction `transaction` has begun, for Prisma to adopt when it opens its own in this async context. */
const adopting = new AsyncLocalStorage<{ transaction?: GuardedTransaction }>();

/**
 * Runs `work` in a transaction whose `tx` sends raw statements straight to the transaction's
 * connection, and anything else through a Prisma interactive transaction on the same one.
 */
export async function transaction<T>(client: PrismaClient, work: (tx: Db) => Promise<T>): Promise<T> {
  const route = routes.get(client);
  if (route?.adapter && !route.adapter()) await client.$connect();
  const adapter = route?.adapter?.();
  if (!route || !adapter) return client.$transaction(work);
  const begun = new GuardedTransaction(await adapter.startTransaction());
  return new LazyTransaction(client, begun, route).run(work);
}

const MODEL_DELEGATES = new Set(Object.values(Prisma.ModelName).map((model) => model[0]!.toLowerCase() + model.slice(1)));

/**
 * A transaction begun on the adapter, that opens a Prisma interactive transaction on first need.
 * `tx` is what the work is given: its model delegates and `$` methods wait for that transaction
 * and then run in it.
 */
class LazyTransaction {
  readonly tx: Db;
  /** Prisma's interactive transaction, once opened: it ends when `outcome` settles. */
  private adopted: { tx: Promise<Db>; outcome: Deferred<unknown>; closed: Promise<unknown> } | undefined;

  constructor(
    private readonly client: PrismaClient,
    private readonly begun: GuardedTransaction,
    private readonly route: Route,
  ) {
    this.tx = deferredClient(client, () => this.prismaTransaction());
    routes.set(this.tx, { heard: route.heard, named: route.named, queryable: () => begun.open() });
  }

  async run<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const timer = setTimeout(() => void this.expire(), TRANSACTION_TIMEOUT_MS);
    timer.unref();
    try {
      let result: T;
      try {
        result = await work(this.tx);
      } catch (error) {
        await this.rollBack(error);
        throw error;
      }
      await this.commit(result);
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  private prismaTransaction(): Promise<Db> {
    if (!this.adopted) {
      const outcome = deferred<unknown>();
      const opened = deferred<Db>();
      const closed = adopting.run({ transaction: this.begun }, () =>
        this.client.$transaction((tx) => {
          opened.resolve(tx);
          return outcome.promise;
        }),
      );
      // A transaction that could not open fails the query that asked for it.
      closed.catch(opened.reject);
      this.adopted = { tx: opened.promise, outcome, closed };
    }
    return this.adopted.tx;
  }

  private async commit(result: unknown): Promise<void> {
    if (!this.adopted) return this.begun.end('COMMIT', this.route);
    this.adopted.outcome.resolve(result);
    await this.adopted.closed;
  }

  /** Undoes the work that failed with `error`; the work's error is the one its caller hears. */
  private async rollBack(error: unknown): Promise<void> {
    if (this.adopted) {
      this.adopted.outcome.reject(error);
      await this.adopted.closed.catch(() => undefined);
    }
    // Prisma's transaction may have failed before it adopted this one.
    await this.abandon();
  }

  /** Past the timeout, a transaction Prisma has not adopted is rolled back (Prisma times out its own). */
  private async expire(): Promise<void> {
    if (!this.adopted) await this.abandon();
  }

  private async abandon(): Promise<void> {
    if (this.begun.ended) return;
    try {
      await this.begun.end('ROLLBACK', this.route);
    } catch {
      // The connection failed: the server ends its transaction.
    }
  }
}

/** `client`'s model delegates and `$` methods, each running in the Prisma transaction `opened` answers. */
function deferredClient(client: PrismaClient, opened: () => Promise<Db>): Db {
  type Members = Record<string, (...args: unknown[]) => Promise<unknown>>;
  const inOpened =
    (members: (tx: Db) => Members, name: string) =>
    (...args: unknown[]) =>
      opened().then((tx) => members(tx)[name]!(...args));
  const delegates = new Map<string, object>();
  const delegate = (model: string) =>
    new Proxy(
      {},
      {
        get: (_, method) =>
          typeof method === 'string' ? inOpened((tx) => (tx as unknown as Record<string, Members>)[model]!, method) : undefined,
      },
    );
  const isMember = (property: string | symbol): property is string =>
    typeof property === 'string' &&
    (MODEL_DELEGATES.has(property) ||
      (property.startsWith('$') && typeof (client as unknown as Record<string, unknown>)[property] === 'function'));
  return new Proxy({} as Db, {
    // Pothos finds a model's delegate with `in`.
    has: (_, property) => isMember(property),
    get: (_, property) => {
      if (!isMember(property)) return undefined;
      if (property.startsWith('$')) return inOpened((tx) => tx as unknown as Members, property);
      if (!delegates.has(property)) delegates.set(property, delegate(property));
      return delegates.get(property);
    },
  });
}

type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; reject(reason: unknown): void };

function deferred<T>(): Deferred<T> {
  const settle = {} as Omit<Deferred<T>, 'promise'>;
  const promise = new Promise<T>((resolve, reject) => Object.assign(settle, { resolve, reject }));
  return { promise, ...settle };
}

/** `client` sends its raw statements (and those of its transactions) through the same adapter as `base`. */
export function shareRoute<Client extends object>(client: Client, base: object): Client {
  const route = routes.get(base);
  if (route) routes.set(client, route);
  return client;
}

/**
 * `client`, built on `factory`, sends its raw statements through the adapter the factory connected,
 * and begins its transactions there; `named`: as named prepared statements (the adapter names
 * them with `statementName`).
 */
export function withRawAccess(client: PrismaClient, factory: RawAccessFactory, options: { heard: boolean; named: boolean }): PrismaClient {
  const adapter = () => factory.adapter;
  routes.set(client, { queryable: adapter, adapter, ...options });
  return client;
}

/**
 * The adapter factory a client is built with: it remembers the adapter Prisma connects, and hands
 * Prisma the transaction `transaction` has begun when Prisma opens its own to adopt it.
 */
export class RawAccessFactory implements SqlDriverAdapterFactory {
  readonly provider: SqlDriverAdapterFactory['provider'];
  readonly adapterName: string;
  adapter: SqlDriverAdapter | undefined;

  constructor(private readonly inner: SqlDriverAdapterFactory) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    const adapter = await this.inner.connect();
    this.adapter = adapter;
    return {
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      queryRaw: (query) => adapter.queryRaw(query),
      executeRaw: (query) => adapter.executeRaw(query),
      executeScript: (script) => adapter.executeScript(script),
      getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
      dispose: () => adapter.dispose(),
      startTransaction: async (isolationLevel?: IsolationLevel) => {
        const slot = adopting.getStore();
        const begun = slot?.transaction;
        if (!begun) return new GuardedTransaction(await adapter.startTransaction(isolationLevel));
        // Adopted once: anything else that starts a transaction in this async context gets its own.
        slot.transaction = undefined;
        return begun;
      },
    };
  }
}

/**
 * A transaction begun on the adapter. It refuses raw statements once it has ended (say at its
 * timeout, while the work still runs): its connection may by then serve another transaction.
 * PGlite's adapter ends a transaction without a statement (PGlite sends it) and keeps a COMMIT
 * that fails to itself, so that the work would seem to have committed; on PGlite the COMMIT is
 * therefore sent here first (PGlite's own then finds no transaction, a silent warning).
 */
class GuardedTransaction implements Transaction {
  readonly provider: Transaction['provider'];
  readonly adapterName: string;
  readonly options: Transaction['options'];
  private closed = false;

  constructor(private readonly inner: Transaction) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    this.options = inner.options;
  }

  get ended(): boolean {
    return this.closed;
  }

  open(): SqlQueryable {
    if (this.closed) throw new Error('The transaction has already ended');
    return this.inner;
  }

  queryRaw(query: SqlQuery) {
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery) {
    return this.inner.executeRaw(query);
  }

  /** Prisma's commit, once it has sent COMMIT (on PGlite, a phantom one). */
  commit() {
    this.closed = true;
    if (!this.inner.options.usePhantomQuery) return this.inner.commit();
    return this.committed(() => this.inner.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] }));
  }

  rollback() {
    this.closed = true;
    return this.inner.rollback();
  }

  /** Ends a transaction Prisma has not adopted as Prisma would: COMMIT or ROLLBACK sent and heard on `route`, then the adapter's end. */
  async end(outcome: 'COMMIT' | 'ROLLBACK', route: Route): Promise<void> {
    if (this.closed) throw new Error('The transaction has already ended');
    this.closed = true;
    const send = () => sent(route, Prisma.raw(outcome), (query) => this.inner.executeRaw(query));
    if (outcome === 'COMMIT') return this.committed(send);
    try {
      await send();
    } finally {
      await this.inner.rollback();
    }
  }

  /** `sendCommit`, then the adapter's commit; a COMMIT that fails rolls back and fails. */
  private async committed(sendCommit: () => Promise<unknown>): Promise<void> {
    try {
      await sendCommit();
    } catch (error) {
      await this.inner.rollback();
      throw error;
    }
    await this.inner.commit();
  }
}
