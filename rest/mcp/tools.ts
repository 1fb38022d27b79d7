import { z } from 'zod';
import { parseIdempotencyKey } from '../../src/foundation/idempotency/idempotency.service.ts';
import { validate } from '../../src/kernel/validation.ts';
import { Reply, type RouteDefinition } from '../route.ts';
import { v1Routes } from '../v1/index.ts';

/**
 * Runs one REST operation as a sub-request of a tool call (metered on its own) and answers its
 * reply; with an idempotency key, at most once per key, as REST runs a request with the header.
 */
export type SubRequest = (route: RouteDefinition, args: Record<string, unknown>, idempotencyKey?: string) => Promise<Reply>;

/** An MCP tool: what `tools/list` shows, and the sub-requests a call dispatches. */
export type Tool = {
  name: string;
  title: string;
  description: string;
  /** The arguments as `tools/list` documents them; each sub-request validates its own part with its route's schemas. */
  input: z.ZodObject;
  readOnly: boolean;
  /** The tool's answer. A failure is thrown, except a keyed sub-request's: rendered (and kept for replay) as a 4xx reply. */
  run(args: Record<string, unknown>, subRequest: SubRequest): Promise<Reply>;
};

const routeById = new Map(v1Routes.map((route) => [route.operationId, route]));

function routeOf(operationId: string): RouteDefinition {
  const route = routeById.get(operationId);
  if (!route) throw new Error(`no REST operation ${operationId}`);
  return route;
}

const shapeOf = (schema: z.ZodType | undefined, operationId: string): Record<string, z.ZodType> => {
  if (schema === undefined) return {};
  if (!(schema instanceof z.ZodObject)) throw new Error(`${operationId}: a tool needs object-shaped params, query and body`);
  return schema.shape as Record<string, z.ZodType>;
};

/** What the identifiers are, for a model choosing arguments (the REST schemas leave most path parameters bare). */
const ID_DESCRIPTIONS: Record<string, string> = {
  projectId: 'The project code: the `id` of a project (short uppercase letters and digits, e.g. "WEB"), not its ULID',
  suiteUlid: 'ULID of a suite (26 characters, e.g. "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D")',
  caseUlid: 'ULID of a test case (26 characters)',
  displayId: 'Display ID of a test case: <projectCode>-<number>, e.g. "WEB-12"',
  planUlid: 'ULID of a test plan (26 characters)',
  runUlid: 'ULID of a test run (26 characters)',
  runCaseUlid: 'ULID of a case of the run (the `ulid` of an item of list_run_cases, not the test case ULID)',
};

/** The argument that makes a writing tool safe to retry: REST's Idempotency-Key header. */
const idempotencyInput = z.object({
  idempotencyKey: z
    .string()
    .optional()
    .meta({
      description:
        'Optional: 1 to 255 visible ASCII characters chosen for this one change (e.g. a UUID), to make a retry safe. ' +
        "A call with a key used in the last 24 hours and the same arguments does nothing and answers the first call's answer, marked replayed; " +
        "with other arguments it is refused (validation_failed). The keys are those of the REST API's Idempotency-Key header for the same token.",
    }),
});

/** The arguments of a REST operation as one flat object: its path parameters, query and body fields, and `idempotencyKey` if it writes. */
function inputOf(route: RouteDefinition): z.ZodObject {
  const { operationId } = route;
  const shape: Record<string, z.ZodType> = {};
  for (const part of [route.params, route.query, route.body, route.method === 'get' ? undefined : idempotencyInput]) {
    for (const [key, field] of Object.entries(shapeOf(part, operationId))) {
      if (key in shape) throw new Error(`${operationId}: the argument ${key} is named twice among path, query, body and idempotencyKey`);
      const description = ID_DESCRIPTIONS[key];
      shape[key] = description ? field.meta({ description }) : field;
    }
  }
  return z.object(shape);
}

/** The `idempotencyKey` argument, read as REST reads the header. */
const idempotencyKeyOf = (args: Record<string, unknown>) => parseIdempotencyKey(validate(idempotencyInput, args).idempotencyKey);

/** A tool that is one REST operation: its arguments are the operation's, its answer the operation's answer. */
function routeTool(operationId: string, tool: { name: string; title: string; description: string }): Tool {
  const route = routeOf(operationId);
  const input = inputOf(route);
  if (route.method === 'get') return { ...tool, input, readOnly: true, run: (args, subRequest) => subRequest(route, args) };
  // A key's fingerprint holds the path and the body (`requestLineOf`): a query would go unseen.
  if (route.query) throw new Error(`${operationId}: a writing tool's route takes no query`);
  return {
    ...tool,
    input,
    readOnly: false,
    run: ({ idempotencyKey, ...args }, subRequest) => subRequest(route, args, idempotencyKeyOf({ idempotencyKey })),
  };
}

const searchInput = z.strictObject({
  projectId: z.string().meta({ description: ID_DESCRIPTIONS.projectId }),
  q: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: 'Case-insensitive substring (taken literally) of test case titles, plan names and run names' }),
  limit: z.int().min(1).max(200).optional().meta({ description: 'At most this many of each kind (default 50; plans 20)' }),
});

