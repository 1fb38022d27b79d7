import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { sql } from '../../kernel/database/raw-sql.ts';
import type { PROJECTED_STATUSES } from '../runs.schemas.ts';

/**
 * What every run read loads with the run row. The relations are whole rows, so that GraphQL can
 * answer any selection of them from a run a service returned.
 */
export const RUN_INCLUDE = {
  configurations: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  environment: true,
  milestone: true,
} satisfies Prisma.TestRunInclude;

export type RunRecord = Prisma.TestRunGetPayload<{ include: typeof RUN_INCLUDE }>;

/** The projected-status rule of runs.schemas.ts `projectedStatus`, as a filter. */
export function projectedStatusWhere(status: (typeof PROJECTED_STATUSES)[number]): Prisma.TestRunWhereInput {
  switch (status) {
    case 'in_progress':
      return { state: 'open' };
    case 'passed':
      return { state: 'closed', abortedAt: null, countFailed: 0, countBlocked: 0 };
    case 'failed':
      return { state: 'closed', abortedAt: null, OR: [{ countFailed: { gt: 0 } }, { countBlocked: { gt: 0 } }] };
  }
}

/** Every column of test_runs (alias `r`) under its Prisma field name: a raw statement returning it yields TestRun rows. */
export const RUN_ROW_COLUMNS = sql`r.id, r.org_id AS "orgId", r.project_id AS "projectId", r.plan_id AS "planId", r.name, r.description,
  r.state, r.closed_at AS "closedAt", r.aborted_at AS "abortedAt", r.default_assignee_id AS "defaultAssigneeId",
  r.milestone_id AS "milestoneId", r.environment_id AS "environmentId", r.environment_name AS "environmentName",
  r.combo_key AS "comboKey", r.count_passed AS "countPassed", r.count_failed AS "countFailed", r.count_blocked AS "countBlocked",
  r.count_skipped AS "countSkipped", r.count_untested AS "countUntested", r.count_retested AS "countRetested",
  r.total_duration_ms AS "totalDurationMs", r.first_result_at AS "firstResultAt", r.last_result_at AS "lastResultAt",
  r.author_kind AS "authorKind", r.author_id AS "authorId", r.author_name AS "authorName", r.author_avatar_key AS "authorAvatarKey",
  r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;
