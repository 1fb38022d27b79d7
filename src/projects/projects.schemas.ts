import { z } from 'zod';
import { pageQuerySchema, pageSchema, searchQuerySchema } from '../validation.ts';

export const PROJECT_CODE_PATTERN = /^[A-Z][A-Z0-9]*$/;

const name = z.string().min(1).max(200);
const description = z.string().max(2000).nullable();

export const createProjectBodySchema = z
  .strictObject({
    name,
    id: z.string().min(1).max(50).regex(PROJECT_CODE_PATTERN, 'must match ^[A-Z][A-Z0-9]*$').meta({ example: 'WEB' }),
    description: description.optional(),
  })
  .meta({ id: 'CreateProjectRequest' });
export type CreateProjectInput = z.output<typeof createProjectBodySchema>;

// `id` is accepted by the parser so that the service can answer 422 immutable_field for it.
export const updateProjectBodySchema = z
  .strictObject({ name: name.optional(), description: description.optional(), id: z.unknown().optional() })
  .meta({ id: 'UpdateProjectRequest', description: 'At least one of name, description; `id` answers 422 immutable_field' });
export type UpdateProjectInput = z.output<typeof updateProjectBodySchema>;

export const projectListQuerySchema = pageQuerySchema().extend(searchQuerySchema.shape);
export type ProjectListQuery = z.output<typeof projectListQuerySchema>;

export const projectPathSchema = z.object({ projectId: z.string().meta({ description: 'The project code' }) });

export const projectSchema = z
  .object({
    ulid: z.string(),
    name: z.string(),
    id: z.string(),
    description: z.string().nullable(),
    avatarKey: z.string().nullable(),
    avatarVersion: z.number().int().min(0),
    lockedAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Project' });

export const projectPageSchema = pageSchema(projectSchema).meta({ id: 'ProjectPage' });

export const avatarSchema = z
  .object({ avatarKey: z.string().nullable(), avatarVersion: z.number().int().min(0) })
  .meta({ id: 'ProjectAvatar' });
