import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/tcms.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { createProject, expectError, joinAs, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { createCase, createPlan } from '../support/runs.ts';

const PUBLIC_URL = 'https://tcms.example.test';
const t = useTestApp({ TCMS_PUBLIC_URL: PUBLIC_URL });
let server: Server;
let mcpUrl: URL;
const clients: Client[] = [];

beforeAll(async () => {
  server = t.app.express.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  mcpUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** An MCP client of the SDK, connected with `token` as its bearer credential. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'tcms-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

type Structured = Record<string, any>;

/** Calls a tool that must succeed; its structured answer, checked to equal the JSON text. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const [text] = result.content as Array<{ type: string; text: string }>;
  expect(JSON.parse(text!.text)).toEqual(result.structuredContent);
  return result.structuredContent as Structured;
}

/** Calls a tool that must fail with the contract error `code`; the error body. */
async function callFailing(client: Client, name: string, args: Record<string, unknown>, code: string) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  const [text] = result.content as Array<{ type: string; text: string }>;
  const body = JSON.parse(text!.text) as { error: { code: string; message: string; details?: Record<string, unknown> } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.trim()).not.toBe('');
  expect(result.structuredContent).toEqual(body);
  return body.error;
}

/** An owner with a token, a project and a plan of two cases. */
async function workspace() {
  const owner = await signUp(t.http);
  const token = await tokenFor(t.http, owner);
  const project = await createProject(t.http, owner);
  const cases = [
    await createCase(t.http, owner, project.id, { title: 'Login works' }),
    await createCase(t.http, owner, project.id, { title: 'Logout works' }),
  ];
  const plan = await createPlan(t.http, owner, project.id, { name: 'Release plan' });
  const selection = await t.http
    .put(`/api/v1/plans/${plan.ulid}/cases`)
    .set(owner.headers)
    .send({ caseUlids: cases.map((each) => each.ulid) });
  expect(selection.status).toBe(200);
  return { owner, token, project, cases, plan };
}

/** A raw JSON-RPC POST to /mcp, as a client without the SDK sends it. */
const post = (headers: Record<string, string>, body: unknown) =>
  fetch(mcpUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('MCP server (contract §16)', () => {
  it('lists its tools, each with a description and an object input schema', async () => {
    const { token } = await workspace();
    const { tools } = await (await connect(token.token)).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_projects',
      'get_project',
      'list_suites',
      'list_test_cases',
      'get_test_case',
      'get_test_case_by_display_id',
      'create_test_case',
      'list_plans',
      'get_plan',
      'list_runs',
      'get_run',
      'list_run_cases',
      'create_run',
      'mark_result',
      'submit_results',
      'search',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    const markResult = tools.find((tool) => tool.name === 'mark_result')!;
    expect(markResult.inputSchema.required).toEqual(['runUlid', 'runCaseUlid']);
    expect(markResult.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((tool) => tool.name === 'get_plan')!.annotations?.readOnlyHint).toBe(true);
  });

  it("reads a plan's progress, creates a run from the plan, marks a result and sees the progress move", async () => {
    const { token, project, cases, plan } = await workspace();
    const client = await connect(token.token);

    const projects = await call(client, 'list_projects', {});
    expect(projects.items.map((each: { id: string }) => each.id)).toEqual([project.id]);
    const before = await call(client, 'get_plan', { planUlid: plan.ulid });
    expect(before.name).toBe('Release plan');
    expect(before.progress).toMatchObject({ totalRuns: 0, counts: { passed: 0, untested: 0 } });

    const run = await call(client, 'create_run', { projectId: project.id, name: 'Agent run', planUlid: plan.ulid });
    expect(run).toMatchObject({ name: 'Agent run', planUlid: plan.ulid, counts: { untested: 2 } });
    const runCases = await call(client, 'list_run_cases', { runUlid: run.ulid });
    expect(runCases.items.map((each: { caseUlid: string }) => each.caseUlid)).toEqual(cases.map((each) => each.ulid));

    const marked = await call(client, 'mark_result', { runUlid: run.ulid, runCaseUlid: runCases.items[0].ulid, status: 'passed' });
    expect(marked.status).toBe('passed');
    expect(marked.resultUlid).toMatch(/^[0-9A-Z]{26}$/);

    const after = await call(client, 'get_plan', { planUlid: plan.ulid });
    expect(after.progress).toMatchObject({ totalRuns: 1, closedRuns: 0, counts: { passed: 1, failed: 0, untested: 1 } });
    // The same service answers REST: the result is the REST API's too.
    const rest = await t.http.get(`/api/v1/runs/${run.ulid}`).set(token.headers);
    expect(rest.body.counts).toMatchObject({ passed: 1, untested: 1 });
  });

  it('submits results in bulk, creates a test case and finds it by search', async () => {
    const { token, project, cases } = await workspace();
    const client = await connect(token.token);
    const run = await call(client, 'create_run', { projectId: project.id, name: 'Bulk run', caseUlids: cases.map((each) => each.ulid) });
    const submitted = await call(client, 'submit_results', {
      runUlid: run.ulid,
      results: [
        { caseUlid: cases[0]!.ulid, status: 'failed', comment: 'Button missing' },
        { caseUlid: cases[1]!.ulid, status: 'passed', elapsedMs: 900 },
      ],
    });
    expect(submitted).toMatchObject({ affected: 2, unchanged: 0 });
    expect(submitted.resultUlids).toHaveLength(2);
    expect((await call(client, 'get_run', { runUlid: run.ulid })).counts).toMatchObject({ passed: 1, failed: 1, untested: 0 });

    const created = await call(client, 'create_test_case', {
      projectId: project.id,
      title: 'Password reset mail arrives',
      steps: [{ action: 'Request a reset' }],
    });
    expect(created.displayId).toMatch(new RegExp(`^${project.id}-\\d+$`));
    const byDisplayId = await call(client, 'get_test_case_by_display_id', { projectId: project.id, displayId: created.displayId });
    expect(byDisplayId.ulid).toBe(created.ulid);

    const found = await call(client, 'search', { projectId: project.id, q: 'reset' });
    expect(found.testCases.map((each: { ulid: string }) => each.ulid)).toEqual([created.ulid]);
    expect(found).toMatchObject({ plans: [], runs: [] });
    const runs = await call(client, 'search', { projectId: project.id, q: 'BULK' });
    expect(runs.runs.map((each: { ulid: string }) => each.ulid)).toEqual([run.ulid]);
  });

  it("answers another organization's ids, a bad argument and a viewer's marking as error results with the contract's code", async () => {
    const { owner, token, project, plan } = await workspace();
    const ownClient = await connect(token.token);
    const run = await call(ownClient, 'create_run', { projectId: project.id, name: 'Theirs', planUlid: plan.ulid });
    const runCase = (await call(ownClient, 'list_run_cases', { runUlid: run.ulid })).items[0];

    const stranger = await workspace();
    const strangerClient = await connect(stranger.token.token);
    await callFailing(strangerClient, 'get_plan', { planUlid: plan.ulid }, 'not_found');
    await callFailing(strangerClient, 'get_project', { projectId: project.id }, 'not_found');
    await callFailing(strangerClient, 'mark_result', { runUlid: run.ulid, runCaseUlid: runCase.ulid, status: 'failed' }, 'not_found');

    const invalid = await callFailing(
      ownClient,
      'mark_result',
      { runUlid: run.ulid, runCaseUlid: runCase.ulid, status: 'great' },
      'validation_failed',
    );
    expect(JSON.stringify(invalid.details)).toContain('status');
    await callFailing(ownClient, 'create_run', { projectId: project.id, name: 'No cases' }, 'validation_failed');
    await callFailing(ownClient, 'search', { projectId: project.id, q: '' }, 'validation_failed');

    const viewer = await joinAs(t.http, owner, 'viewer');
    const viewerClient = await connect((await tokenFor(t.http, viewer)).token);
    expect((await call(viewerClient, 'get_run', { runUlid: run.ulid })).ulid).toBe(run.ulid);
    await callFailing(viewerClient, 'mark_result', { runUlid: run.ulid, runCaseUlid: runCase.ulid, status: 'passed' }, 'forbidden');
    expect((await call(ownClient, 'get_run', { runUlid: run.ulid })).counts).toMatchObject({ passed: 0, untested: 2 });
  });

  it('answers 401 with WWW-Authenticate naming the protected-resource metadata without a valid bearer token; a session is not enough', async () => {
    const owner = await signUp(t.http);
    const listing = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (const headers of [{}, { Authorization: 'Bearer tcms_not_a_real_token' }, { Authorization: 'Basic dXNlcjpwYXNz' }, owner.headers]) {
      const response = await post(headers, listing);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource"`,
      );
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    await expect(connect('tcms_not_a_real_token')).rejects.toThrow();
  });

  it('refuses a staff-suspended organization with 403 organization_suspended, through the same request pipeline as REST', async () => {
    const { owner, token } = await workspace();
    expect(await runCli(['org', 'suspend', owner.orgId], { out: () => undefined, err: () => undefined })).toBe(0);
    const response = await post(token.headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('organization_suspended');
  });

  it('answers a curl-style tools/list with a token, and 405 to GET and DELETE', async () => {
    const { token } = await workspace();
    const response = await post(token.headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { id: number; result: { tools: Array<{ name: string }> } };
    expect(body.id).toBe(1);
    expect(body.result.tools.map((tool) => tool.name)).toContain('mark_result');
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(mcpUrl, { method, headers: { ...token.headers, Accept: 'text/event-stream' } });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
    }
  });
});

describe('MCP hostile input', () => {
  it('answers unreadable bodies with the contract envelope, unstorable text as validation_failed, and protocol misuse as JSON-RPC errors', async () => {
    const { token, project } = await workspace();
    const malformed = await fetch(mcpUrl, {
      method: 'POST',
      headers: { ...token.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    const deep = await post(
      token.headers,
      toolCall(1, 'search', { projectId: project.id, q: JSON.parse('['.repeat(40) + ']'.repeat(40)) }),
    );
    expect(deep.status).toBe(422);

    const client = await connect(token.token);
    const nul = await callFailing(client, 'list_test_cases', { projectId: project.id, q: 'a\u0000b' }, 'validation_failed');
    expect(JSON.stringify(nul.details)).toContain('NUL');
    await callFailing(client, 'mark_result', { runUlid: 'not-a-ulid', runCaseUlid: 'x', status: 'passed' }, 'not_found');
    // A lone surrogate cannot be put in a URL: the keyed call's request line reads it as U+FFFD.
    const run = await call(client, 'create_run', { projectId: project.id, name: 'Hostile', caseUlids: [] });
    const lone = await callFailing(
      client,
      'mark_result',
      { runUlid: run.ulid, runCaseUlid: '\uDBFF', status: 'failed', idempotencyKey: 'lone' },
      'validation_failed',
    );
    expect(lone.details?.path).toEqual(['runCaseUlid']);

    for (const [message, code] of [
      [toolCall(2, 'drop_database', {}), -32602],
      // The SDK answers a message that does not match the method's params as an internal error, with the issues as its message.
      [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_project', arguments: [project.id] } }, -32603],
      [{ jsonrpc: '2.0', id: 4, method: 'resources/list' }, -32601],
    ] as const) {
      const response = await post(token.headers, message);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { error: { code: number; message: string } };
      expect(answer.error.code, answer.error.message).toBe(code);
    }
  });
});

describe('MCP metering (api-v1.md "Limits")', () => {
  /** Waits, if needed, until the fixed 60-second window has enough time left for a test. */
  async function startOfQuietMinute(): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  }

  it("counts each sub-request of a tool call against the per-minute ceiling (not the protocol's own messages); the refusal is an error result", async () => {
    const { owner, token, project } = await workspace();
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 5 });
    await startOfQuietMinute();
    const client = await connect(token.token);
    await client.listTools();

    // search dispatches three requests, get_project one: four of five.
    await call(client, 'search', { projectId: project.id, q: 'works' });
    await call(client, 'get_project', { projectId: project.id });
    // The fifth (the first of search's three) is allowed, the sixth refused: the tool fails with the ceiling's code.
    const refused = await callFailing(client, 'search', { projectId: project.id, q: 'works' }, 'too_many_requests');
    expect(refused.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.details?.retryAfterSeconds).toBeLessThanOrEqual(60);

    // The same budget as REST: the token's next REST request is refused too.
    const rest = await t.http.get('/api/v1/projects').set(token.headers);
    expect(rest.status).toBe(429);
    expect(rest.headers['x-ratelimit-limit']).toBe('5');
    // The protocol's own messages cost nothing and still work.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // A session is never metered.
    expect((await t.http.get('/api/v1/projects').set(owner.headers)).status).toBe(200);
  });

  it('refuses the 11th tool call of a token within one second with HTTP 429 too_many_requests and Retry-After; another token is not affected', async () => {
    const { owner, token, project } = await workspace();
    const other = await tokenFor(t.http, owner);
    let statuses: number[] = [];
    let refusal: Response | undefined;
    // Eleven calls at the start of a second; a run that straddles two one-second windows proves nothing and is repeated.
    for (let attempt = 0; attempt < 5; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const second = Math.floor(Date.now() / 1000);
      const responses = await Promise.all(
        Array.from({ length: 11 }, (_, index) => post(token.headers, toolCall(index, 'get_project', { projectId: project.id }))),
      );
      if (Math.floor(Date.now() / 1000) !== second) continue;
      statuses = responses.map((response) => response.status);
      refusal = responses.find((response) => response.status === 429);
      const unaffected = await post(other.headers, toolCall(99, 'get_project', { projectId: project.id }));
      expect(unaffected.status).toBe(200);
      break;
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(refusal!.headers.get('retry-after')).toBe('1');
    const body = (await refusal!.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('too_many_requests');
    expect(body.error.message).toContain('10');
  });
});

describe('MCP idempotencyKey (api-v1.md "General conventions")', () => {
  /** Calls a tool; the whole result, with its structured answer checked to equal its JSON text. */
  async function callRaw(client: Client, name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const [text] = result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(text!.text)).toEqual(result.structuredContent);
    return result;
  }

  const replayed = (result: CallToolResult) => result._meta?.idempotencyReplayed === true;

  const runCount = async (token: { headers: Record<string, string> }, projectId: string) =>
    (await t.http.get(`/api/v1/projects/${projectId}/runs`).set(token.headers)).body.total as number;

  it('shows idempotencyKey as an optional string argument of the writing tools only', async () => {
    const { token } = await workspace();
    const { tools } = await (await connect(token.token)).listTools();
    for (const tool of tools) {
      const key = tool.inputSchema.properties?.idempotencyKey as { type?: string; description?: string } | undefined;
      if (tool.annotations?.readOnlyHint) expect(key, tool.name).toBeUndefined();
      else {
        expect(key, tool.name).toMatchObject({ type: 'string', description: expect.stringContaining('Idempotency-Key') });
        expect(tool.inputSchema.required ?? []).not.toContain('idempotencyKey');
      }
    }
    expect(tools.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual([
      'create_test_case',
      'create_run',
      'mark_result',
      'submit_results',
    ]);
  });

  it('creates one run for two create_run calls with the same key: the second answer equals the first, marked replayed; without a key each call creates', async () => {
    const { token, project, cases } = await workspace();
    const client = await connect(token.token);
    const args = { projectId: project.id, name: 'Retried run', caseUlids: cases.map((each) => each.ulid), idempotencyKey: 'run-1' };

    const first = await callRaw(client, 'create_run', args);
    expect(first.isError ?? false).toBe(false);
    expect(replayed(first)).toBe(false);
    expect(first.content).toHaveLength(1);
    const second = await callRaw(client, 'create_run', args);
    expect(second.isError ?? false).toBe(false);
    expect(replayed(second)).toBe(true);
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(second.content[0]).toEqual(first.content[0]);
    expect(second.content[1]).toMatchObject({ type: 'text', text: expect.stringContaining('Replayed') });
    expect(await runCount(token, project.id)).toBe(1);

    const { idempotencyKey: _, ...unkeyed } = args;
    const [a, b] = [await call(client, 'create_run', unkeyed), await call(client, 'create_run', unkeyed)];
    expect(a.ulid).not.toBe(b.ulid);
    expect(await runCount(token, project.id)).toBe(3);
  });

  it('appends one result for a retried mark_result, and replays a failure as the same error result', async () => {
    const { token, project, cases } = await workspace();
    const client = await connect(token.token);
    const run = await call(client, 'create_run', { projectId: project.id, name: 'Marking', caseUlids: [cases[0]!.ulid] });
    const runCase = (await call(client, 'list_run_cases', { runUlid: run.ulid })).items[0];
    const mark = { runUlid: run.ulid, runCaseUlid: runCase.ulid, status: 'failed', idempotencyKey: 'mark-1' };
    const [first, second] = [await callRaw(client, 'mark_result', mark), await callRaw(client, 'mark_result', mark)];
    expect(second.structuredContent).toEqual(first.structuredContent);
    const history = await t.http.get(`/api/v1/runs/${run.ulid}/results`).set(token.headers);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.items).toHaveLength(1);

    const invalid = { ...mark, status: 'great', idempotencyKey: 'mark-2' };
    const refused = await callRaw(client, 'mark_result', invalid);
    expect(refused.isError).toBe(true);
    expect(replayed(refused)).toBe(false);
    const again = await callRaw(client, 'mark_result', invalid);
    expect(again.isError).toBe(true);
    expect(replayed(again)).toBe(true);
    expect(again.structuredContent).toEqual(refused.structuredContent);
    expect((again.structuredContent as Structured).error.code).toBe('validation_failed');
  });

  it('refuses a key used with other arguments, and a malformed key, with the codes of REST', async () => {
    const { token, project, cases } = await workspace();
    const client = await connect(token.token);
    const args = { projectId: project.id, name: 'Keyed', caseUlids: [cases[0]!.ulid], idempotencyKey: 'reused' };
    await call(client, 'create_run', args);
    const reused = await callFailing(client, 'create_run', { ...args, name: 'Another' }, 'validation_failed');
    expect(reused.details?.code).toBe('idempotency_key_reused');
    for (const idempotencyKey of ['', 'with space', 'x'.repeat(256)]) {
      const malformed = await callFailing(client, 'create_run', { ...args, idempotencyKey }, 'validation_failed');
      expect(malformed.details?.code).toBe('invalid_idempotency_key');
    }
    const notText = await callFailing(client, 'create_run', { ...args, idempotencyKey: 7 }, 'validation_failed');
    expect(JSON.stringify(notText.details)).toContain('idempotencyKey');
    expect(await runCount(token, project.id)).toBe(1);
  });

  it("shares a token's keys with REST: the same create over REST and MCP under one key replays either way; another token's keys are its own", async () => {
    const { owner, token, project, cases } = await workspace();
    const client = await connect(token.token);
    const body = { name: 'Either way', caseUlids: cases.map((each) => each.ulid) };
    const overRest = (key: string, sent: Record<string, unknown> = body) =>
      t.http.post(`/api/v1/projects/${project.id}/runs`).set(token.headers).set('Idempotency-Key', key).send(sent);

    const rest = await overRest('rest-first');
    expect(rest.status).toBe(201);
    const mcp = await callRaw(client, 'create_run', { projectId: project.id, ...body, idempotencyKey: 'rest-first' });
    expect(replayed(mcp)).toBe(true);
    expect(mcp.structuredContent).toEqual(rest.body);

    const created = await callRaw(client, 'create_run', { projectId: project.id, ...body, idempotencyKey: 'mcp-first' });
    expect(replayed(created)).toBe(false);
    const replay = await overRest('mcp-first');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.body).toEqual(created.structuredContent);
    expectError(await overRest('mcp-first', { ...body, name: 'Changed' }), 422, 'validation_failed');
    expect(await runCount(token, project.id)).toBe(2);

    const other = await connect((await tokenFor(t.http, owner)).token);
    const own = await callRaw(other, 'create_run', { projectId: project.id, ...body, idempotencyKey: 'mcp-first' });
    expect(replayed(own)).toBe(false);
    expect(await runCount(token, project.id)).toBe(3);
  });
});
