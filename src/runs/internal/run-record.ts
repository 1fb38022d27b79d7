import type { Prisma } from '../../database/client.ts';
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
