import { prisma, type PrismaClient } from './client.ts';

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
  'TestRunResult',
  'TestRunFieldValue',
  'ApiResultUsage',
  'StorageUsage',
]);

type Args = Record<string, unknown> & { where?: object; data?: unknown; create?: object };

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

function confine(operation: string, args: Args | undefined, orgId: string): Args {
  const base: Args = args ?? {};
  switch (operation) {
    case 'create':
      return { ...base, data: { ...(base.data as object), orgId } };
    case 'createMany':
    case 'createManyAndReturn': {
      const rows = Array.isArray(base.data) ? base.data : [base.data];
      return { ...base, data: rows.map((row: object) => ({ ...row, orgId })) };
    }
    case 'upsert':
      return { ...base, where: confineWhere(base.where, orgId), create: { ...base.create, orgId } };
    default:
      return { ...base, where: confineWhere(base.where, orgId) };
  }
}

/**
 * The Prisma client seen by one organization. This is the single place where tenancy is
 * enforced: reads, updates and deletes of tenant models get `orgId` added to their filter, and
 * creates get it written, whatever the calling service asked for. Only top-level operations are
 * rewritten: a nested create (`steps: { create: [...] }`) must write `orgId` itself. Interactive transactions
 * opened on it keep the confinement.
 */
export function tenantClient(orgId: string): PrismaClient {
  const base = prisma();
  if (cache.base !== base) {
    cache.base = base;
    cache.clients.clear();
  }
  let client = cache.clients.get(orgId);
  if (!client) {
    client = confinedTo(base, orgId);
    if (cache.clients.size >= CACHE_SIZE) cache.clients.delete(cache.clients.keys().next().value as string);
    cache.clients.set(orgId, client);
  }
  return client;
}

// Extended clients are immutable views of the process client; recent ones are reused.
const CACHE_SIZE = 1000;
const cache = { base: undefined as PrismaClient | undefined, clients: new Map<string, PrismaClient>() };

function confinedTo(base: PrismaClient, orgId: string): PrismaClient {
  return base.$extends({
    name: 'tenant',
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (!TENANT_MODELS.has(model)) return query(args);
          return query(confine(operation, args as Args, orgId) as typeof args);
        },
      },
    },
  }) as unknown as PrismaClient;
}
