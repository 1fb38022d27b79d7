import type request from 'supertest';
import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { PUBLIC_SHARE_REQUESTS_PER_MINUTE } from '../../src/share-links/share-links.schemas.ts';
import { setAccessMode } from '../support/access-fixtures.ts';
import { auditEvents, type Caller, createProject, expectError, joinAs, ownerWithProject, signUp, useTestApp } from '../support/app.ts';
import { progressOf, useListeningApp } from '../support/event-streams.ts';
import {
  configurationValue,
  createCases,
  createEnvironment,
  createRun,
  createRunField,
  patchRunCase,
  runWithCases,
} from '../support/runs.ts';

// Behind a trusted proxy each test is its own client address (X-Forwarded-For), so the per-address limit of one test never reaches another.
const t = useTestApp({ TCMS_TRUST_PROXY: 'true', TCMS_PUBLIC_URL: 'https://tcms.example.test' });
const live = useListeningApp(t);

const newAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

type Created = { ulid: string; token: string; url: string; createdAt: number; expiresAt: number | null };

async function share(caller: Caller, runUlid: string, body: Record<string, unknown> = {}): Promise<Created> {
  const response = await t.http.post(`/api/v1/runs/${runUlid}/share-links`).set(caller.headers).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Created;
}

const publicRun = (token: string, ip = newAddress()) =>
  t.http.get(`/api/v1/public/runs/${encodeURIComponent(token)}`).set('X-Forwarded-For', ip);
const sharePage = (token: string, ip = newAddress()) => t.http.get(`/share/runs/${encodeURIComponent(token)}`).set('X-Forwarded-For', ip);

/** Everything of an answer a client could tell two answers apart by, except the per-request id. */
const fingerprintOf = (response: request.Response) => ({
  status: response.status,
  body: Buffer.from(response.text, 'utf8'),
  headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => !['date', 'x-request-id'].includes(name))),
});

describe('POST /api/v1/runs/{runUlid}/share-links', () => {
  it('answers the token and page address once; the list and the audit never show the token', async () => {
    const { owner, run } = await runWithCases(t.http, 2);
    const before = Date.now();
    const created = await share(owner, run.ulid);
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'expiresAt', 'token', 'ulid', 'url']);
    expect(created.url).toBe(`https://tcms.example.test/share/runs/${created.token}`);
    expect(created.token.length).toBeGreaterThanOrEqual(43);
    expect(created.expiresAt).toBeNull();
    expect(created.createdAt).toBeGreaterThanOrEqual(before - 1000);

    const list = await t.http.get(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ ulid: created.ulid, runUlid: run.ulid, createdAt: created.createdAt, expiresAt: null }] });
    expect(list.text).not.toContain(created.token);

    const [event] = await auditEvents(t.http, owner, { action: 'run.share_link_created' });
    expect(event).toMatchObject({
      entityType: 'test_run',
      entityUlid: run.ulid,
      runUlid: run.ulid,
      metadata: { shareLinkUlid: created.ulid, expiresAt: null },
    });
    expect(JSON.stringify(event)).not.toContain(created.token);
    const stored = await prisma().shareLink.findUniqueOrThrow({ where: { id: created.ulid } });
    expect(stored.tokenHash).not.toContain(created.token);
  });

  it('needs the result execute permission: a member shares, a viewer gets 403 and may list', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const member = await joinAs(t.http, owner, 'member');
    const viewer = await joinAs(t.http, owner, 'viewer');
    const created = await share(member, run.ulid);
    expectError(await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(viewer.headers).send({}), 403, 'forbidden');
    expectError(await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${created.ulid}`).set(viewer.headers), 403, 'forbidden');
    const list = await t.http.get(`/api/v1/runs/${run.ulid}/share-links`).set(viewer.headers);
    expect(list.body.items.map((item: { ulid: string }) => item.ulid)).toEqual([created.ulid]);
    expect((await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).send({})).status).toBe(401);
  });

  it('keeps tenants apart and hides runs of private projects from members without access', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const created = await share(owner, run.ulid);
    const stranger = await signUp(t.http);
    expectError(await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(stranger.headers).send({}), 404, 'not_found');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/share-links`).set(stranger.headers), 404, 'not_found');
    expectError(await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${created.ulid}`).set(stranger.headers), 404, 'not_found');

    const member = await joinAs(t.http, owner, 'member');
    await setAccessMode(owner.orgId, { ulid: run.projectUlid as string }, 'private');
    expectError(await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(member.headers).send({}), 404, 'not_found');
    expectError(await t.http.get(`/api/v1/runs/${run.ulid}/share-links`).set(member.headers), 404, 'not_found');
    expectError(await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${created.ulid}`).set(member.headers), 404, 'not_found');
    // A link of another run is not found through this one.
    const other = await runWithCases(t.http, 1);
    expectError(
      await t.http.delete(`/api/v1/runs/${other.run.ulid}/share-links/${created.ulid}`).set(other.owner.headers),
      404,
      'not_found',
    );
  });

  it('validates expiresAt: an integer in the future, at most 366 days ahead; no other keys', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const day = 24 * 60 * 60 * 1000;
    for (const body of [
      { expiresAt: Date.now() - 1000 },
      { expiresAt: Date.now() + 367 * day },
      { expiresAt: 'tomorrow' },
      { expiresAt: 1.5 },
      { expiresAt: null },
      { token: 'mine' },
    ]) {
      const response = await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send(body);
      expectError(response, 422, 'validation_failed');
    }
    const expiresAt = Date.now() + 30 * day;
    expect((await share(owner, run.ulid, { expiresAt })).expiresAt).toBe(expiresAt);
  });
});

