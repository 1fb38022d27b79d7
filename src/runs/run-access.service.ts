import { Prisma } from '../../prisma/generated/client/client.ts';
import { authorize, type Capability } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { conflict, notFound } from '../kernel/errors.ts';
import { assertProjectUnlocked } from '../projects/projects.service.ts';
import { type RunSettings, resolveRunSettings, settingValues } from '../run-settings/run-settings.service.ts';
import type { RunCaseRecord } from './internal/run-case-record.ts';
import { RUN_INCLUDE } from './internal/run-record.ts';

/** A run with what reads and mutations of it need: its project (code, lock, run settings). */
const ACCESS_INCLUDE = {
  ...RUN_INCLUDE,
  project: { include: { org: { select: { runSettings: true } } } },
} satisfies Prisma.TestRunInclude;

export type AccessedRun = Prisma.TestRunGetPayload<{ include: typeof ACCESS_INCLUDE }>;
export type LockedRun = AccessedRun & { settings: RunSettings };

/** What a mutation of one run case needs of its run (lockRunCase); a LockedRun has it too. */
export type RunOfCaseMutation = {
  id: string;
  name: string;
  state: string;
  abortedAt: Date | null;
  projectId: string;
  project: { code: string; lockedAt: Date | null };
  settings: RunSettings;
};

type RunOptions = { allowClosed?: 'by-setting' | 'always'; allowAborted?: boolean };

/** A run of the active organization by ULID, for reading; a locked project answers 403 project_locked. */
export async function resolveRun(ctx: RequestContext, runUlid: string, options: { db?: Db } = {}): Promise<AccessedRun> {
  authorize(ctx, 'project.read');
  const run = await (options.db ?? ctx.db).testRun.findFirst({ where: { id: runUlid }, include: ACCESS_INCLUDE });
  if (!run) throw notFound('Run');
  assertProjectUnlocked(run.project);
  return run;
}

export const runClosed = () => conflict('The run is closed and the run settings do not allow changes to closed runs');

/** The refusals of a run mutation once the run is locked: an aborted run, and a closed one unless allowed. */
function assertAccepts(run: Pick<RunOfCaseMutation, 'state' | 'abortedAt' | 'settings'>, options: RunOptions) {
  if (run.abortedAt && !options.allowAborted) throw conflict('The run was aborted; it accepts no further changes');
  if (run.state === 'closed' && !run.abortedAt && options.allowClosed !== 'always' && !run.settings.allowResultsInClosedRuns)
    throw runClosed();
}

/**
 * The gate of every run-wide mutation, called first inside its transaction: checks the
 * `capability` the operation needs, takes the run's row lock FOR UPDATE (so that run-wide mutations of one run apply
 * one after another, and none overlaps a mutation of one of its cases: see lockRunCase), and
 * refuses an aborted run (409) and a closed run while the setting allowResultsInClosedRuns is
 * off (409). `allowClosed: 'always'` lets close-independent operations through (delete),
 * `allowAborted` even an aborted run.
 */
export async function lockRun(
  tx: Db,
  ctx: RequestContext,
  runUlid: string,
  capability: Capability,
  options: RunOptions = {},
): Promise<LockedRun> {
  authorize(ctx, capability);
  if (!(await lockRow(tx, 'test_runs', runUlid, { orgId: ctx.org.id, strength: 'update' }))) throw notFound('Run');
  const run = await resolveRun(ctx, runUlid, { db: tx });
  const settings = settingValues(resolveRunSettings(run.project.org.runSettings, run.project.runSettings));
  const locked = { ...run, settings };
  assertAccepts(locked, options);
  return locked;
}

/** A run as runGate reads it. */
type RunGateRow = {
  runId: string;
  runName: string;
  runState: string;
  runAbortedAt: Date | null;
  projectId: string;
  projectCode: string;
  projectLockedAt: Date | null;
  organizationSettings: unknown;
  projectSettings: unknown;
};

/**
 * The run `runUlid` (a value or an expression) of the active organization, unless its project is
 * hidden from the caller, with its project and both levels of run settings, locked `strength` (or read without a lock).
 */
const runGate = (ctx: RequestContext, runUlid: Prisma.Sql, strength: Prisma.Sql | null) => sql`
  SELECT r.id AS "runId", r.name AS "runName", r.state AS "runState", r.aborted_at AS "runAbortedAt",
         r.project_id AS "projectId", p.code AS "projectCode", p.locked_at AS "projectLockedAt",
         o.run_settings AS "organizationSettings", p.run_settings AS "projectSettings"
  FROM test_runs AS r
  JOIN projects AS p ON p.id = r.project_id
  JOIN organizations AS o ON o.id = r.org_id
  WHERE r.id = ${runUlid} AND r.org_id = ${ctx.org.id} AND r.project_id <> ALL(${ctx.hiddenProjectIds}::char(26)[])
  ${strength ? sql`FOR ${strength} OF r` : Prisma.empty}`;

/** The run of a gate's row, its settings resolved; refused when its project is locked or, per `options`, when it accepts no changes. */
function gatedRun(row: RunGateRow, options: RunOptions): RunOfCaseMutation {
  const run: RunOfCaseMutation = {
    id: row.runId,
    name: row.runName,
    state: row.runState,
    abortedAt: row.runAbortedAt,
    projectId: row.projectId,
    project: { code: row.projectCode, lockedAt: row.projectLockedAt },
    settings: settingValues(resolveRunSettings(row.organizationSettings, row.projectSettings)),
  };
  assertProjectUnlocked(run.project);
  assertAccepts(run, options);
  return run;
}

/**
 * lockRun for the mutations of a run's cases (bulk operations, submitted results), which need
 * only what a mutation of one case needs of its run: the same lock and refusals, in one statement.
 */
