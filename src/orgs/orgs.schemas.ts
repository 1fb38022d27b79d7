import { z } from 'zod';

export const createOrganizationBodySchema = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: 'CreateOrganizationRequest' });
export type CreateOrganizationInput = z.output<typeof createOrganizationBodySchema>;

export const orgPathSchema = z.object({ orgUlid: z.string() });

export const organizationSchema = z
  .object({ ulid: z.string(), name: z.string(), plan: z.string(), createdAt: z.number().int() })
  .meta({ id: 'Organization' });

export const membershipSchema = z
  .object({ ulid: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member', 'viewer']) })
  .meta({ id: 'OrganizationMembership' });
