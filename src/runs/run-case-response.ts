import { z } from 'zod';
import type { Db, Prisma } from '../database/client.ts';
import { epochMsOrNull } from '../ids.ts';
import { caseDisplayId } from '../projects/display-ids.ts';
import { CASE_STATUSES } from './run-status.ts';

export const RUN_CASE_INCLUDE = {
  steps: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.TestRunCaseInclude;

export type RunCaseRecord = Prisma.TestRunCaseGetPayload<{ include: typeof RUN_CASE_INCLUDE }>;
export type RunCaseRow = Prisma.TestRunCaseGetPayload<object>;

/** RunCase of decisions §3; `displayId` is `<projectCode>-<caseNumber>` of the snapshotted case. */
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

export const runCaseSchema = z
  .object({
    ulid: z.string(),
    runUlid: z.string(),
    caseUlid: z.string().nullable().meta({ description: 'Null once the test case was deleted; the snapshot stays' }),
    displayId: z.string(),
    title: z.string(),
    suiteName: z.string().nullable(),
    position: z.number().int(),
    status: z.enum(CASE_STATUSES),
    assigneeUlid: z.string().nullable(),
    elapsedMs: z.number().int().nullable(),
    steps: z.array(
      z.object({
        ulid: z.string(),
        position: z.number().int(),
        action: z.string(),
        expectedResult: z.string().nullable(),
        status: z.enum(CASE_STATUSES),
        actualResult: z.string().nullable(),
      }),
    ),
    lastResultAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'RunCase' });

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
