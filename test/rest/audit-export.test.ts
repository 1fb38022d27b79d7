import { parse } from 'csv-parse/sync';
import type request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sweepExpired } from '../../app/maintenance.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { eraseUser } from '../../src/users/users.service.ts';
import { type Caller, createProject, expectError, joinAs, signUp, useTestApp } from '../support/app.ts';
import { createRun } from '../support/runs.ts';

const t = useTestApp();

const COLUMNS = [
  'created_at',
  'event_ulid',
  'action',
  'actor_kind',
  'actor_ulid',
  'actor_label',
  'entity_type',
  'entity_ulid',
  'entity_label',
  'run_ulid',
  'metadata',
];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const exportPath = (caller: Caller, from?: string, to?: string) => {
  const query = new URLSearchParams({ ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
  return `/api/v1/orgs/${caller.orgId}/audit-events/export?${query}`;
};

const exportCsv = (caller: Caller, from?: string, to?: string) => t.http.get(exportPath(caller, from, to)).set(caller.headers);

/** An owner whose organization has the audit export entitlement. */
async function entitledOwner(): Promise<Caller> {
  const owner = await signUp(t.http);
  await prisma().organization.update({ where: { id: owner.orgId }, data: { auditExportEnabledOverride: true } });
  return owner;
}

const rowsOf = (response: request.Response) => parse(response.text, { relax_column_count: false }) as string[][];

/** The export's rows as records keyed by column. */
function recordsOf(response: request.Response) {
  const [header, ...rows] = rowsOf(response);
  expect(header).toEqual(COLUMNS);
  return rows.map((row) => Object.fromEntries(COLUMNS.map((column, index) => [column, row[index]!])) as Record<string, string>);
}

/**
 * `count` fixture events of the organization, one second apart from `start`, written with one
 * INSERT … SELECT generate_series (no HTTP: the ceiling needs 25,001 of them).
 */
async function insertEvents(orgId: string, start: Date, count: number) {
  await prisma().$executeRaw`
    INSERT INTO audit_events (id, org_id, action, actor_kind, entity_type, entity_ulid, entity_label, metadata, created_at)
    SELECT ${newId().slice(0, 16)} || lpad(upper(to_hex(i)), 10, '0'), ${orgId}, 'fixture.seeded', 'system', 'fixture',
           ${newId()}, 'fixture ' || i, jsonb_build_object('index', i), ${start}::timestamptz + (i * interval '1 second')
    FROM generate_series(0, ${count - 1}::int) AS i`;
}

const eventCount = (orgId: string) => prisma().auditEvent.count({ where: { orgId } });

describe('GET /api/v1/orgs/{orgUlid}/audit-events/export: access', () => {
  it('answers the same 403 to a member or viewer and to an owner without the entitlement; owner and admin with it export', async () => {
    const unentitled = await signUp(t.http);
    const owner = await entitledOwner();
    const admin = await joinAs(t.http, owner, 'admin');
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const from = new Date(Date.now() - DAY).toISOString();
    const to = new Date(Date.now() + HOUR).toISOString();

    const refusals = [await exportCsv(unentitled, from, to), await exportCsv(member, from, to), await exportCsv(viewer, from, to)];
    for (const refused of refusals) expectError(refused, 403, 'forbidden');
    // Indistinguishable: the entitlement's refusal and the role's carry the same body.
    expect(refusals[1]!.body).toEqual(refusals[0]!.body);
    expect(refusals[2]!.body).toEqual(refusals[0]!.body);

    for (const allowed of [owner, admin]) expect((await exportCsv(allowed, from, to)).status).toBe(200);

    // The plan's entitlement works like the override: the team plan exports.
    await prisma().organization.update({ where: { id: unentitled.orgId }, data: { plan: 'team' } });
    expect((await exportCsv(unentitled, from, to)).status).toBe(200);
  });
});

describe('GET /api/v1/orgs/{orgUlid}/audit-events/export: the window', () => {
  it('refuses a missing bound, bare dates, offsets, impossible dates, to <= from and a span over 366 days with 422', async () => {
    const owner = await entitledOwner();
    const cases: Array<[string | undefined, string | undefined]> = [
      [undefined, '2026-01-02T00:00:00Z'],
      ['2026-01-01T00:00:00Z', undefined],
      ['2026-01-01', '2026-01-02T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '2026-01-02'],
      ['2026-01-01T00:00:00+00:00', '2026-01-02T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '2026-01-02T01:00:00+01:00'],
      ['2026-01-01T00:00:00', '2026-01-02T00:00:00Z'],
      ['2026-02-30T00:00:00Z', '2026-03-02T00:00:00Z'],
      ['2026-01-01T25:00:00Z', '2026-01-02T00:00:00Z'],
      ['yesterday', '2026-01-02T00:00:00Z'],
      ['2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z'],
      ['2026-01-03T00:00:00Z', '2026-01-02T00:00:00Z'],
      ['2025-01-01T00:00:00Z', '2026-01-02T00:00:00.001Z'],
    ];
    for (const [from, to] of cases) {
      const response = await exportCsv(owner, from, to);
      expectError(response, 422, 'validation_failed');
    }
    // Exactly 366 days is allowed (2024 is a leap year: 366 days from 1 January to 1 January).
    const leapYear = await exportCsv(owner, '2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
    expect(leapYear.status, leapYear.text).toBe(200);
    expect((await exportCsv(owner, '2025-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).status).toBe(200);
  });

  it('is half-open: an event at `from` is in, one at `to` is out', async () => {
    const owner = await entitledOwner();
    const start = new Date('2022-03-01T00:00:00.000Z');
    await insertEvents(owner.orgId, start, 3); // at :00, :01 and :02
    const response = await exportCsv(owner, '2022-03-01T00:00:00Z', '2022-03-01T00:00:02Z');
    expect(response.status).toBe(200);
    expect(recordsOf(response).map((record) => record.created_at)).toEqual(['2022-03-01T00:00:00.000Z', '2022-03-01T00:00:01.000Z']);
  });
});

describe('GET /api/v1/orgs/{orgUlid}/audit-events/export: the CSV', () => {
  it('streams the columns in order, chronologically, with defused formulas, run cells, erased identities and no event of its own', async () => {
    const owner = await entitledOwner();
    const admin = await joinAs(t.http, owner, 'admin', { firstName: 'Grace', lastName: 'Hopper' });
    const project = await createProject(t.http, owner, { name: '=HYPERLINK("x")' });
    const kept = await createRun(t.http, owner, project.id, { name: '@run kept', caseUlids: [] });
    const purged = await createRun(t.http, owner, project.id, { name: '+run purged', caseUlids: [] });
    expect((await t.http.delete(`/api/v1/runs/${purged.ulid}`).set(owner.headers)).status).toBe(204);
    // A run gone without a run.deleted in this log (its event names a run the log never saw deleted).
    const lostRun = newId();
    await prisma().auditEvent.create({
      data: {
        id: newId(),
        orgId: owner.orgId,
        action: 'run.case_marked',
        actorKind: 'system',
        entityType: 'test_run_case',
        entityUlid: newId(),
        entityLabel: '-1 · minus',
        originRunId: lostRun,
        metadata: { note: '=cmd' },
      },
    });
    // The admin acts, then their identity is erased (another owner keeps their own organization).
    const adminProject = await createProject(t.http, admin, { name: 'By the admin' });
    const adminsOwn = await prisma().membership.findFirstOrThrow({ where: { userId: admin.userId, role: 'owner' } });
    await prisma().membership.create({ data: { id: newId(), orgId: adminsOwn.orgId, userId: owner.userId, role: 'owner' } });
    await eraseUser(admin.email);

    const before = await eventCount(owner.orgId);
    const from = new Date(Date.now() - HOUR);
    const to = new Date(Date.now() + HOUR);
    const response = await exportCsv(owner, from.toISOString(), to.toISOString());
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const stamp = (date: Date) => date.toISOString().replace(/[-:]|\.\d+/g, '');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="audit-events_${stamp(from)}_${stamp(to)}.csv"`);
    expect(await eventCount(owner.orgId)).toBe(before);

    const records = recordsOf(response);
    const stored = await prisma().auditEvent.findMany({ where: { orgId: owner.orgId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(records.map((record) => record.event_ulid)).toEqual(stored.map((event) => event.id));
    expect(records.map((record) => record.created_at)).toEqual(stored.map((event) => event.createdAt.toISOString()));

    const find = (action: string, entityUlid?: string) =>
      records.find((record) => record.action === action && (entityUlid === undefined || record.entity_ulid === entityUlid))!;
    const created = find('project.created', project.ulid);
    expect(created.actor_kind).toBe('user');
    expect(created.actor_ulid).toBe(owner.userId);
    expect(created.actor_label).toContain(owner.email);
    expect(created.entity_type).toBe('project');
    expect(created.entity_label).toBe(`'=HYPERLINK("x")`);
    expect(created.run_ulid).toBe('');
    expect(JSON.parse(created.metadata!)).toEqual(stored.find((event) => event.id === created.event_ulid)!.metadata);

    expect(find('run.created', kept.ulid).run_ulid).toBe(kept.ulid);
    expect(find('run.created', kept.ulid).entity_label).toBe("'@run kept");
    expect(find('run.created', purged.ulid).run_ulid).toBe('[run purged]');
    expect(find('run.created', purged.ulid).entity_label).toBe("'+run purged");
    expect(find('run.deleted', purged.ulid).run_ulid).toBe('[run purged]');
    const lost = find('run.case_marked');
    expect(lost.run_ulid).toBe('[run unknown]');
    expect(lost.entity_label).toBe("'-1 · minus");
    expect(lost.metadata).toBe(JSON.stringify({ note: '=cmd' }));
    expect(lost.actor_label).toBe('system');

    // The erased admin's events in their own organization and the owner's: no ULID, no name, no email.
    const joined = records.filter((record) => record.actor_kind === 'user' && record.actor_ulid === '');
    expect(joined.length).toBeGreaterThan(0);
    for (const record of joined) expect(record.actor_label).toBe('[identity removed]');
    expect(response.text).not.toContain(admin.email);
    expect(response.text).not.toContain('Grace');
    const inOwnOrg = await prisma().auditEvent.findFirstOrThrow({ where: { entityUlid: adminProject.ulid, action: 'project.created' } });
    expect([inOwnOrg.actorUserId, inOwnOrg.actorEmail, inOwnOrg.actorName]).toEqual([null, null, null]);
  });

  it('answers a header alone for an empty window', async () => {
    const owner = await entitledOwner();
    const response = await exportCsv(owner, '2019-01-01T00:00:00Z', '2019-01-02T00:00:00Z');
    expect(response.status).toBe(200);
    expect(response.text).toBe(`${COLUMNS.join(',')}\n`);
  });
});

describe('GET /api/v1/orgs/{orgUlid}/audit-events/export: ceilings', () => {
  it('counts first: 25,001 events answer 422 naming the count and the ceiling; 25,000 stream in flat memory', async () => {
    const owner = await entitledOwner();
    const start = new Date('2021-06-01T00:00:00.000Z');
    await insertEvents(owner.orgId, start, 25_001);

    const over = await exportCsv(owner, '2021-06-01T00:00:00Z', '2021-06-02T00:00:00Z');
    expectError(over, 422, 'validation_failed');
    expect(over.body.error.message).toContain('25001');
    expect(over.body.error.message).toContain('25000');

    // From the second event on: exactly the ceiling. The body is counted as it arrives, never kept.
    const before = process.memoryUsage().rss;
    let peak = before;
    let lines = 0;
    let last = '';
    const response = await t.http
      .get(exportPath(owner, '2021-06-01T00:00:01Z', '2021-06-02T00:00:00Z'))
      .set(owner.headers)
      .buffer(true)
      .parse((res, done) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          lines += chunk.split('\n').length - 1;
          last = (last + chunk).slice(-300);
          peak = Math.max(peak, process.memoryUsage().rss);
        });
        res.on('end', () => done(null, null));
      });
    expect(response.status).toBe(200);
    expect(lines).toBe(25_001); // the header and 25,000 rows
    expect(last.trimEnd().split('\n').at(-1)).toMatch(/^2021-06-01T06:56:40\.000Z,/); // the 25,001st second
    const growthMiB = (peak - before) / 2 ** 20;
    console.info(`audit export of 25,000 events: RSS growth ${growthMiB.toFixed(1)} MiB`);
    expect(growthMiB).toBeLessThan(64);

    // The refused count consumed a call, like the export: 2 of the hour's 10 are gone.
    const bucket = await prisma().rateLimitWindow.findMany({ where: { orgId: owner.orgId, bucket: 'audit_export' } });
    expect(bucket.map((window) => window.count)).toEqual([2]);
  });

  it('allows 10 exports per organization per hour in a bucket of its own, then 429 with Retry-After', async () => {
    const owner = await entitledOwner();
    const window = ['2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z'] as const;
    // A malformed window is refused before the bucket is touched.
    expectError(await exportCsv(owner, '2020-01-01', window[1]), 422, 'validation_failed');
    for (let call = 1; call <= 10; call++) expect((await exportCsv(owner, ...window)).status).toBe(200);

    const refused = await exportCsv(owner, ...window);
    expectError(refused, 429, 'too_many_requests');
    const retryAfter = refused.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(3600);
    // The maintenance sweep keeps the hour's window (it drops per-minute windows after two minutes).
    await sweepExpired(prisma());
    expectError(await exportCsv(owner, ...window), 429, 'too_many_requests');

    // Another organization's budget is untouched, and the rest of the API still answers.
    const other = await entitledOwner();
    expect((await exportCsv(other, ...window)).status).toBe(200);
    expect((await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events`).set(owner.headers)).status).toBe(200);
  });
});
