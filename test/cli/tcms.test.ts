import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../app/tcms.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, createProject, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { runTcms } from './run-tcms.ts';

const t = useTestApp();

type Shown = {
  organization: { ulid: string; name: string; plan: string; createdAt: number };
  plan: string;
  overrides: Record<string, number | boolean | null>;
  limits: {
    maxProjects: number | null;
    maxSeats: number | null;
    maxResultsPerMonth: number | null;
    requestsPerMinute: number;
    auditExportEnabled: boolean;
    maxStorageBytes: number | null;
  };
  projects: { total: number; locked: number };
};

/** Runs the command in this process, against the test app's open database. */
async function tcms(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err };
}

async function tcmsJson(...argv: string[]): Promise<Shown> {
  const result = await tcms(...argv);
  expect(result.err).toEqual([]);
  expect(result.code).toBe(0);
  return JSON.parse(result.out) as Shown;
}

const createStatus = async (caller: Caller, id: string) =>
  (await t.http.post('/api/v1/projects').set(caller.headers).send({ name: id, id })).status;

describe('tcms org show', () => {
  it('prints the plan, no overrides and the free limits of a new organization', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner);
    const shown = await tcmsJson('org', 'show', owner.orgId);
    expect(shown.organization.ulid).toBe(owner.orgId);
    expect(shown.plan).toBe('free');
    expect(shown.overrides).toEqual({
      maxProjects: null,
      maxSeats: null,
      maxResultsPerMonth: null,
      requestsPerMinute: null,
      auditExportEnabled: null,
    });
    expect(shown.limits).toEqual({
      maxProjects: 3,
      maxSeats: 3,
      maxResultsPerMonth: 5_000,
      requestsPerMinute: 60,
      auditExportEnabled: false,
      maxStorageBytes: 1024 ** 3,
    });
    expect(shown.projects).toEqual({ total: 1, locked: 0 });
  });

  it('accepts a lower-case ULID', async () => {
    const owner = await signUp(t.http);
    const shown = await tcmsJson('org', 'show', owner.orgId.toLowerCase());
    expect(shown.organization.ulid).toBe(owner.orgId);
  });
});

describe('tcms org set-plan', () => {
  it('moves an organization to team: GET /orgs shows it and the 4th project can be created', async () => {
    const owner = await signUp(t.http);
    for (const id of ['A', 'B', 'C']) await createProject(t.http, owner, { id });
    expect(await createStatus(owner, 'D')).toBe(409);

    const shown = await tcmsJson('org', 'set-plan', owner.orgId, 'team');
    expect(shown.plan).toBe('team');
    expect(shown.organization.plan).toBe('team');
    expect(shown.limits).toEqual({
      maxProjects: 50,
      maxSeats: 25,
      maxResultsPerMonth: 100_000,
      requestsPerMinute: 600,
      auditExportEnabled: true,
      maxStorageBytes: 100 * 1024 ** 3,
    });

    const org = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('team');
    expect(await createStatus(owner, 'D')).toBe(201);
  });

  it('moves to enterprise (unlimited projects) and back to free, which locks the excess', async () => {
    const owner = await signUp(t.http);
    const enterprise = await tcmsJson('org', 'set-plan', owner.orgId, 'enterprise');
    expect(enterprise.limits).toMatchObject({ maxProjects: null, maxSeats: null, requestsPerMinute: 6_000 });
    for (const id of ['A', 'B', 'C', 'D', 'E']) expect(await createStatus(owner, id)).toBe(201);

    const free = await tcmsJson('org', 'set-plan', owner.orgId, 'free');
    expect(free.projects).toEqual({ total: 5, locked: 2 });
    const page = await t.http.get('/api/v1/projects').set(owner.headers);
    expect(page.body.items.map((item: { id: string; lockedAt: number | null }) => [item.id, item.lockedAt !== null])).toEqual([
      ['A', true],
      ['B', true],
      ['C', false],
      ['D', false],
      ['E', false],
    ]);
    const locked = await t.http.get('/api/v1/projects/A').set(owner.headers);
    expect(locked.status).toBe(403);
    expect(locked.body.error.code).toBe('project_locked');

    // Raising the allowance again clears every lock.
    const team = await tcmsJson('org', 'set-plan', owner.orgId, 'team');
    expect(team.projects).toEqual({ total: 5, locked: 0 });
    expect((await t.http.get('/api/v1/projects/A').set(owner.headers)).status).toBe(200);
  });

  it('refuses an unknown plan with exit 1 and changes nothing', async () => {
    const owner = await signUp(t.http);
    const result = await tcms('org', 'set-plan', owner.orgId, 'platinum');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/platinum/);
    expect((await tcmsJson('org', 'show', owner.orgId)).plan).toBe('free');
  });

  it('refuses an unknown organization with exit 1 and a one-line message', async () => {
    const unknown = newId();
    const result = await tcms('org', 'set-plan', unknown, 'team');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain(unknown);
    expect(result.err[0]).toMatch(/not found/i);
    expect(result.err[0]).not.toContain('\n');

    for (const command of [
      ['org', 'show', unknown],
      ['org', 'override', unknown, '--projects', '5'],
    ]) {
      const other = await tcms(...command);
      expect(other.code).toBe(1);
      expect(other.err[0]).toMatch(/not found/i);
    }
  });

  it('refuses a malformed organization ULID with exit 1', async () => {
    const result = await tcms('org', 'set-plan', 'not-a-ulid', 'team');
    expect(result.code).toBe(1);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('not-a-ulid');
  });
});

