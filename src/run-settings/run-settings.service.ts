import { assertMembers } from '../foundation/actors.ts';
import { emitAudit } from '../foundation/audit/audit.service.ts';
import { type Change, change } from '../foundation/audit/clip.ts';
import { authorize, can } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { forbidden } from '../kernel/errors.ts';
import { isProjectOwner } from '../project-access/project-access.service.ts';
import { resolveProject } from '../projects/projects.service.ts';
import type { RunSettingsPatch } from './run-settings.schemas.ts';

/**
 * The run settings of contract §6 with their code defaults. Each resolves project → organization
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

const organizationOverrides = async (db: Db, ctx: RequestContext) =>
  (await db.organization.findUniqueOrThrow({ where: { id: ctx.org.id }, select: { runSettings: true } })).runSettings;

/** The organization's view: the settings that exist at its level (none project-only). */
function organizationView(resolved: ResolvedRunSettings) {
  const view: Partial<ResolvedRunSettings> = { ...resolved };
  for (const key of PROJECT_ONLY_SETTINGS) delete view[key];
  return { settings: view };
}

/** `patch` applied to stored overrides (null removes one), with a `changes` entry per override that moved. */
function applyPatch(stored: unknown, patch: RunSettingsPatch): { next: Overrides; changes: Change[] } {
  const next: Overrides = { ...overridesOf(stored) };
  const changes: Change[] = [];
  // In the settings' own order, whatever the order of the request's keys.
  for (const key of RUN_SETTING_KEYS) {
    const value = patch[key];
    if (value === undefined) continue;
    const from = (next[key] ?? null) as Change['from'];
    if (from === value) continue;
    changes.push(change(key, from, value));
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return { next, changes };
}

/** GET /projects/{code}/run-settings: every setting with its source (any member). */
export async function getProjectRunSettings(ctx: RequestContext, projectCode: string) {
  const project = await resolveProject(ctx, projectCode);
  return { settings: resolveRunSettings(await organizationOverrides(ctx.db, ctx), project.runSettings) };
}

/** GET /orgs/{orgUlid}/run-settings: the organization-wide settings with their source (any member). */
export async function getOrganizationRunSettings(ctx: RequestContext) {
  authorize(ctx, 'organization.read');
  return organizationView(resolveRunSettings(await organizationOverrides(ctx.db, ctx), null));
}

/**
 * PATCH /projects/{code}/run-settings (owner/admin, or the project's current owner): merges the
 * overrides under the project's row lock, so concurrent patches of different keys all survive;
 * run_settings.updated when any moved.
 */
export async function updateProjectRunSettings(ctx: RequestContext, projectCode: string, patch: RunSettingsPatch) {
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    await lockRow(tx, 'projects', project.id, { orgId: ctx.org.id });
    const locked = await tx.project.findUniqueOrThrow({ where: { id: project.id }, select: { runSettings: true, ownerUserId: true } });
    if (!can(ctx, 'settings.manage') && !isProjectOwner(ctx, locked)) throw forbidden();
    if (patch.defaultAssigneeUserId) await assertMembers(tx, [patch.defaultAssigneeUserId]);
    const { next, changes } = applyPatch(locked.runSettings, patch);
    if (changes.length > 0) {
      await tx.project.update({ where: { id: project.id }, data: { runSettings: next as Prisma.InputJsonObject } });
      await emitAudit(tx, ctx, {
        action: 'run_settings.updated',
        entityType: 'project',
        entityUlid: project.id,
        entityLabel: project.name,
        metadata: { scope: 'project', changes },
      });
    }
    return { settings: resolveRunSettings(await organizationOverrides(tx, ctx), next) };
  });
}

/** PATCH /orgs/{orgUlid}/run-settings (owner/admin), merged under the organization's row lock. */
export async function updateOrganizationRunSettings(ctx: RequestContext, patch: RunSettingsPatch) {
  authorize(ctx, 'settings.manage');
  return inTransaction(ctx.db, async (tx) => {
    await lockRow(tx, 'organizations', ctx.org.id);
    const locked = await tx.organization.findUniqueOrThrow({ where: { id: ctx.org.id }, select: { runSettings: true, name: true } });
    const { next, changes } = applyPatch(locked.runSettings, patch);
    if (changes.length > 0) {
      await tx.organization.update({ where: { id: ctx.org.id }, data: { runSettings: next as Prisma.InputJsonObject } });
      await emitAudit(tx, ctx, {
        action: 'run_settings.updated',
        entityType: 'organization',
        entityUlid: ctx.org.id,
        entityLabel: locked.name,
        metadata: { scope: 'organization', changes },
      });
    }
    return organizationView(resolveRunSettings(next, null));
  });
}
