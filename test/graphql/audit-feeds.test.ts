import { describe, expect, it } from 'vitest';
import { grant, setAccessMode } from '../support/access-fixtures.ts';
import { type AuditEventBody, type Caller, graphql, joinAs, ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';
import { createCases, createRun } from '../support/runs.ts';

const t = useTestApp();

const EVENT = `ulid action actor { kind ulid email displayName name } entityType entityUlid entityLabel runUlid metadata createdAt`;
const PAGE = `edges { cursor node { ${EVENT} } } pageInfo { hasNextPage endCursor }`;
const ORG_FEED = `query ($first: Int, $after: String) { organization { auditEvents(first: $first, after: $after) { ${PAGE} } } }`;
const RUN_FEED = `query ($ulid: String!, $first: Int, $after: String) { run(ulid: $ulid) { auditEvents(first: $first, after: $after) { ${PAGE} } } }`;

type Feed = { edges: Array<{ cursor: string; node: AuditEventBody }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
type BackwardFeed = { edges: Array<{ node: { ulid: string } }>; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } };

async function restFeed(caller: Caller, path: string): Promise<AuditEventBody[]> {
  const response = await t.http.get(`/api/v1${path}?limit=100`).set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.events as AuditEventBody[];
}

/** A REST event as GraphQL answers it: the actor object carries every key, null where its kind has none. */
const asGraphQL = (event: AuditEventBody) => ({
  ...event,
  actor: { ulid: null, email: null, displayName: null, name: null, ...event.actor },
});

/** Every event of a feed, `first` at a time, following endCursor. */
async function walk(caller: Caller, query: string, variables: Record<string, unknown>, pick: (data: any) => Feed) {
  const nodes: AuditEventBody[] = [];
  let after: string | null = null;
  for (;;) {
    const feed = pick(dataOf(await graphql(t.http, caller, query, { ...variables, first: 2, after })));
    nodes.push(...feed.edges.map((edge) => edge.node));
    if (!feed.pageInfo.hasNextPage) return nodes;
    after = feed.pageInfo.endCursor;
  }
}

/** An owner, a project with a run of two cases, one marked (by session and by token), and a second run. */
async function scenario() {
  const { owner, code, project } = await ownerWithProject(t.http);
  const cases = await createCases(t.http, owner, code, 2);
  const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });
  const listed = await t.http.get(`/api/v1/runs/${run.ulid}/cases`).set(owner.headers);
  const token = await tokenFor(t.http, owner);
  const marked = await t.http
    .patch(`/api/v1/runs/${run.ulid}/cases/${listed.body.items[0].ulid}`)
    .set(token.headers)
    .send({ status: 'failed' });
  expect(marked.status).toBe(200);
  await createRun(t.http, owner, code, { name: 'Other', caseUlids: [cases[0]!.ulid] });
  return { owner, code, project, run };
}

describe('GraphQL audit feeds', () => {
  it("Organization.auditEvents: the REST feed's events, newest first, paged by cursor", async () => {
    const { owner } = await scenario();
    const rest = await restFeed(owner, `/orgs/${owner.orgId}/audit-events`);
    expect(rest.length).toBeGreaterThan(4);
    const nodes = await walk(owner, ORG_FEED, {}, (data) => data.organization.auditEvents);
    expect(nodes).toEqual(rest.map(asGraphQL));
    expect(nodes.map((node) => node.ulid)).toEqual(
      nodes
        .map((node) => node.ulid)
        .sort()
        .reverse(),
    );
    const marked = nodes.find((node) => node.action === 'run.case_marked')!;
    expect(marked.actor).toMatchObject({ kind: 'api_token', name: 'ci token', email: null, displayName: null });
    expect(nodes.find((node) => node.action === 'project.created')!.actor).toMatchObject({
      kind: 'user',
      ulid: owner.userId,
      email: owner.email,
    });
  });

  it('Organization.auditEvents pages backwards too: `last` events before a cursor, still newest first', async () => {
    const { owner } = await scenario();
    const rest = await restFeed(owner, `/orgs/${owner.orgId}/audit-events`);
    const backwards = `query ($last: Int, $before: String) { organization { auditEvents(last: $last, before: $before) {
      edges { node { ulid } } pageInfo { hasPreviousPage startCursor } } } }`;
    const ulids: string[] = [];
    let before: string | null = null;
    for (;;) {
      const feed: BackwardFeed = dataOf(await graphql(t.http, owner, backwards, { last: 2, before })).organization.auditEvents;
      ulids.unshift(...feed.edges.map((edge) => edge.node.ulid));
      if (!feed.pageInfo.hasPreviousPage) break;
      before = feed.pageInfo.startCursor;
    }
    expect(ulids).toEqual(rest.map((event) => event.ulid));
  });

  it('Organization.auditEvents is for owners and admins: a member or a viewer gets forbidden', async () => {
    const { owner } = await scenario();
    const admin = await joinAs(t.http, owner, 'admin');
    expect(dataOf(await graphql(t.http, admin, ORG_FEED, { first: 1 })).organization.auditEvents.edges).toHaveLength(1);
    for (const role of ['member', 'viewer'] as const) {
      const caller = await joinAs(t.http, owner, role);
      expect(codeOf(await graphql(t.http, caller, ORG_FEED, { first: 1 }))).toBe('forbidden');
    }
  });

  it("Run.auditEvents: only the run's events, newest first, for any member who can read the run", async () => {
    const { owner, run } = await scenario();
    const rest = await restFeed(owner, `/runs/${run.ulid}/audit-events`);
    expect(rest.map((event) => event.action)).toEqual(['run.case_marked', 'run.created']);
    const viewer = await joinAs(t.http, owner, 'viewer');
    for (const caller of [owner, viewer]) {
      const nodes = await walk(caller, RUN_FEED, { ulid: run.ulid }, (data) => data.run.auditEvents);
      expect(nodes).toEqual(rest.map(asGraphQL));
    }
  });

  it("a private project's run feed is not_found for a member off its allowlist, and open to one on it", async () => {
    const { owner, project, run } = await scenario();
    const [outsider, allowed] = await Promise.all([joinAs(t.http, owner, 'member'), joinAs(t.http, owner, 'member')]);
    await setAccessMode(owner.orgId, project, 'private');
    await grant(owner.orgId, project, allowed.userId);
    expect(codeOf(await graphql(t.http, outsider, RUN_FEED, { ulid: run.ulid }))).toBe('not_found');
    const nodes = dataOf(await graphql(t.http, allowed, RUN_FEED, { ulid: run.ulid })).run.auditEvents.edges;
    expect(nodes).toHaveLength(2);
  });
});
