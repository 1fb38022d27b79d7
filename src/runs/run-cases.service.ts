import { assertMembers, toAuthor, userRefs } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { change, clipSnapshot } from '../foundation/audit/clip.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction, isTransaction } from '../kernel/database/transactions.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull } from '../kernel/ids.ts';
import { cursorPageOf, pageOf, pageWindow } from '../kernel/pagination.ts';
import { type CaseStatus, isOutcome } from '../kernel/statuses.ts';
import { likeLiteral } from '../kernel/validation.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { RUN_CASE_INCLUDE, type RunCaseRecord } from './internal/run-case-record.ts';
import { isAssigneeLocked, markedRunCase, recordResultAlone, recordResults, singleSource } from './internal/run-marking.ts';
import { aggregateOfSteps } from './internal/run-status.ts';
import { lockRunCase, type RunOfCaseMutation, readRunCase, resolveRun } from './run-access.service.ts';
import type { MarkRunCaseStepInput, RunCaseFilter, RunCaseListQuery, RunResultListQuery, UpdateRunCaseInput } from './run-cases.schemas.ts';
import { caseSnapshot, runCaseEvent, runCaseStepLabel } from './run-events.service.ts';

export type { RunCaseRecord } from './internal/run-case-record.ts';

/**
 * A run case as routes name it: by its ULID, within the run `runUlid` when the path gives one
 * (REST); GraphQL names the case alone.
 */
export type RunCaseRef = { runCaseUlid: string; runUlid?: string };

type RunRef = { id: string; project: { code: string } };
type RunCaseStep = RunCaseRecord['steps'][number];

const RUN_CASE_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.TestRunCaseOrderByWithRelationInput[];
const RESULT_ORDER = [{ executedAt: 'asc' }, { id: 'asc' }] satisfies Prisma.TestRunResultOrderByWithRelationInput[];

async function runUlidOf(db: Db, ref: RunCaseRef): Promise<string> {
  if (ref.runUlid !== undefined) return ref.runUlid;
  const row = await db.testRunCase.findFirst({ where: { id: ref.runCaseUlid }, select: { runId: true } });
  if (!row) throw notFound('Run case');
  return row.runId;
}

async function findRunCase(db: Db, run: { id: string }, runCaseUlid: string): Promise<RunCaseRecord> {
  const runCase = await db.testRunCase.findFirst({ where: { id: runCaseUlid, runId: run.id }, include: RUN_CASE_INCLUDE });
  if (!runCase) throw notFound('Run case');
  return runCase;
}

/** A run case of a readable run (resolveRun), with its steps. */
export async function getRunCase(ctx: RequestContext, ref: RunCaseRef) {
  authorize(ctx, 'project.read');
  const run = await resolveRun(ctx, await runUlidOf(ctx.db, ref));
  return { run, runCase: await findRunCase(ctx.db, run, ref.runCaseUlid) };
}

function stepSnapshotOf(run: RunRef, runCase: RunCaseRecord, step: RunCaseStep) {
  const action = clipSnapshot(step.action);
  return {
    ...caseSnapshot(run, runCase),
    stepUlid: step.id,
    stepPosition: step.position,
    stepActionSnapshot: action.text,
    ...(action.truncated ? { truncated: true } : {}),
  };
}

const stepEvent = (run: RunRef, runCase: RunCaseRecord, step: RunCaseStep) => ({
  entityType: 'test_run_case_step',
  entityUlid: step.id,
  entityLabel: runCaseStepLabel(run, runCase, step),
  runId: run.id,
});

/** A mark of one case applies to the run's counters only while the run still accepts it (applyRunChange). */
const acceptingOf = (run: RunOfCaseMutation) => ({ allowClosed: run.settings.allowResultsInClosedRuns });

const assigneeLocked = () =>
  new AppError(
    'run_case_assignee_locked',
    'The case is assigned to someone else, and the run settings let only the assignee record its results',
  );

/** assigneeResultLock: refuses a caller who may not record results on this case. */
function assertMayRecord(ctx: RequestContext, run: RunOfCaseMutation, runCase: RunCaseRecord) {
  if (isAssigneeLocked(ctx, run, runCase)) throw assigneeLocked();
}

/** timeTracking 'required': marking a case with an outcome needs its elapsedMs. */
function assertElapsedGiven(run: RunOfCaseMutation, status: CaseStatus, elapsedMs: number | null | undefined) {
  if (run.settings.timeTracking === 'required' && isOutcome(status) && (elapsedMs ?? null) === null) {
    throw validationFailed('elapsedMs: required when marking an outcome while the run settings require time tracking', {
      code: 'elapsed_ms_required',
      path: ['elapsedMs'],
    });
  }
}

