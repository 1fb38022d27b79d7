/**
 * The statuses the domains speak of, shared by all of them (a shared kernel): what a run case and
 * its steps can be, and what a defect can be. The rules over them live in their domains (a run
 * case's aggregate of its steps in src/runs/internal/run-status.ts).
 */

/** Statuses of a run case and of its steps ("Run case status" of api-v1.md). */
export const CASE_STATUSES = ['untested', 'retested', 'passed', 'failed', 'skipped', 'blocked'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Outcomes: the statuses that count as a result for auto-close, bulk-mark and time tracking. */
export const OUTCOME_STATUSES = ['passed', 'failed', 'skipped', 'blocked'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export const isOutcome = (status: string): status is OutcomeStatus => (OUTCOME_STATUSES as readonly string[]).includes(status);

/** Statuses of a defect. */
export const DEFECT_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type DefectStatus = (typeof DEFECT_STATUSES)[number];
/** Open and in-progress defects are unresolved: they count in project stats and in the `defects=has` filter. */
export const UNRESOLVED_DEFECT_STATUSES: DefectStatus[] = ['open', 'in_progress'];
