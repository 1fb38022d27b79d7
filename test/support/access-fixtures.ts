import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';

/*
 * Project access state written straight into its tables, as scenario fixtures for tests that
 * read it (the project team, the memberUlid filter). The routes that set it (PATCH
 * /projects/{id}/access, POST/DELETE …/access/members, groups) are what the rest of the suite
 * tests; these fixtures can move onto them without changing their callers.
 */

type Project = { ulid: string };

export async function setAccessMode(orgId: string, project: Project, mode: 'public' | 'private'): Promise<void> {
  await prisma().project.update({ where: { id: project.ulid, orgId }, data: { accessMode: mode } });
}

/** The member's allowlist row on the project becomes `state` (created if absent). */
export async function setAllowlistRow(orgId: string, project: Project, userId: string, state: 'granted' | 'revoked'): Promise<void> {
  await prisma().projectAccessMember.upsert({
    where: { projectId_userId: { projectId: project.ulid, userId } },
    create: { projectId: project.ulid, userId, orgId, state },
    update: { state, updatedAt: new Date() },
  });
}

export const grant = (orgId: string, project: Project, userId: string) => setAllowlistRow(orgId, project, userId, 'granted');
export const revoke = (orgId: string, project: Project, userId: string) => setAllowlistRow(orgId, project, userId, 'revoked');

/** A user group of `memberIds`, assigned to `projects`; returns its ULID. */
export async function createGroup(orgId: string, memberIds: string[], projects: Project[] = []): Promise<string> {
  const groupId = newId();
  await prisma().userGroup.create({ data: { id: groupId, orgId, name: `Group ${groupId}` } });
  await prisma().userGroupMember.createMany({ data: memberIds.map((userId) => ({ groupId, userId, orgId })) });
  await prisma().projectGroupAssignment.createMany({ data: projects.map((project) => ({ projectId: project.ulid, groupId, orgId })) });
  return groupId;
}
