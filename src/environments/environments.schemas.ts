import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { searchQuerySchema, someFieldOf } from '../kernel/validation.ts';

export const ENVIRONMENT_NAME_MAX = 100;
export const SLUG_MAX = 100;
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const name = z.string().min(1).max(ENVIRONMENT_NAME_MAX);
const slug = z.string().min(1).max(SLUG_MAX).regex(SLUG_PATTERN, 'must match ^[a-z0-9]+(-[a-z0-9]+)*$').meta({ example: 'staging-eu' });

export const createEnvironmentBodySchema = z
  .strictObject({
    name,
    slug: slug.optional().meta({ description: 'Derived from the name when absent' }),
  })
  .meta({ id: 'CreateEnvironmentRequest' });
export type CreateEnvironmentInput = z.output<typeof createEnvironmentBodySchema>;

export const updateEnvironmentBodySchema = z
  .strictObject({ name: name.optional(), slug: slug.optional() })
  .refine(...someFieldOf(['name', 'slug']))
  .meta({ id: 'UpdateEnvironmentRequest', description: 'Renaming keeps the slug; send `slug` to change it' });
export type UpdateEnvironmentInput = z.output<typeof updateEnvironmentBodySchema>;

export const environmentListQuerySchema = pageQuerySchema().extend(searchQuerySchema.shape);
export type EnvironmentListQuery = z.output<typeof environmentListQuerySchema>;

export const environmentPathSchema = z.object({ environmentUlid: z.string() });

export const environmentSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    name: z.string(),
    slug: z.string(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Environment' });

export const environmentPageSchema = pageSchema(environmentSchema).meta({ id: 'EnvironmentPage' });
