import { Prisma } from '../../../prisma/generated/client/client.ts';
import { type AuditEntry, auditWrites, emitAudit } from '../../foundation/audit/audit.service.ts';
import type { RequestContext } from '../../foundation/context.ts';
import type { Db } from '../../kernel/database/client.ts';
import { isRequirementUnmet, queryRaw, requirement, sql } from '../../kernel/database/raw-sql.ts';
import type { CaseStatus } from '../../kernel/statuses.ts';
import { resultCharge, resultLimitExceeded } from '../../usage/usage.service.ts';
import { runClosed } from '../run-access.service.ts';
import { runAggregates, runEvent } from '../run-events.service.ts';
import { RUN_ROW_COLUMNS } from './run-record.ts';
import type { StatusDelta } from './run-status.ts';

type TestRunRow = Awaited<ReturnType<Db['testRun']['findFirstOrThrow']>>;

/** What the change needs to know of the run: a locked run, or one created in this transaction. */
type RunForChange = Pick<TestRunRow, 'id' | 'name'>;

/** A statement that writes or locks rows, with RETURNING, that applyRunChange runs before its own, as the CTE `name`. */
export type RunChangeWrite = { name: string; statement: Prisma.Sql };

/** Results appended in one transaction: how many, their summed elapsedMs, and when. */
export type AppendedResults = { count: number; durationMs: number; at: Date };

/** What a mutation changes of a run's counters, and what rides on the same statement. */
type RunChange = {
  statusDelta?: StatusDelta;
  results?: AppendedResults;
  whileAccepting?: { allowClosed: boolean };
  audit?: AuditEntry;
  writes?: RunChangeWrite[];
};

type ChangedRunRow = TestRunRow & { closedNow: boolean; charged: boolean; auditDeliveries: number };

/**
 * Applies a mutation's effect to the run's counters in one statement, inside the mutation's
 * transaction: case counts per status move by `statusDelta`; appended results add their duration
 * and advance first/lastResultAt; and the run closes automatically when it is open, has cases, and
 * every case carries an outcome (then run.closed with `automatic: true` is recorded); appended
 * machine-authored results are charged to the organization's month (resultCharge). The statement
 * takes the run row FOR NO KEY UPDATE, the last lock of a mark (lockRunCase), and the month's
 * row, both held to the commit. A mutation of one case, which does not exclude other marks of the
 * run, passes `whileAccepting`: the change then applies only while the run still accepts results
 * (another mark may have closed it meanwhile), else 409. `audit` (the mutation's event,
 * auditWrites) rides on the same statement, and so do the mutation's own `writes` (each a
 * data-modifying statement with RETURNING on other tables, named apart from these): a mark is then
 * one statement after its gate. The writes run first, and only then is the run row locked and the
 * month charged, so that those locks are still held for little more than the COMMIT.
 * Returns the run as it now is.
 */
export async function applyRunChange<R extends RunForChange>(
  tx: Db,
  ctx: RequestContext,
  run: R,
  change: RunChange,
): Promise<R & TestRunRow> {
  const statement = runChangeStatement(ctx, run, change);
  const [row] = await queryRaw<ChangedRunRow[]>(
    tx,
    sql`WITH ${statement.ctes} SELECT *, ${statement.charged} AS charged, ${statement.auditDeliveries} AS "auditDeliveries" FROM updated`,
  );
  if (!row) throw runClosed();
  const { closedNow, charged, auditDeliveries, ...columns } = row;
  if (!charged) throw resultLimitExceeded();
  statement.audit?.settle(tx, { deliveries: auditDeliveries, planId: columns.planId });
  const updated = { ...run, ...columns };
  if (closedNow) {
    await emitAudit(tx, ctx, {
      action: 'run.closed',
      ...runEvent(run),
      metadata: { runAggregates: runAggregates(updated), automatic: true },
    });
  }
  return updated;
}

/**
 * applyRunChange as one statement that commits alone, outside a transaction (a guarded mark): it
 * writes nothing unless every one of `requires` holds, the run accepted the change (whileAccepting),
 * the change closed no run (whose run.closed is a statement of its own) and its results were
 * charged. Returns the rows of the `answers` writes (and nothing of the run, which a mark does not
 * answer); or undefined when a requirement failed, and then the caller applies the change in a
 * transaction instead.
 */
