import {
  avatarSchema,
  createProjectBodySchema,
  projectListQuerySchema,
  projectPageSchema,
  projectPathSchema,
  projectSchema,
  updateProjectBodySchema,
} from '../../src/projects/projects.schemas.ts';
import {
  createProject,
  deleteProject,
  listProjects,
  resolveProject,
  removeProjectAvatar,
  setProjectAvatar,
  toProject,
  updateProject,
} from '../../src/projects/projects.service.ts';
import { AVATAR_MAX_BYTES } from '../../src/projects/avatar-image.ts';
import { defineRoute, Reply } from '../route.ts';

export const projectRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects',
    summary: 'Create a project (owner/admin)',
    tag: 'Projects',
    auth: 'org',
    body: createProjectBodySchema,
    success: { status: 201, description: 'The project', schema: projectSchema },
    errors: [403, 409],
    handle: async ({ ctx, body }) => toProject(await createProject(ctx, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/projects',
    summary: 'Projects of the organization',
    tag: 'Projects',
    auth: 'org',
    query: projectListQuerySchema,
    success: { status: 200, description: 'A page of projects', schema: projectPageSchema },
    handle: async ({ ctx, query }) => {
      const page = await listProjects(ctx, query);
      return { ...page, items: page.items.map(toProject) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}',
    summary: 'One project',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    success: { status: 200, description: 'The project', schema: projectSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toProject(await resolveProject(ctx, params.projectId)),
  }),
  defineRoute({
    method: 'patch',
    path: '/projects/{projectId}',
    summary: 'Rename or describe a project (owner/admin)',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    body: updateProjectBodySchema,
    success: { status: 200, description: 'The project', schema: projectSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => toProject(await updateProject(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/projects/{projectId}',
    summary: 'Delete a project (owner/admin); also served by a locked project',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteProject(ctx, params.projectId);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/avatar',
    summary: 'Upload the project avatar (PNG, JPEG or WebP up to 5 MiB; stored as 256×256 WebP)',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    upload: { maxBytes: AVATAR_MAX_BYTES, description: 'PNG, JPEG or WebP image' },
    success: { status: 200, description: 'The new avatar key and version', schema: avatarSchema },
    errors: [403, 404, 413, 415],
    handle: ({ ctx, params, file }) => setProjectAvatar(ctx, params.projectId, file as Buffer),
  }),
  defineRoute({
    method: 'delete',
    path: '/projects/{projectId}/avatar',
    summary: 'Remove the project avatar',
    tag: 'Projects',
    auth: 'org',
    params: projectPathSchema,
    success: { status: 200, description: 'Avatar removed', schema: avatarSchema },
    errors: [403, 404],
    handle: ({ ctx, params }) => removeProjectAvatar(ctx, params.projectId),
  }),
];
