import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { UploadedFile } from '../foundation/storage/storage.service.ts';
import { parseInWorker } from '../foundation/uploads/parse-pool.ts';
import type { Db } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { executeRaw, queryRaw, sql } from '../kernel/database/raw-sql.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, fromValidationIssues, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { allocateNumbers } from '../projects/numbering.service.ts';
import { resolveProject } from '../projects/projects.service.ts';
import { appendImportedResults, type ImportedResult } from '../runs/run-imports.service.ts';
import { createRun } from '../runs/runs.service.ts';
import { ensureSuitePaths } from '../suites/suites.service.ts';
import { identify, type TestIdentity } from './identity.ts';
import type { ReportedTest, ReportFormat } from './report.ts';
import type { ReportsRead } from './report-worker.ts';
import { REPORT_FILES_MAX, type ResultImport, type ResultImportQuery } from './result-imports.schemas.ts';

const REPORT_WORKER = new URL('./report-worker.ts', import.meta.url);

/** Every test of the reports, in order (422 empty_import when there is none), and the format of the last; read in a parse worker. */
export async function readReports(files: UploadedFile[], requested: ReportFormat | undefined) {
  const tests: ReportedTest[] = [];
  const { format } = await parseInWorker<ReportFormat | undefined, ReportedTest, ReportsRead>(REPORT_WORKER, files, requested, (test) =>
    tests.push(test),
  );
  if (tests.length === 0) throw new AppError('empty_import', 'The report holds no test');
  return { tests, format: format! };
}

const STATUS_RANK = { passed: 0, skipped: 1, blocked: 2, failed: 3 } as const;

type BoundTest = { test: ReportedTest; identity: TestIdentity; caseId: string };
type CaseRow = { id: string; number: number; key: string | null; archived: boolean };

/** The cases of the project that the tests' display IDs and automation keys name. */
async function findCandidates(tx: Db, ctx: RequestContext, projectId: string, identities: TestIdentity[]) {
  const numbers = [...new Set(identities.flatMap((identity) => identity.caseNumbers))];
  const keys = [...new Set(identities.map((identity) => identity.automationKey))];
  const rows = await queryRaw<CaseRow[]>(
    tx,
    sql`
    SELECT id, case_number AS number, automation_key AS key, archived_at IS NOT NULL AS archived
    FROM test_cases
    WHERE org_id = ${ctx.org.id} AND project_id = ${projectId}
      AND (case_number = ANY(${numbers}::int[]) OR automation_key = ANY(${keys}::text[]))`,
  );
  return {
    byNumber: new Map(rows.filter((row) => !row.archived).map((row) => [row.number, row])),
    byKey: new Map(rows.flatMap((row) => (row.key === null ? [] : [[row.key, row] as const]))),
  };
}

/** One case per automation key, in one counter update and one insert; suites are created as needed. */
async function createCases(tx: Db, ctx: RequestContext, projectId: string, identities: TestIdentity[]) {
  const { suiteIds, created: createdSuites } = await ensureSuitePaths(
    tx,
    ctx,
    projectId,
    identities.map((identity) => identity.suitePath).filter((path) => path.length > 0),
  );
  const ids = identities.map(() => newId());
  if (identities.length > 0) {
    const first = await allocateNumbers(tx, projectId, 'case', identities.length);
    const now = new Date();
    await executeRaw(
      tx,
      sql`
      INSERT INTO test_cases (id, org_id, project_id, case_number, title, suite_id, automation_key, created_at, updated_at)
      SELECT c.id, ${ctx.org.id}, ${projectId}, ${first}::int + c.ordinal - 1, c.title, c.suite_id, c.key, ${now}, ${now}
      FROM unnest(${ids}::char(26)[], ${identities.map((identity) => identity.title)}::text[],
                  ${identities.map((identity) => suiteIds.get(identity.suitePath.join('\u0000')) ?? null)}::char(26)[],
                  ${identities.map((identity) => identity.automationKey)}::text[]) WITH ORDINALITY AS c(id, title, suite_id, key, ordinal)`,
    );
  }
  return { ids, createdSuites };
}

/** A test failed and then passed on a retry, or its runner says it is flaky and it passed. */
function isFlaky(test: ReportedTest): boolean {
  const final = test.attempts.at(-1)!;
  const failedBefore = test.attempts.slice(0, -1).some((attempt) => attempt.status === 'failed');
  return final.status === 'passed' && (failedBefore || test.flakyReported);
}

/** Every attempt of a bound test as a result, numbered from 1; the last one sets the case's status and carries `flaky`. */
function importedResult(test: ReportedTest, identity: TestIdentity, caseId: string): ImportedResult {
  const results = test.attempts.map((attempt, index) => ({
    status: attempt.status,
    elapsedMs: attempt.elapsedMs,
    comment: attempt.message,
    attempt: index + 1,
    parameters: identity.parameters,
  }));
  const final = results.pop()!;
  return { caseId, testName: test.name, ...final, flaky: isFlaky(test), earlierAttempts: results };
}

