import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import {
  organizationRunSettingsSchema,
  projectRunSettingsSchema,
  updateOrganizationRunSettingsBodySchema,
  updateProjectRunSettingsBodySchema,
} from '../../src/run-settings/run-settings.schemas.ts';
import {
  getOrganizationRunSettings,
  getProjectRunSettings,
  updateOrganizationRunSettings,
  updateProjectRunSettings,
} from '../../src/run-settings/run-settings.service.ts';
import { defineRoute } from '../route.ts';

export const runSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/{projectId}/run-settings',
    operationId: 'getProjectRunSettings',
    summary: 'Run settings in force for a project, each with its source (project, organization, default)',
    tag: 'Run settings',
    auth: 'org',
    params: projectPathSchema,
    success: { status: 200, description: 'The settings', schema: projectRunSettingsSchema },
    errors: [403, 404],
    handle: ({ ctx, params }) => getProjectRunSettings(ctx, params.projectId),
  }),
  defineRoute({
    method: 'patch',
    path: '/projects/{projectId}/run-settings',
    operationId: 'updateProjectRunSettings',
    summary: "Set or remove (null) project overrides of run settings (owner/admin or the project's owner)",
    tag: 'Run settings',
    auth: 'org',
    params: projectPathSchema,
    body: updateProjectRunSettingsBodySchema,
    success: { status: 200, description: 'The settings', schema: projectRunSettingsSchema },
    errors: [403, 404],
    handle: ({ ctx, params, body }) => updateProjectRunSettings(ctx, params.projectId, body),
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/run-settings',
    operationId: 'getOrganizationRunSettings',
    summary: 'Organization-wide run settings, each with its source (organization, default)',
    tag: 'Run settings',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    success: { status: 200, description: 'The settings', schema: organizationRunSettingsSchema },
    errors: [403, 404],
    handle: ({ ctx }) => getOrganizationRunSettings(ctx),
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{orgUlid}/run-settings',
    operationId: 'updateOrganizationRunSettings',
    summary: 'Set or remove (null) organization-wide run settings (owner/admin)',
    tag: 'Run settings',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    body: updateOrganizationRunSettingsBodySchema,
    success: { status: 200, description: 'The settings', schema: organizationRunSettingsSchema },
    errors: [403, 404],
    handle: ({ ctx, body }) => updateOrganizationRunSettings(ctx, body),
  }),
];
