/**
 * The audit feed row (`BENCH_ONLY=audit npm run bench`, also runnable alone:
 * `npx tsx bench/audit-feed.ts`), service side; bench/raw-audit-feed.ts is its floor. Target: a
 * deep page of an organization's audit feed is served at 0.8 of the floor or better
 * (service/floor >= 0.8, in latency and in throughput).
 *
 * The feed: an organization with 1,000,000 audit events and a neighbour organization with as many,
 * interleaved in time (one event of each in turn, a year of them, the newest an hour ago), written
 * in time order as the service would have written them, so that the table's pages hold both
 * organizations' events. Six in ten are run.case_marked by the organization's API token, three
 * test_case.updated and one run.created by its owner, each with a small metadata object as the
 * service records them. Ids are ULIDs of their instant (one instant per event, so that byte order
 * is time order), with 16 characters of an md5 after the time.
 *
 * Seeding: both organizations and their tokens through the API (bench/setup.ts, newIntegrator),
 * the events in one set-based statement (INSERT … SELECT generate_series), then VACUUM ANALYZE
 * (what autovacuum would have done by then).
 *
 * Measured: GET /api/v1/orgs/{orgUlid}/audit-events?limit=50&cursor=… with the API token, the
 * cursor being the id of the organization's event 900,000th from the newest, against the floor
 * (the token statement and the service's SELECT, named as the service names them, on a pg pool
 * of the service's size, 10). Both answers are checked to be the same 50 ids in the same order
 * before measuring. Two measures: one client at a time (latency: p50 and p95 of each side, the
 * ratio floor p50 / service p50) and 10 concurrent clients (throughput: the ratio service/s over
 * floor/s). ROUNDS interleaved rounds (service, floor, service, floor…; BENCH_ROUNDS, at least 5),
 * each side warmed up before each measure; the median ratio with its min–max spread and the
 * 1-minute load average as each measure began. The plans of the page's statement (custom and
 * generic, EXPLAIN ANALYZE) are reported: the (org_id, id COLLATE "C") index walked backwards.
 *
 * Engines: PostgreSQL (a temporary database, dropped at the end), and PGlite (a temporary data
 * directory: the service runs on it and the floor on a copy of it in this process, PGlite being
 * one process's). BENCH_AUDIT_SCALE (default 1; PGlite's BENCH_AUDIT_PGLITE_SCALE, default 0.1)
 * scales the events and the cursor's depth; BENCH_AUDIT_ENGINES=postgres or pglite measures one.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type ServiceProcess, scaleOf, serviceEnv, withService } from './child.ts';
import { runHttpLoad } from './load.ts';
import { pgliteSql, pgPoolSql, runOps, type Sql } from './raw.ts';
import { auditFeedFloor, FEED_PAGE } from './raw-audit-feed.ts';
import type { TightCredentials } from './raw-runs-tight.ts';
import { bearer, getJson, type Integrator, newIntegrator } from './setup.ts';
import { type Measurement, median, percentile } from './stats.ts';

export type AuditFeedEngine = 'postgres' | 'pglite';

/** Events of each organization at scale 1, and the depth of the cursor in the measured one's feed. */
const EVENTS = 1_000_000;
const CURSOR_DEPTH = 900_000;
const PAGE_SIZE = 50;
const POOL_SIZE = 10;
const CLIENTS = 10;
const HISTORY_MS = 365 * 86_400_000;
/** Requests per side, measure and round, after a warm-up of a tenth as many (PGlite, one session, serves fewer a second). */
const COUNTS: Record<AuditFeedEngine, { latency: number; throughput: number }> = {
  postgres: { latency: 300, throughput: 2000 },
  pglite: { latency: 200, throughput: 800 },
};
/** A measure stops here even if its count is not reached; it is then flagged. */
const MEASURE_BOUND_MS = 45_000;
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '5');
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 5 && ROUNDS <= 20)) throw new Error('BENCH_ROUNDS must be an integer in [5, 20]');

