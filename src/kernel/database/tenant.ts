import { type PrismaClient, prisma } from './client.ts';
import { shareRoute } from './raw-sql.ts';

/** Models that belong to one organization: every query on them is confined to the active one. */
const TENANT_MODELS = new Set([
  'Membership',
  'ApiToken',
  'Project',
  'AuditEvent',
  'Suite',
  'TestCase',
  'TestCaseStep',
  'StagedUpload',
  'StepAttachment',
  'CustomField',
  'CustomFieldOption',
  'CustomFieldProject',
  'TestCaseFieldValue',
  'Comment',
  'Milestone',
  'Environment',
  'ConfigurationGroup',
  'Configuration',
  'TestPlan',
  'TestPlanCase',
  'TestPlanConfiguration',
  'TestRun',
  'TestRunConfiguration',
  'TestRunCase',
  'TestRunCaseStep',
  'Defect',
  'DefectFieldValue',
  'DefectResultLink',
  'ResultAttachment',
  'TestRunResult',
  'TestRunFieldValue',
  'ApiResultUsage',
  'StorageUsage',
  'Invitation',
  'Subscription',
  'UserGroup',
  'UserGroupMember',
  'ProjectAccessMember',
  'ProjectGroupAssignment',
  'Webhook',
  'WebhookDelivery',
  'ShareLink',
]);

/** Models whose rows belong to one project: a project hidden from the caller hides them too. */
const PROJECT_SCOPED_MODELS = new Set([
  'Suite',
  'TestCase',
  'CustomFieldProject',
  'Comment',
  'Milestone',
  'Environment',
  'ConfigurationGroup',
  'Configuration',
  'TestPlan',
  'TestRun',
  'Defect',
  'ProjectAccessMember',
  'ProjectGroupAssignment',
]);

type Args = Record<string, unknown> & { where?: object; data?: unknown; create?: object };

/** What one caller may not see of its organization: private projects off its allowlist. */
type Confinement = { orgId: string; hiddenProjectIds: readonly string[] };

/**
 * The caller's filter AND `orgId`. A filter that itself names `orgId` (say another tenant's) is
 * kept as an extra condition rather than overwritten, so it matches nothing instead of this
 * tenant's rows.
 */
function confineWhere(where: object | undefined, orgId: string): object {
  if (!where || !('orgId' in where)) return { ...where, orgId };
  const { AND, orgId: requested, ...rest } = where as { AND?: unknown; orgId: unknown };
  const and = AND === undefined ? [] : Array.isArray(AND) ? AND : [AND];
  return { ...rest, orgId, AND: [...and, { orgId: requested }] };
}

/** Models without a project column, reached through the parent that has one. */
const PROJECT_PARENT: Record<string, (visible: object) => object> = {
  TestCaseStep: (visible) => ({ testCase: visible }),
  StepAttachment: (visible) => ({ testCase: visible }),
  TestCaseFieldValue: (visible) => ({ testCase: visible }),
  TestPlanCase: (visible) => ({ plan: visible }),
  TestPlanConfiguration: (visible) => ({ plan: visible }),
  TestRunConfiguration: (visible) => ({ run: visible }),
  TestRunCase: (visible) => ({ run: visible }),
  TestRunCaseStep: (visible) => ({ runCase: { run: visible } }),
  TestRunResult: (visible) => ({ run: visible }),
  TestRunFieldValue: (visible) => ({ run: visible }),
  DefectFieldValue: (visible) => ({ defect: visible }),
  DefectResultLink: (visible) => ({ defect: visible }),
  ResultAttachment: (visible) => ({ run: visible }),
  ShareLink: (visible) => ({ run: visible }),
};

/** The filter that leaves out rows of hidden projects, or none. */
function visibleOnly(model: string, hiddenProjectIds: readonly string[]): object | undefined {
  if (hiddenProjectIds.length === 0) return undefined;
  const visible = { projectId: { notIn: hiddenProjectIds } };
  if (model === 'Project') return { id: { notIn: hiddenProjectIds } };
  if (PROJECT_SCOPED_MODELS.has(model)) return visible;
  return PROJECT_PARENT[model]?.(visible);
}

function confine(model: string, operation: string, args: Args | undefined, { orgId, hiddenProjectIds }: Confinement): Args {
  const base: Args = args ?? {};
  // Added as one more AND condition, so that a unique filter (findUnique, update) stays unique.
  const where = () => {
    const confined = confineWhere(base.where, orgId) as { AND?: unknown };
    const visible = visibleOnly(model, hiddenProjectIds);
    if (!visible) return confined;
    const and = confined.AND === undefined ? [] : Array.isArray(confined.AND) ? confined.AND : [confined.AND];
    return { ...confined, AND: [...and, visible] };
  };
  switch (operation) {
    case 'create':
      return { ...base, data: { ...(base.data as object), orgId } };
    case 'createMany':
    case 'createManyAndReturn': {
      const rows = Array.isArray(base.data) ? base.data : [base.data];
      return { ...base, data: rows.map((row: object) => ({ ...row, orgId })) };
    }
    case 'upsert':
      return { ...base, where: where(), create: { ...base.create, orgId } };
    default:
      return { ...base, where: where() };
  }
}

/**
 * The Prisma client seen by one caller in one organization. This is the single place where
 * tenancy and private projects are enforced: reads, updates and deletes of tenant models get
 * `orgId` added to their filter, and creates get it written, whatever the calling service asked
 * for; and for a caller with hidden projects (src/foundation/auth/project-visibility.ts) those projects and
 * every row of theirs are left out, so each route and GraphQL field that reaches them — by code,
 * by an entity ULID, in a list or a count — finds nothing. Only top-level operations are
 * rewritten: a nested create (`steps: { create: [...] }`) must write `orgId` itself, and nested
 * reads are reached only through a parent that was itself filtered. Interactive transactions
 * opened on it keep the confinement.
 */
export function tenantClient(orgId: string, hiddenProjectIds: readonly string[] = []): PrismaClient {
  const base = prisma();
  if (cache.base !== base) {
    cache.base = base;
    cache.clients.clear();
  }
  const key = hiddenProjectIds.length === 0 ? orgId : `${orgId}:${[...hiddenProjectIds].sort().join(',')}`;
  let client = cache.clients.get(key);
  if (!client) {
    client = confinedTo(base, { orgId, hiddenProjectIds });
    if (cache.clients.size >= CACHE_SIZE) cache.clients.delete(cache.clients.keys().next().value as string);
    cache.clients.set(key, client);
  }
  return client;
}

// Extended clients are immutable views of the process client; recent ones are reused.
const CACHE_SIZE = 1000;
const cache = { base: undefined as PrismaClient | undefined, clients: new Map<string, PrismaClient>() };

function confinedTo(base: PrismaClient, confinement: Confinement): PrismaClient {
  const confined = base.$extends({
    name: 'tenant',
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (!TENANT_MODELS.has(model)) return query(args);
          return query(confine(model, operation, args as Args, confinement) as typeof args);
        },
      },
    },
  }) as unknown as PrismaClient;
  return shareRoute(confined, base);
}
