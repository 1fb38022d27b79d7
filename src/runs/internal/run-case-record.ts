import type { Db, Prisma } from '../../database/client.ts';

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
export async function findRunCasesByUlid(tx: Db, runId: string, ulids: string[]): Promise<Map<string, RunCaseRow>> {
  const rows = await tx.testRunCase.findMany({ where: { runId, OR: [{ id: { in: ulids } }, { caseId: { in: ulids } }] } });
  const byUlid = new Map<string, RunCaseRow>();
  for (const row of rows) {
    byUlid.set(row.id, row);
    if (row.caseId) byUlid.set(row.caseId, row);
  }
  return new Map(ulids.filter((ulid) => byUlid.has(ulid)).map((ulid) => [ulid, byUlid.get(ulid)!]));
}
