import { z } from 'zod';
import { cursorPageSchema, cursorQuerySchema } from '../kernel/pagination.ts';
import { ulidSchema } from '../kernel/validation.ts';

const name = z.string().min(1).max(200);
const description = z.string().max(2000).nullable();
const parentUlid = ulidSchema.nullable().meta({ description: 'The parent suite of the same project; null for a root suite' });

export const createSuiteBodySchema = z
  .strictObject({ name, parentUlid: parentUlid.optional(), description: description.optional() })
  .meta({ id: 'CreateSuiteRequest' });
export type CreateSuiteInput = z.output<typeof createSuiteBodySchema>;

export const updateSuiteBodySchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    parentUlid: parentUlid.optional(),
    position: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .optional()
      .meta({ description: 'Index among the (new) siblings, from 0; past the end places it last' }),
  })
  .meta({ id: 'UpdateSuiteRequest', description: 'At least one of name, description, parentUlid, position' });
export type UpdateSuiteInput = z.output<typeof updateSuiteBodySchema>;

export const suiteListQuerySchema = cursorQuerySchema;

export const suitePathSchema = z.object({ suiteUlid: z.string() });

export const suiteDisplayIdPathSchema = z.object({
  projectId: z.string().meta({ description: 'The project code' }),
  displayId: z.string().meta({ description: '`<projectCode>-S<number>`', example: 'WEB-S3' }),
});

export const suiteSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    suiteNumber: z.number().int().min(1),
    displayId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    parentUlid: z.string().nullable(),
    position: z.number().int().min(0),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Suite' });

export const suitePageSchema = cursorPageSchema(suiteSchema).meta({
  id: 'SuitePage',
  description: 'The suite tree depth-first, siblings in position order',
});