describe('GET /api/v1/public/runs/{token}', () => {
  it('shows the name, state, counts, pass rate, configurations, environment and cases, and nothing else', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 2);
    const environment = await createEnvironment(t.http, owner, code, 'Staging');
    const browser = await configurationValue(t.http, owner, code, 'Browser', 'Firefox');
    const field = await createRunField(t.http, owner, { valueType: 'paragraph', title: 'Build' });
    const run = await createRun(t.http, owner, code, {
      name: 'Release <b>candidate</b>',
      caseUlids: cases.map((each) => each.ulid),
      environmentId: environment.ulid,
      configurationUlids: [browser],
      defaultAssigneeUlid: owner.userId,
      description: 'internal notes',
    });
    const values = await t.http
      .put(`/api/v1/runs/${run.ulid}/custom-field-values`)
      .set(owner.headers)
      .send({ values: [{ fieldUlid: field.ulid, value: 'secret-build-42' }] });
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    const runCases = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items;
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0].ulid, { status: 'passed', elapsedMs: 1500 })).status).toBe(200);
    const { token } = await share(owner, run.ulid);

    const response = await publicRun(token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: 'Release <b>candidate</b>',
      state: 'open',
      counts: { passed: 1, failed: 0, blocked: 0, skipped: 0, untested: 1 },
      passRate: 50,
      configurations: [{ groupName: 'Browser', valueName: 'Firefox' }],
      environmentName: 'Staging',
      cases: [
        { displayId: cases[0]!.displayId, title: 'Case 1', status: 'passed', elapsedMs: 1500 },
        { displayId: cases[1]!.displayId, title: 'Case 2', status: 'untested', elapsedMs: null },
      ],
    });
    for (const secret of [owner.email, owner.userId, owner.orgId, run.ulid, 'secret-build-42', 'internal notes'])
      expect(response.text).not.toContain(secret);
  });

  it('answers one byte-identical 404 for an unknown, revoked or expired token, a locked project and a deleted run', async () => {
    const unknown = fingerprintOf(await publicRun(`unknown-${newId()}`));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toEqual({ error: { code: 'not_found', message: 'Share link not found' } });
    const unknownPage = fingerprintOf(await sharePage(`unknown-${newId()}`));
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.headers['content-type']).toMatch(/^text\/html/);

    const failures: Array<[string, string]> = [];
    const { owner, run } = await runWithCases(t.http, 1);
    const revoked = await share(owner, run.ulid);
    expect((await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${revoked.ulid}`).set(owner.headers)).status).toBe(204);
    failures.push(['revoked', revoked.token]);

    const expired = await share(owner, run.ulid, { expiresAt: Date.now() + 60_000 });
    await prisma().shareLink.update({ where: { id: expired.ulid }, data: { expiresAt: new Date(Date.now() - 1) } });
    failures.push(['expired', expired.token]);

    const locked = await runWithCases(t.http, 1);
    const lockedLink = await share(locked.owner, locked.run.ulid);
    expect((await publicRun(lockedLink.token)).status).toBe(200);
    await prisma().project.update({ where: { id: locked.run.projectUlid as string }, data: { lockedAt: new Date() } });
    failures.push(['locked project', lockedLink.token]);

    const deleted = await runWithCases(t.http, 1);
    const deletedLink = await share(deleted.owner, deleted.run.ulid);
    expect((await t.http.delete(`/api/v1/runs/${deleted.run.ulid}`).set(deleted.owner.headers)).status).toBe(204);
    failures.push(['deleted run', deletedLink.token]);

    const suspended = await runWithCases(t.http, 1);
    const suspendedLink = await share(suspended.owner, suspended.run.ulid);
    await prisma().organization.update({ where: { id: suspended.owner.orgId }, data: { suspendedAt: new Date() } });
    failures.push(['suspended organization', suspendedLink.token]);

    for (const [why, token] of failures) {
      expect(fingerprintOf(await publicRun(token)), why).toEqual(unknown);
      expect(fingerprintOf(await sharePage(token)), why).toEqual(unknownPage);
      const stream = await live.open(`/api/v1/public/runs/${token}/events`, { headers: { 'X-Forwarded-For': newAddress() } });
      expect(stream.status, why).toBe(404);
      expect(stream.errorBody, why).toEqual(JSON.parse(unknown.body.toString()));
    }
  });

  it('stops working at once when revoked, with run.share_link_revoked, and a second revoke is 404', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const created = await share(owner, run.ulid);
    expect((await publicRun(created.token)).status).toBe(200);
    const stream = await live.open(`/api/v1/public/runs/${created.token}/events`, { headers: { 'X-Forwarded-For': newAddress() } });
    expect(stream.status).toBe(200);
    await stream.nextEvent();

    expect((await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${created.ulid}`).set(owner.headers)).status).toBe(204);
    expect((await publicRun(created.token)).status).toBe(404);
    await stream.ended;
    expectError(await t.http.delete(`/api/v1/runs/${run.ulid}/share-links/${created.ulid}`).set(owner.headers), 404, 'not_found');
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers)).body.items).toEqual([]);
    const [event] = await auditEvents(t.http, owner, { action: 'run.share_link_revoked' });
    expect(event).toMatchObject({ entityUlid: run.ulid, runUlid: run.ulid, metadata: { shareLinkUlid: created.ulid } });
  });

  it('limits each client address to its requests per minute across the public routes (429 with Retry-After)', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const { token } = await share(owner, run.ulid);
    const address = newAddress();
    const minuteOf = (at: number) => Math.floor(at / 60_000);
    const startedAt = Date.now();
    let accepted = 0;
    let refused = await publicRun(token, address);
    while (refused.status === 200 && accepted <= 2 * PUBLIC_SHARE_REQUESTS_PER_MINUTE) {
      accepted += 1;
      refused = accepted % 2 === 0 ? await publicRun(token, address) : await sharePage(token, address);
    }
    // Windows are whole minutes: a loop that crossed into the next one had its count started again.
    if (minuteOf(startedAt) === minuteOf(Date.now())) expect(accepted).toBe(PUBLIC_SHARE_REQUESTS_PER_MINUTE);
    else expect(accepted).toBeLessThanOrEqual(2 * PUBLIC_SHARE_REQUESTS_PER_MINUTE);
    if (accepted % 2 === 1) refused = await publicRun(token, address);
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await sharePage(token, address)).status).toBe(429);
    expect((await publicRun(`unknown-${newId()}`, address)).status).toBe(429);
    expect((await publicRun(token, newAddress())).status).toBe(200);
  });
});

