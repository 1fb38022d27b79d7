import { emitAudit } from '../audit/audit.service.ts';
import { seedSystemFields } from '../custom-fields/system-fields.ts';
import { authorize } from '../auth/policy.ts';
import type { Identity, RequestContext, UserSnapshot } from '../context.ts';
import { prisma, type Db } from '../database/client.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { CreateOrganizationInput } from './orgs.schemas.ts';
import { effectiveLimits, PLAN_NAMES, type PlanName } from './plans.ts';

export type OrganizationRow = Awaited<ReturnType<Db['organization']['findUniqueOrThrow']>>;

export const toOrganization = (org: Pick<OrganizationRow, 'id' | 'name' | 'plan' | 'createdAt'>) => ({
  ulid: org.id,
  name: org.name,
  plan: org.plan,
  createdAt: org.createdAt.getTime(),
});

/** Creates an organization owned by `user`, with its audit event, inside the caller's transaction. */
export async function createOrganizationFor(tx: Db, user: UserSnapshot, name: string) {
  const org = await tx.organization.create({ data: { id: newId(), name } });
  await tx.membership.create({ data: { id: newId(), orgId: org.id, userId: user.id, role: 'owner' } });
  await seedSystemFields(tx, org.id);
  const identity: Identity = { kind: 'session', user, sessionId: '' };
  await emitAudit(tx, { identity, org }, {
    action: 'organization.created',
    entityType: 'organization',
    entityUlid: org.id,
    entityLabel: org.name,
    metadata: { name: org.name },
  });
  return org;
}

export async function createOrganization(identity: Identity, input: CreateOrganizationInput) {
  return prisma().$transaction((tx) => createOrganizationFor(tx, identity.user, input.name));
}

/** The active organization's row (only ever the caller's own). */
export async function getOrganization(ctx: RequestContext) {
  authorize(ctx, 'organization.read');
  return prisma().organization.findUniqueOrThrow({ where: { id: ctx.org.id } });
}

/** Operator actions (the `tcms` command), never reachable over HTTP. */
export type LimitOverrides = {
  maxProjects?: number | null;
  maxSeats?: number | null;
  maxResultsPerMonth?: number | null;
  requestsPerMinute?: number | null;
  auditExportEnabled?: boolean | null;
};

export async function setOrganizationPlan(orgId: string, plan: string) {
  if (!PLAN_NAMES.includes(plan as PlanName)) {
    throw new AppError('validation_failed', `Unknown plan "${plan}"; expected one of ${PLAN_NAMES.join(', ')}`);
  }
  return changeCeilings(orgId, { plan });
}

export async function overrideOrganizationLimits(orgId: string, overrides: LimitOverrides) {
  const data: Record<string, number | boolean | null> = {};
  if (overrides.maxProjects !== undefined) data.maxProjectsOverride = overrides.maxProjects;
  if (overrides.maxSeats !== undefined) data.maxSeatsOverride = overrides.maxSeats;
  if (overrides.maxResultsPerMonth !== undefined) data.maxResultsPerMonthOverride = overrides.maxResultsPerMonth;
  if (overrides.requestsPerMinute !== undefined) data.requestsPerMinuteOverride = overrides.requestsPerMinute;
  if (overrides.auditExportEnabled !== undefined) data.auditExportEnabledOverride = overrides.auditExportEnabled;
  return changeCeilings(orgId, data);
}

async function changeCeilings(orgId: string, data: Record<string, unknown>) {
  return prisma().$transaction(async (tx) => {
    const org = await tx.organization.update({ where: { id: orgId }, data }).catch(() => {
      throw notFound('Organization');
    });
    const limits = effectiveLimits(org);
    await applyProjectLocks(tx, orgId, limits.maxProjects);
    return { org: toOrganization(org), limits };
  });
}

/**
 * Project lock ("States and transitions"): with more projects than the allowance, all but the
 * newest `maxProjects` are locked; within the allowance every project is unlocked.
 */
export async function applyProjectLocks(tx: Db, orgId: string, maxProjects: number | null): Promise<void> {
  const newest = await tx.project.findMany({
    where: { orgId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
    ...(maxProjects === null ? {} : { take: maxProjects }),
  });
  const open = newest.map((p) => p.id);
  await tx.project.updateMany({ where: { orgId, id: { in: open }, lockedAt: { not: null } }, data: { lockedAt: null } });
  await tx.project.updateMany({ where: { orgId, id: { notIn: open }, lockedAt: null }, data: { lockedAt: new Date() } });
}
