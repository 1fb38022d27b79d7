import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { tenantClient } from '../../src/kernel/database/tenant.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

type Project = { ulid: string; id: string; name: string };
type Org = { session: Caller; token: Caller; projects: Project[] };

const image = () =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 20, g: 120, b: 220 } } })
    .png()
    .toBuffer();

function expectNotFound(response: { status: number; body: unknown }, label: string) {
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(404);
  expect(response.body, label).toMatchObject({ error: { code: 'not_found', message: expect.any(String) } });
}

/** Two organizations, each with a session caller, a token caller and projects of its own. */
async function twoOrganizations(): Promise<{ a: Org; b: Org }> {
  const aSession = await signUp(t.http, { firstName: 'Alice', organizationName: 'Org A' });
  const bSession = await signUp(t.http, { firstName: 'Bob', organizationName: 'Org B' });
  const aProject = await createProject(t.http, aSession, { name: 'Secret A project', description: 'only for A' });
  const avatar = await t.http
    .post(`/api/v1/projects/${aProject.id}/avatar`)
    .set(aSession.headers)
    .attach('file', await image(), 'a.png');
  expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
  const bProject = await createProject(t.http, bSession, { name: 'B project' });
  return {
    a: { session: aSession, token: await tokenFor(t.http, aSession), projects: [aProject] },
    b: { session: bSession, token: await tokenFor(t.http, bSession), projects: [bProject] },
  };
}

const snapshotOf = async (orgId: string) => ({
  projects: await prisma().project.findMany({ where: { orgId }, orderBy: { id: 'asc' } }),
  auditEvents: await prisma().auditEvent.findMany({ where: { orgId }, orderBy: { id: 'asc' } }),
  tokens: await prisma().apiToken.findMany({ where: { orgId }, orderBy: { id: 'asc' } }),
  memberships: await prisma().membership.findMany({ where: { orgId }, orderBy: { id: 'asc' } }),
});

