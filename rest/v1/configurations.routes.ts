import {
  configurationGroupListQuerySchema,
  configurationGroupPageSchema,
  configurationGroupPathSchema,
  configurationGroupSchema,
  configurationPathSchema,
  configurationSchema,
  createConfigurationBodySchema,
  createConfigurationGroupBodySchema,
  deleteConfigurationQuerySchema,
  updateConfigurationBodySchema,
  updateConfigurationGroupBodySchema,
} from '../../src/configurations/configurations.schemas.ts';
import {
  createConfiguration,
  createConfigurationGroup,
  deleteConfiguration,
  deleteConfigurationGroup,
  listConfigurationGroups,
  resolveConfigurationGroup,
  toConfiguration,
  toConfigurationGroup,
  updateConfiguration,
  updateConfigurationGroup,
} from '../../src/configurations/configurations.service.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

export const configurationRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/configuration-groups',
    summary: 'Live configuration groups of a project (by position, then ULID) with their live values',
    tag: 'Configurations',
    auth: 'org',
    params: projectPathSchema,
    query: configurationGroupListQuerySchema,
    success: { status: 200, description: 'A page of configuration groups', schema: configurationGroupPageSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      const page = await listConfigurationGroups(ctx, params.projectId, query);
      return { ...page, items: page.items.map(toConfigurationGroup) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/projects/{projectId}/configuration-groups',
    summary: 'Create a configuration group (name unique among live groups of the project)',
    tag: 'Configurations',
    auth: 'org',
    params: projectPathSchema,
    body: createConfigurationGroupBodySchema,
    success: { status: 201, description: 'The configuration group', schema: configurationGroupSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toConfigurationGroup(await createConfigurationGroup(ctx, params.projectId, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/configuration-groups/{groupUlid}',
    summary: 'One live configuration group with its live values',
    tag: 'Configurations',
    auth: 'org',
    params: configurationGroupPathSchema,
    success: { status: 200, description: 'The configuration group', schema: configurationGroupSchema },
    errors: [403, 404],
    handle: async ({ ctx, params }) => toConfigurationGroup(await resolveConfigurationGroup(ctx, params.groupUlid)),
  }),
  defineRoute({
    method: 'patch',
    path: '/configuration-groups/{groupUlid}',
    summary: 'Rename or move a configuration group',
    tag: 'Configurations',
    auth: 'org',
    params: configurationGroupPathSchema,
    body: updateConfigurationGroupBodySchema,
    success: { status: 200, description: 'The configuration group', schema: configurationGroupSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toConfigurationGroup(await updateConfigurationGroup(ctx, params.groupUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/configuration-groups/{groupUlid}',
    summary: 'Delete a configuration group and its values (soft delete)',
    tag: 'Configurations',
    auth: 'org',
    params: configurationGroupPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteConfigurationGroup(ctx, params.groupUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/configuration-groups/{groupUlid}/values',
    summary: 'Add a value after the last one (name unique among live values of the group)',
    tag: 'Configurations',
    auth: 'org',
    params: configurationGroupPathSchema,
    body: createConfigurationBodySchema,
    success: { status: 201, description: 'The configuration value', schema: configurationSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toConfiguration(await createConfiguration(ctx, params.groupUlid, body)),
  }),
  defineRoute({
    method: 'patch',
    path: '/configurations/{configurationUlid}',
    summary: 'Rename or move a configuration value',
    tag: 'Configurations',
    auth: 'org',
    params: configurationPathSchema,
    body: updateConfigurationBodySchema,
    success: { status: 200, description: 'The configuration value', schema: configurationSchema },
    errors: [403, 404, 409],
    handle: async ({ ctx, params, body }) => toConfiguration(await updateConfiguration(ctx, params.configurationUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/configurations/{configurationUlid}',
    summary: 'Delete a configuration value (soft); `?purge=true` hard-deletes it (owner/admin)',
    tag: 'Configurations',
    auth: 'org',
    params: configurationPathSchema,
    query: deleteConfigurationQuerySchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => {
      await deleteConfiguration(ctx, params.configurationUlid, { purge: query.purge });
      return new Reply(204, undefined);
    },
  }),
];
