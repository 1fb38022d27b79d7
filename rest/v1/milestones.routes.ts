import {
  createMilestoneBodySchema,
  milestoneListQuerySchema,
  milestonePageSchema,
  milestonePathSchema,
  milestoneSchema,
  updateMilestoneBodySchema,
} from '../../src/milestones/milestones.schemas.ts';
import {
  createMilestone,
  deleteMilestone,
  listMilestones,
  resolveMilestone,
  toMilestone,
  updateMilestone,
} from '../../src/milestones/milestones.service.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

export const milestoneRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/milestones',
    operationId: 'listMilestones',
    summary: 'Live milestones of a project, oldest first',
    tag: 'Milestones',
    auth: 'org',
    params: projectPathSchema,
    query: milestoneListQuerySchema,
    success: { status: 200, description: 'A page of milestones', schema: milestonePageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listMilestones(ctx, params.projectId, query);
      return { ...page, items: page.items.map(toMilestone) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/milestones',
    operationId: 'createMilestone',
    summary: 'Create a milestone',
    tag: 'Milestones',
    auth: 'org',
    params: projectPathSchema,
    body: createMilestoneBodySchema,
    success: { status: 201, description: 'The milestone', schema: milestoneSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toMilestone(await createMilestone(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/milestones/{milestoneUlid}',
    operationId: 'getMilestone',
    summary: 'One live milestone',
    tag: 'Milestones',
    auth: 'org',
    params: milestonePathSchema,
    success: { status: 200, description: 'The milestone', schema: milestoneSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toMilestone(await resolveMilestone(ctx, params.milestoneUlid)),
  }),
  defineRoute({
    method: 'patch',
    path: '/milestones/{milestoneUlid}',
    operationId: 'updateMilestone',
    summary: 'Rename, describe, reschedule or complete a milestone',
    tag: 'Milestones',
    auth: 'org',
    params: milestonePathSchema,
    body: updateMilestoneBodySchema,
    success: { status: 200, description: 'The milestone', schema: milestoneSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toMilestone(await updateMilestone(ctx, params.milestoneUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/milestones/{milestoneUlid}',
    operationId: 'deleteMilestone',
    summary: 'Delete a milestone (soft delete: it is no longer live)',
    tag: 'Milestones',
    auth: 'org',
    params: milestonePathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteMilestone(ctx, params.milestoneUlid);
      return new Reply(204, undefined);
    },
  }),
];
