import { prisma, type PrismaClient } from './client.ts';

/** Models that belong to one organization: every query on them is confined to the active one. */
const TENANT_MODELS = new Set(['Membership', 'ApiToken', 'Project', 'AuditEvent']);

type Args = Record<string, unknown> & { where?: object; data?: unknown; create?: object };

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
      return { ...base, where: { ...base.where, orgId }, create: { ...base.create, orgId } };
    default:
      return { ...base, where: { ...base.where, orgId } };
  }
}

/**
 * The Prisma client seen by one organization. This is the single place where tenancy is
 * enforced: reads, updates and deletes of tenant models get `orgId` added to their filter, and
 * creates get it written, whatever the calling service asked for. Interactive transactions
 * opened on it keep the confinement.
 */
export function tenantClient(orgId: string): PrismaClient {
  return prisma().$extends({
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
