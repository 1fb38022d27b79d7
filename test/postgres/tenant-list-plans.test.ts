import { rm } from 'node:fs/promises';
import request, { type Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { onQuery, type QueryEvent } from '../../src/kernel/database/client.ts';
import { openPgConnection, type SqlConnection } from '../../src/kernel/database/sql-connection.ts';
import { type Caller, createProject, graphql, signUp, TEST_DEFAULTS } from '../support/app.ts';
import { newDataDir } from '../support/data-directories.ts';
import { freshServerDatabase } from '../support/databases.ts';

/**
 * A tenant's list pages read only its own rows, however many rows another organization wrote
 * next to them (issue 33). On a database of its own, 25,000 audit events of a neighbour lie above
 * each of the tenant's first two feed pages, and 25,000 cases of a neighbour's project below each
 * of its first two case pages; the statement each page sent is then planned as the service's
 * prepared statements may be, for the tenant's values and generically, and run: no scan reads
 * more rows than the tenant has.
 */

const PAGE = 50;
const NEIGHBOUR_ROWS = 25_000;
const PLAN_MODES = ['force_custom_plan', 'force_generic_plan'] as const;

/** The seeded row numbered `n`: digits are ULID characters, and a leading 7 puts it above every ULID minted today. */
const seededUlid = (n: number) => `7${String(n).padStart(25, '0')}`;
const SEEDED_ULID_SQL = `'7' || lpad(($2::int + n)::text, 25, '0')`;
const seededRange = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + 1 + index);

let database: Awaited<ReturnType<typeof freshServerDatabase>>;
let app: App;
let http: TestAgent;
let dataDir: string;
let connection: SqlConnection;

beforeAll(async () => {
  database = await freshServerDatabase(process.env.DATABASE_URL!);
  dataDir = await newDataDir();
  app = await createApp(
    loadConfig({ ...process.env, TCMS_DATA_DIR: dataDir, NODE_ENV: 'test', ...TEST_DEFAULTS, DATABASE_URL: database.url }),
  );
  http = request(app.express);
  connection = await openPgConnection(database.url);
});

