import { z } from 'zod';
import { someFieldOf, ulidSchema } from '../kernel/validation.ts';

const TIME_TRACKING = ['off', 'optional', 'required'] as const;

/** Every key takes its value, or null to remove the override (contract §6). */
const overrides = {
  allowResultsInClosedRuns: z
    .boolean()
    .nullable()
    .optional()
    .meta({ description: 'Closed (not aborted) runs accept changes; default true' }),
  assigneeResultLock: z.boolean().nullable().optional().meta({ description: 'Only the assignee may mark a case; default false' }),
  timeTracking: z.enum(TIME_TRACKING).nullable().optional().meta({ description: 'off, optional (default) or required' }),
  requireCommentOnNegativeResult: z.boolean().nullable().optional().meta({ description: 'Client-side only; default false' }),
};

export const updateOrganizationRunSettingsBodySchema = z
  .strictObject(overrides)
  .refine(...someFieldOf(Object.keys(overrides)))
  .meta({ id: 'UpdateOrganizationRunSettingsRequest', description: 'At least one key; null removes the organization override' });

export const updateProjectRunSettingsBodySchema = z
  .strictObject({
    ...overrides,
    defaultAssigneeUserId: ulidSchema.nullable().optional().meta({ description: 'A member of the organization; project only' }),
  })
  .refine(...someFieldOf([...Object.keys(overrides), 'defaultAssigneeUserId']))
  .meta({ id: 'UpdateProjectRunSettingsRequest', description: 'At least one key; null removes the project override' });

export type RunSettingsPatch = z.output<typeof updateProjectRunSettingsBodySchema>;

const setting = <T extends z.ZodType>(value: T) => z.object({ value, source: z.enum(['project', 'organization', 'default']) });

const resolvedSettings = {
  allowResultsInClosedRuns: setting(z.boolean()),
  assigneeResultLock: setting(z.boolean()),
  timeTracking: setting(z.enum(TIME_TRACKING)),
  requireCommentOnNegativeResult: setting(z.boolean()),
};

export const organizationRunSettingsSchema = z
  .object({ settings: z.object(resolvedSettings) })
  .meta({ id: 'OrganizationRunSettings', description: 'Each setting with its source: organization or default' });

export const projectRunSettingsSchema = z
  .object({ settings: z.object({ ...resolvedSettings, defaultAssigneeUserId: setting(z.string().nullable()) }) })
  .meta({ id: 'ProjectRunSettings', description: 'Each setting with its source: project, organization or default' });
