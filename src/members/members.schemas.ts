import { z } from 'zod';
import { ROLES } from '../foundation/context.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { searchQuerySchema } from '../kernel/validation.ts';

export const memberListQuerySchema = pageQuerySchema()
  .extend(searchQuerySchema.shape)
  .extend({ role: z.enum(ROLES).optional().meta({ description: 'Only members with this role' }) });
export type MemberListQuery = z.output<typeof memberListQuerySchema>;

export const memberPathSchema = z.object({ orgUlid: z.string(), userUlid: z.string() });

export const updateMemberBodySchema = z
  .strictObject({ role: z.enum(ROLES) })
  .meta({ id: 'UpdateMemberRequest', example: { role: 'admin' } });
export type UpdateMemberInput = z.output<typeof updateMemberBodySchema>;

export const memberSchema = z
  .object({
    userUlid: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    avatarKey: z.string().nullable(),
    role: z.enum(ROLES),
    joinedAt: z.number().int(),
    suspendedAt: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Set while staff suspend the member: they keep their seat but cannot act in the organization' }),
  })
  .meta({ id: 'OrganizationMember' });

export const memberPageSchema = pageSchema(memberSchema).meta({ id: 'OrganizationMemberPage' });