/** Assigns the case and records run.case_assigned (`via`: patch or open). */
async function assign(tx: Db, ctx: RequestContext, run: RunRef, runCase: RunCaseRecord, assigneeId: string | null, via: 'patch' | 'open') {
  await tx.testRunCase.update({ where: { id: runCase.id }, data: { assigneeId, updatedAt: new Date() } });
  const refOf = await userRefs(tx, [runCase.assigneeId, assigneeId]);
  const [from, to] = [refOf(runCase.assigneeId), refOf(assigneeId)];
  await emitAudit(tx, ctx, {
    action: 'run.case_assigned',
    ...runCaseEvent(run, runCase),
    metadata: { ...caseSnapshot(run, runCase), assigneeChange: { from, to, via } },
  });
}

type Mark = { status: CaseStatus; elapsedMs?: number | null | undefined };

const markedEvent = (run: RunOfCaseMutation, runCase: RunCaseRecord, mark: Mark) => ({
  action: 'run.case_marked',
  ...runCaseEvent(run, runCase),
  metadata: {
    ...caseSnapshot(run, runCase),
    changes: [change('status', runCase.status, mark.status)],
    ...(mark.elapsedMs !== undefined ? { elapsedMs: mark.elapsedMs } : {}),
  },
});

/**
 * A mark that changes the case's status, outside a transaction: the case read without locks, its
 * refusals, then one statement that commits alone and writes only while the case, the run and the
 * month are as read (recordResultAlone). Undefined when they are not, or when the status is
 * unchanged: updateRunCase then marks in a transaction, under lockRunCase's locks.
 */
async function markAlone(ctx: RequestContext, ref: RunCaseRef, mark: Mark) {
  const { run, runCase, version } = await readRunCase(ctx, ref, 'result.execute');
  assertMayRecord(ctx, run, runCase);
  assertElapsedGiven(run, mark.status, mark.elapsedMs);
  if (mark.status === runCase.status) return undefined;
  const marked = await recordResultAlone(ctx, run, { runCase, ...mark }, version, {
    source: singleSource(ctx),
    whileAccepting: acceptingOf(run),
    audit: markedEvent(run, runCase, mark),
  });
  return marked && { runCase: marked.runCase, projectCode: run.project.code, resultUlid: marked.resultUlid };
}

/**
 * PATCH run case. A changed status marks the case (its steps follow) and appends a result whose
 * ULID is returned; an unchanged status appends nothing. A changed elapsedMs without a status
 * change updates the case alone (run.case_updated) and appends nothing. A changed assignee
 * records run.case_assigned. assigneeResultLock guards status and elapsedMs, not assignment.
 */
export async function updateRunCase(ctx: RequestContext, ref: RunCaseRef, input: UpdateRunCaseInput) {
  authorize(ctx, 'result.execute');
  if (input.status !== undefined && input.assigneeUlid === undefined && !isTransaction(ctx.db)) {
    const marked = await markAlone(ctx, ref, { status: input.status, elapsedMs: input.elapsedMs });
    if (marked) return marked;
  }
  return inTransaction(ctx.db, async (tx) => {
    const { run, runCase } = await lockRunCase(tx, ctx, ref, 'result.execute');
    if (input.status !== undefined || input.elapsedMs !== undefined) assertMayRecord(ctx, run, runCase);
    if (input.status !== undefined) assertElapsedGiven(run, input.status, input.elapsedMs);
    const reassigned = input.assigneeUlid !== undefined && input.assigneeUlid !== runCase.assigneeId;
    if (reassigned && input.assigneeUlid) await assertMembers(tx, [input.assigneeUlid]);

    if (reassigned) await assign(tx, ctx, run, runCase, input.assigneeUlid ?? null, 'patch');
    let resultUlid: string | null = null;
    let marked: RunCaseRecord | undefined;
    if (input.status !== undefined && input.status !== runCase.status) {
      const mark = { status: input.status, elapsedMs: input.elapsedMs };
      // The event is written by the run counters' statement (applyRunChange), before an automatic run.closed.
      const { outcomes, at } = await recordResults(tx, ctx, run, [{ runCase, ...mark }], {
        source: singleSource(ctx),
        whileAccepting: acceptingOf(run),
        audit: markedEvent(run, runCase, mark),
      });
      resultUlid = outcomes[0]!.resultUlid;
      if (!reassigned) marked = markedRunCase(runCase, mark, at);
    } else if (input.elapsedMs !== undefined && input.elapsedMs !== runCase.elapsedMs) {
      await tx.testRunCase.update({ where: { id: runCase.id }, data: { elapsedMs: input.elapsedMs, updatedAt: new Date() } });
      await emitAudit(tx, ctx, {
        action: 'run.case_updated',
        ...runCaseEvent(run, runCase),
        metadata: { ...caseSnapshot(run, runCase), changes: [change('elapsed_ms', runCase.elapsedMs, input.elapsedMs)] },
      });
    }
    return { runCase: marked ?? (await findRunCase(tx, run, runCase.id)), projectCode: run.project.code, resultUlid };
  });
}

