import { z } from 'zod';
import { LAST_RENDERABLE_MS } from '../kernel/validation.ts';

export const TOKEN_ROLES = ['admin', 'member', 'viewer'] as const;

export const createTokenBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    role: z.enum(TOKEN_ROLES).optional(),
    expiresAt: z
      .number()
      .int()
      .positive()
      .max(LAST_RENDERABLE_MS, 'must be before the year 10000')
      .optional()
      .meta({ description: 'Epoch ms; must be in the future', example: 1893456000000 }),
  })
  .meta({ id: 'CreateApiTokenRequest', example: { name: 'CI pipeline', role: 'member', expiresAt: 1893456000000 } });
export type CreateTokenInput = z.output<typeof createTokenBodySchema>;

export const apiTokenSchema = z
  .object({
    ulid: z.string(),
    name: z.string(),
    role: z.enum(TOKEN_ROLES),
    prefix: z.string(),
    createdAt: z.number().int(),
    lastUsedAt: z.number().int().nullable(),
    expiresAt: z.number().int().nullable(),
  })
  .meta({ id: 'ApiToken' });

export const createdTokenSchema = apiTokenSchema
  .omit({ lastUsedAt: true })
  .extend({ token: z.string().meta({ description: 'The secret; shown only in this response' }) })
  .meta({ id: 'CreatedApiToken' });

export const tokenPathSchema = z.object({ tokenUlid: z.string() });
