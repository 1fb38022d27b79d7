import type { RequestContext } from '../../foundation/context.ts';
import type { Db, Prisma } from '../../kernel/database/client.ts';
import { queryRaw, sql } from '../../kernel/database/raw-sql.ts';

export const RUN_CASE_INCLUDE = {
  steps: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.TestRunCaseInclude;

export type RunCaseRecord = Prisma.TestRunCaseGetPayload<{ include: typeof RUN_CASE_INCLUDE }>;
export type RunCaseRow = Prisma.TestRunCaseGetPayload<object>;

/**
 * The cases of a run that `ulids` name (without their steps, which bulk operations do not read):
 * each ULID may be a run case ULID or the ULID of the test case it snapshots. Returns them keyed by
 * the ULID given; ULIDs naming nothing in the run are absent.
 */
export async function findRunCasesByUlid(tx: Db, ctx: RequestContext, runId: string, ulids: string[]): Promise<Map<string, RunCaseRow>> {
  // Typed SQL: Prisma's query for two lists of up to thousands of ULIDs costs more to build than to run.
  const rows = await queryRaw<RunCaseRow[]>(
    tx,
    sql`
    SELECT id, org_id AS "orgId", run_id AS "runId", case_id AS "caseId", case_number AS "caseNumber", title, suite_name AS "suiteName",
           position, status, assignee_id AS "assigneeId", elapsed_ms AS "elapsedMs", last_result_at AS "lastResultAt",
           created_at AS "createdAt", updated_at AS "updatedAt"
    FROM test_run_cases
    WHERE run_id = ${runId} AND org_id = ${ctx.org.id} AND (id = ANY(${ulids}::char(26)[]) OR case_id = ANY(${ulids}::char(26)[]))`,
  );
  const byUlid = new Map<string, RunCaseRow>();
  for (const row of rows) {
    byUlid.set(row.id, row);
    if (row.caseId) byUlid.set(row.caseId, row);
  }
  return new Map(ulids.filter((ulid) => byUlid.has(ulid)).map((ulid) => [ulid, byUlid.get(ulid)!]));
}
