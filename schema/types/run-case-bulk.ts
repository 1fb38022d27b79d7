import { validate } from '../../src/kernel/validation.ts';
import {
  addRunCasesBodySchema,
  type BulkResult,
  bulkAssignBodySchema,
  bulkCasesBodySchema,
  bulkMarkBodySchema,
  submitResultsBodySchema,
} from '../../src/runs/run-bulk.schemas.ts';
import {
  bulkAssignRunCases,
  bulkMarkRunCases,
  bulkRemoveRunCases,
  bulkRetryRunCases,
  submitRunResults,
} from '../../src/runs/run-bulk.service.ts';
import type { RunCaseRecord } from '../../src/runs/run-cases.service.ts';
import { addRunCases, reconcileRun } from '../../src/runs/run-membership.service.ts';
import type { RunRecord } from '../../src/runs/runs.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { RunCase } from './run-case.ts';

const BulkRunCasesResult = builder.objectRef<BulkResult>('BulkRunCasesResult').implement({
  fields: (t) => ({
    affected: t.exposeInt('affected', { description: 'Cases changed' }),
    unchanged: t.exposeInt('unchanged', {
      description: 'ULIDs that changed nothing: already so, naming no case of the run, or assignee-locked',
    }),
  }),
});

const SubmitRunResultsResult = builder.objectRef<BulkResult & { resultUlids: string[] }>('SubmitRunResultsResult').implement({
  fields: (t) => ({
    affected: t.exposeInt('affected', { description: "Entries that changed their case's status" }),
    unchanged: t.exposeInt('unchanged', { description: "Entries that repeated their case's status" }),
    resultUlids: t.exposeStringList('resultUlids', { description: 'The appended results, one per entry, in order' }),
  }),
});

const AddRunCasesResult = builder.objectRef<{ items: RunCaseRecord[]; added: number }>('AddRunCasesResult').implement({
  fields: (t) => ({
    items: t.field({
      type: [RunCase],
      description: 'The run case of every listed test case, added or already there, in request order',
      resolve: (result) => result.items,
    }),
    added: t.exposeInt('added'),
  }),
});

const ReconcileRunResult = builder
  .objectRef<{ added: number; removed: number; reassigned: number; run: RunRecord }>('ReconcileRunResult')
  .implement({
    fields: (t) => ({
      added: t.exposeInt('added'),
      removed: t.exposeInt('removed'),
      reassigned: t.exposeInt('reassigned'),
      run: t.prismaField({ type: 'TestRun', resolve: (_query, result) => result.run }),
    }),
  });

const CASE_ULIDS = 'Run case ULIDs or the test case ULIDs they snapshot (1..500, no repeats)';

const BulkRunCasesInput = builder.inputType('BulkRunCasesInput', {
  fields: (t) => ({
    caseUlids: t.stringList({ required: true, description: CASE_ULIDS }),
  }),
});

const BulkMarkRunCasesInput = builder.inputType('BulkMarkRunCasesInput', {
  fields: (t) => ({
    caseUlids: t.stringList({ required: true, description: CASE_ULIDS }),
    status: t.string({ required: true, description: 'passed, failed, skipped or blocked' }),
  }),
});

const BulkAssignRunCasesInput = builder.inputType('BulkAssignRunCasesInput', {
  fields: (t) => ({
    caseUlids: t.stringList({ required: true, description: CASE_ULIDS }),
    assigneeUlid: t.string({ description: 'A member of the organization; null or absent unassigns' }),
  }),
});

const RunResultInput = builder.inputType('RunResultInput', {
  description: 'Exactly one of runCaseUlid and caseUlid',
  fields: (t) => ({
    runCaseUlid: t.string(),
    caseUlid: t.string({ description: 'The test case ULID of a case of the run' }),
    status: t.string({ required: true, description: 'passed, failed, skipped or blocked' }),
    elapsedMs: t.int(),
    comment: t.string(),
  }),
});

const AddRunCasesInput = builder.inputType('AddRunCasesInput', {
  fields: (t) => ({
    caseUlids: t.stringList({ required: true, description: "Live test cases of the run's project (1..500, no repeats)" }),
    assigneeUlid: t.string({ description: "Assignee of the added cases; null: unassigned; absent: the run's default assignee" }),
  }),
});

builder.mutationFields((t) => ({
  bulkMarkRunCases: t.field({
    type: BulkRunCasesResult,
    description: 'Marks cases with one outcome (atomic; one result per case whose status changes)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), input: t.arg({ type: BulkMarkRunCasesInput, required: true }) },
    resolve: (_root, { runUlid, input }, context) => bulkMarkRunCases(requestOf(context), runUlid, validate(bulkMarkBodySchema, input)),
  }),
  bulkAssignRunCases: t.field({
    type: BulkRunCasesResult,
    description: 'Assigns cases to a member, or unassigns them (atomic)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), input: t.arg({ type: BulkAssignRunCasesInput, required: true }) },
    resolve: (_root, { runUlid, input }, context) =>
      bulkAssignRunCases(
        requestOf(context),
        runUlid,
        validate(bulkAssignBodySchema, { ...input, assigneeUlid: input.assigneeUlid ?? null }),
      ),
  }),
  bulkRetryRunCases: t.field({
    type: BulkRunCasesResult,
    description: 'Resets cases and their steps to untested (atomic; no result is appended)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), input: t.arg({ type: BulkRunCasesInput, required: true }) },
    resolve: (_root, { runUlid, input }, context) => bulkRetryRunCases(requestOf(context), runUlid, validate(bulkCasesBodySchema, input)),
  }),
  bulkRemoveRunCases: t.field({
    type: BulkRunCasesResult,
    description: 'Removes cases from a run (atomic; their results stay in the history)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), input: t.arg({ type: BulkRunCasesInput, required: true }) },
    resolve: (_root, { runUlid, input }, context) => bulkRemoveRunCases(requestOf(context), runUlid, validate(bulkCasesBodySchema, input)),
  }),
  submitRunResults: t.field({
    type: SubmitRunResultsResult,
    description: 'Submits results in bulk: every entry appends one result (all or nothing)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), results: t.arg({ type: [RunResultInput], required: true }) },
    resolve: (_root, { runUlid, results }, context) =>
      submitRunResults(
        requestOf(context),
        runUlid,
        validate(submitResultsBodySchema, {
          results: results.map((entry) => ({
            ...entry,
            runCaseUlid: orUndefined(entry.runCaseUlid),
            caseUlid: orUndefined(entry.caseUlid),
          })),
        }),
      ),
  }),
  addRunCases: t.field({
    type: AddRunCasesResult,
    description: 'Adds live cases of the project to a run (cases already in it are skipped)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), input: t.arg({ type: AddRunCasesInput, required: true }) },
    resolve: (_root, { runUlid, input }, context) => addRunCases(requestOf(context), runUlid, validate(addRunCasesBodySchema, input)),
  }),
  reconcileRun: t.field({
    type: ReconcileRunResult,
    description: "Brings a plan-generated run in line with the plan's current selection and assignees",
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }) },
    resolve: (_root, { runUlid }, context) => reconcileRun(requestOf(context), runUlid),
  }),
}));