describe('tcms org override', () => {
  it('--projects 5 allows a 4th and 5th project but not a 6th; default removes it again', async () => {
    const owner = await signUp(t.http);
    for (const id of ['A', 'B', 'C']) await createProject(t.http, owner, { id });
    expect(await createStatus(owner, 'D')).toBe(409);

    const shown = await tcmsJson('org', 'override', owner.orgId, '--projects', '5');
    expect(shown.plan).toBe('free');
    expect(shown.overrides.maxProjects).toBe(5);
    expect(shown.limits.maxProjects).toBe(5);
    expect(await createStatus(owner, 'D')).toBe(201);
    expect(await createStatus(owner, 'E')).toBe(201);
    const sixth = await t.http.post('/api/v1/projects').set(owner.headers).send({ name: 'F', id: 'F' });
    expect(sixth.status).toBe(409);
    expect(sixth.body.error.code).toBe('project_limit_exceeded');

    const reset = await tcmsJson('org', 'override', owner.orgId, '--projects', 'default');
    expect(reset.overrides.maxProjects).toBeNull();
    expect(reset.limits.maxProjects).toBe(3);
    expect(reset.projects).toEqual({ total: 5, locked: 2 });
  });

  it('--projects 1 locks the two oldest of three projects over HTTP', async () => {
    const owner = await signUp(t.http);
    for (const id of ['OLD', 'MID', 'NEW']) await createProject(t.http, owner, { id });
    const shown = await tcmsJson('org', 'override', owner.orgId, '--projects', '1');
    expect(shown.projects).toEqual({ total: 3, locked: 2 });
    for (const id of ['OLD', 'MID']) {
      const response = await t.http.get(`/api/v1/projects/${id}`).set(owner.headers);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('project_locked');
    }
    expect((await t.http.get('/api/v1/projects/NEW').set(owner.headers)).status).toBe(200);
  });

  it('sets and removes every override; --requests-per-minute shows in the rate-limit headers', async () => {
    const owner = await signUp(t.http);
    const shown = await tcmsJson(
      'org',
      'override',
      owner.orgId,
      '--projects',
      '7',
      '--seats',
      '10',
      '--results-per-month',
      '1234',
      '--requests-per-minute',
      '1000',
      '--audit-export',
      'true',
    );
    expect(shown.overrides).toEqual({
      maxProjects: 7,
      maxSeats: 10,
      maxResultsPerMonth: 1234,
      requestsPerMinute: 1000,
      auditExportEnabled: true,
    });
    expect(shown.limits).toEqual({
      maxProjects: 7,
      maxSeats: 10,
      maxResultsPerMonth: 1234,
      requestsPerMinute: 1000,
      auditExportEnabled: true,
      maxStorageBytes: 1024 ** 3,
    });

    const token = await tokenFor(t.http, owner);
    const metered = await t.http.get('/api/v1/projects').set(token.headers);
    expect(metered.status).toBe(200);
    expect(metered.headers['x-ratelimit-limit']).toBe('1000');

    // Only the named override changes.
    const partial = await tcmsJson('org', 'override', owner.orgId, '--seats', 'default', '--audit-export', 'false');
    expect(partial.overrides).toEqual({
      maxProjects: 7,
      maxSeats: null,
      maxResultsPerMonth: 1234,
      requestsPerMinute: 1000,
      auditExportEnabled: false,
    });
    expect(partial.limits).toMatchObject({ maxSeats: 3, auditExportEnabled: false });

    const cleared = await tcmsJson(
      'org',
      'override',
      owner.orgId,
      '--projects',
      'default',
      '--results-per-month',
      'default',
      '--requests-per-minute',
      'default',
      '--audit-export',
      'default',
    );
    expect(Object.values(cleared.overrides)).toEqual([null, null, null, null, null]);
    expect(cleared.limits.requestsPerMinute).toBe(60);
    const afterReset = await t.http.get('/api/v1/projects').set(token.headers);
    expect(afterReset.headers['x-ratelimit-limit']).toBe('60');
  });

  it('an override wins over the plan and survives a plan change', async () => {
    const owner = await signUp(t.http);
    await tcmsJson('org', 'override', owner.orgId, '--requests-per-minute', '42');
    const team = await tcmsJson('org', 'set-plan', owner.orgId, 'team');
    expect(team.limits.requestsPerMinute).toBe(42);
    expect(team.limits.maxProjects).toBe(50);
  });

  it.each([
    [['--projects', 'abc']],
    [['--projects', '1.5']],
    [['--projects=-1']],
    [['--projects', '']],
    [['--seats', '99999999999']],
    [['--requests-per-minute', 'lots']],
    [['--audit-export', 'maybe']],
    [['--audit-export', '1']],
  ])('refuses the bad value %j with exit 1 and changes nothing', async (flags) => {
    const owner = await signUp(t.http);
    const result = await tcms('org', 'override', owner.orgId, ...flags);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toHaveLength(1);
    const shown = await tcmsJson('org', 'show', owner.orgId);
    expect(Object.values(shown.overrides)).toEqual([null, null, null, null, null]);
  });
});

