import { z } from 'zod';
import { someFieldOf, ulidSchema } from '../kernel/validation.ts';
import { projectPathSchema } from '../projects/projects.schemas.ts';

export const ACCESS_MODES = ['public', 'private'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

export const ACCESS_STATES = ['granted', 'revoked'] as const;
export type AccessState = (typeof ACCESS_STATES)[number];

export const projectAccessSchema = z
  .object({
    mode: z.enum(ACCESS_MODES),
    ownerUlid: z.string().nullable().meta({ description: "The project's owner (a member of the organization) or null" }),
  })
  .meta({ id: 'ProjectAccess' });

export const updateProjectAccessBodySchema = z
  .strictObject({
    mode: z.enum(ACCESS_MODES).optional(),
    ownerUlid: ulidSchema.nullable().optional().meta({ description: 'A member of the organization, or null for none' }),
  })
  .refine(...someFieldOf(['mode', 'ownerUlid']))
  .meta({ id: 'UpdateProjectAccessRequest', description: 'At least one of mode, ownerUlid', example: { mode: 'private' } });
export type UpdateProjectAccessInput = z.output<typeof updateProjectAccessBodySchema>;

export const accessMemberSchema = z
  .object({
    userUlid: z.string(),
    displayName: z.string(),
    email: z.string(),
    state: z.enum(ACCESS_STATES),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'ProjectAccessMember' });

export const accessMemberListSchema = z.object({ items: z.array(accessMemberSchema) }).meta({ id: 'ProjectAccessMemberList' });

export const grantAccessBodySchema = z
  .strictObject({ userUlid: ulidSchema })
  .meta({ id: 'GrantProjectAccessRequest', example: { userUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' } });
export type GrantAccessInput = z.output<typeof grantAccessBodySchema>;

export const accessGroupSchema = z
  .object({ userGroupUlid: z.string(), name: z.string(), memberCount: z.number().int() })
  .meta({ id: 'ProjectAccessGroup' });

export const accessGroupListSchema = z.object({ items: z.array(accessGroupSchema) }).meta({ id: 'ProjectAccessGroupList' });

export const assignAccessGroupBodySchema = z
  .strictObject({ userGroupUlid: ulidSchema })
  .meta({ id: 'AssignProjectAccessGroupRequest', example: { userGroupUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' } });
export type AssignAccessGroupInput = z.output<typeof assignAccessGroupBodySchema>;

export const accessMemberPathSchema = projectPathSchema.extend({ userUlid: z.string() });
export const accessGroupPathSchema = projectPathSchema.extend({ userGroupUlid: z.string() });