export async function lockRunForCases(
  tx: Db,
  ctx: RequestContext,
  runUlid: string,
  capability: Capability,
  options: RunOptions = {},
): Promise<RunOfCaseMutation> {
  authorize(ctx, capability);
  const [row] = await queryRaw<RunGateRow[]>(tx, runGate(ctx, sql`${runUlid}`, sql`UPDATE`));
  if (!row) throw notFound('Run');
  return gatedRun(row, options);
}

type CaseGateRow = RunGateRow & {
  runCase:
    | (Omit<RunCaseRecord, 'lastResultAt' | 'createdAt' | 'updatedAt' | 'steps'> & CaseTimes & { steps: Array<StepRow>; version: string })
    | null;
};
type CaseTimes = { lastResultAt: string | null; createdAt: string; updatedAt: string };
type StepRow = Omit<RunCaseRecord['steps'][number], 'updatedAt'> & { updatedAt: string };

/**
 * The gate of a mutation of one run case (a mark, a step mark, an assignment, an attachment), in
 * one statement: the `capability` the operation needs; the run (with its project and run settings) under FOR KEY SHARE,
 * so that marks of different cases of one run overlap while run-wide mutations (lockRun's FOR
 * UPDATE) wait for them; then the case with its steps under FOR UPDATE, so that mutations of one
 * case apply one after another. The lock order is always run, then case. The run's counters are
 * updated last (applyRunChange), which holds the run row only from there to the commit. The
 * refusals are lockRun's, then 404 for a case not in the run. Without `runUlid` (GraphQL names the
 * case alone) the run is the case's.
 */
export async function lockRunCase(
  tx: Db,
  ctx: RequestContext,
  ref: { runCaseUlid: string; runUlid?: string | undefined },
  capability: Capability,
  options: RunOptions = {},
): Promise<{ run: RunOfCaseMutation; runCase: RunCaseRecord }> {
  const { run, runCase } = await gateOfRunCase(tx, ctx, ref, capability, options, true);
  return { run, runCase };
}

/**
 * lockRunCase's reads and refusals without its locks, for a mutation that commits in one statement
 * of its own (a guarded mark): `version` is the case row's version as read (its xmin), which the
 * statement requires to be unchanged.
 */
export const readRunCase = (ctx: RequestContext, ref: { runCaseUlid: string; runUlid?: string | undefined }, capability: Capability) =>
  gateOfRunCase(ctx.db, ctx, ref, capability, {}, false);

async function gateOfRunCase(
  db: Db,
  ctx: RequestContext,
  ref: { runCaseUlid: string; runUlid?: string | undefined },
  capability: Capability,
  options: RunOptions,
  locked: boolean,
): Promise<{ run: RunOfCaseMutation; runCase: RunCaseRecord; version: string }> {
  authorize(ctx, capability);
  const orgId = ctx.org.id;
  const runUlid =
    ref.runUlid === undefined
      ? sql`(SELECT run_id FROM test_run_cases WHERE id = ${ref.runCaseUlid} AND org_id = ${orgId})`
      : sql`${ref.runUlid}`;
  const [row] = await queryRaw<CaseGateRow[]>(
    db,
    sql`
    WITH run AS MATERIALIZED (${runGate(ctx, runUlid, locked ? sql`KEY SHARE` : null)})
    SELECT run.*,
           CASE WHEN run_case.id IS NULL THEN NULL ELSE jsonb_build_object(
             'id', run_case.id, 'orgId', run_case.org_id, 'runId', run_case.run_id, 'caseId', run_case.case_id,
             'caseNumber', run_case.case_number, 'title', run_case.title, 'suiteName', run_case.suite_name,
             'position', run_case.position, 'status', run_case.status, 'assigneeId', run_case.assignee_id,
             'elapsedMs', run_case.elapsed_ms, 'lastResultAt', run_case.last_result_at,
             'createdAt', run_case.created_at, 'updatedAt', run_case.updated_at, 'steps', steps.list,
             'version', run_case.xmin::text) END AS "runCase"
    FROM run
    LEFT JOIN LATERAL (
      SELECT c.*, c.xmin FROM test_run_cases AS c
      WHERE c.id = ${ref.runCaseUlid} AND c.run_id = run."runId" AND c.org_id = ${orgId}
      ${locked ? sql`FOR UPDATE` : Prisma.empty}
    ) AS run_case ON true
    LEFT JOIN LATERAL (
      SELECT COALESCE(jsonb_agg(jsonb_build_object(
               'id', s.id, 'orgId', s.org_id, 'runCaseId', s.run_case_id, 'position', s.position, 'action', s.action,
               'expectedResult', s.expected_result, 'status', s.status, 'actualResult', s.actual_result, 'updatedAt', s.updated_at)
             ORDER BY s.position, s.id), '[]'::jsonb) AS list
      FROM test_run_case_steps AS s WHERE s.run_case_id = run_case.id
    ) AS steps ON true`,
  );
  if (!row) throw notFound(ref.runUlid === undefined ? 'Run case' : 'Run');
  const run = gatedRun(row, options);
  if (!row.runCase) throw notFound('Run case');
  const { version, ...runCase } = row.runCase;
  return { run, runCase: runCaseRecordOf(runCase), version };
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function runCaseRecordOf(json: Omit<NonNullable<CaseGateRow['runCase']>, 'version'>): RunCaseRecord {
  return {
    ...json,
    lastResultAt: dateOrNull(json.lastResultAt),
    createdAt: new Date(json.createdAt),
    updatedAt: new Date(json.updatedAt),
    steps: json.steps.map((step) => ({ ...step, updatedAt: new Date(step.updatedAt) })),
  };
}