const log = (message: string) => process.stderr.write(`${message}\n`);

const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  log(`  ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
};

// ---- seeding ------------------------------------------------------------------------------------

/** What the measures need of the seeded feed. */
type AuditFixture = { who: Integrator; neighbour: Integrator; events: number; depth: number; cursor: string };

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The 10 time characters of a ULID of the instant `ms` (a bigint expression, epoch ms). */
const ulidTime = (ms: string) =>
  Array.from({ length: 10 }, (_, index) => `substr('${CROCKFORD}', ((${ms} >> ${5 * (9 - index)}) & 31)::int + 1, 1)`).join(' || ');

/**
 * Both organizations' events in time order: slot s is an event of organization s % 2 (1-based
 * in the arrays: the measured one, then the neighbour) at $8 + s * $9 ms, its i-th (s / 2); its
 * kind by i % 10 (0–5 a mark by the token, 6–8 a case edit by the owner, 9 a run created by
 * the owner), its entity one of 5,000. $1 organizations, $2 owners, $3 their emails, $4 their
 * names, $5 tokens, $6 token names, $7 events per organization.
 */
const SEED_EVENTS = `
  INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_token_id, actor_email, actor_name,
                            entity_type, entity_ulid, entity_label, metadata, created_at)
  SELECT ${ulidTime('at.ms')} || upper(substr(md5(slot::text), 1, 16)), ($1::char(26)[])[side], kind.action, kind.actor_kind,
    CASE WHEN kind.actor_kind = 'user' THEN ($2::char(26)[])[side] END,
    CASE WHEN kind.actor_kind = 'api_token' THEN ($5::char(26)[])[side] END,
    CASE WHEN kind.actor_kind = 'user' THEN ($3::text[])[side] END,
    CASE WHEN kind.actor_kind = 'user' THEN ($4::text[])[side] ELSE ($6::text[])[side] END,
    kind.entity_type, '01J0000000' || upper(substr(md5(kind.entity_type || n), 1, 16)), kind.label, kind.metadata,
    to_timestamp(at.ms / 1000.0)
  FROM generate_series(0, 2 * $7::int - 1) AS slot
  CROSS JOIN LATERAL (SELECT $8::bigint + slot * $9::bigint AS ms, 1 + slot % 2 AS side, slot / 2 AS i, (slot / 2) % 5000 AS n) AS at
  CROSS JOIN LATERAL (SELECT CASE WHEN i % 10 < 6 THEN 0 WHEN i % 10 < 9 THEN 1 ELSE 2 END AS k) AS pick
  CROSS JOIN LATERAL (SELECT
    (ARRAY['run.case_marked', 'test_case.updated', 'run.created'])[k + 1] AS action,
    (ARRAY['api_token', 'user', 'user'])[k + 1] AS actor_kind,
    (ARRAY['test_run_case', 'test_case', 'test_run'])[k + 1] AS entity_type,
    CASE WHEN k = 2 THEN 'Nightly ' || i ELSE 'AUD-' || n || ' · Checks behaviour ' || n || ' of the checkout' END AS label,
    CASE k
      WHEN 0 THEN jsonb_build_object('caseDisplayId', 'AUD-' || n, 'changes', jsonb_build_array(jsonb_build_object('field', 'status',
        'from', 'untested', 'to', CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'passed' END)), 'elapsedMs', 20 + i % 900)
      WHEN 1 THEN jsonb_build_object('changes', jsonb_build_array(jsonb_build_object('field', 'title',
        'from', 'Checks behaviour ' || n, 'to', 'Checks behaviour ' || n || ' of the checkout')))
      ELSE jsonb_build_object('caseCount', 500, 'source', 'plan')
    END AS metadata) AS kind`;

/** The events (see SEED_EVENTS) ending an hour before now, then VACUUM ANALYZE; the cursor `depth` events deep in `who`'s feed. */
async function seedFeed(sql: Sql, who: Integrator, neighbour: Integrator, events: number, depth: number): Promise<string> {
  const owners = (await sql.query(`SELECT id, email, first_name || ' ' || last_name AS name FROM users WHERE id = ANY($1::char(26)[])`, [
    [who.userId, neighbour.userId],
  ])) as { rows: Array<{ id: string; email: string; name: string }> };
  const owner = (id: string) => owners.rows.find((row) => row.id === id)!;
  const step = Math.floor(HISTORY_MS / (2 * events));
  const endsAt = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  await timed(`${(2 * events).toLocaleString('en')} audit events`, () =>
    sql.query(SEED_EVENTS, [
      [who.orgId, neighbour.orgId],
      [who.userId, neighbour.userId],
      [owner(who.userId).email, owner(neighbour.userId).email],
      [owner(who.userId).name, owner(neighbour.userId).name],
      [who.tokenId, neighbour.tokenId],
      [who.tokenName, neighbour.tokenName],
      events,
      endsAt - 2 * events * step,
      step,
    ]),
  );
  await timed('VACUUM ANALYZE audit_events', () => sql.query('VACUUM ANALYZE audit_events', []));
  const picked = (await sql.query(`SELECT id FROM audit_events WHERE org_id = $1 ORDER BY id COLLATE "C" DESC OFFSET $2 LIMIT 1`, [
    who.orgId,
    depth - 1,
  ])) as { rows: Array<{ id: string }> };
  const cursor = picked.rows[0]?.id;
  if (!cursor) throw new Error(`no event ${depth} deep in the feed`);
  return cursor;
}

/** Both organizations and their tokens through the API. */
async function people(service: ServiceProcess): Promise<{ who: Integrator; neighbour: Integrator }> {
  return timed('two organizations and their tokens through the API', async () => ({
    who: await newIntegrator(service, 'audit'),
    neighbour: await newIntegrator(service, 'audit-neighbour'),
  }));
}

/**
 * The page's plans, custom and generic (the service names the statement, so PostgreSQL keeps a
 * generic plan once it serves), each as its nodes and its execution time; logged whole.
 */
async function explainPage(engine: string, sql: Sql, fixture: AuditFixture): Promise<string[]> {
  const literal = (value: string) => {
    if (!/^[0-9A-Z]{26}$/.test(value)) throw new Error(`not a ULID: ${value}`);
    return `'${value}'`;
  };
  const plans: string[] = [];
  await sql.transaction(async (query) => {
    await query(`PREPARE bench_audit_page AS ${FEED_PAGE}`, []);
    for (const mode of ['custom', 'generic']) {
      await query(`SET LOCAL plan_cache_mode = force_${mode}_plan`, []);
      const explained = (await query(
        `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_audit_page(${literal(fixture.who.orgId)}, ${literal(fixture.cursor)}, ${PAGE_SIZE + 1})`,
        [],
      )) as { rows: Array<{ 'QUERY PLAN': string }> };
      const lines = explained.rows.map((row) => row['QUERY PLAN']);
      log(`  ${engine} plan, ${mode}:\n${lines.map((line) => `    ${line}`).join('\n')}`);
      const nodes = lines
        .filter((line, index) => index === 0 || line.includes('->'))
        .map((line) => line.replace(/^\s*(->\s*)?/, '').replace(/\s*\(cost=.*$/, ''));
      const buffers = lines.find((line) => line.trim().startsWith('Buffers:'))?.trim();
      const time = lines.find((line) => line.startsWith('Execution Time'));
      plans.push(`${mode}: ${nodes.join(' → ')}${buffers ? `; ${buffers}` : ''}${time ? `; ${time}` : ''}`);
    }
    await query('DEALLOCATE bench_audit_page', []);
  });
  return plans;
}

// ---- measuring -----------------------------------------------------------------------------------

type Latency = { p50: number; p95: number };
type Round = {
  latency: { service: Latency; floor: Latency };
  throughput: { service: Measurement; floor: Measurement };
  /** The 1-minute load average as each of the round's four measures began. */
  load: number[];
};
export type AuditFeedRow = {
  engine: AuditFeedEngine;
  events: number;
  depth: number;
  plans: string[];
  rounds: Round[];
  problems: string[];
};

const pagePath = (fixture: AuditFixture) =>
  `/api/v1/orgs/${fixture.who.orgId}/audit-events?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(fixture.cursor)}`;

/** One GET of the page at a time on a keep-alive connection, the body read and dropped (as the floor drops its rows). */
function pageGetter(service: ServiceProcess, fixture: AuditFixture) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(pagePath(fixture), service.baseUrl);
  const headers = bearer(fixture.who);
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent, headers }, (response) => {
        response.on('error', reject);
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`GET ${url}: HTTP ${response.statusCode}`))));
        response.resume();
      });
      request.setTimeout(10_000, () => request.destroy(new Error(`GET ${url}: timed out`)));
      request.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

/** `count` calls of `op`, one at a time; p50 and p95 of their durations in ms. */
async function sequential(count: number, op: () => Promise<unknown>): Promise<Latency> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const begin = performance.now();
    await op();
    latencies.push(performance.now() - begin);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** The same 50 ids in the same order from both sides, and a next page on both; then ROUNDS interleaved rounds. */
async function measureRounds(
  engine: AuditFeedEngine,
  service: ServiceProcess,
  floorSql: Sql,
  fixture: AuditFixture,
): Promise<AuditFeedRow> {
  const credentials: TightCredentials = { kind: 'api_token', tokenHash: createHash('sha256').update(fixture.who.token).digest('hex') };
  const floor = () => auditFeedFloor(floorSql, credentials, fixture.cursor, PAGE_SIZE);
  const answer: { events: Array<{ ulid: string }>; nextCursor: string | null } = await getJson(service, pagePath(fixture), fixture.who);
  const floorAnswer = await floor();
  const serviceIds = answer.events.map((event) => event.ulid);
  if (serviceIds.length !== PAGE_SIZE || JSON.stringify(serviceIds) !== JSON.stringify(floorAnswer.ids))
    throw new Error(`${engine}: the service and the floor disagree: ${serviceIds.join(',')} vs ${floorAnswer.ids.join(',')}`);
  if (answer.nextCursor !== serviceIds.at(-1) || !floorAnswer.more) throw new Error(`${engine}: no next page after the measured one`);
  if (serviceIds.some((id) => !(id < fixture.cursor))) throw new Error(`${engine}: the page is not older than its cursor`);
  log(`  ${engine}: both answer the same ${PAGE_SIZE} events, ${serviceIds[0]} … ${serviceIds.at(-1)}`);

  const plans = await explainPage(engine, floorSql, fixture);
  const getter = pageGetter(service, fixture);
  const problems: string[] = [];
  const rounds: Round[] = [];
  try {
    const throughput = {
      service: (requests: number) =>
        runHttpLoad({
          url: `${service.baseUrl}${pagePath(fixture)}`,
          method: 'GET',
          headers: bearer(fixture.who),
          requests,
          concurrency: CLIENTS,
          maxMs: MEASURE_BOUND_MS,
          cpuSeconds: service.cpuSeconds,
        }),
      floor: (requests: number) =>
        runOps(requests, CLIENTS, MEASURE_BOUND_MS, async () => {
          await floor();
        }),
    };
    const latency = { service: getter.get, floor };
    const counts = COUNTS[engine];
    for (let round = 1; round <= ROUNDS; round++) {
      const load: number[] = [];
      const latencies = {} as Round['latency'];
      for (const side of ['service', 'floor'] as const) {
        await sequential(counts.latency / 10, latency[side]);
        load.push(os.loadavg()[0]!);
        latencies[side] = await sequential(counts.latency, latency[side]);
      }
      const measured = {} as Round['throughput'];
      for (const side of ['service', 'floor'] as const) {
        await throughput[side](counts.throughput / 10);
        load.push(os.loadavg()[0]!);
        const measurement = await throughput[side](counts.throughput);
        if (measurement.failed > 0 || measurement.truncated)
          problems.push(
            `round ${round} ${side}: ${measurement.failed} failed${measurement.truncated ? ', truncated' : ''} (${measurement.ok} ok)`,
          );
        measured[side] = measurement;
      }
      rounds.push({ latency: latencies, throughput: measured, load });
      log(
        `  ${engine} round ${round} of ${ROUNDS}: p50 ${latencies.service.p50.toFixed(2)} vs ${latencies.floor.p50.toFixed(2)} ms, ` +
          `${Math.round(measured.service.perSecond)} vs ${Math.round(measured.floor.perSecond)}/s, load ${load.map((value) => value.toFixed(1)).join(' ')}`,
      );
    }
  } finally {
    getter.close();
  }
  return { engine, events: fixture.events, depth: fixture.depth, plans, rounds, problems };
}

// ---- engines -------------------------------------------------------------------------------------

const sizes = (scale: number) => ({ events: Math.round(EVENTS * scale), depth: Math.round(CURSOR_DEPTH * scale) });

/** PostgreSQL: a temporary database, dropped at the end; the floor on a pool of the service's size, its statements named as the service names them. */
async function postgresRow(scale: number): Promise<AuditFeedRow> {
  const adminUrl = new URL(process.env.BENCH_PG_URL ?? DEFAULT_PG_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) throw new Error('BENCH_PG_URL must be a loopback address');
  const database = `tcms_bench_audit_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 10_000 });
  admin.on('error', (error) => log(`admin connection: ${error.message}`));
  await admin.connect();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-bench-audit-'));
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
    log(`postgres: temporary database ${database}`);
    const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
    // pool.end() resolves before its connections are gone, and the DROP … WITH (FORCE) that follows ends them.
    let ended = false;
    pool.on('error', (error) => ended || log(`floor pool: ${error.message}`));
    try {
      return await withService(serviceEnv(POOL_SIZE, { DATABASE_URL: databaseUrl.toString(), TCMS_DATA_DIR: dataDir }), async (service) => {
        const { who, neighbour } = await people(service);
        const { events, depth } = sizes(scale);
        const cursor = await seedFeed(pgPoolSql(pool), who, neighbour, events, depth);
        return measureRounds('postgres', service, pgPoolSql(pool, true), { who, neighbour, events, depth, cursor });
      });
    } finally {
      ended = true;
      await pool.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((error) => log(`dropping ${database}: ${error}`));
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * PGlite: the organizations through the service, the events in this process once the service
 * is down (one process at a time on a data directory), then the service on it and the floor on a copy.
 */
async function pgliteRow(scale: number): Promise<AuditFeedRow> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-bench-audit-'));
  const floorDir = `${dataDir}-floor`;
  try {
    log('pglite: temporary data directory');
    const env = serviceEnv(POOL_SIZE, { TCMS_DATA_DIR: dataDir });
    const { who, neighbour } = await withService(env, people);
    const { events, depth } = sizes(scale);
    const seeding = await PGlite.create(path.join(dataDir, 'pgdata'));
    let cursor: string;
    try {
      cursor = await seedFeed(pgliteSql(seeding), who, neighbour, events, depth);
    } finally {
      await seeding.close();
    }
    await cp(dataDir, floorDir, { recursive: true });
    const floorDb = await PGlite.create(path.join(floorDir, 'pgdata'));
    try {
      return await withService(env, (service) =>
        measureRounds('pglite', service, pgliteSql(floorDb), { who, neighbour, events, depth, cursor }),
      );
    } finally {
      await floorDb.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(floorDir, { recursive: true, force: true });
  }
}

/** The audit feed row on `engines` (BENCH_AUDIT_ENGINES, both by default); the rows for auditFeedReport. */
export async function benchAuditFeed(
  engines = (process.env.BENCH_AUDIT_ENGINES ?? 'postgres,pglite').split(',') as AuditFeedEngine[],
): Promise<AuditFeedRow[]> {
  if (!engines.every((engine) => engine === 'postgres' || engine === 'pglite'))
    throw new Error('BENCH_AUDIT_ENGINES takes postgres and/or pglite');
  const rows: AuditFeedRow[] = [];
  for (const engine of engines) {
    rows.push(
      engine === 'postgres'
        ? await postgresRow(scaleOf('BENCH_AUDIT_SCALE', 1))
        : await pgliteRow(scaleOf('BENCH_AUDIT_PGLITE_SCALE', 0.1)),
    );
  }
  return rows;
}

// ---- the report ------------------------------------------------------------------------------------

const TARGET = 0.8;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const rate = (value: number) => Math.round(value).toLocaleString('en');
const spread = (ratios: number[]) =>
  `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})${median(ratios) < TARGET ? ` ! under ${TARGET}` : ''}`;

export function auditFeedReport(rows: AuditFeedRow[]): string {
  const engines = rows.map((row) => row.engine);
  const lines = rows.flatMap(({ engine, events, depth, plans, rounds, problems }) => {
    const of = <T>(pick: (round: Round) => T) => rounds.map(pick);
    const loads = rounds.flatMap((round) => round.load);
    const load = `load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`;
    const latency = (side: 'service' | 'floor') =>
      `${side} p50 ${ms(median(of((round) => round.latency[side].p50))).padStart(9)} p95 ${ms(median(of((round) => round.latency[side].p95))).padStart(9)}`;
    const throughput = (side: 'service' | 'floor') =>
      `${side} ${rate(median(of((round) => round.throughput[side].perSecond))).padStart(6)}/s p50 ${ms(median(of((round) => round.throughput[side].p50))).padStart(9)}`;
    const cpu = median(of((round) => round.throughput.service.serviceCpu ?? Number.NaN));
    const head = `${engine.padEnd(8)}  ${events.toLocaleString('en')} events each, cursor ${depth.toLocaleString('en')} deep`;
    return [
      `${head.padEnd(50)}  1 client    ${latency('service')} | ${latency('floor')} | floor/service p50 ${spread(of((round) => round.latency.floor.p50 / round.latency.service.p50))} | ${load}`,
      `${''.padEnd(50)}  ${CLIENTS} clients  ${throughput('service')}  | ${throughput('floor')}  | service/floor /s  ${spread(of((round) => round.throughput.service.perSecond / round.throughput.floor.perSecond))} | service CPU ${cpu.toFixed(2)} cores`,
      ...plans.map((plan) => `${''.padEnd(50)}  plan, ${plan}`),
      ...problems.map((problem) => `! ${engine} ${problem}`),
    ];
  });
  return [
    '',
    `tcms bench, audit feed with a deep cursor: ${ROUNDS} interleaved rounds (service, floor), each side warmed up first, of requests one at a time`,
    `  (${engines.map((engine) => `${engine} ${COUNTS[engine].latency}`).join(', ')}) and from ${CLIENTS} clients (${engines.map((engine) => `${engine} ${COUNTS[engine].throughput}`).join(', ')}) a side`,
    `  an organization's events and as many of a neighbour organization's, interleaved in time; target service/floor >= ${TARGET}`,
    `  service = GET /api/v1/orgs/{orgUlid}/audit-events?limit=${PAGE_SIZE}&cursor=<the event that deep> with an API token; floor = the token statement of`,
    `    bench/raw-runs-tight.ts, then the service's SELECT (bench/raw-audit-feed.ts), named as the service names them, on a pool of ${POOL_SIZE};`,
    '    both answers checked to be the same events in the same order; figures are medians over the rounds, ratios median (min-max);',
    '    load = 1-minute load average as each measure began (min-max)',
    '',
    ...lines,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await benchAuditFeed();
  process.stdout.write(auditFeedReport(rows));
  process.exit(rows.some((row) => row.problems.length > 0) ? 1 : 0);
}
