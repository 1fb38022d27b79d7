import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Logger } from 'pino';
import { PrismaClient } from '../../../prisma/generated/client/client.ts';
import type { Config } from '../config.ts';
import { logger } from '../logger.ts';
import { pgdataOf, reachEmbeddedDatabase, serveEmbeddedDatabase } from './embedded.ts';
import { takingTurns } from './embedded-turns.ts';
import { MIGRATIONS_DIR, migrate } from './migrator.ts';
import { emitQuery, isQueryHeard } from './query-events.ts';
import { RawAccessFactory, statementName, TRANSACTION_TIMEOUT_MS, withRawAccess } from './raw-sql.ts';
import { untilReachable } from './reachability.ts';
import { openPgConnection, pgliteConnection, type SqlConnection, withoutPassword } from './sql-connection.ts';

export type { Prisma } from '../../../prisma/generated/client/client.ts';
export type { Db } from './db.ts';
export { onQuery, type QueryEvent } from './query-events.ts';
export { PrismaClient };

let client: PrismaClient | undefined;

type AdapterOption = NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;

/**
 * How long a transaction Prisma opens (for a nested write, or to adopt one raw-sql.ts began) may
 * wait for a pooled connection, and how long it may run. Prisma's defaults (2 s, 5 s) turn a
 * burst of writes to one run — which queue on the run's row lock while holding their
 * connections — into 500s; a queued request should wait its turn instead.
 */
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: TRANSACTION_TIMEOUT_MS };

/**
 * A client whose raw statements go straight to its adapter (raw-sql.ts). The process client's
 * statements reach `onQuery` listeners, nearly free while nobody listens; a background client's
 * are not heard. `named`: its raw statements are named prepared statements (see raw-sql.ts).
 */
function newClient(adapter: AdapterOption, options: { heard: boolean; named: boolean }): PrismaClient {
  const factory = new RawAccessFactory(adapter);
  const created = new PrismaClient({
    adapter: factory,
    transactionOptions: TRANSACTION_OPTIONS,
    log: [{ emit: 'event' as const, level: 'query' as const }],
  });
  if (options.heard) {
    created.$on('query', (event) => {
      if (isQueryHeard()) emitQuery(event);
    });
  }
  return withRawAccess(created as unknown as PrismaClient, factory, options);
}

/** The process-wide Prisma client (a module singleton, opened once by openDatabase). */
export function prisma(): PrismaClient {
  if (!client) throw new Error('The database is not open: call openDatabase() first');
  return client;
}

export type PoolUsage = { total: number; idle: number; waiting: number };

export type OpenDatabase = {
  engine: 'postgres' | 'pglite';
  /** Where the data lives, for the start-up line (never includes a password). */
  location: string;
  /** Connections of a PostgreSQL server's pool; null on the embedded database (one in-process session). */
  poolUsage(): PoolUsage | null;
  /** A raw SQL session on the same database (the migrator and the schema-drift test use it). */
  openSqlConnection(): Promise<SqlConnection>;
  /**
   * A client of its own for work outside requests (the mail outbox): requests cannot starve its
   * connection, and its statements, which come at any moment, are not heard by `onQuery`.
   */
  backgroundClient: PrismaClient;
  close(): Promise<void>;
};

/**
 * Who opens the database. On the embedded one the server owns it (creating it if needed), and
 * the `tcms` command goes through the server's socket, or owns an existing one while it runs.
 */
export type DatabaseUser = 'server' | 'command';

/**
 * Opens the configured database, applies pending migrations and sets the process client. `log`
 * hears each step (the server's start-up lines; the `tcms` command prints none).
 */
export async function openDatabase(config: Config, user: DatabaseUser = 'server', log?: Logger): Promise<OpenDatabase> {
  const startedAt = performance.now();
  const opened = config.databaseUrl ? openPostgres(config.databaseUrl, config) : await openEmbedded(config, user, log);
  try {
    if (config.databaseUrl) log?.info(`connecting to the PostgreSQL server at ${opened.location}`);
    const connection = await untilReachable(opened.openSqlConnection, opened.location, config.dbConnectTimeoutMs);
    if (config.databaseUrl) log?.info(`connected in ${Math.round(performance.now() - startedAt)} ms`);
    try {
      await migrate(connection, MIGRATIONS_DIR, log);
    } finally {
      await connection.close();
    }
  } catch (error) {
    await opened.closeEngine();
    throw error;
  }
  client = opened.client;
  return {
    engine: opened.engine,
    location: opened.location,
    poolUsage: opened.poolUsage,
    openSqlConnection: opened.openSqlConnection,
    backgroundClient: opened.backgroundClient,
    close: async () => {
      await opened.client.$disconnect();
      await opened.backgroundClient.$disconnect();
      await opened.closeEngine();
      if (client === opened.client) client = undefined;
    },
  };
}

function newPool(databaseUrl: string, size: number, config: Pick<Config, 'statementTimeoutMs'>): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: size,
    // No statement (a runaway query a client gave up on, say) holds a connection longer than this.
    statement_timeout: config.statementTimeoutMs,
    connectionTimeoutMillis: 10_000,
  });
  // A connection that breaks while idle (the server restarted) is dropped from the pool; unheard,
  // the error would end the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle database connection failed'));
  return pool;
}

/** `named`: raw statements are named prepared statements, which needs a session per connection. */
function openPostgres(databaseUrl: string, config: Pick<Config, 'poolSize' | 'statementTimeoutMs'>, named = true) {
  const pool = newPool(databaseUrl, config.poolSize, config);
  // Connects on first use: a process that does no background work never opens it.
  const backgroundPool = newPool(databaseUrl, 1, config);
  const adapterOptions = named ? { statementNameGenerator: statementName } : undefined;
  return {
    engine: 'postgres' as const,
    location: withoutPassword(databaseUrl),
    client: newClient(new PrismaPg(pool, adapterOptions), { heard: true, named }),
    backgroundClient: newClient(new PrismaPg(backgroundPool, adapterOptions), { heard: false, named }),
    poolUsage: (): PoolUsage => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    openSqlConnection: () => openPgConnection(databaseUrl),
    closeEngine: async () => {
      await Promise.all([pool.end(), backgroundPool.end()]);
    },
  };
}

async function openEmbedded(config: Config, user: DatabaseUser, log?: Logger) {
  const location = pgdataOf(config.dataDir);
  const options = { sharedBuffersMb: config.embeddedSharedBuffersMb };
  const embedded =
    user === 'server'
      ? await serveEmbeddedDatabase(config.dataDir, { ...options, log })
      : await reachEmbeddedDatabase(config.dataDir, options);
  if ('connectionString' in embedded) {
    // The owner runs its clients' transactions one at a time: a second connection would only wait.
    // Every connection to the socket shares the owner's one session: a statement name one of them
    // prepared would clash with the same name prepared by the next.
    return { ...openPostgres(embedded.connectionString, { ...config, poolSize: 1 }, false), engine: 'pglite' as const, location };
  }
  const { database } = embedded;
  return {
    engine: 'pglite' as const,
    location,
    client: newClient(takingTurns(new PrismaPGlite(database)), { heard: true, named: false }),
    // PGlite is one session: both clients take its transaction mutex, so neither runs inside the other's transaction.
    backgroundClient: newClient(new PrismaPGlite(database), { heard: false, named: false }),
    poolUsage: () => null,
    openSqlConnection: async () => pgliteConnection(database),
    closeEngine: embedded.close,
  };
}
