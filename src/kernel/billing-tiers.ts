/** The billing plans an operator can put an organization on (contract §2). */
export const PLAN_NAMES = ['free', 'team', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** The billing providers this build has (src/billing/ implements each); TCMS_BILLING_PROVIDER names one. */
export const BILLING_PROVIDER_NAMES = ['local'] as const;
export type BillingProviderName = (typeof BILLING_PROVIDER_NAMES)[number];

const GIB = 1024 ** 3;

/** The billing plans of organizations (contract §2) and their ceilings. `null` means unlimited. */
export const PLAN_TIERS = {
  free: { maxProjects: 3, maxSeats: 3, maxResultsPerMonth: 5_000, requestsPerMinute: 60, auditExportEnabled: false, maxStorageBytes: GIB },
  team: {
    maxProjects: 50,
    maxSeats: 25,
    maxResultsPerMonth: 100_000,
    requestsPerMinute: 600,
    auditExportEnabled: true,
    maxStorageBytes: 100 * GIB,
  },
  enterprise: {
    maxProjects: null,
    maxSeats: null,
    maxResultsPerMonth: 5_000_000,
    requestsPerMinute: 6_000,
    auditExportEnabled: true,
    maxStorageBytes: null,
  },
} as const satisfies Record<PlanName, OrganizationLimits>;

export type OrganizationLimits = {
  maxProjects: number | null;
  maxSeats: number | null;
  maxResultsPerMonth: number | null;
  requestsPerMinute: number;
  auditExportEnabled: boolean;
  /** Staged uploads, step attachments and avatars together (src/foundation/storage/storage.service.ts). */
  maxStorageBytes: number | null;
};

export type OrganizationPlanRow = {
  plan: string;
  maxProjectsOverride: number | null;
  maxSeatsOverride: number | null;
  maxResultsPerMonthOverride: number | null;
  requestsPerMinuteOverride: number | null;
  auditExportEnabledOverride: boolean | null;
};

/** The ceilings in force: the plan's, with each per-organization override winning. */
export function effectiveLimits(org: OrganizationPlanRow): OrganizationLimits {
  const tier = PLAN_TIERS[org.plan as PlanName] ?? PLAN_TIERS.free;
  return {
    maxProjects: org.maxProjectsOverride ?? tier.maxProjects,
    maxSeats: org.maxSeatsOverride ?? tier.maxSeats,
    maxResultsPerMonth: org.maxResultsPerMonthOverride ?? tier.maxResultsPerMonth,
    requestsPerMinute: org.requestsPerMinuteOverride ?? tier.requestsPerMinute,
    auditExportEnabled: org.auditExportEnabledOverride ?? tier.auditExportEnabled,
    maxStorageBytes: tier.maxStorageBytes,
  };
}