describe('tenancy over HTTP', () => {
  it.each(['session', 'token'] as const)("every route naming a project of A answers 404 to B's %s and A is unchanged", async (kind) => {
    const { a, b } = await twoOrganizations();
    const target = a.projects[0] as Project;
    const caller = b[kind];
    const before = await snapshotOf(a.session.orgId);
    const readBefore = await t.http.get(`/api/v1/projects/${target.id}`).set(a.session.headers);
    expect(readBefore.status).toBe(200);
    expect(readBefore.body.avatarKey).toBe(`avatars/projects/${target.ulid}.webp`);
    const assetBefore = await t.http.get(`/__assets/${readBefore.body.avatarKey}`);
    expect(assetBefore.status).toBe(200);

    const path = `/api/v1/projects/${target.id}`;
    expectNotFound(await t.http.get(path).set(caller.headers), 'GET project');
    expectNotFound(await t.http.patch(path).set(caller.headers).send({ name: 'hijacked', description: 'hijacked' }), 'PATCH project');
    expectNotFound(
      await t.http
        .post(`${path}/avatar`)
        .set(caller.headers)
        .attach('file', await image(), 'b.png'),
      'POST avatar',
    );
    expectNotFound(await t.http.delete(`${path}/avatar`).set(caller.headers), 'DELETE avatar');
    expectNotFound(await t.http.delete(path).set(caller.headers), 'DELETE project');
    // Unknown and foreign projects look the same.
    const unknown = await t.http.get('/api/v1/projects/NOSUCHPROJECT').set(caller.headers);
    expectNotFound(unknown, 'GET unknown project');
    const foreign = await t.http.get(path).set(caller.headers);
    expect(foreign.body).toEqual(unknown.body);
    expect(JSON.stringify(foreign.body)).not.toContain('Secret A project');

    expect(await snapshotOf(a.session.orgId)).toEqual(before);
    const readAfter = await t.http.get(`/api/v1/projects/${target.id}`).set(a.session.headers);
    expect(readAfter.body).toEqual(readBefore.body);
    const assetAfter = await t.http.get(`/__assets/${readBefore.body.avatarKey}`);
    expect(assetAfter.status).toBe(200);
    expect(Buffer.compare(assetAfter.body as Buffer, assetBefore.body as Buffer)).toBe(0);
    // B's own project is still B's and still reachable.
    expect((await t.http.get(`/api/v1/projects/${b.projects[0]?.id}`).set(caller.headers)).status).toBe(200);
  });

  it.each(['session', 'token'] as const)("B's project list and audit log never show A's rows (%s)", async (kind) => {
    const { a, b } = await twoOrganizations();
    // A's admin token does some more work, which must stay invisible to B.
    await t.http.patch(`/api/v1/projects/${a.projects[0]?.id}`).set(a.token.headers).send({ name: 'Secret A renamed' });
    const caller = b[kind];

    const list = await t.http.get('/api/v1/projects').set(caller.headers);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items.map((p: { ulid: string }) => p.ulid)).toEqual([b.projects[0]?.ulid]);
    const search = await t.http.get('/api/v1/projects').query({ q: 'Secret' }).set(caller.headers);
    expect(search.body).toMatchObject({ items: [], total: 0 });

    const audit = await t.http.get(`/api/v1/orgs/${b.session.orgId}/audit-events`).query({ limit: 100 }).set(caller.headers);
    expect(audit.status).toBe(200);
    const aRows = new Set((await prisma().auditEvent.findMany({ where: { orgId: a.session.orgId } })).map((row) => row.id));
    expect(aRows.size).toBeGreaterThanOrEqual(4);
    const bRows = new Set((await prisma().auditEvent.findMany({ where: { orgId: b.session.orgId } })).map((row) => row.id));
    const seen = audit.body.events.map((event: { ulid: string }) => event.ulid) as string[];
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(bRows);
    for (const ulid of seen) expect(aRows.has(ulid)).toBe(false);
    const text = JSON.stringify(audit.body);
    expect(text).not.toContain(a.projects[0]?.ulid);
    expect(text).not.toContain(a.session.email);
    expect(text).not.toContain('Secret A');

    // A cursor cannot reach across either: paging past B's newest event still yields only B's.
    const paged = await t.http
      .get(`/api/v1/orgs/${b.session.orgId}/audit-events`)
      .query({ cursor: newId(), limit: 100 })
      .set(caller.headers);
    expect(paged.status).toBe(200);
    for (const event of paged.body.events as Array<{ ulid: string }>) expect(bRows.has(event.ulid)).toBe(true);
  });

  it.each(['session', 'token'] as const)("/orgs/{A}/audit-events and /orgs/{A} answer 404 to B's %s", async (kind) => {
    const { a, b } = await twoOrganizations();
    const caller = b[kind];
    expectNotFound(await t.http.get(`/api/v1/orgs/${a.session.orgId}/audit-events`).set(caller.headers), 'audit with header');
    const withoutHeader = Object.fromEntries(Object.entries(caller.headers).filter(([name]) => name !== 'X-Organization-Id'));
    const bare = await t.http.get(`/api/v1/orgs/${a.session.orgId}/audit-events`).set(withoutHeader);
    expectNotFound(bare, 'audit without header');
    expect(JSON.stringify(bare.body)).not.toContain('project.created');
    expectNotFound(await t.http.get(`/api/v1/orgs/${a.session.orgId}`).set(withoutHeader), 'organization');
  });

  it("project codes are per organization: B may reuse A's code and each sees its own", async () => {
    const { a, b } = await twoOrganizations();
    const code = a.projects[0]?.id as string;
    const created = await t.http.post('/api/v1/projects').set(b.session.headers).send({ name: 'B twin', id: code });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.ulid).not.toBe(a.projects[0]?.ulid);
    const asB = await t.http.get(`/api/v1/projects/${code}`).set(b.token.headers);
    expect(asB.body).toMatchObject({ ulid: created.body.ulid, name: 'B twin', avatarKey: null });
    const asA = await t.http.get(`/api/v1/projects/${code}`).set(a.token.headers);
    expect(asA.body).toMatchObject({ ulid: a.projects[0]?.ulid, name: 'Secret A project' });

    // B deleting its twin leaves A's project alone.
    expect((await t.http.delete(`/api/v1/projects/${code}`).set(b.session.headers)).status).toBe(204);
    expect((await t.http.get(`/api/v1/projects/${code}`).set(a.session.headers)).status).toBe(200);
    expect(await prisma().project.count({ where: { id: a.projects[0]?.ulid } })).toBe(1);
  });
});