/**
 * POST /projects/{projectId}/result-imports (contract §12): reads the reports, binds each test
 * to a case (a `tcms_case` property, a display ID in brackets in its name, its automation key;
 * else a new case unless createCases=false), and appends their results to a new run or to
 * `runUlid`, all in one transaction through the marking engine: every attempt of a test is a
 * result, oldest first. A case several tests bind to (parameter sets) takes the worst of their
 * final statuses: its tests are appended best first.
 */
export async function importResults(
  ctx: RequestContext,
  projectCode: string,
  query: ResultImportQuery,
  files: UploadedFile[],
): Promise<ResultImport> {
  authorize(ctx, 'result.execute');
  if (query.runUlid && (query.runName || query.planUlid || query.environmentId || query.milestoneId)) {
    throw validationFailed('runUlid adds to an existing run: runName, planUlid, environmentId and milestoneId are for a new one', {
      path: ['runUlid'],
      location: 'query',
    });
  }
  if (files.length > REPORT_FILES_MAX) {
    throw fromValidationIssues([{ path: ['file'], message: `at most ${REPORT_FILES_MAX} reports per import` }], 'file');
  }
  const project = await resolveProject(ctx, projectCode);
  const { tests, format } = await readReports(files, query.format);
  const mayCreate = query.createCases !== false;
  if (mayCreate) authorize(ctx, 'case.write');

  return inTransaction(ctx.db, async (tx) => {
    const txCtx = { ...ctx, db: tx };
    // New cases take numbers and keys: imports of one project queue here, so no key is taken twice.
    if (mayCreate) await lockRow(tx, 'projects', project.id, { orgId: ctx.org.id });
    const identities = tests.map((test) => identify(test, project.code));
    const { byNumber, byKey } = await findCandidates(tx, ctx, project.id, identities);

    const bound: Array<BoundTest | null> = [];
    const unmatched: ResultImport['unmatched'] = [];
    const toCreate = new Map<string, { identity: TestIdentity; tests: number[] }>();
    identities.forEach((identity, index) => {
      const test = tests[index]!;
      const match = identity.caseNumbers.map((number) => byNumber.get(number)).find(Boolean) ?? byKey.get(identity.automationKey);
      bound.push(match && !match.archived ? { test, identity, caseId: match.id } : null);
      if (match?.archived) unmatched.push({ name: test.name, reason: 'archived_case' });
      else if (!match && !mayCreate) unmatched.push({ name: test.name, reason: 'no_case' });
      else if (!match) {
        const pending = toCreate.get(identity.automationKey) ?? { identity, tests: [] };
        pending.tests.push(index);
        toCreate.set(identity.automationKey, pending);
      }
    });
    const matchedCases = new Set(bound.flatMap((entry) => (entry ? [entry.caseId] : []))).size;
    const creations = [...toCreate.values()];
    const { ids: createdIds, createdSuites } = await createCases(
      tx,
      ctx,
      project.id,
      creations.map((each) => each.identity),
    );
    creations.forEach((creation, at) => {
      for (const index of creation.tests) bound[index] = { test: tests[index]!, identity: identities[index]!, caseId: createdIds[at]! };
    });

    const boundTests = bound.filter((entry): entry is BoundTest => entry !== null);
    const caseIds = [...new Set(boundTests.map((entry) => entry.caseId))];
    let runUlid = query.runUlid;
    if (!runUlid) {
      const name = query.runName ?? `${format} import ${new Date().toISOString()}`;
      const { planUlid, environmentId, milestoneId } = query;
      runUlid = (
        await createRun(txCtx, project.code, { name, planUlid, environmentId, milestoneId, caseUlids: planUlid ? undefined : caseIds })
      ).id;
    }

    const order = new Map(caseIds.map((caseId, index) => [caseId, index]));
    const statusOf = (entry: BoundTest) => entry.test.attempts.at(-1)!.status;
    const sorted = [...boundTests].sort(
      (a, b) => order.get(a.caseId)! - order.get(b.caseId)! || STATUS_RANK[statusOf(a)] - STATUS_RANK[statusOf(b)],
    );
    const entries = sorted.map(({ test, identity, caseId }) => importedResult(test, identity, caseId));
    const summary = { import: { format, tests: tests.length, createdCases: creations.length, createdSuites, unmatched: unmatched.length } };
    await appendImportedResults(tx, txCtx, { runUlid, projectId: project.id }, entries, summary);
    return {
      runUlid,
      tests: tests.length,
      results: sorted.reduce((sum, entry) => sum + entry.test.attempts.length, 0),
      createdCases: creations.length,
      matchedCases,
      unmatched,
      attempts: tests.reduce((sum, test) => sum + test.attempts.length, 0),
    };
  });
}