describe('tcms org suspend-member / unsuspend-member', () => {
  type ShownMember = { userUlid: string; email: string; role: string; suspendedAt: number | null };

  async function memberJson(...argv: string[]): Promise<ShownMember> {
    const result = await tcms(...argv);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    return JSON.parse(result.out) as ShownMember;
  }

  it('suspends a member by ULID or email: 403 over HTTP while suspended, the seat kept; unsuspend lifts it', async () => {
    const owner = await signUp(t.http);
    const member = await joinAs(t.http, owner, 'member');
    const seats = async () => (await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(owner.headers)).body.used;
    const seatsBefore = await seats();

    const suspended = await memberJson('org', 'suspend-member', owner.orgId.toLowerCase(), member.userId.toLowerCase());
    expect(suspended).toMatchObject({ userUlid: member.userId, email: member.email, role: 'member', suspendedAt: expect.any(Number) });
    const refused = await t.http.get('/api/v1/projects').set(member.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', details: { code: 'membership_suspended' } });
    expect(await seats()).toBe(seatsBefore);
    // Suspending again changes nothing.
    expect((await memberJson('org', 'suspend-member', owner.orgId, member.email)).suspendedAt).toBe(suspended.suspendedAt);

    const lifted = await memberJson('org', 'unsuspend-member', owner.orgId, member.email.toUpperCase());
    expect(lifted.suspendedAt).toBeNull();
    expect((await t.http.get('/api/v1/projects').set(member.headers)).status).toBe(200);
  });

  it('refuses an unknown member or organization with exit 1, and a malformed member with exit 1', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    for (const argv of [
      ['org', 'suspend-member', owner.orgId, stranger.userId],
      ['org', 'suspend-member', owner.orgId, 'nobody@example.test'],
      ['org', 'unsuspend-member', newId(), owner.userId],
      ['org', 'suspend-member', owner.orgId, 'not-a-ulid'],
    ]) {
      const result = await tcms(...argv);
      expect(result.code, JSON.stringify(result)).toBe(1);
      expect(result.out).toBe('');
      expect(result.err).toHaveLength(1);
    }
    expect((await t.http.get('/api/v1/projects').set(stranger.headers)).status).toBe(200);
  });
});

