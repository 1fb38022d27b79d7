import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { setMemberSuspension } from '../../src/members/members.service.ts';
import { type Caller, expectError, joinAs, signUp, tokenFor, uniqueEmail, useTestApp } from '../support/app.ts';
import { invite } from '../support/invitations.ts';

const t = useTestApp();

const seatUsage = async (caller: Caller) => {
  const response = await t.http.get(`/api/v1/orgs/${caller.orgId}/seat-usage`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { used: number; limit: number | null };
};

describe('GET /orgs/{orgUlid}/seat-usage', () => {
  it('counts owners, admins and members; never viewers, neither members nor invitations', async () => {
    const owner = await signUp(t.http);
    expect(await seatUsage(owner)).toEqual({ used: 1, limit: 3 });
    await joinAs(t.http, owner, 'admin');
    const viewer = await joinAs(t.http, owner, 'viewer');
    await invite(t.http, owner, { email: uniqueEmail(), role: 'viewer' });
    expect(await seatUsage(owner)).toEqual({ used: 2, limit: 3 });
    // Any member may read it, with a session or a token.
    expect(await seatUsage(viewer)).toEqual({ used: 2, limit: 3 });
    expect(await seatUsage(await tokenFor(t.http, viewer))).toEqual({ used: 2, limit: 3 });
  });

  it('a staff-suspended member still holds a seat', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    expect((await seatUsage(owner)).used).toBe(2);
    await setMemberSuspension(owner.orgId, member.userId, true);
    expect((await seatUsage(owner)).used).toBe(2);
  });

  it('a pending unexpired non-viewer invitation reserves a seat; an expired or revoked one does not', async () => {
    const owner = await signUp(t.http);
    const pending = await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    const revoked = await invite(t.http, owner, { email: uniqueEmail(), role: 'admin' });
    expect((await seatUsage(owner)).used).toBe(3);
    await prisma().invitation.update({ where: { id: pending.ulid }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await seatUsage(owner)).used).toBe(2);
    expect((await t.http.delete(`/api/v1/orgs/${owner.orgId}/invitations/${revoked.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await seatUsage(owner)).used).toBe(1);
  });

  it('reports the limit in force: an operator override, and null when unlimited', async () => {
    const owner = await signUp(t.http);
    await prisma().organization.update({ where: { id: owner.orgId }, data: { maxSeatsOverride: 7 } });
    expect(await seatUsage(owner)).toEqual({ used: 1, limit: 7 });
    await prisma().organization.update({ where: { id: owner.orgId }, data: { maxSeatsOverride: null, plan: 'enterprise' } });
    expect(await seatUsage(owner)).toEqual({ used: 1, limit: null });
  });

  it('is a pure read, and another organization’s usage answers 404', async () => {
    const owner = await signUp(t.http);
    await invite(t.http, owner, { email: uniqueEmail(), role: 'member' });
    const first = await seatUsage(owner);
    expect(await seatUsage(owner)).toEqual(first);
    const stranger = await signUp(t.http);
    expectError(await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(stranger.headers), 404, 'not_found');
  });
});
