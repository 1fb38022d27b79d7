import { isVisibleIn } from '../custom-fields/field-values.service.ts';
import { authorColumns, membersAmong } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Prisma } from '../kernel/database/client.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import type { CaseStatus } from '../kernel/statuses.ts';
import { resolveProject } from '../projects/projects.service.ts';
import { RUN_INCLUDE, type RunRecord } from './internal/run-record.ts';
import { copyRunCases } from './internal/run-snapshot.ts';
import { resolveRun } from './run-access.service.ts';
import { runEvent } from './run-events.service.ts';
import type { CloneRunInput } from './runs.schemas.ts';
import { writeRunConfigurations } from './runs.service.ts';

/** The statuses a filter keeps: `untested` also keeps cases to be retested, which count as untested. */
function statusesOf(filter: CaseStatus[] | undefined): CaseStatus[] | null {
  if (!filter || filter.length === 0) return null;
  const statuses = new Set(filter);
  if (statuses.has('untested')) statuses.add('retested');
  return [...statuses];
}

/**
 * POST /projects/{code}/runs/{runUlid}/clone: a new open run of the same project from any source
 * run (open, closed or aborted; the source is only read). It copies the source's case snapshots
 * (title, suite name, steps; not the live cases), filtered by status, every case untested;
 * assignees only with `cloneAssignees` (former members become unassigned); the description,
 * plan, default assignee (if still a member), milestone, environment and configuration snapshots;
 * and the stored custom field values of fields still visible in the project.
 */
export async function cloneRun(ctx: RequestContext, projectCode: string, runUlid: string, input: CloneRunInput): Promise<RunRecord> {
  authorize(ctx, 'result.execute');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    const source = await resolveRun(ctx, runUlid, { db: tx });
    if (source.projectId !== project.id) throw notFound('Run');
    const statuses = statusesOf(input.statusFilter);
    const members = await membersAmong(tx, [source.defaultAssigneeId]);
    const member = (userId: string | null) => (userId && members.has(userId) ? userId : null);

    const created = await tx.testRun.create({
      data: {
        id: newId(),
        orgId: ctx.org.id,
        projectId: project.id,
        planId: source.planId,
        name: input.title,
        description: source.description,
        defaultAssigneeId: member(source.defaultAssigneeId),
        milestoneId: source.milestoneId,
        environmentId: source.environmentId,
        environmentName: source.environmentName,
        comboKey: source.comboKey,
        ...authorColumns(ctx.identity),
      },
    });
    await writeRunConfigurations(
      tx,
      ctx,
      created.id,
      source.configurations.map(({ configurationId, groupName, valueName }) => ({ configurationId, groupName, valueName })),
    );

    const { count: caseCount } = await copyRunCases(tx, ctx, created, source.id, statuses, input.cloneAssignees ?? false);

    const values = await tx.testRunFieldValue.findMany({
      where: { runId: source.id },
      include: { field: { select: { allProjects: true, projects: { select: { projectId: true } } } } },
    });
    const kept = values.filter((row) => isVisibleIn(row.field, project.id));
    if (kept.length > 0) {
      await tx.testRunFieldValue.createMany({
        data: kept.map((row) => ({
          runId: created.id,
          fieldId: row.fieldId,
          orgId: ctx.org.id,
          value: row.value as Prisma.InputJsonValue,
        })),
      });
    }

    await emitAudit(tx, ctx, {
      action: 'run.cloned',
      ...runEvent(created),
      metadata: {
        caseCount,
        sourceRun: { ulid: source.id, name: source.name },
        cloneAssignees: input.cloneAssignees ?? false,
        statusFilter: input.statusFilter && input.statusFilter.length > 0 ? [...new Set(input.statusFilter)] : null,
      },
    });
    return tx.testRun.findUniqueOrThrow({ where: { id: created.id }, include: RUN_INCLUDE });
  });
}
