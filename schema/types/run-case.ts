import { toAuthor } from '../../src/foundation/actors.ts';
import { validate } from '../../src/kernel/validation.ts';
import { caseDisplayId } from '../../src/projects/projects.schemas.ts';
import {
  markRunCaseStepBodySchema,
  type RunCaseFilter,
  runCaseListQuerySchema,
  runResultListQuerySchema,
  updateRunCaseBodySchema,
} from '../../src/runs/run-cases.schemas.ts';
import type { RunCaseRecord } from '../../src/runs/run-cases.service.ts';
import {
  countRunCases,
  countRunResults,
  findRunCases,
  findRunResults,
  getRunCase,
  markRunCaseStep,
  openRunCase,
  updateRunCase,
} from '../../src/runs/run-cases.service.ts';
import { readResultUsage } from '../../src/usage/usage.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { Author } from './comment.ts';

const ORDERED = [{ position: 'asc' as const }, { id: 'asc' as const }];

builder.prismaObject('TestRunCaseStep', {
  name: 'RunCaseStep',
  description: 'Snapshot of a step of the case, with its own status and actual result',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    position: t.exposeInt('position'),
    action: t.exposeString('action'),
    expectedResult: t.exposeString('expectedResult', { nullable: true }),
    status: t.exposeString('status'),
    actualResult: t.exposeString('actualResult', { nullable: true }),
  }),
});

/** The GraphQL RunCase: fields answering a record of it load what the selection needs beyond it. */
export const RunCase = builder.prismaObject('TestRunCase', {
  name: 'RunCase',
  description: 'A case of a run (RunCase of the REST API); title, suite name and steps are snapshots',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    runUlid: t.exposeString('runId'),
    caseUlid: t.exposeString('caseId', { nullable: true, description: 'Null once the test case was deleted' }),
    displayId: t.string({
      description: '`<projectCode>-<caseNumber>` of the snapshotted case',
      select: { caseNumber: true, run: { select: { project: { select: { code: true } } } } },
      resolve: (runCase) => caseDisplayId(runCase.run.project.code, runCase.caseNumber),
    }),
    title: t.exposeString('title'),
    suiteName: t.exposeString('suiteName', { nullable: true }),
    position: t.exposeInt('position'),
    status: t.exposeString('status', { description: 'untested, retested, passed, failed, skipped or blocked' }),
    assigneeUlid: t.exposeString('assigneeId', { nullable: true }),
    elapsedMs: t.exposeInt('elapsedMs', { nullable: true }),
    steps: t.relation('steps', { query: { orderBy: ORDERED } }),
    lastResultAt: t.expose('lastResultAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObject('TestRunResult', {
  name: 'RunResult',
  description: 'One entry of the append-only results history of a run',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    runUlid: t.exposeString('runId'),
    runCaseUlid: t.exposeString('runCaseId', { nullable: true, description: 'Null once the case was removed from the run' }),
    caseUlid: t.exposeString('caseId', { nullable: true }),
    status: t.exposeString('status'),
    elapsedMs: t.exposeInt('elapsedMs', { nullable: true }),
    comment: t.exposeString('comment', { nullable: true }),
    executedAt: t.expose('executedAt', { type: 'Timestamp' }),
    executedByUlid: t.exposeString('executedById', { nullable: true }),
    author: t.field({ type: Author, resolve: (result) => toAuthor(result) }),
    source: t.exposeString('source', { description: 'manual, api, bulk or import' }),
    attempt: t.exposeInt('attempt', {
      description: 'Which run of an imported test this is, from 1 within its import (each retry is a result); 1 when not imported',
    }),
    flaky: t.exposeBoolean('flaky', { description: 'The final result of an imported test that failed and then passed on a retry' }),
    parameters: t.expose('parameters', {
      type: 'JSON',
      nullable: true,
      description: "A parameterized test's arguments: CTRF `parameters`, or the bracketed end of a JUnit test name",
    }),
  }),
});

type CaseFilterArgs = { status?: string[] | null; assigneeUlid?: string | null; q?: string | null };

/** The connection's filter, validated like the REST query. */
function caseFilterOf(args: CaseFilterArgs): RunCaseFilter {
  const { status, assigneeUlid, q } = validate(runCaseListQuerySchema, {
    status: args.status?.join(','),
    assigneeUlid: orUndefined(args.assigneeUlid),
    q: orUndefined(args.q),
  });
  return { status, assigneeUlid, q };
}

const runCaseOf = (args: { runCaseUlid?: string | null }) =>
  validate(runResultListQuerySchema, { runCaseUlid: orUndefined(args.runCaseUlid) }).runCaseUlid;

