import { forbidden } from '../../kernel/errors.ts';
import type { RequestContext, Role } from '../context.ts';

/** Which organization roles hold each capability ("Authentication" of api-v1.md). */
const CAPABILITIES = {
  'project.read': ['owner', 'admin', 'member', 'viewer'],
  'project.manage': ['owner', 'admin'],
  // Test design: suites, test cases, step attachments, comments, milestones, environments, configurations.
  'suite.write': ['owner', 'admin', 'member'],
  'case.write': ['owner', 'admin', 'member'],
  'attachment.write': ['owner', 'admin', 'member'],
  'comment.write': ['owner', 'admin', 'member'],
  // Deleting somebody else's comment; editing always stays with its author.
  'comment.moderate': ['owner', 'admin'],
  'planning.write': ['owner', 'admin', 'member'],
  // Defects: creating, editing, deleting them and linking them to results.
  'defect.write': ['owner', 'admin', 'member'],
  'configuration.purge': ['owner', 'admin'],
  'custom_field.manage': ['owner', 'admin'],
  // Plans and runs: creating runs, marking results and every other run mutation.
  'result.execute': ['owner', 'admin', 'member'],
  'run.delete': ['owner', 'admin'],
  // Run settings of the organization and of its projects (org-settings.manage).
  'settings.manage': ['owner', 'admin'],
  'audit.read': ['owner', 'admin'],
  'usage.read': ['owner', 'admin', 'member', 'viewer'],
  'organization.read': ['owner', 'admin', 'member', 'viewer'],
  // Members and invitations: role changes, removals, inviting (contract §8).
  'member.manage': ['owner', 'admin'],
  // User groups: creating, renaming, deleting them and adding or removing their members.
  'group.manage': ['owner', 'admin'],
  // Any project's access (mode, owner, grants, groups); a project's own owner also changes its own.
  'project_access.manage': ['owner', 'admin'],
  // Webhooks: every read and change of them, their deliveries and their secrets (contract §13).
  'webhook.manage': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(ctx: Pick<RequestContext, 'role'>, capability: Capability): boolean {
  return (CAPABILITIES[capability] as readonly Role[]).includes(ctx.role);
}

/** Every service operation starts here; REST and GraphQL cannot skip it. */
export function authorize(ctx: Pick<RequestContext, 'role'>, capability: Capability): void {
  if (!can(ctx, capability)) throw forbidden();
}

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The lower of two roles: a token never acts above its creator's current role. */
export const lowerRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);
export const roleAtMost = (role: Role, ceiling: Role) => RANK[role] <= RANK[ceiling];
