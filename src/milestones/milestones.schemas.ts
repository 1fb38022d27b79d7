import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { LAST_RENDERABLE_MS, searchQuerySchema, someFieldOf } from '../kernel/validation.ts';

/** Epoch milliseconds as the contract writes instants (0 .. the largest JavaScript Date). */
export const epochMsSchema = z
  .number()
  .int()
  .min(0)
  .max(LAST_RENDERABLE_MS, 'must be before the year 10000')
  .meta({ example: 1767225600000 });

export const MILESTONE_NAME_MAX = 200;
export const MILESTONE_DESCRIPTION_MAX = 2000;

const name = z.string().min(1).max(MILESTONE_NAME_MAX);
const description = z.string().max(MILESTONE_DESCRIPTION_MAX).nullable();

export const createMilestoneBodySchema = z
  .strictObject({
    name,
    description: description.optional(),
    dueAt: epochMsSchema.nullable().optional(),
  })
  .meta({ id: 'CreateMilestoneRequest' });
export type CreateMilestoneInput = z.output<typeof createMilestoneBodySchema>;

export const updateMilestoneBodySchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    dueAt: epochMsSchema.nullable().optional(),
    completedAt: epochMsSchema.nullable().optional(),
  })
  .refine(...someFieldOf(['name', 'description', 'dueAt', 'completedAt']))
  .meta({ id: 'UpdateMilestoneRequest', description: 'At least one field; description, dueAt and completedAt take null to clear' });
export type UpdateMilestoneInput = z.output<typeof updateMilestoneBodySchema>;

export const milestoneListQuerySchema = pageQuerySchema().extend(searchQuerySchema.shape);
export type MilestoneListQuery = z.output<typeof milestoneListQuerySchema>;

export const milestonePathSchema = z.object({ milestoneUlid: z.string() });

export const milestoneSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    dueAt: z.number().int().nullable(),
    completedAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Milestone' });

export const milestonePageSchema = pageSchema(milestoneSchema).meta({ id: 'MilestonePage' });
