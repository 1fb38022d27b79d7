import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { auditEvents, type Caller, expectError, joinAs, ownerWithProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCases, createRun, patchRunCase } from '../support/runs.ts';

const t = useTestApp();

type RunCase = { ulid: string; status: string; steps: Array<{ ulid: string; status: string }> };

const currentPeriod = () => new Date().toISOString().slice(0, 7);

async function usage(caller: Caller, orgUlid = caller.orgId) {
  const response = await t.http.get(`/api/v1/orgs/${orgUlid}/api-result-usage`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { periodKey: string; used: number; limit: number | null };
}

/** An owner, an admin token of theirs and a run of `count` cases with `steps` steps each. */
async function meteredRun(count: number, steps = 0) {
  const { owner, code } = await ownerWithProject(t.http);
  const token = await tokenFor(t.http, owner, { role: 'admin' });
  const cases = await createCases(t.http, owner, code, count, steps);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
  return { owner, token, run, runCases: listed.body.items as RunCase[] };
}

const patchStep = (caller: Caller, runUlid: string, runCase: RunCase, index: number, body: Record<string, unknown>) =>
  t.http.patch(`/api/v1/runs/${runUlid}/cases/${runCase.ulid}/steps/${runCase.steps[index]!.ulid}`).set(caller.headers).send(body);

describe('GET /api/v1/orgs/{orgUlid}/api-result-usage', () => {
  it("answers the month, the results counted and the plan's ceiling to any member, without creating a counter", async () => {
    const owner = await signUp(t.http);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const token = await tokenFor(t.http, viewer);
    const expected = { periodKey: currentPeriod(), used: 0, limit: 5000 };
    expect(await usage(owner)).toEqual(expected);
    expect(await usage(viewer)).toEqual(expected);
    expect(await usage(token)).toEqual(expected);
    expect(await prisma().apiResultUsage.count({ where: { orgId: owner.orgId } })).toBe(0);
  });

  it('reports an override as the limit and 0 for a month without results', async () => {
    const owner = await signUp(t.http);
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 12 });
    await prisma().apiResultUsage.create({ data: { orgId: owner.orgId, periodKey: '2001-01', used: 99 } });
    expect(await usage(owner)).toEqual({ periodKey: currentPeriod(), used: 0, limit: 12 });
  });

  it('answers 404 for an organization the caller is no member of', async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    expectError(
      await t.http.get(`/api/v1/orgs/${stranger.orgId}/api-result-usage`).set({ Cookie: owner.headers.Cookie! }),
      404,
      'not_found',
    );
    const token = await tokenFor(t.http, owner);
    expectError(await t.http.get(`/api/v1/orgs/${stranger.orgId}/api-result-usage`).set(token.headers), 404, 'not_found');
  });
});

describe('the monthly ceiling of machine-authored results', () => {
  it('counts each result a token appends and never a session mark or a patch that appends nothing', async () => {
    const { owner, token, run, runCases } = await meteredRun(3, 2);
    const member = await joinAs(t.http, owner, 'member');
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[0]!.ulid, { status: 'passed' })).status).toBe(200);
    expect((await patchRunCase(t.http, member, run.ulid, runCases[0]!.ulid, { status: 'failed' })).status).toBe(200);
    expect((await usage(owner)).used).toBe(0);

    expect((await patchRunCase(t.http, token, run.ulid, runCases[0]!.ulid, { status: 'blocked' })).status).toBe(200);
    expect((await usage(owner)).used).toBe(1);
    // Same status, assignee only, elapsed only: no result, no charge.
    expect((await patchRunCase(t.http, token, run.ulid, runCases[0]!.ulid, { status: 'blocked' })).status).toBe(200);
    expect((await patchRunCase(t.http, token, run.ulid, runCases[0]!.ulid, { assigneeUlid: member.userId, elapsedMs: 9 })).status).toBe(
      200,
    );
    expect((await usage(owner)).used).toBe(1);
    // A step mark is charged only when it changes the case status (and so appends a result).
    expect((await patchStep(token, run.ulid, runCases[1]!, 0, { status: 'passed' })).body.status).toBe('untested');
    expect((await usage(owner)).used).toBe(1);
    expect((await patchStep(token, run.ulid, runCases[1]!, 1, { status: 'passed' })).body.status).toBe('passed');
    expect((await usage(owner)).used).toBe(2);
    // Reading does not advance it.
    expect((await usage(token)).used).toBe(2);
  });

  it('refuses a token mark past the ceiling with 409 api_result_limit_exceeded, no Retry-After, and writes nothing', async () => {
    const { owner, token, run, runCases } = await meteredRun(4, 2);
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 2 });
    expect((await patchRunCase(t.http, token, run.ulid, runCases[0]!.ulid, { status: 'passed', elapsedMs: 10 })).status).toBe(200);
    expect((await patchRunCase(t.http, token, run.ulid, runCases[1]!.ulid, { status: 'failed' })).status).toBe(200);
    const runBefore = (await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers)).body;
    const eventsBefore = (await auditEvents(t.http, owner)).length;

    const refused = await patchRunCase(t.http, token, run.ulid, runCases[2]!.ulid, {
      status: 'passed',
      elapsedMs: 5,
      assigneeUlid: owner.userId,
    });
    expectError(refused, 409, 'api_result_limit_exceeded');
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.body.error.message).not.toMatch(/\d/);
    expect(refused.body.error.details).toBeUndefined();
    const stepRefused = await patchStep(token, run.ulid, runCases[3]!, 0, { status: 'failed', actualResult: 'Broken' });
    expectError(stepRefused, 409, 'api_result_limit_exceeded');

    const cases = (await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers)).body.items as Array<
      RunCase & Record<string, unknown>
    >;
    expect(cases[2]).toMatchObject({ status: 'untested', assigneeUlid: null, elapsedMs: null });
    expect(cases[3]!.steps[0]).toMatchObject({ status: 'untested', actualResult: null });
    expect((await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(owner.headers)).body.items).toHaveLength(2);
    expect((await t.http.get(`/api/v1/runs/${run.ulid}`).set(owner.headers)).body).toEqual(runBefore);
    expect(await auditEvents(t.http, owner)).toHaveLength(eventsBefore);
    expect(await usage(owner)).toMatchObject({ used: 2, limit: 2 });

    // What appends no result, and every session mark, stays allowed.
    expect((await patchRunCase(t.http, token, run.ulid, runCases[2]!.ulid, { assigneeUlid: owner.userId })).status).toBe(200);
    expect((await patchStep(token, run.ulid, runCases[3]!, 0, { status: 'passed' })).status).toBe(200);
    expect((await patchRunCase(t.http, owner, run.ulid, runCases[2]!.ulid, { status: 'passed' })).status).toBe(200);
    expect((await usage(owner)).used).toBe(2);

    // A raised ceiling lets the token mark again.
    await overrideOrganizationLimits(owner.orgId, { maxResultsPerMonth: 3 });
    expect((await patchRunCase(t.http, token, run.ulid, runCases[3]!.ulid, { status: 'skipped' })).status).toBe(200);
    expect((await usage(owner)).used).toBe(3);
  });
});
