import type { CaseStatus } from '../../kernel/statuses.ts';

/**
 * A case's status as the aggregate of its steps: any failed step fails it, else any blocked step
 * blocks it, else any step still untested leaves it untested (a case waiting to be retested
 * stays retested), else all skipped steps skip it, else it passed. A case without steps keeps
 * the status it has.
 */
export function aggregateOfSteps(steps: Array<{ status: string }>, current: CaseStatus): CaseStatus {
  if (steps.length === 0) return current;
  const has = (status: CaseStatus) => steps.some((step) => step.status === status);
  if (has('failed')) return 'failed';
  if (has('blocked')) return 'blocked';
  if (has('untested') || has('retested')) return current === 'retested' ? 'retested' : 'untested';
  if (steps.every((step) => step.status === 'skipped')) return 'skipped';
  return 'passed';
}

export type StatusDelta = Partial<Record<CaseStatus, number>>;

/** Adds one case moving `from` → `to` (either may be absent: a case added or removed). */
export function addTransition(delta: StatusDelta, from: CaseStatus | null, to: CaseStatus | null): StatusDelta {
  if (from === to) return delta;
  if (from) delta[from] = (delta[from] ?? 0) - 1;
  if (to) delta[to] = (delta[to] ?? 0) + 1;
  return delta;
}
