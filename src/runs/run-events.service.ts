import type { UserRef } from '../foundation/actors.ts';
import { clipSnapshot } from '../foundation/audit/clip.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { projectedStatus, type RunCounters, runCounts } from './runs.schemas.ts';

/** What audit entries of run cases need: the run's project code and the case's snapshot. */
type RunOfCase = { id?: string; project: { code: string } };
type SnapshotCase = { id: string; caseNumber: number; title: string };

/** `<projectCode>-<caseNumber>` of a run case's test case. */
export const caseDisplayIdOf = (run: RunOfCase, runCase: { caseNumber: number }) => caseDisplayId(run.project.code, runCase.caseNumber);

/** The audit label of a run case: `<caseDisplayId> · <titleSnapshot>`. */
export const runCaseLabel = (run: RunOfCase, runCase: { caseNumber: number; title: string }) =>
  `${caseDisplayIdOf(run, runCase)} · ${runCase.title}`;

/** The audit label of a run case step: `<caseDisplayId> · <titleSnapshot> — <action or 'step <position>'>`. */
export const runCaseStepLabel = (
  run: RunOfCase,
  runCase: { caseNumber: number; title: string },
  step: { action: string; position: number },
) => `${runCaseLabel(run, runCase)} — ${step.action || `step ${step.position}`}`;

/** The entity part of an event about a run: labelled with the run's name at emission. */
export const runEvent = (run: { id: string; name: string }) => ({
  entityType: 'test_run',
  entityUlid: run.id,
  entityLabel: run.name,
  runId: run.id,
});

/** The entity part of an event about one run case. */
export const runCaseEvent = (run: { id: string; project: { code: string } }, runCase: SnapshotCase) => ({
  entityType: 'test_run_case',
  entityUlid: runCase.id,
  entityLabel: runCaseLabel(run, runCase),
  runId: run.id,
});

/** `caseDisplayId` and the clipped `titleSnapshot` of a run case, with `truncated` when clipped. */
export function caseSnapshot(run: RunOfCase, runCase: SnapshotCase) {
  const title = clipSnapshot(runCase.title);
  return {
    caseDisplayId: caseDisplayIdOf(run, runCase),
    titleSnapshot: title.text,
    ...(title.truncated ? { truncated: true as const } : {}),
  };
}

/** At most this many case entries per audit event; the rest are counted in omittedCount. */
export const AUDIT_CASE_ENTRIES_MAX = 20;

/** A case entry of the `bulkCases` bucket and of run.case_added (Events of api-v1.md). */
export type CaseEntry = {
  ulid: string;
  caseDisplayId: string | null;
  titleSnapshot: string | null;
  fromStatus?: string;
  toStatus?: string;
  fromAssignee?: UserRef;
  toAssignee?: UserRef;
  statusAtRemoval?: string;
  skipped?: 'unchanged' | 'not_found' | 'locked';
  truncated?: true;
};

/** The entry of a run case: its ULID and snapshot, plus `details`. */
export const caseEntry = (run: RunOfCase, runCase: SnapshotCase, details: Partial<CaseEntry> = {}): CaseEntry => ({
  ulid: runCase.id,
  ...caseSnapshot(run, runCase),
  ...details,
});

/** The first 20 entries, and how many of `total` were left out when there are more. */
export function listedEntries(entries: CaseEntry[], total = entries.length) {
  const omitted = total - AUDIT_CASE_ENTRIES_MAX;
  return { cases: entries.slice(0, AUDIT_CASE_ENTRIES_MAX), ...(omitted > 0 ? { omittedCount: omitted } : {}) };
}

/** `runAggregates` of run.closed, run.aborted and run.deleted. */
export function runAggregates(run: RunCounters & { state: string; abortedAt: Date | null; totalDurationMs: bigint }) {
  const counts = runCounts(run);
  return {
    countPassed: counts.passed,
    countFailed: counts.failed,
    countBlocked: counts.blocked,
    countSkipped: counts.skipped,
    countUntested: counts.untested,
    totalDurationMs: Number(run.totalDurationMs),
    projectedStatus: projectedStatus(run),
  };
}
