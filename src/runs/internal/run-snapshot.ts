import type { RequestContext } from '../../context.ts';
import type { Db, Prisma } from '../../database/client.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { applyRunChange } from './run-counters.ts';

/** A case to snapshot into a run, with the assignee it starts with. */
export type CaseSeed = { caseId: string; assigneeId: string | null };

const SNAPSHOT_SELECT = {
  id: true,
  caseNumber: true,
  title: true,
  suite: { select: { name: true } },
  steps: { orderBy: [{ position: 'asc' }, { id: 'asc' }], select: { position: true, action: true, expectedResult: true } },
} satisfies Prisma.TestCaseSelect;

/** The live (not archived) cases of a project among `caseIds`; 404 unless every one is. */
async function loadLiveCases(tx: Db, projectId: string, caseIds: string[]) {
  const wanted = [...new Set(caseIds)];
  const cases = await tx.testCase.findMany({
    where: { id: { in: wanted }, projectId, archivedAt: null },
    select: SNAPSHOT_SELECT,
  });
  if (cases.length !== wanted.length) throw notFound('Test case');
  return new Map(cases.map((each) => [each.id, each]));
}

type RunForCases = { id: string; projectId: string; name: string; firstResultAt: Date | null; lastResultAt: Date | null };

/** What a run case starts from: a live test case, or the case of another run (clone). */
export type CaseSnapshot = {
  caseId: string | null;
  caseNumber: number;
  title: string;
  suiteName: string | null;
  steps: Array<{ position: number; action: string; expectedResult: string | null }>;
  assigneeId: string | null;
};

/**
 * Inserts run cases from snapshots, in order from `firstPosition` on, every case and step
 * untested, and grows the run's counters. Returns the run as it now is and the new run cases.
 */
export async function insertRunCases<R extends RunForCases>(tx: Db, ctx: RequestContext, run: R, snapshots: CaseSnapshot[], firstPosition: number) {
  const now = new Date();
  const rows = snapshots.map((snapshot, index) => ({
    snapshot,
    runCase: {
      id: newId(),
      orgId: ctx.org.id,
      runId: run.id,
      caseId: snapshot.caseId,
      caseNumber: snapshot.caseNumber,
      title: snapshot.title,
      suiteName: snapshot.suiteName,
      position: firstPosition + index,
      status: 'untested',
      assigneeId: snapshot.assigneeId,
      createdAt: now,
      updatedAt: now,
    },
  }));
  const steps = rows.flatMap(({ snapshot, runCase }) =>
    snapshot.steps.map((step) => ({
      id: newId(),
      orgId: ctx.org.id,
      runCaseId: runCase.id,
      position: step.position,
      action: step.action,
      expectedResult: step.expectedResult,
      updatedAt: now,
    })),
  );
  const runCases = rows.map((row) => row.runCase);
  if (runCases.length > 0) await tx.testRunCase.createMany({ data: runCases });
  if (steps.length > 0) await tx.testRunCaseStep.createMany({ data: steps });
  const updated = await applyRunChange(tx, ctx, run, { statusDelta: { untested: runCases.length } });
  return { run: updated, runCases };
}

/**
 * Adds live cases to a run, in seed order from `firstPosition` on: title, suite name and steps
 * are snapshotted from the test cases (404 unless each is live in the run's project).
 */
export async function snapshotCases<R extends RunForCases>(tx: Db, ctx: RequestContext, run: R, seeds: CaseSeed[], firstPosition: number) {
  const cases = await loadLiveCases(tx, run.projectId, seeds.map((seed) => seed.caseId));
  const snapshots = seeds.map((seed) => {
    const source = cases.get(seed.caseId)!;
    return {
      caseId: source.id,
      caseNumber: source.caseNumber,
      title: source.title,
      suiteName: source.suite?.name ?? null,
      steps: source.steps,
      assigneeId: seed.assigneeId,
    };
  });
  return insertRunCases(tx, ctx, run, snapshots, firstPosition);
}