export async function applyRunChangeAlone(
  db: Db,
  ctx: RequestContext,
  run: RunForChange,
  change: RunChange & { requires: Prisma.Sql[]; answers: string[] },
): Promise<Record<string, unknown[]> | undefined> {
  const statement = runChangeStatement(ctx, run, change);
  const conditions = [sql`updated.id IS NOT NULL`, sql`NOT updated."closedNow"`, statement.charged, ...change.requires];
  const answers = change.answers.map(
    (name) => sql`${name}::text, (SELECT COALESCE(jsonb_agg(to_jsonb(answer)), '[]') FROM ${Prisma.raw(name)} AS answer)`,
  );
  let row: { planId: string | null; auditDeliveries: number; answers: Record<string, unknown[]>; required: true } | undefined;
  try {
    [row] = await queryRaw<Array<NonNullable<typeof row>>>(
      db,
      sql`
      WITH ${statement.ctes}
      SELECT updated."planId", ${statement.auditDeliveries} AS "auditDeliveries",
        ${answers.length ? sql`jsonb_build_object(${Prisma.join(answers)})` : sql`'{}'::jsonb`} AS answers,
        ${requirement(Prisma.join(conditions, ' AND '))} AS required
      FROM (VALUES (1)) AS one LEFT JOIN updated ON true`,
    );
  } catch (error) {
    if (isRequirementUnmet(error)) return undefined;
    throw error;
  }
  statement.audit?.settle(db, { deliveries: row!.auditDeliveries, planId: row!.planId });
  return row!.answers;
}

/** The CTEs of a run change (the writes, `before`, `updated`, the charge, the event) and the expressions that read them. */
function runChangeStatement(ctx: RequestContext, run: RunForChange, change: RunChange) {
  const delta = (status: CaseStatus) => change.statusDelta?.[status] ?? 0;
  const results = change.results && change.results.count > 0 ? change.results : undefined;
  const at = results?.at ?? null;
  const now = new Date();
  const total = sql`r.count_passed + r.count_failed + r.count_blocked + r.count_skipped + r.count_untested + r.count_retested
    + ${delta('passed') + delta('failed') + delta('blocked') + delta('skipped') + delta('untested') + delta('retested')}::int`;
  const pending = sql`r.count_untested + r.count_retested + ${delta('untested') + delta('retested')}::int`;
  const closes = sql`r.state = 'open' AND ${total} > 0 AND ${pending} = 0`;
  const accepting = change.whileAccepting
    ? sql`AND r.aborted_at IS NULL AND (r.state = 'open' OR ${change.whileAccepting.allowClosed})`
    : Prisma.empty;
  const charge = results && resultCharge(ctx, results.count, results.at);
  const audit = change.audit && auditWrites(ctx, change.audit);
  const writes = change.writes ?? [];
  // `before` joins the count of every write's rows, so PostgreSQL runs the writes before it locks the run.
  const written = writes.length
    ? [
        ...writes.map(({ name, statement }) => sql`${Prisma.raw(name)} AS (${statement})`),
        sql`written AS MATERIALIZED (SELECT ${Prisma.join(
          writes.map(({ name }) => sql`(SELECT count(*) FROM ${Prisma.raw(name)})`),
          ' + ',
        )} AS count)`,
      ]
    : [];
  const ctes = [
    ...written,
    sql`before AS (SELECT r.id, r.state FROM test_runs AS r ${writes.length ? sql`, written` : Prisma.empty}
      WHERE r.id = ${run.id} AND r.org_id = ${ctx.org.id} FOR NO KEY UPDATE OF r)`,
    sql`updated AS (UPDATE test_runs AS r SET
      count_passed = r.count_passed + ${delta('passed')}::int, count_failed = r.count_failed + ${delta('failed')}::int,
      count_blocked = r.count_blocked + ${delta('blocked')}::int, count_skipped = r.count_skipped + ${delta('skipped')}::int,
      count_untested = r.count_untested + ${delta('untested')}::int, count_retested = r.count_retested + ${delta('retested')}::int,
      total_duration_ms = r.total_duration_ms + ${results?.durationMs ?? 0}::bigint,
      first_result_at = COALESCE(r.first_result_at, ${at}::timestamptz),
      last_result_at = GREATEST(r.last_result_at, ${at}::timestamptz),
      state = CASE WHEN ${closes} THEN 'closed' ELSE r.state END,
      closed_at = CASE WHEN ${closes} THEN ${now}::timestamptz ELSE r.closed_at END,
      updated_at = ${now}::timestamptz
    FROM before
    WHERE r.id = before.id ${accepting}
    RETURNING ${RUN_ROW_COLUMNS}, (before.state = 'open' AND r.state = 'closed') AS "closedNow")`,
    ...(charge ? [sql`charged AS (${charge})`] : []),
    ...(audit ? [audit.ctes] : []),
  ];
  return {
    ctes: Prisma.join(ctes, ', '),
    charged: charge ? sql`EXISTS (SELECT FROM charged)` : sql`true`,
    auditDeliveries: audit?.deliveries ?? sql`0`,
    audit,
  };
}
