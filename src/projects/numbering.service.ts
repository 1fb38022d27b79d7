import type { Db } from '../kernel/database/client.ts';

type Counter = 'suite' | 'case' | 'plan' | 'defect';

const COLUMN = { suite: 'lastSuiteNumber', case: 'lastCaseNumber', plan: 'lastPlanNumber', defect: 'lastDefectNumber' } as const;

/**
 * The next suiteNumber / caseNumber / planNumber / defectNumber of a project. Call it inside the transaction
 * that inserts the row: the increment locks the project row until commit, so concurrent creates
 * queue behind each other and numbers come out 1, 2, 3 … with no gap (a rolled-back create
 * releases its number) and no duplicate.
 */
export function allocateNumber(tx: Db, projectId: string, counter: Counter): Promise<number> {
  return allocateNumbers(tx, projectId, counter, 1);
}

/** `n` consecutive numbers in one counter update (as allocateNumber); answers the first of them. */
export async function allocateNumbers(tx: Db, projectId: string, counter: Counter, n: number): Promise<number> {
  const project = await tx.project.update({
    where: { id: projectId },
    data: { [COLUMN[counter]]: { increment: n } },
    select: { lastSuiteNumber: true, lastCaseNumber: true, lastPlanNumber: true, lastDefectNumber: true },
  });
  return project[COLUMN[counter]] - n + 1;
}
