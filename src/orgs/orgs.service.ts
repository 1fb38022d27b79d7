import { seedSystemFields } from '../custom-fields/system-fields.service.ts';
import { emitAudit, SYSTEM_ACTOR } from '../foundation/audit/audit.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { Identity, RequestContext, UserSnapshot } from '../foundation/context.ts';
import { effectiveLimits, PLAN_NAMES, type PlanName } from '../kernel/billing-tiers.ts';
import { settings } from '../kernel/config.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import type { CreateOrganizationInput } from './orgs.schemas.ts';

export type OrganizationRow = Awaited<ReturnType<Db['organization']['findUniqueOrThrow']>>;

export const toOrganization = (org: Pick<OrganizationRow, 'id' | 'name' | 'plan' | 'createdAt'>) => ({
  ulid: org.id,
  name: org.name,
  plan: org.plan,
  createdAt: org.createdAt.getTime(),
});

/** Creates an organization owned by `user` on the default plan (TCMS_DEFAULT_PLAN), with its audit event, inside the caller's transaction. */
export async function createOrganizationFor(tx: Db, user: UserSnapshot, name: string) {
  const org = await tx.organization.create({ data: { id: newId(), name, plan: settings().defaultPlan } });
  await tx.membership.create({ data: { id: newId(), orgId: org.id, userId: user.id, role: 'owner' } });
  await seedSystemFields(tx, org.id);
  const identity: Identity = { kind: 'session', user, sessionId: '' };
  await emitAudit(
    tx,
    { identity, org },
    {
      action: 'organization.created',
      entityType: 'organization',
      entityUlid: org.id,
      entityLabel: org.name,
      metadata: { name: org.name },
    },
  );
  return org;
}

/** POST /orgs; `db` is the request's transaction when it runs in one. */
export async function createOrganization(identity: Identity, input: CreateOrganizationInput, db: Db = prisma()) {
  return inTransaction(db, (tx) => createOrganizationFor(tx, identity.user, input.name));
}

/** The active organization's row (only ever the caller's own). */
export async function getOrganization(ctx: RequestContext) {
  authorize(ctx, 'organization.read');
  return prisma().organization.findUniqueOrThrow({ where: { id: ctx.org.id } });
}

/** Operator actions and views (the `tcms` command), never reachable over HTTP. */
export type LimitOverrides = {
  maxProjects?: number | null;
  maxSeats?: number | null;
  maxResultsPerMonth?: number | null;
  requestsPerMinute?: number | null;
  auditExportEnabled?: boolean | null;
};

export async function setOrganizationPlan(orgId: string, plan: string) {
  if (!PLAN_NAMES.includes(plan as PlanName)) {
    throw validationFailed(`Unknown plan "${plan}"; expected one of ${PLAN_NAMES.join(', ')}`);
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
  return inTransaction(prisma(), async (tx) => {
    const { count } = await tx.organization.updateMany({ where: { id: orgId }, data });
    if (count === 0) throw notFound(`Organization ${orgId}`);
    const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId } });
    const limits = effectiveLimits(org);
    await applyProjectLocks(tx, orgId, limits.maxProjects);
    return { org: toOrganization(org), limits };
  });
}

/** An organization as an operator sees it: plan, overrides, effective limits and its projects. */
export async function describeOrganization(orgId: string) {
  const org = await prisma().organization.findUnique({ where: { id: orgId } });
  if (!org) throw notFound(`Organization ${orgId}`);
  const [projects, lockedProjects] = await Promise.all([
    prisma().project.count({ where: { orgId } }),
    prisma().project.count({ where: { orgId, lockedAt: { not: null } } }),
  ]);
  return {
    organization: toOrganization(org),
    plan: org.plan,
    overrides: {
      maxProjects: org.maxProjectsOverride,
      maxSeats: org.maxSeatsOverride,
      maxResultsPerMonth: org.maxResultsPerMonthOverride,
      requestsPerMinute: org.requestsPerMinuteOverride,
      auditExportEnabled: org.auditExportEnabledOverride,
    },
    limits: effectiveLimits(org),
    projects: { total: projects, locked: lockedProjects },
    suspension: org.suspendedAt ? { suspendedAt: org.suspendedAt.getTime(), reason: org.suspendedReason } : null,
  };
}

/**
 * Staff suspension of a whole organization (`tcms org suspend` / `unsuspend`, contract §18): while
 * suspended, every request in it but reading the organization and its subscription answers 403
 * organization_suspended (src/foundation/request.ts). Recorded as an event of the service itself; setting
 * what already holds changes and records nothing (a second suspend keeps the first reason).
 */
export async function setOrganizationSuspension(orgId: string, suspension: { suspended: boolean; reason?: string | undefined }) {
  await inTransaction(prisma(), async (tx) => {
    if (!(await lockRow(tx, 'organizations', orgId))) throw notFound(`Organization ${orgId}`);
    const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId } });
    if ((org.suspendedAt !== null) === suspension.suspended) return;
    const reason = suspension.suspended ? (suspension.reason ?? null) : null;
    await tx.organization.update({
      where: { id: orgId },
      data: { suspendedAt: suspension.suspended ? new Date() : null, suspendedReason: reason },
    });
    await emitAudit(
      tx,
      { identity: SYSTEM_ACTOR, org: { id: orgId } },
      {
        action: suspension.suspended ? 'organization.suspended' : 'organization.unsuspended',
        entityType: 'organization',
        entityUlid: orgId,
        entityLabel: org.name,
        metadata: suspension.suspended ? { reason } : { reason: org.suspendedReason },
      },
    );
  });
}

/** Every organization, oldest first, with its plan and how many members and projects it has. */
export async function listOrganizations() {
  const orgs = await prisma().organization.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { _count: { select: { memberships: true, projects: true } } },
  });
  return orgs.map((org) => ({ ...toOrganization(org), members: org._count.memberships, projects: org._count.projects }));
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
