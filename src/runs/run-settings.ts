/**
 * The run settings of decisions §6 with their code defaults. Each resolves project → organization
 * → default, except `defaultAssigneeUserId`, which exists only on projects.
 */
export const RUN_SETTING_DEFAULTS = {
  allowResultsInClosedRuns: true,
  assigneeResultLock: false,
  timeTracking: 'optional' as 'off' | 'optional' | 'required',
  defaultAssigneeUserId: null as string | null,
  requireCommentOnNegativeResult: false,
};

export type RunSettings = typeof RUN_SETTING_DEFAULTS;
export type RunSettingKey = keyof RunSettings;
export const RUN_SETTING_KEYS = Object.keys(RUN_SETTING_DEFAULTS) as RunSettingKey[];
export const PROJECT_ONLY_SETTINGS: readonly RunSettingKey[] = ['defaultAssigneeUserId'];

export type SettingSource = 'project' | 'organization' | 'default';
export type ResolvedRunSettings = { [K in RunSettingKey]: { value: RunSettings[K]; source: SettingSource } };

export type Overrides = Partial<Record<RunSettingKey, unknown>>;

/** The overrides stored in a `run_settings` JSON column. */
export const overridesOf = (stored: unknown): Overrides => (stored && typeof stored === 'object' ? (stored as Overrides) : {});

/** Each setting with the level it comes from; `organization` is null for the organization's own view. */
export function resolveRunSettings(organization: unknown, project: unknown | null): ResolvedRunSettings {
  const org = overridesOf(organization);
  const own = project === null ? {} : overridesOf(project);
  const resolved = {} as Record<RunSettingKey, { value: unknown; source: SettingSource }>;
  for (const key of RUN_SETTING_KEYS) {
    if (own[key] !== undefined && own[key] !== null) resolved[key] = { value: own[key], source: 'project' };
    else if (!PROJECT_ONLY_SETTINGS.includes(key) && org[key] !== undefined && org[key] !== null) {
      resolved[key] = { value: org[key], source: 'organization' };
    } else resolved[key] = { value: RUN_SETTING_DEFAULTS[key], source: 'default' };
  }
  return resolved as ResolvedRunSettings;
}

/** Just the values, as the run services consult them. */
export function settingValues(resolved: ResolvedRunSettings): RunSettings {
  return Object.fromEntries(RUN_SETTING_KEYS.map((key) => [key, resolved[key].value])) as RunSettings;
}