describe('tcms user erase', () => {
  type Erased = { erased: string; organizations: string[]; auditEventsAnonymized: number };

  it('deletes the identity and leaves its audit events with null references; refuses the last owner of an organization', async () => {
    const owner = await signUp(t.http);
    const person = await joinAs(t.http, owner, 'admin', { firstName: 'Erin', lastName: 'Erased' });
    const token = await tokenFor(t.http, person, { name: 'erin bot' });
    const bySession = await createProject(t.http, person, { name: 'By session' });
    const byToken = await createProject(t.http, token, { name: 'By token' });

    // Their own organization would lose its only owner: refused, nothing changes.
    const refused = await tcms('user', 'erase', person.email);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('last owner');
    expect((await t.http.get('/api/v1/projects').set(person.headers)).status).toBe(200);

    const own = await prisma().membership.findFirstOrThrow({ where: { userId: person.userId, role: 'owner' } });
    await prisma().membership.create({ data: { id: newId(), orgId: own.orgId, userId: owner.userId, role: 'owner' } });
    const result = await tcms('user', 'erase', person.email.toUpperCase());
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    const erased = JSON.parse(result.out) as Erased;
    expect(erased.erased).toBe(person.userId);
    expect(erased.organizations.sort()).toEqual([owner.orgId, own.orgId].sort());
    expect(erased.auditEventsAnonymized).toBeGreaterThanOrEqual(3); // organization.created, project.created, api_token.created

    // Sessions, tokens and memberships are gone; signing in fails.
    expect((await t.http.get('/api/v1/projects').set(person.headers)).status).toBe(401);
    expect((await t.http.get('/api/v1/projects').set(token.headers)).status).toBe(401);
    const login = await t.http.post('/api/v1/auth/login').send({ email: person.email, password: 'correct horse battery' });
    expect(login.status).toBe(401);
    expect(await prisma().membership.count({ where: { userId: person.userId } })).toBe(0);
    expect(await prisma().user.count({ where: { id: person.userId } })).toBe(0);

    // Their events stay: the user actor has no ULID, email or name left; the token event keeps the token's name.
    const events = (await t.http.get(`/api/v1/orgs/${owner.orgId}/audit-events?limit=100`).set(owner.headers)).body.events as Array<{
      action: string;
      entityUlid: string;
      actor: Record<string, unknown>;
    }>;
    const created = (ulid: string) => events.find((event) => event.action === 'project.created' && event.entityUlid === ulid)!;
    expect(created(bySession.ulid).actor).toEqual({ kind: 'user', ulid: null, email: null, displayName: null });
    expect(created(byToken.ulid).actor).toEqual({ kind: 'api_token', ulid: null, name: 'erin bot' });
    expect(JSON.stringify(events)).not.toContain(person.email);
  });

  it('the append-only log allows exactly that change: no blanking without nulling the reference, no other value', async () => {
    const owner = await signUp(t.http);
    const event = await prisma().auditEvent.findFirstOrThrow({ where: { orgId: owner.orgId, actorUserId: owner.userId } });
    const attempts = [
      prisma().$executeRaw`UPDATE audit_events SET actor_email = NULL, actor_name = NULL WHERE id = ${event.id}`,
      prisma().$executeRaw`UPDATE audit_events SET actor_user_id = NULL, actor_email = NULL, actor_name = 'someone' WHERE id = ${event.id}`,
      prisma()
        .$executeRaw`UPDATE audit_events SET actor_user_id = NULL, actor_email = NULL, actor_name = NULL, entity_label = 'x' WHERE id = ${event.id}`,
      prisma().$executeRaw`UPDATE audit_events SET origin_run_id = ${newId()} WHERE id = ${event.id}`,
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toThrow(/append-only/);
    expect(await prisma().auditEvent.findUniqueOrThrow({ where: { id: event.id } })).toEqual(event);
  });

  it('refuses an unknown email or a value that is no email with exit 1, a missing one with exit 2', async () => {
    expect((await tcms('user', 'erase', 'nobody-here@example.test')).code).toBe(1);
    expect((await tcms('user', 'erase', 'not-an-email')).code).toBe(1);
    expect((await tcms('user', 'erase')).code).toBe(2);
    expect((await tcms('user', 'forget', 'a@example.test')).code).toBe(2);
  });
});

describe('usage', () => {
  it('help prints the commands on stdout with exit 0', async () => {
    for (const argv of [['help'], ['--help'], ['org', '-h']]) {
      const result = await tcms(...argv);
      expect(result.code).toBe(0);
      expect(result.err).toEqual([]);
      expect(result.out).toContain('tcms org set-plan <orgUlid>');
      expect(result.out).toContain('tcms org override <orgUlid>');
      expect(result.out).toContain('tcms org show <orgUlid>');
      expect(result.out).toContain('tcms org suspend <orgUlid> [--reason TEXT]');
      expect(result.out).toContain('tcms org unsuspend <orgUlid>');
      expect(result.out).toContain('tcms org suspend-member <orgUlid> <userUlid|email>');
      expect(result.out).toContain('tcms org unsuspend-member <orgUlid> <userUlid|email>');
    }
  });

  it.each([
    [[]],
    [['frobnicate']],
    [['org']],
    [['org', 'delete', '01ARZ3NDEKTSV4RRFFQ69G5FAV']],
    [['org', 'set-plan']],
    [['org', 'set-plan', '01ARZ3NDEKTSV4RRFFQ69G5FAV']],
    [['org', 'set-plan', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'team', 'extra']],
    [['org', 'show']],
    [['org', 'show', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--projects', '3']],
    [['org', 'override', '01ARZ3NDEKTSV4RRFFQ69G5FAV']],
    [['org', 'override', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--bogus', '3']],
    [['org', 'override', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--projects']],
    // parseArgs reads a dash-led value as a missing argument; `--projects=-1` reaches the number check.
    [['org', 'override', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--projects', '-1']],
    [['org', 'suspend-member', '01ARZ3NDEKTSV4RRFFQ69G5FAV']],
    [['org', 'unsuspend-member', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'a@example.test', 'extra']],
    [['org', 'suspend-member', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'a@example.test', '--seats', '3']],
  ])('exits 2 with a usage message for %j', async (argv) => {
    const result = await tcms(...argv);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/tcms help/);
  });
});

describe('bin/tcms.mjs as a child process', () => {
  it('help exits 0 and prints the usage', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-cli-'));
    try {
      const result = await runTcms(dataDir, ['help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('tcms org set-plan <orgUlid> <free|team|enterprise>');
      expect(result.stderr).toBe('');
      // help never opens the database
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a usage error exits 2', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-cli-'));
    try {
      const result = await runTcms(dataDir, ['org', 'promote']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/Unknown org command "promote"/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on a data directory without a database, says so in one line, exits 1 and creates nothing', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'tcms-cli-'));
    try {
      const missing = path.join(parent, 'missing');
      for (const dataDir of [parent, missing]) {
        const result = await runTcms(dataDir, ['org', 'set-plan', newId(), 'team']);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe(`tcms: no tcms database in ${dataDir}: start the server once to create it\n`);
      }
      expect(await readdir(parent)).toEqual([]);
      await expect(stat(missing)).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