describe('GET /api/v1/public/runs/{token}/events', () => {
  it('streams the run progress of §14 without credentials', async () => {
    const { owner, run, runCases } = await runWithCases(t.http, 2);
    const { token } = await share(owner, run.ulid);
    const stream = await live.open(`/api/v1/public/runs/${token}/events`, { headers: { 'X-Forwarded-For': newAddress() } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(progressOf(await stream.nextEvent())).toEqual({
      runUlid: run.ulid,
      state: 'open',
      counts: { passed: 0, failed: 0, blocked: 0, skipped: 0, untested: 2 },
      total: 2,
      passRate: 0,
      lastResultAt: null,
    });
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'failed' })).status).toBe(200);
    expect(progressOf(await stream.nextEvent())).toMatchObject({ counts: { passed: 0, failed: 1, blocked: 0, skipped: 0, untested: 1 } });
  });
});

describe('GET /share/runs/{token}', () => {
  it('is an HTML page with a strict Content-Security-Policy, escaped user text, the chart and the case table', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 1);
    await t.http
      .patch(`/api/v1/projects/${code}/test-cases/${cases[0]!.ulid}`)
      .set(owner.headers)
      .send({ title: '<img src=x onerror=alert(1)>' });
    const run = await createRun(t.http, owner, code, { name: '</title><script>alert(1)</script>', caseUlids: [cases[0]!.ulid] });
    const { token } = await share(owner, run.ulid);
    const response = await sharePage(token);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const csp = response.headers['content-security-policy'] as string;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(response.text).not.toContain('<script>alert(1)</script>');
    expect(response.text).not.toContain('<img src=x');
    expect(response.text).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.text).toContain('<html lang="en">');
    expect(response.text.match(/<h1>/g)).toHaveLength(1);
    expect(response.text).toContain('<caption');
    expect(response.text).toContain('aria-live="polite"');
    expect(response.text).toMatch(/<svg id="chart" role="img"/);
    expect([...response.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1])).toEqual([` nonce="${nonce}"`]);
    expect(response.text).not.toMatch(/(src|href)="https?:/);
    expect((await sharePage(token)).headers['content-security-policy']).not.toBe(csp);
  });
});

