import { z } from 'zod';

export const createOrganizationBodySchema = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: 'CreateOrganizationRequest' });
export type CreateOrganizationInput = z.output<typeof createOrganizationBodySchema>;

export const orgPathSchema = z.object({ orgUlid: z.string() });

/** The billing plans an operator can put an organization on (decisions §2). */
export const PLAN_NAMES = ['free', 'team', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];