afterAll(async () => {
  await connection?.close();
  await app?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Audit events of `orgId` numbered `from + 1` to `from + count`. */
async function seedEvents(orgId: string, from: number, count: number) {
  await connection.query(
    `INSERT INTO audit_events (id, org_id, action, actor_kind, entity_type, entity_ulid, entity_label)
     SELECT ${SEEDED_ULID_SQL}, $1, 'fixture.seeded', 'system', 'fixture', ${SEEDED_ULID_SQL}, 'fixture ' || n
     FROM generate_series(1, $3::int) AS n`,
    [orgId, from, count],
  );
}

/** Live cases of the project numbered `from + 1` to `from + count` (their case numbers too). */
async function seedCases(project: { orgId: string; ulid: string }, from: number, count: number) {
  await connection.query(
    `INSERT INTO test_cases (id, org_id, project_id, case_number, title)
     SELECT ${SEEDED_ULID_SQL}, $1, $4, $2::int + n, 'case ' || n
     FROM generate_series(1, $3::int) AS n`,
    [project.orgId, from, count, project.ulid],
  );
}

/** The answer to `send` and the one statement it sent that reads `from` (a FROM clause). */
async function answerAndStatement(from: string, send: () => Promise<Response>) {
  const heard: QueryEvent[] = [];
  const stop = onQuery((event) => heard.push(event));
  let response: Response;
  try {
    response = await send();
  } finally {
    stop();
  }
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const reads = heard.filter((event) => event.query.includes(`FROM ${from}`));
  expect(reads).toHaveLength(1);
  return { body: response.body, statement: reads[0]! };
}

/** How many rows of `table` have `column` = `value`. */
async function rowsOf(table: string, column: string, value: string): Promise<number> {
  const [row] = await connection.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table} WHERE ${column} = $1`, [value]);
  return row!.count;
}

type PlanNode = {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

/** The rows each scan of `table` in the plan read: those it returned and those it filtered out. */
function rowsRead(node: PlanNode, table: string): number[] {
  const read = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
  const own = node['Relation Name'] === table ? [read * node['Actual Loops']] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => rowsRead(child, table))];
}

/**
 * Runs `statement` prepared, as the service's pool runs it, under each plan mode: no scan of
 * `table` reads more than the tenant's `ownRows` (a walk through the neighbour's would read
 * thousands).
 */
async function expectOwnRowsRead(statement: QueryEvent, table: string, ownRows: number) {
  // EXECUTE's arguments are literals: a utility statement takes no bound parameters.
  const literals = (JSON.parse(statement.params) as Array<string | number>).map((value) =>
    typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`,
  );
  await connection.execScript(`PREPARE listed AS ${statement.query}`);
  try {
    for (const mode of PLAN_MODES) {
      await connection.execScript(`SET plan_cache_mode = ${mode}`);
      const [explained] = await connection.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE listed(${literals.join(', ')})`,
      );
      const scans = rowsRead(explained!['QUERY PLAN'][0]!.Plan, table);
      expect(scans.length, mode).toBeGreaterThan(0);
      expect(Math.max(...scans), `${mode}: ${JSON.stringify(explained)}`).toBeLessThanOrEqual(ownRows);
    }
  } finally {
    await connection.execScript('RESET plan_cache_mode; DEALLOCATE listed');
  }
}

describe('list pages beside a large neighbour', { timeout: 120_000 }, () => {
  let tenant: Caller;
  let code: string;
  let projectUlid: string;

  beforeAll(async () => {
    tenant = await signUp(http);
    const neighbour = await signUp(http);
    const project = await createProject(http, tenant);
    code = project.id;
    projectUlid = project.ulid;
    const neighbourProject = await createProject(http, neighbour);
    // Newest first: the tenant's second page, the neighbour's rows, its first page, the neighbour's rows.
    await seedEvents(tenant.orgId, 1_000_000, PAGE + 10);
    await seedEvents(neighbour.orgId, 2_000_000, NEIGHBOUR_ROWS);
    await seedEvents(tenant.orgId, 3_000_000, PAGE);
    await seedEvents(neighbour.orgId, 4_000_000, NEIGHBOUR_ROWS);
    // Oldest first: the neighbour's cases, the tenant's first page, the neighbour's cases, its second page.
    await seedCases({ orgId: neighbour.orgId, ulid: neighbourProject.ulid }, 1_000_000, NEIGHBOUR_ROWS);
    await seedCases({ orgId: tenant.orgId, ulid: project.ulid }, 2_000_000, PAGE);
    await seedCases({ orgId: neighbour.orgId, ulid: neighbourProject.ulid }, 3_000_000, NEIGHBOUR_ROWS);
    await seedCases({ orgId: tenant.orgId, ulid: project.ulid }, 4_000_000, PAGE + 10);
    await connection.execScript('ANALYZE audit_events, test_cases');
  }, 120_000);

  it("the audit feed's first and next pages read only the organization's events", async () => {
    const ownEvents = await rowsOf('audit_events', 'org_id', tenant.orgId);
    const feed = `/api/v1/orgs/${tenant.orgId}/audit-events`;
    const first = await answerAndStatement('audit_events', () => http.get(feed).set(tenant.headers));
    expect(first.body.events.map((event: { ulid: string }) => event.ulid)).toEqual(seededRange(3_000_000, PAGE).reverse().map(seededUlid));
    expect(first.body.nextCursor).toBe(seededUlid(3_000_001));
    await expectOwnRowsRead(first.statement, 'audit_events', ownEvents);

    const next = await answerAndStatement('audit_events', () => http.get(`${feed}?cursor=${first.body.nextCursor}`).set(tenant.headers));
    expect(next.body.events.map((event: { ulid: string }) => event.ulid)).toEqual(seededRange(1_000_010, PAGE).reverse().map(seededUlid));
    expect(next.body.nextCursor).toBe(seededUlid(1_000_011));
    await expectOwnRowsRead(next.statement, 'audit_events', ownEvents);
  });

  it("the case list's first and next pages read only the project's cases", async () => {
    const ownCases = await rowsOf('test_cases', 'project_id', projectUlid);
    const list = `/api/v1/projects/${code}/test-cases`;
    const first = await answerAndStatement('test_cases', () => http.get(list).set(tenant.headers));
    const numbers = seededRange(2_000_000, PAGE);
    expect(first.body.items.map((item: { ulid: string; caseNumber: number }) => [item.ulid, item.caseNumber])).toEqual(
      numbers.map((n) => [seededUlid(n), n]),
    );
    expect(first.body.nextCursor).toBe(seededUlid(2_000_000 + PAGE));
    await expectOwnRowsRead(first.statement, 'test_cases', ownCases);

    const next = await answerAndStatement('test_cases', () => http.get(`${list}?cursor=${first.body.nextCursor}`).set(tenant.headers));
    expect(next.body.items.map((item: { ulid: string }) => item.ulid)).toEqual(seededRange(4_000_000, PAGE).map(seededUlid));
    expect(next.body.nextCursor).toBe(seededUlid(4_000_000 + PAGE));
    await expectOwnRowsRead(next.statement, 'test_cases', ownCases);
  });

  it("the GraphQL case connection's first and next pages read only the project's cases", async () => {
    const ownCases = await rowsOf('test_cases', 'project_id', projectUlid);
    const page = (after: string | null) => () =>
      graphql(
        http,
        tenant,
        `query($code: String!, $after: String) { project(code: $code) { testCases(first: ${PAGE}, after: $after) { edges { node { ulid } } pageInfo { endCursor } } } }`,
        { code, after },
      );
    const ulidsOf = (body: { data: { project: { testCases: { edges: Array<{ node: { ulid: string } }> } } } }) =>
      body.data.project.testCases.edges.map((edge) => edge.node.ulid);
    const first = await answerAndStatement('test_cases', page(null));
    expect(ulidsOf(first.body)).toEqual(seededRange(2_000_000, PAGE).map(seededUlid));
    await expectOwnRowsRead(first.statement, 'test_cases', ownCases);

    const next = await answerAndStatement('test_cases', page(first.body.data.project.testCases.pageInfo.endCursor));
    expect(ulidsOf(next.body)).toEqual(seededRange(4_000_000, PAGE).map(seededUlid));
    await expectOwnRowsRead(next.statement, 'test_cases', ownCases);
  });
});