/**
 * PATCH run case step: sets the step's status and/or actual result. The case takes the
 * aggregate of its steps; when that changes its status, a result is appended (charged to a
 * machine caller like any mark). timeTracking does not apply: a step carries no elapsedMs.
 */
export async function markRunCaseStep(ctx: RequestContext, ref: RunCaseRef, stepUlid: string, input: MarkRunCaseStepInput) {
  authorize(ctx, 'result.execute');
  return inTransaction(ctx.db, async (tx) => {
    const { run, runCase } = await lockRunCase(tx, ctx, ref, 'result.execute');
    const step = runCase.steps.find((each) => each.id === stepUlid);
    if (!step) throw notFound('Step');
    assertMayRecord(ctx, run, runCase);
    const status = input.status !== undefined && input.status !== step.status ? input.status : undefined;
    const actualResult = input.actualResult !== undefined && input.actualResult !== step.actualResult ? input.actualResult : undefined;
    if (status === undefined && actualResult === undefined) return { runCase, projectCode: run.project.code };

    await tx.testRunCaseStep.update({ where: { id: step.id }, data: { status, actualResult, updatedAt: new Date() } });
    if (actualResult !== undefined) {
      await emitAudit(tx, ctx, {
        action: 'run.case_step_actual_result_set',
        ...stepEvent(run, runCase, step),
        metadata: { ...stepSnapshotOf(run, runCase, step), changes: [change('actual_result', step.actualResult, actualResult)] },
      });
    }
    if (status !== undefined) {
      const steps = runCase.steps.map((each) => (each.id === step.id ? { status } : each));
      const caseStatus = aggregateOfSteps(steps, runCase.status as CaseStatus);
      await emitAudit(tx, ctx, {
        action: 'run.case_step_marked',
        ...stepEvent(run, runCase, step),
        metadata: { ...stepSnapshotOf(run, runCase, step), changes: [change('status', step.status, status)], caseStatus },
      });
      if (caseStatus !== runCase.status) {
        await recordResults(tx, ctx, run, [{ runCase, status: caseStatus }], {
          source: singleSource(ctx),
          stepsFollow: false,
          whileAccepting: acceptingOf(run),
        });
      }
    }
    return { runCase: await findRunCase(tx, run, runCase.id), projectCode: run.project.code };
  });
}

/** POST open: an unassigned case is assigned to the caller (for a token, its creator); otherwise nothing changes. */
export async function openRunCase(ctx: RequestContext, ref: RunCaseRef) {
  authorize(ctx, 'result.execute');
  return inTransaction(ctx.db, async (tx) => {
    const { run, runCase } = await lockRunCase(tx, ctx, ref, 'result.execute');
    if (runCase.assigneeId !== null) return { runCase, projectCode: run.project.code };
    await assign(tx, ctx, run, runCase, ctx.identity.user.id, 'open');
    return { runCase: await findRunCase(tx, run, runCase.id), projectCode: run.project.code };
  });
}

/**
 * The filter of a run's case list. `q` matches the title snapshot or the display ID
 * (`<projectCode>-<caseNumber>`), a string the database composes, so its matches are found by
 * one SQL query first.
 */
async function runCaseWhere(ctx: RequestContext, runId: string, filter: RunCaseFilter): Promise<Prisma.TestRunCaseWhereInput> {
  const where: Prisma.TestRunCaseWhereInput = { runId };
  if (filter.status?.length) where.status = { in: filter.status };
  if (filter.assigneeUlid !== undefined) where.assigneeId = filter.assigneeUlid === '' ? null : filter.assigneeUlid;
  if (filter.q) {
    const pattern = `%${likeLiteral(filter.q)}%`;
    // Raw SQL: the tenant filter is written out.
    const matches = await queryRaw<Array<{ id: string }>>(
      ctx.db,
      sql`
      SELECT c.id FROM test_run_cases AS c
      JOIN test_runs AS r ON r.id = c.run_id
      JOIN projects AS p ON p.id = r.project_id
      WHERE c.run_id = ${runId} AND c.org_id = ${ctx.org.id}
        AND (c.title ILIKE ${pattern} OR (p.code || '-' || c.case_number::text) ILIKE ${pattern})`,
    );
    where.id = { in: matches.map((row) => row.id) };
  }
  return where;
}

/** GET /runs/{runUlid}/cases: a page of RunCase in position order. */
export async function listRunCases(ctx: RequestContext, runUlid: string, query: RunCaseListQuery) {
  const run = await resolveRun(ctx, runUlid);
  const where = await runCaseWhere(ctx, run.id, query);
  const [rows, total] = await Promise.all([
    ctx.db.testRunCase.findMany({ where, include: RUN_CASE_INCLUDE, orderBy: RUN_CASE_ORDER, ...pageWindow(query) }),
    ctx.db.testRunCase.count({ where }),
  ]);
  return pageOf(
    rows.map((row) => toRunCase(row, run.project.code)),
    query,
    total,
  );
}

