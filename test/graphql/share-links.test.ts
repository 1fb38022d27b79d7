import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, graphql, joinAs, signUp, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';
import { runWithCases } from '../support/runs.ts';

const t = useTestApp({ TCMS_TRUST_PROXY: 'true' });

const CREATE = `mutation($runUlid: String!, $expiresAt: Timestamp) {
  createShareLink(runUlid: $runUlid, expiresAt: $expiresAt) { token url shareLink { ulid runUlid createdAt expiresAt } }
}`;
const REVOKE = 'mutation($runUlid: String!, $ulid: String!) { revokeShareLink(runUlid: $runUlid, ulid: $ulid) }';
const LIST = 'query($ulid: String!) { run(ulid: $ulid) { shareLinks { ulid runUlid createdAt expiresAt } } }';

const gql = (caller: Caller, query: string, variables: Record<string, unknown> = {}) => graphql(t.http, caller, query, variables);

type Created = { token: string; url: string; shareLink: { ulid: string; runUlid: string; createdAt: number; expiresAt: number | null } };

describe('share links over GraphQL', () => {
  it('creates a link with its token once, lists it on the run without it, and revokes it', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const expiresAt = Date.now() + 7 * 24 * 60 * 60 * 1000;
    const created = dataOf(await gql(owner, CREATE, { runUlid: run.ulid, expiresAt })).createShareLink as Created;
    expect(created.url).toMatch(new RegExp(`/share/runs/${created.token}$`));
    expect(created.shareLink).toMatchObject({ runUlid: run.ulid, expiresAt });

    const public1 = await t.http.get(`/api/v1/public/runs/${created.token}`).set('X-Forwarded-For', '10.9.9.1');
    expect(public1.status).toBe(200);

    const listed = dataOf(await gql(owner, LIST, { ulid: run.ulid })).run as { shareLinks: unknown[] };
    expect(listed.shareLinks).toEqual([created.shareLink]);

    expect(dataOf(await gql(owner, REVOKE, { runUlid: run.ulid, ulid: created.shareLink.ulid })).revokeShareLink).toBe(true);
    expect((await t.http.get(`/api/v1/public/runs/${created.token}`).set('X-Forwarded-For', '10.9.9.1')).status).toBe(404);
    expect((dataOf(await gql(owner, LIST, { ulid: run.ulid })).run as { shareLinks: unknown[] }).shareLinks).toEqual([]);
    expect((await auditEvents(t.http, owner, { actionPrefix: 'run.share_link_' })).map((event) => event.action)).toEqual([
      'run.share_link_revoked',
      'run.share_link_created',
    ]);
  });

  it('refuses a viewer, a stranger and an expiry in the past with the contract codes', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    expect(codeOf(await gql(viewer, CREATE, { runUlid: run.ulid }))).toBe('forbidden');
    expect(codeOf(await gql(await signUp(t.http), CREATE, { runUlid: run.ulid }))).toBe('not_found');
    expect(codeOf(await gql(owner, CREATE, { runUlid: run.ulid, expiresAt: Date.now() - 1 }))).toBe('validation_failed');
    expect(codeOf(await gql(owner, REVOKE, { runUlid: run.ulid, ulid: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' }))).toBe('not_found');
  });
});
