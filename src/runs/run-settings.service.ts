import { emitAudit } from '../audit/audit.service.ts';
import { change, type Change } from '../audit/clip.ts';
import { authorize } from '../auth/policy.ts';
import type { RequestContext } from '../context.ts';
import { assertMembers } from '../custom-fields/field-values.ts';
import type { Db, Prisma } from '../database/client.ts';
import { resolveProject } from '../projects/projects.service.ts';
import type { RunSettingsPatch } from './run-settings.schemas.ts';
import { overridesOf, PROJECT_ONLY_SETTINGS, resolveRunSettings, RUN_SETTING_KEYS, type Overrides, type ResolvedRunSettings } from './run-settings.ts';
import { inTransaction } from '../database/transactions.ts';

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
 * PATCH /projects/{code}/run-settings (owner/admin): merges the overrides under the project's row
 * lock, so concurrent patches of different keys all survive; run_settings.updated when any moved.
 */
export async function updateProjectRunSettings(ctx: RequestContext, projectCode: string, patch: RunSettingsPatch) {
  authorize(ctx, 'settings.manage');
  return inTransaction(ctx.db, async (tx) => {
    const project = await resolveProject(ctx, projectCode, { db: tx });
    if (patch.defaultAssigneeUserId) await assertMembers(tx, [patch.defaultAssigneeUserId]);
    const [locked] = await tx.$queryRaw<Array<{ run_settings: unknown }>>`
      SELECT run_settings FROM projects WHERE id = ${project.id} AND org_id = ${ctx.org.id} FOR UPDATE`;
    const { next, changes } = applyPatch(locked!.run_settings, patch);
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
    const [locked] = await tx.$queryRaw<Array<{ run_settings: unknown; name: string }>>`
      SELECT run_settings, name FROM organizations WHERE id = ${ctx.org.id} FOR UPDATE`;
    const { next, changes } = applyPatch(locked!.run_settings, patch);
    if (changes.length > 0) {
      await tx.organization.update({ where: { id: ctx.org.id }, data: { runSettings: next as Prisma.InputJsonObject } });
      await emitAudit(tx, ctx, {
        action: 'run_settings.updated',
        entityType: 'organization',
        entityUlid: ctx.org.id,
        entityLabel: locked!.name,
        metadata: { scope: 'organization', changes },
      });
    }
    return organizationView(resolveRunSettings(next, null));
  });
}
