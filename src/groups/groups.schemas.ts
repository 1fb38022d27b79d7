import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { searchQuerySchema, someFieldOf, ulidSchema } from '../kernel/validation.ts';
import { projectSchema } from '../projects/projects.schemas.ts';

export const GROUP_NAME_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 2000;
/** The most users one request adds to a group (or seeds it with). */
export const GROUP_MEMBERS_MAX = 500;
/** The most projects one request assigns a group to (or seeds it with): "Limits" of api-v1.md. */
export const GROUP_PROJECTS_MAX = 200;

const name = z.string().trim().min(1).max(GROUP_NAME_MAX);
const description = z.string().max(GROUP_DESCRIPTION_MAX).nullable();
// Repeated ULIDs are deduplicated by the service, not refused.
const userUlids = z.array(ulidSchema).max(GROUP_MEMBERS_MAX);
const projectUlids = z.array(ulidSchema).max(GROUP_PROJECTS_MAX);

export const createGroupBodySchema = z
  .strictObject({
    name,
    description: description.optional(),
    memberUserUlids: userUlids.optional().meta({ description: 'Members to seed the group with (organization members)' }),
    projectUlids: projectUlids.optional().meta({ description: 'Projects to assign the group to, public ones included' }),
  })
  .meta({ id: 'CreateUserGroupRequest', example: { name: 'QA team', description: 'Release testers' } });
export type CreateGroupInput = z.output<typeof createGroupBodySchema>;

export const updateGroupBodySchema = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine(...someFieldOf(['name', 'description']))
  .meta({
    id: 'UpdateUserGroupRequest',
    description: 'At least one field; description takes null to clear. No other key (members and projects have their own routes)',
  });
export type UpdateGroupInput = z.output<typeof updateGroupBodySchema>;

export const addGroupMembersBodySchema = z
  .strictObject({
    userUlid: ulidSchema.optional(),
    userUlids: userUlids.min(1).optional(),
  })
  .refine((body) => (body.userUlid === undefined) !== (body.userUlids === undefined), {
    message: 'Provide exactly one of userUlid, userUlids',
  })
  .meta({
    id: 'AddUserGroupMembersRequest',
    description: 'Exactly one of userUlid, userUlids',
    example: { userUlid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' },
  });
export type AddGroupMembersInput = z.output<typeof addGroupMembersBodySchema>;

export const assignGroupProjectsBodySchema = z
  .strictObject({ projectUlids: projectUlids.min(1) })
  .meta({ id: 'AssignUserGroupProjectsRequest', example: { projectUlids: ['01JD3Z8Q4V5W6X7Y8Z9A0B1C2D'] } });
export type AssignGroupProjectsInput = z.output<typeof assignGroupProjectsBodySchema>;

export const groupListQuerySchema = pageQuerySchema().extend(searchQuerySchema.shape);
export type GroupListQuery = z.output<typeof groupListQuerySchema>;

export const groupPageQuerySchema = pageQuerySchema();

export const groupPathSchema = z.object({ userGroupUlid: z.string() });
export const groupMemberPathSchema = groupPathSchema.extend({ userUlid: z.string() });

export const groupSchema = z
  .object({
    ulid: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    memberCount: z.number().int(),
    projectCount: z.number().int().meta({ description: 'Every project the group is assigned to' }),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'UserGroup' });

export const groupPageSchema = pageSchema(groupSchema).meta({ id: 'UserGroupPage' });

export const groupMemberSchema = z
  .object({ userUlid: z.string(), displayName: z.string(), email: z.string(), addedAt: z.number().int() })
  .meta({ id: 'UserGroupMember' });

export const groupMemberPageSchema = pageSchema(groupMemberSchema).meta({ id: 'UserGroupMemberPage' });

export const groupProjectPageSchema = pageSchema(projectSchema).meta({
  id: 'UserGroupProjectPage',
  description: 'Projects the group is assigned to that the caller can see',
});