builder.prismaObjectFields('TestRun', (t) => ({
  cases: t.prismaConnection(
    {
      type: 'TestRunCase',
      cursor: 'id',
      description: "The run's cases in position order",
      authScopes: { member: true },
      args: {
        status: t.arg.stringList({ description: 'Only cases with one of these statuses' }),
        assigneeUlid: t.arg.string({ description: "A member's ULID, or the empty string for unassigned cases" }),
        q: t.arg.string({ description: 'Case-insensitive substring of the title or the display ID' }),
      },
      resolve: (query, run, args, context) => findRunCases(requestOf(context), run, caseFilterOf(args), query),
      totalCount: (run, args, context) => countRunCases(requestOf(context), run, caseFilterOf(args)),
    },
    {},
    {},
  ),
  results: t.prismaConnection(
    {
      type: 'TestRunResult',
      cursor: 'id',
      description: 'The append-only results history, oldest first (executedAt, then ULID)',
      authScopes: { member: true },
      args: { runCaseUlid: t.arg.string({ description: 'Only the results of this run case' }) },
      resolve: (query, run, args, context) => findRunResults(requestOf(context), run, runCaseOf(args), query),
      totalCount: (run, args, context) => countRunResults(requestOf(context), run, runCaseOf(args)),
    },
    {},
    {},
  ),
}));

type ResultUsageShape = Awaited<ReturnType<typeof readResultUsage>>;

const ApiResultUsage = builder.objectRef<ResultUsageShape>('ApiResultUsage').implement({
  description: 'Machine-authored results of this calendar month (UTC) against the monthly ceiling',
  fields: (t) => ({
    periodKey: t.exposeString('periodKey', { description: "'YYYY-MM'" }),
    used: t.exposeInt('used'),
    limit: t.exposeInt('limit', { nullable: true, description: 'Null when unlimited' }),
  }),
});

builder.prismaObjectField('Organization', 'apiResultUsage', (t) =>
  t.field({
    type: ApiResultUsage,
    description: 'A pure read: it never creates, resets or advances the counter',
    authScopes: { member: true },
    resolve: (_organization, _args, context) => readResultUsage(requestOf(context)),
  }),
);

builder.queryFields((t) => ({
  runCase: t.field({
    type: RunCase,
    nullable: true,
    description: 'A run case by ULID; an unknown one is a not_found error',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, args, context) => (await getRunCase(requestOf(context), { runCaseUlid: args.ulid })).runCase,
  }),
}));

const MarkRunCasePayload = builder.objectRef<{ runCase: RunCaseRecord; resultUlid: string | null }>('MarkRunCasePayload').implement({
  fields: (t) => ({
    runCase: t.field({ type: RunCase, resolve: (payload) => payload.runCase }),
    resultUlid: t.exposeString('resultUlid', {
      nullable: true,
      description: 'The result appended when the status changed; null otherwise',
    }),
  }),
});

const MarkRunCaseInput = builder.inputType('MarkRunCaseInput', {
  description: 'At least one field; assigneeUlid and elapsedMs take null to clear',
  fields: (t) => ({
    status: t.string({ description: 'untested, retested, passed, failed, skipped or blocked; a change appends a result' }),
    assigneeUlid: t.string({ description: 'A member of the organization' }),
    elapsedMs: t.int({ description: 'Required with an outcome status when the run setting timeTracking is required' }),
  }),
});

const MarkRunCaseStepInput = builder.inputType('MarkRunCaseStepInput', {
  description: 'At least one field; actualResult takes null to clear',
  fields: (t) => ({
    status: t.string({ description: "The step's status; the case takes the aggregate of its steps" }),
    actualResult: t.string(),
  }),
});

builder.mutationFields((t) => ({
  markRunCase: t.field({
    type: MarkRunCasePayload,
    description: 'Marks, assigns or times a run case (PATCH run case)',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }), input: t.arg({ type: MarkRunCaseInput, required: true }) },
    resolve: (_root, { ulid, input }, context) =>
      updateRunCase(
        requestOf(context),
        { runCaseUlid: ulid },
        validate(updateRunCaseBodySchema, { ...input, status: orUndefined(input.status) }),
      ),
  }),
  markRunCaseStep: t.field({
    type: RunCase,
    description: 'Marks one step of a run case; the case takes the aggregate of its steps',
    authScopes: { member: true },
    args: {
      runCaseUlid: t.arg.string({ required: true }),
      stepUlid: t.arg.string({ required: true }),
      input: t.arg({ type: MarkRunCaseStepInput, required: true }),
    },
    resolve: async (_root, { runCaseUlid, stepUlid, input }, context) => {
      const body = validate(markRunCaseStepBodySchema, { ...input, status: orUndefined(input.status) });
      return (await markRunCaseStep(requestOf(context), { runCaseUlid }, stepUlid, body)).runCase;
    },
  }),
  openRunCase: t.field({
    type: RunCase,
    description: 'Opens a run case: an unassigned case is assigned to the caller',
    authScopes: { member: true },
    args: { ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { ulid }, context) => (await openRunCase(requestOf(context), { runCaseUlid: ulid })).runCase,
  }),
}));
