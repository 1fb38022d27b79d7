/**
 * The raw-SQL floor: the statements the service runs for a token's GET and POST
 * /api/v1/projects — the token lookup, the per-minute counter, then the endpoint's own reads and
 * writes — sent straight to the database with no HTTP and no Prisma. The endpoint SQL is what
 * Prisma generates for these calls (taken from the PostgreSQL statement log), so the planner
 * sees the same queries; only the work around them differs.
 */
import { createHash } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { worthNaming } from '../src/kernel/database/raw-sql.ts';
import { newId } from '../src/kernel/ids.ts';
import { type Measurement, machineBusyMeter, summarize } from './stats.ts';
import type { Counts, Drive } from './test-design.ts';

/** The one thing both engines must offer: a query, and a transaction on one session. */
export type Sql = {
  query(text: string, params: unknown[]): Promise<unknown>;
  transaction(work: (query: (text: string, params: unknown[]) => Promise<unknown>) => Promise<void>): Promise<void>;
};

/**
 * `named`: statements are named prepared statements by the rule the service names its raw
 * statements by (`worthNaming`, src/kernel/database/raw-sql.ts); else all go unnamed, pg's default.
 */
export function pgPoolSql(pool: pg.Pool, named = false): Sql {
  const config = (text: string, values: unknown[]) => ({ text, values, name: named ? statementName(text, values) : undefined });
  return {
    query: (text, params) => pool.query(config(text, params)),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await work((text, params) => client.query(config(text, params)));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** The service's name of a statement (raw-sql.ts: `tcms_` and the SHA-1 of its text), computed once per text. */
const statementNames = new Map<string, string>();
function statementName(text: string, values: unknown[]): string | undefined {
  if (!worthNaming(values)) return undefined;
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tcms_${createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name;
}

/** PGlite is one session: its queries and transactions queue behind each other (as in the service). */
export function pgliteSql(db: PGlite): Sql {
  return {
    query: (text, params) => db.query(text, params),
    transaction: (work) => db.transaction((tx: Transaction) => work((text, params) => tx.query(text, params))),
  };
}

const PROJECT_COLUMNS = [
  'id',
  'org_id',
  'code',
  'name',
  'description',
  'avatar_key',
  'avatar_version',
  'locked_at',
  'created_at',
  'updated_at',
]
  .map((column) => `"public"."projects"."${column}"`)
  .join(', ');
const AUDIT_COLUMNS = [
  'id',
  'org_id',
  'action',
  'actor_kind',
  'actor_user_id',
  'actor_token_id',
  'actor_email',
  'actor_name',
  'entity_type',
  'entity_ulid',
  'entity_label',
  'run_id',
  'metadata',
  'created_at',
];

const LIST_PAGE = `SELECT ${PROJECT_COLUMNS} FROM "public"."projects" WHERE "public"."projects"."org_id" = $1 ORDER BY "public"."projects"."created_at" ASC, "public"."projects"."id" ASC LIMIT $2 OFFSET $3`;
const COUNT = `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."projects"."id" FROM "public"."projects" WHERE "public"."projects"."org_id" = $1 OFFSET $2) AS "sub"`;
const LOCK_ORG = 'SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE';
const EXISTS = `SELECT "public"."projects"."id" FROM "public"."projects" WHERE ("public"."projects"."code" = $1 AND "public"."projects"."org_id" = $2) LIMIT $3 OFFSET $4`;
const INSERT_PROJECT = `INSERT INTO "public"."projects" ("id","org_id","code","name","description","avatar_version","created_at","updated_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING ${PROJECT_COLUMNS}`;
export const INSERT_AUDIT = `INSERT INTO "public"."audit_events" (${AUDIT_COLUMNS.map((c) => `"${c}"`).join(',')}) VALUES (${AUDIT_COLUMNS.map((_, i) => `$${i + 1}`).join(',')}) RETURNING ${AUDIT_COLUMNS.map((c) => `"public"."audit_events"."${c}"`).join(', ')}`;

// What every token request costs before the endpoint runs: the token with its creator's
// memberships and its organization (one statement), and the bump of the per-minute counter.
const TOKEN_LOOKUP = `SELECT t.*, row_to_json(o) AS org, row_to_json(u) AS "user",
  (SELECT json_agg(m) FROM memberships m WHERE m.user_id = t.user_id) AS memberships
  FROM api_tokens t JOIN organizations o ON o.id = t.org_id JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1 LIMIT 1`;
const BUMP_RATE_WINDOW = `INSERT INTO rate_limit_windows (org_id, bucket, window_start, count) VALUES ($1, 'requests', $2, 1)
  ON CONFLICT (org_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1 RETURNING count`;

export type Actor = { orgId: string; tokenHash: string; tokenId: string; tokenName: string; maxProjects: number };

export async function authenticate(sql: Sql, actor: Actor): Promise<void> {
  await sql.query(TOKEN_LOOKUP, [actor.tokenHash]);
  await sql.query(BUMP_RATE_WINDOW, [actor.orgId, new Date(Math.floor(Date.now() / 60_000) * 60_000)]);
}

/** GET /api/v1/projects?pageSize=N: authentication, then the page and the total concurrently. */
export async function listPage(sql: Sql, actor: Actor, pageSize: number): Promise<void> {
  await authenticate(sql, actor);
  await Promise.all([sql.query(LIST_PAGE, [actor.orgId, pageSize, 0]), sql.query(COUNT, [actor.orgId, 0])]);
}

/** POST /api/v1/projects: createProject's transaction, statement for statement. */
export async function createProject(sql: Sql, actor: Actor, code: string, name: string): Promise<void> {
  await authenticate(sql, actor);
  await sql.transaction(async (query) => {
    await query(LOCK_ORG, [actor.orgId]);
    const counted = (await query(COUNT, [actor.orgId, 0])) as { rows: Array<Record<string, unknown>> };
    if (Number(counted.rows[0]?._count$_all) >= actor.maxProjects) throw new Error('project ceiling reached');
    const existing = (await query(EXISTS, [code, actor.orgId, 1, 0])) as { rows: unknown[] };
    if (existing.rows.length > 0) throw new Error(`project ${code} exists`);
    const now = new Date();
    const projectId = newId();
    await query(INSERT_PROJECT, [projectId, actor.orgId, code, name, null, 0, now, now]);
    await query(INSERT_AUDIT, [
      newId(),
      actor.orgId,
      'project.created',
      'api_token',
      null,
      actor.tokenId,
      null,
      actor.tokenName,
      'project',
      projectId,
      name,
      null,
      JSON.stringify({ id: code, name }),
      new Date(),
    ]);
  });
}

/**
 * Runs `total` operations with `concurrency` workers, each starting its next operation as soon
 * as its previous one ends (the same closed loop as autocannon's connections).
 */
export async function runOps(total: number, concurrency: number, maxMs: number, op: () => Promise<void>): Promise<Measurement> {
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: unknown;
  let issued = 0;
  let truncated = false;
  const busy = machineBusyMeter();
  const started = performance.now();
  const deadline = started + maxMs;
  const worker = async () => {
    while (issued < total) {
      if (performance.now() > deadline) {
        truncated = true;
        return;
      }
      issued++;
      const begin = performance.now();
      try {
        await op();
        latencies.push(performance.now() - begin);
      } catch (error) {
        failed++;
        firstFailure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  if (firstFailure) console.error(`  ! raw floor: ${failed} failed, first: ${String(firstFailure)}`);
  return summarize(latencies, failed, elapsed, truncated, busy());
}

/** The warm-up run of `op`, then the measured one (whose figures are returned). */
export async function measureOps(counts: Counts, drive: Drive, op: () => Promise<void>): Promise<Measurement> {
  await runOps(counts.warmup, drive.concurrency, drive.maxMs, op);
  return runOps(counts.measured, drive.concurrency, drive.maxMs, op);
}