describe('tenantClient confinement (src/kernel/database/tenant.ts)', () => {
  let a: Org;
  let b: Org;
  beforeAll(async () => {
    ({ a, b } = await twoOrganizations());
  });

  it("reads of B never return A's rows, even when the filter names A", async () => {
    const db = tenantClient(b.session.orgId);
    const aProjectId = a.projects[0]?.ulid as string;
    expect(await db.project.findMany({ where: { orgId: a.session.orgId } })).toEqual([]);
    expect(await db.project.findFirst({ where: { id: aProjectId } })).toBeNull();
    expect(await db.project.findUnique({ where: { id: aProjectId } })).toBeNull();
    expect(await db.project.count({ where: { orgId: a.session.orgId } })).toBe(0);
    const all = await db.project.findMany();
    expect(all.map((p) => p.id)).toEqual([b.projects[0]?.ulid]);
    const events = await db.auditEvent.findMany({ where: { orgId: a.session.orgId } });
    expect(events).toEqual([]);
    expect((await db.auditEvent.findMany()).every((event) => event.orgId === b.session.orgId)).toBe(true);
    expect(await db.apiToken.findMany({ where: { userId: a.session.userId } })).toEqual([]);
    expect(await db.membership.findMany({ where: { userId: a.session.userId } })).toEqual([]);
    // An interactive transaction opened on the tenant client keeps the confinement.
    expect(await db.$transaction((tx) => tx.project.findMany({ where: { orgId: a.session.orgId } }))).toEqual([]);
  });

  it("writes of B never touch A's rows", async () => {
    const db = tenantClient(b.session.orgId);
    const aProjectId = a.projects[0]?.ulid as string;
    const before = await prisma().project.findUniqueOrThrow({ where: { id: aProjectId } });

    const updated = await db.project.updateMany({ where: {}, data: { name: 'x' } });
    expect(updated.count).toBe(1);
    const aimed = await db.project.updateMany({ where: { id: aProjectId }, data: { name: 'x' } });
    expect(aimed.count).toBe(0);
    await expect(db.project.update({ where: { id: aProjectId }, data: { name: 'x' } })).rejects.toThrow();
    await expect(db.project.delete({ where: { id: aProjectId } })).rejects.toThrow();
    const deleted = await db.project.deleteMany({ where: { orgId: a.session.orgId } });
    expect(deleted.count).toBe(0);
    expect(await prisma().project.findUniqueOrThrow({ where: { id: aProjectId } })).toEqual(before);
    expect((await prisma().project.findUniqueOrThrow({ where: { id: b.projects[0]?.ulid as string } })).name).toBe('x');

    // A create naming A's organization is written into B.
    const created = await db.project.create({ data: { id: newId(), orgId: a.session.orgId, code: 'PLANTED', name: 'planted' } });
    expect(created.orgId).toBe(b.session.orgId);
    expect(await prisma().project.count({ where: { orgId: a.session.orgId, code: 'PLANTED' } })).toBe(0);
    await db.project.delete({ where: { id: created.id } });
    expect(await prisma().project.count({ where: { orgId: a.session.orgId } })).toBe(1);
  });
});
