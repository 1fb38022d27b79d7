import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  ColumnTypeEnum,
  type ArgType,
  type ColumnType,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlQueryable,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db, PrismaClient } from './client.ts';
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
type Route = { queryable(): SqlQueryable | undefined; heard: boolean; named: boolean };

const routes = new WeakMap<object, Route>();

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
      record[columnNames[column]!] = valueOf(row[column], columnTypes[column]!);
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
function valueOf(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  const element = ELEMENT_TYPE[type];
  if (element !== undefined) return (value as unknown[]).map((item) => valueOf(item, element));
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

/** The transaction Prisma is opening in this async context, once its adapter has begun it. */
const opening = new AsyncLocalStorage<{ transaction?: GuardedTransaction }>();

/**
 * Runs `work` in a Prisma interactive transaction whose `tx` sends raw statements straight to the
 * transaction's connection.
 */
export async function transaction<T>(client: PrismaClient, work: (tx: Db) => Promise<T>): Promise<T> {
  const slot: { transaction?: GuardedTransaction } = {};
  return opening.run(slot, () =>
    client.$transaction(async (tx) => {
      const { transaction: begun } = slot;
      if (begun) routes.set(tx, { heard: false, named: false, ...routes.get(client), queryable: () => begun.open() });
      return work(tx);
    }),
  );
}

/** `client` sends its raw statements (and those of its transactions) through the same adapter as `base`. */
export function shareRoute<Client extends object>(client: Client, base: object): Client {
  const route = routes.get(base);
  if (route) routes.set(client, route);
  return client;
}

/**
 * `client`, built on `factory`, sends its raw statements through the adapter the factory connected;
 * `named`: as named prepared statements (the adapter names them with `statementName`).
 */
export function withRawAccess(client: PrismaClient, factory: RawAccessFactory, options: { heard: boolean; named: boolean }): PrismaClient {
  routes.set(client, { queryable: () => factory.adapter, ...options });
  return client;
}

/**
 * The adapter factory a client is built with: it remembers the adapter Prisma connects, and the
 * transactions that adapter begins, so that `queryRaw` can reach them.
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
        const begun = new GuardedTransaction(await adapter.startTransaction(isolationLevel));
        const slot = opening.getStore();
        if (slot && !slot.transaction) slot.transaction = begun;
        return begun;
      },
    };
  }
}

/**
 * A transaction that refuses raw statements once Prisma has ended it (say at its timeout, while
 * the work still runs): its connection may by then serve another transaction.
 */
class GuardedTransaction implements Transaction {
  readonly provider: Transaction['provider'];
  readonly adapterName: string;
  readonly options: Transaction['options'];
  private ended = false;

  constructor(private readonly inner: Transaction) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    this.options = inner.options;
  }

  open(): SqlQueryable {
    if (this.ended) throw new Error('The transaction has already ended');
    return this.inner;
  }

  queryRaw(query: SqlQuery) {
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery) {
    return this.inner.executeRaw(query);
  }

  commit() {
    this.ended = true;
    return this.inner.commit();
  }

  rollback() {
    this.ended = true;
    return this.inner.rollback();
  }
}