describe('hostile tokens', () => {
  it('answer the one 404 on every public route, never a 5xx (a NUL is malformed input to the API, as on every route)', async () => {
    const unknown = fingerprintOf(await publicRun(`unknown-${newId()}`));
    const unknownPage = fingerprintOf(await sharePage(`unknown-${newId()}`));
    expectError(await t.http.get('/api/v1/public/runs/%00').set('X-Forwarded-For', newAddress()), 422, 'validation_failed');
    expect(fingerprintOf(await t.http.get('/share/runs/%00').set('X-Forwarded-For', newAddress()))).toEqual(unknownPage);
    for (const token of ['a'.repeat(4000), '..%2F..%2Fetc', '%E2%80%AE<script>', "'; DROP TABLE share_links; --", '%F0%9F%92%A5']) {
      const ip = newAddress();
      expect(fingerprintOf(await t.http.get(`/api/v1/public/runs/${token}`).set('X-Forwarded-For', ip)), token).toEqual(unknown);
      expect(fingerprintOf(await t.http.get(`/share/runs/${token}`).set('X-Forwarded-For', ip)), token).toEqual(unknownPage);
      expect((await t.http.get(`/api/v1/public/runs/${token}/events`).set('X-Forwarded-For', ip)).status, token).toBe(404);
    }
  });
});

describe('share links of another project', () => {
  it('are listed per run', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const other = await createProject(t.http, owner);
    const otherRun = await createRun(t.http, owner, other.id, { caseUlids: [] });
    await share(owner, run.ulid);
    expect((await t.http.get(`/api/v1/runs/${otherRun.ulid}/share-links`).set(owner.headers)).body.items).toEqual([]);
  });
});
