import { z } from 'zod';

export const createOrganizationBodySchema = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: 'CreateOrganizationRequest' });
export type CreateOrganizationInput = z.output<typeof createOrganizationBodySchema>;

export const orgPathSchema = z.object({ orgUlid: z.string() });

