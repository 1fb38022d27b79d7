import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { someFieldOf } from '../kernel/validation.ts';

export const CONFIGURATION_NAME_MAX = 200;
/** Positions are PostgreSQL integers. */
/** Positions are sort keys: explicit ones stay far below the column's limit, so appending after them never overflows. */
const POSITION_MAX = 1_000_000;

const name = z.string().min(1).max(CONFIGURATION_NAME_MAX);
const position = z.number().int().min(0).max(POSITION_MAX);

export const createConfigurationGroupBodySchema = z
  .strictObject({
    name,
    position: position.optional().meta({ description: 'Sort key; appended after the last live group when absent' }),
  })
  .meta({ id: 'CreateConfigurationGroupRequest' });
export type CreateConfigurationGroupInput = z.output<typeof createConfigurationGroupBodySchema>;

export const updateConfigurationGroupBodySchema = z
  .strictObject({ name: name.optional(), position: position.optional() })
  .refine(...someFieldOf(['name', 'position']))
  .meta({ id: 'UpdateConfigurationGroupRequest', description: 'At least one field' });
export type UpdateConfigurationGroupInput = z.output<typeof updateConfigurationGroupBodySchema>;

export const createConfigurationBodySchema = z.strictObject({ name }).meta({ id: 'CreateConfigurationRequest' });
export type CreateConfigurationInput = z.output<typeof createConfigurationBodySchema>;

export const updateConfigurationBodySchema = z
  .strictObject({ name: name.optional(), position: position.optional() })
  .refine(...someFieldOf(['name', 'position']))
  .meta({ id: 'UpdateConfigurationRequest', description: 'At least one field' });
export type UpdateConfigurationInput = z.output<typeof updateConfigurationBodySchema>;

export const configurationGroupListQuerySchema = pageQuerySchema();
export type ConfigurationGroupListQuery = z.output<typeof configurationGroupListQuerySchema>;

export const deleteConfigurationQuerySchema = z.object({
  purge: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: '`true` hard-deletes the value (owner/admin), also one already soft-deleted' }),
});

export const configurationGroupPathSchema = z.object({ groupUlid: z.string() });
export const configurationPathSchema = z.object({ configurationUlid: z.string() });

export const configurationSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    groupUlid: z.string(),
    name: z.string(),
    position: z.number().int(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Configuration' });

export const configurationGroupSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    name: z.string(),
    position: z.number().int(),
    values: z.array(configurationSchema).meta({ description: 'Live values by position, then ULID' }),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'ConfigurationGroup' });

export const configurationGroupPageSchema = pageSchema(configurationGroupSchema).meta({ id: 'ConfigurationGroupPage' });