/** Run cases for a GraphQL connection: `window` carries Pothos's cursor, take/skip and selection. */
export async function findRunCases(
  ctx: RequestContext,
  run: { id: string },
  filter: RunCaseFilter,
  window: Prisma.TestRunCaseFindManyArgs,
) {
  authorize(ctx, 'project.read');
  return ctx.db.testRunCase.findMany({ ...window, where: await runCaseWhere(ctx, run.id, filter), orderBy: RUN_CASE_ORDER });
}

export async function countRunCases(ctx: RequestContext, run: { id: string }, filter: RunCaseFilter) {
  authorize(ctx, 'project.read');
  return ctx.db.testRunCase.count({ where: await runCaseWhere(ctx, run.id, filter) });
}

type ResultRow = Awaited<ReturnType<Db['testRunResult']['findFirstOrThrow']>>;

/** A Result row of contract §3. */
const toRunResult = (row: ResultRow) => ({
  ulid: row.id,
  runUlid: row.runId,
  runCaseUlid: row.runCaseId,
  caseUlid: row.caseId,
  status: row.status as CaseStatus,
  elapsedMs: row.elapsedMs,
  comment: row.comment,
  executedAt: row.executedAt.getTime(),
  executedByUlid: row.executedById,
  author: toAuthor(row),
  source: row.source as 'manual' | 'api' | 'bulk' | 'import',
  attempt: row.attempt,
  flaky: row.flaky,
  parameters: row.parameters,
});

const resultWhere = (runId: string, runCaseUlid: string | undefined): Prisma.TestRunResultWhereInput => ({
  runId,
  ...(runCaseUlid ? { runCaseId: runCaseUlid } : {}),
});

/**
 * GET /runs/{runUlid}/results: the append-only history, oldest first (executedAt, then ULID),
 * cursor-paged: `cursor` is the last result of the previous page, and the page continues after
 * its (executedAt, ULID).
 */
export async function listRunResults(ctx: RequestContext, runUlid: string, query: RunResultListQuery) {
  const run = await resolveRun(ctx, runUlid);
  const where = resultWhere(run.id, query.runCaseUlid);
  let after: Prisma.TestRunResultWhereInput = {};
  if (query.cursor) {
    const last = await ctx.db.testRunResult.findFirst({ where: { ...where, id: query.cursor }, select: { id: true, executedAt: true } });
    if (!last) throw validationFailed('cursor: not a result of this listing', { path: ['cursor'], location: 'query' });
    after = { OR: [{ executedAt: { gt: last.executedAt } }, { executedAt: last.executedAt, id: { gt: last.id } }] };
  }
  const rows = await ctx.db.testRunResult.findMany({ where: { AND: [where, after] }, orderBy: RESULT_ORDER, take: query.limit + 1 });
  const page = cursorPageOf(rows, query.limit);
  return { items: page.items.map(toRunResult), nextCursor: page.nextCursor };
}

/** Results for a GraphQL connection, in history order. */
export async function findRunResults(
  ctx: RequestContext,
  run: { id: string },
  runCaseUlid: string | undefined,
  window: Prisma.TestRunResultFindManyArgs,
) {
  authorize(ctx, 'project.read');
  return ctx.db.testRunResult.findMany({ ...window, where: resultWhere(run.id, runCaseUlid), orderBy: RESULT_ORDER });
}

export async function countRunResults(ctx: RequestContext, run: { id: string }, runCaseUlid: string | undefined) {
  authorize(ctx, 'project.read');
  return ctx.db.testRunResult.count({ where: resultWhere(run.id, runCaseUlid) });
}

/** RunCase of contract §3; `displayId` is `<projectCode>-<caseNumber>` of the snapshotted case. */
export function toRunCase(runCase: RunCaseRecord, projectCode: string) {
  return {
    ulid: runCase.id,
    runUlid: runCase.runId,
    caseUlid: runCase.caseId,
    displayId: caseDisplayId(projectCode, runCase.caseNumber),
    title: runCase.title,
    suiteName: runCase.suiteName,
    position: runCase.position,
    status: runCase.status,
    assigneeUlid: runCase.assigneeId,
    elapsedMs: runCase.elapsedMs,
    steps: runCase.steps.map((step) => ({
      ulid: step.id,
      position: step.position,
      action: step.action,
      expectedResult: step.expectedResult,
      status: step.status,
      actualResult: step.actualResult,
    })),
    lastResultAt: epochMsOrNull(runCase.lastResultAt),
    createdAt: runCase.createdAt.getTime(),
    updatedAt: runCase.updatedAt.getTime(),
  };
}
