import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { overrideOrganizationLimits, setOrganizationSuspension } from '../../src/orgs/orgs.service.ts';
import { type Caller, createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { windowWithRoom } from '../support/fixed-windows.ts';

const t = useTestApp();

const WINDOW_MS = 60_000;
// Every test below finishes well within this; starting later could straddle two windows.
const MIN_WINDOW_LEFT_MS = 12_000;

const startOfQuietWindow = () => windowWithRoom(WINDOW_MS, MIN_WINDOW_LEFT_MS);

const windowEndSeconds = (at: number) => (Math.floor(at / WINDOW_MS) + 1) * (WINDOW_MS / 1000);

function expectRateLimitHeaders(response: Response, limit: number, remaining: number, windowEnd: number) {
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(response.headers['x-ratelimit-reset']).toBe(String(windowEnd));
}

function expectTooManyRequests(response: Response) {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body.error.code).toBe('too_many_requests');
  expect(response.body.error.message.trim()).not.toBe('');
  const retryAfter = response.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  return Number(retryAfter);
}

const listProjects = (caller: Caller) => t.http.get('/api/v1/projects').set(caller.headers);

describe('per-minute API ceiling (contract §2)', () => {
  it("refuses a token's 4th request in the window with 429 and Retry-After, headers on every answer", async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 3 });
    await startOfQuietWindow();
    const windowEnd = windowEndSeconds(Date.now());

    const first = await listProjects(token);
    expect(first.status).toBe(200);
    expectRateLimitHeaders(first, 3, 2, windowEnd);

    // Answers other than 200 carry the headers too.
    const missing = await t.http.get('/api/v1/projects/NOSUCH').set(token.headers);
    expect(missing.status).toBe(404);
    expectRateLimitHeaders(missing, 3, 1, windowEnd);

    const created = await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'Last one', id: 'LAST' });
    expect(created.status).toBe(201);
    expectRateLimitHeaders(created, 3, 0, windowEnd);

    const refusedAt = Date.now();
    const refused = await listProjects(token);
    const retryAfter = expectTooManyRequests(refused);
    expectRateLimitHeaders(refused, 3, 0, windowEnd);
    // Retry-After counts the whole seconds until the window rolls.
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((windowEnd * 1000 - refusedAt) / 1000));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((windowEnd * 1000 - Date.now()) / 1000));

    // A refused write does not execute.
    const refusedWrite = await t.http.post('/api/v1/projects').set(token.headers).send({ name: 'Too many', id: 'MORE' });
    expectTooManyRequests(refusedWrite);
    const projects = await listProjects(owner);
    expect(projects.body.items.map((p: { id: string }) => p.id)).toEqual(['LAST']);
  });

  it('reports X-RateLimit-Reset as the epoch second at which the fixed window ends', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    await startOfQuietWindow();
    const before = Date.now();
    const response = await listProjects(token);
    const after = Date.now();
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('60');
    expect(response.headers['x-ratelimit-remaining']).toBe('59');
    const reset = Number(response.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset % 60).toBe(0);
    expect(reset * 1000).toBeGreaterThan(before);
    expect(reset * 1000).toBeLessThanOrEqual(after + WINDOW_MS);
  });

  it('never meters session callers: no 429 and no X-RateLimit headers, and they do not use the allowance', async () => {
    const owner = await signUp(t.http);
    await createProject(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 2 });
    await startOfQuietWindow();
    for (let i = 0; i < 10; i += 1) {
      const response = i % 2 === 0 ? await listProjects(owner) : await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
      expect(response.headers['x-ratelimit-reset']).toBeUndefined();
    }
    const write = await t.http
      .patch(`/api/v1/projects/${(await listProjects(owner)).body.items[0].id}`)
      .set(owner.headers)
      .send({ description: 'still fine' });
    expect(write.status).toBe(200);
    expect(write.headers['x-ratelimit-limit']).toBeUndefined();

    // The session's requests did not count: a token of the organization has its full allowance.
    const token = await tokenFor(t.http, owner);
    const first = await listProjects(token);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    const second = await listProjects(token);
    expect(second.status).toBe(200);
    expectTooManyRequests(await listProjects(token));
    // The exhausted allowance does not touch the session either.
    expect((await listProjects(owner)).status).toBe(200);
  });

  it('keeps the counter exact under concurrency: exactly the limit of N parallel requests succeed', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const limit = 5;
    const attempts = 14;
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: limit });
    await startOfQuietWindow();
    const responses = await Promise.all(Array.from({ length: attempts }, () => listProjects(token)));
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(limit);
    expect(refused).toHaveLength(attempts - limit);
    for (const response of refused) expectTooManyRequests(response);
    // Each admitted request saw a distinct position in the window.
    expect(ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts per organization: tokens of one organization share the allowance, other organizations are unaffected', async () => {
    const owner = await signUp(t.http);
    const first = await tokenFor(t.http, owner, { name: 'first' });
    const second = await tokenFor(t.http, owner, { name: 'second' });
    const colleagueOrg = await signUp(t.http);
    const outsider = await tokenFor(t.http, colleagueOrg);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 3 });
    await overrideOrganizationLimits(colleagueOrg.orgId, { requestsPerMinute: 3 });
    await startOfQuietWindow();

    expect((await listProjects(first)).headers['x-ratelimit-remaining']).toBe('2');
    expect((await listProjects(second)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await listProjects(first)).headers['x-ratelimit-remaining']).toBe('0');
    expectTooManyRequests(await listProjects(second));
    expectTooManyRequests(await listProjects(first));

    const elsewhere = await listProjects(outsider);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['x-ratelimit-limit']).toBe('3');
    expect(elsewhere.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('counts only the requests a working token makes in its open organization', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const revoked = await tokenFor(t.http, owner, { name: 'revoked' });
    expect((await t.http.delete(`/api/v1/me/api-tokens/${revoked.tokenUlid}`).set(owner.headers)).status).toBe(204);
    const elsewhere = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 2 });
    await startOfQuietWindow();

    const uncounted = [
      [401, await listProjects(revoked)],
      [401, await t.http.get('/api/v1/me/api-tokens').set(token.headers)],
      [404, await t.http.get(`/api/v1/orgs/${elsewhere.orgId}`).set(token.headers)],
      [404, await listProjects(token).set('X-Organization-Id', elsewhere.orgId)],
      [404, await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(token.headers).set('X-Organization-Id', elsewhere.orgId)],
      [404, await t.http.get('/api/v1/orgs/not-an-organization').set(token.headers)],
    ] as const;
    for (const [status, response] of uncounted) {
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    await setOrganizationSuspension(owner.orgId, { suspended: true });
    const closed = await listProjects(token);
    expect(closed.status).toBe(403);
    expect(closed.body.error.code).toBe('organization_suspended');
    // The organization itself stays open to its members while suspended, and that read counts.
    const open = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(token.headers);
    expect(open.status).toBe(200);
    expect(open.headers['x-ratelimit-remaining']).toBe('1');

    await setOrganizationSuspension(owner.orgId, { suspended: false });
    const last = await listProjects(token);
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expectTooManyRequests(await listProjects(token));
  });

  it('applies a raised ceiling at once', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1 });
    await startOfQuietWindow();
    expect((await listProjects(token)).status).toBe(200);
    expectTooManyRequests(await listProjects(token));
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 10 });
    const after = await listProjects(token);
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-limit']).toBe('10');
  });
});