/** Test cases, plans and runs of a project whose title or name contains `q`: three sub-requests. */
const search: Tool = {
  name: 'search',
  title: 'Search a project',
  description:
    'Searches one project for test cases (by title), test plans and test runs (by name) containing a text, case-insensitively. ' +
    'Answers { testCases, plans, runs }, each the first page of matches (test cases by ULID, plans by number, runs most recent first). ' +
    'Makes three API requests (each counts against the per-minute ceiling). For more matches of one kind, or other filters, use list_test_cases, list_plans or list_runs.',
  input: searchInput,
  readOnly: true,
  run: async (args, subRequest) => {
    // Validated before the first sub-request, so that a bad argument costs nothing.
    const { projectId, q, limit } = validate(searchInput, args);
    const page = limit === undefined ? {} : { pageSize: limit };
    const cases = await subRequest(routeOf('listTestCases'), { projectId, q, ...(limit === undefined ? {} : { limit }) });
    const plans = await subRequest(routeOf('listPlans'), { projectId, q, ...page });
    const runs = await subRequest(routeOf('listRuns'), { projectId, q, ...page });
    const items = (reply: Reply) => (reply.body as { items: unknown[] }).items;
    return new Reply(200, { testCases: items(cases), plans: items(plans), runs: items(runs) });
  },
};

/** Every tool of the MCP server, in the order `tools/list` shows them. */
export const TOOLS: Tool[] = [
  routeTool('listProjects', {
    name: 'list_projects',
    title: 'List projects',
    description:
      'Lists the projects of the organization the token belongs to, a page at a time (page, pageSize). ' +
      'Each project has `id` (its code, e.g. "WEB", which every other tool takes as projectId) and `ulid`. `q` filters by name.',
  }),
  routeTool('getProject', {
    name: 'get_project',
    title: 'Get a project',
    description: 'One project by its code (projectId), with its name, description and settings.',
  }),
  routeTool('listSuites', {
    name: 'list_suites',
    title: 'List suites',
    description:
      'The suite tree of a project, depth-first in position order, a cursor page at a time (pass nextCursor back as cursor). Each suite has `ulid`, `parentUlid` and `displayId` (<projectCode>-S<number>).',
  }),
  routeTool('listTestCases', {
    name: 'list_test_cases',
    title: 'List or filter test cases',
    description:
      "The active test cases of a project by ULID, a cursor page at a time (pass nextCursor back as cursor). Filters: q (title substring), tag, suiteUlid (that suite's own cases), automationKey, archived. " +
      'Each case has `ulid`, `displayId` (<projectCode>-<number>), title, steps and custom field values.',
  }),
  routeTool('getTestCase', {
    name: 'get_test_case',
    title: 'Get a test case',
    description: 'One test case by its ULID, with its steps (action, expected result), tags and custom field values.',
  }),
  routeTool('getTestCaseByDisplayId', {
    name: 'get_test_case_by_display_id',
    title: 'Get a test case by display ID',
    description: 'One test case by its display ID (e.g. "WEB-12"); projectId is the code the display ID starts with.',
  }),
  routeTool('createTestCase', {
    name: 'create_test_case',
    title: 'Create a test case',
    description:
      'Creates a test case in a project (owner, admin or member). Needs a title; suiteUlid (see list_suites) places it in a suite; steps are { action, expectedResult } in order. Answers the new case with its `ulid` and `displayId`.',
  }),
  routeTool('listPlans', {
    name: 'list_plans',
    title: 'List test plans',
    description:
      'The live test plans of a project by plan number, a page at a time (page, pageSize; default 20), without progress. `q` filters by name. Use get_plan for progress.',
  }),
  routeTool('getPlan', {
    name: 'get_plan',
    title: 'Get a test plan and its progress',
    description:
      'One test plan by ULID with its progress over the runs generated from it: counts per status (passed, failed, blocked, skipped, untested), totals and one bucket per configuration combination.',
  }),
  routeTool('listRuns', {
    name: 'list_runs',
    title: 'List test runs',
    description:
      'The test runs of a project, most recent first, a page at a time (page, pageSize). Filters: q (name), status (in_progress, passed, failed), env, assigneeUlid. Each run carries its counts per case status.',
  }),
  routeTool('getRun', {
    name: 'get_run',
    title: 'Get a test run and its progress',
    description:
      'One test run by ULID: state (open or closed), projected status, counts per case status (its progress) and custom field values.',
  }),
  routeTool('listRunCases', {
    name: 'list_run_cases',
    title: 'List the cases of a run',
    description:
      "The cases of a run in position order, a page at a time, each with its `ulid` (the runCaseUlid that mark_result takes), the test case's caseUlid and displayId, title, status and assignee. Filters as in the REST API (status, assignee, q).",
  }),
  routeTool('createRun', {
    name: 'create_run',
    title: 'Create a test run',
    description:
      "Creates an open test run in a project (owner, admin or member) from caseUlids (test case ULIDs, in run order) or from a plan (planUlid: the plan's selection seeds the run). Answers the run with its `ulid`; its cases start untested.",
  }),
  routeTool('markRunCase', {
    name: 'mark_result',
    title: 'Mark a result',
    description:
      'Marks one case of an open run: status passed, failed, blocked, skipped or untested (a changed status appends a result), optionally assigneeUlid and elapsedMs. ' +
      'runCaseUlid is the run case (list_run_cases), not the test case. Answers the run case and resultUlid. Machine-authored results count against the monthly result ceiling.',
  }),
  routeTool('submitRunResults', {
    name: 'submit_results',
    title: 'Submit results in bulk',
    description:
      'Appends results to an open run in one all-or-nothing request: results is a list of { runCaseUlid or caseUlid (exactly one), status (passed, failed, blocked or skipped), elapsedMs?, comment? } (1 to 500). Answers { affected, unchanged, resultUlids }.',
  }),
  search,
];
