import { clipSnapshot } from '../foundation/audit/clip.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db, Prisma } from '../kernel/database/client.ts';
import { executeRaw, sql } from '../kernel/database/raw-sql.ts';
import { notFound, validationFailed } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { releaseAttachmentsOf, setStepAttachments } from './step-attachments.ts';
import type { StepInput } from './test-cases.schemas.ts';

/** Entries of a detailed stepsChange; the rest is counted in `omittedCount`. */
export const STEPS_CHANGE_ENTRIES = 20;

export type StepChangeEntry = {
  ulid: string;
  change: 'added' | 'removed' | 'modified' | 'reordered';
  /** The step's position after the save (before it, for a removed step). */
  position: number;
  previousPosition?: number;
  /** Clipped snapshot of the action (the removed step's last action). */
  action: string;
  previousAction?: string;
  /** What a modified step changed: action, expectedResult, attachments. */
  fields?: Array<'action' | 'expectedResult' | 'attachments'>;
  truncated?: true;
};

export type StepsChange =
  | { kind: 'replaced'; previousCount: number; nextCount: number }
  | {
      kind: 'detailed';
      previousCount: number;
      nextCount: number;
      summary: { added: number; removed: number; modified: number; reordered: number };
      entries: StepChangeEntry[];
      omittedCount?: number;
    };

type ExistingStep = Prisma.TestCaseStepGetPayload<{ include: { attachments: { select: { id: true } } } }>;

/**
 * Orders the entries of a steps body: by `position` when the entries carry it (the contract's
 * step shape), otherwise by array order. Stored positions are the resulting 0-based indexes.
 */
function ordered(steps: StepInput[], pathPrefix: Array<string | number>): StepInput[] {
  const withPosition = steps.filter((step) => step.position !== undefined).length;
  if (withPosition === 0) return steps;
  steps.forEach((step, index) => {
    if (step.position === undefined) {
      throw validationFailed('Give every step a position, or none', { path: [...pathPrefix, index, 'position'] });
    }
  });
  const positions = new Set<number>();
  steps.forEach((step, index) => {
    if (positions.has(step.position!)) {
      throw validationFailed('Two steps have the same position', { path: [...pathPrefix, index, 'position'] });
    }
    positions.add(step.position!);
  });
  return [...steps].sort((a, b) => a.position! - b.position!);
}

/** Rejects a step ULID listed twice (422) or one that is not a step of this case (404). */
function checkStepUlids(steps: StepInput[], existing: Map<string, ExistingStep>, pathPrefix: Array<string | number>): void {
  const seen = new Set<string>();
  steps.forEach((step, index) => {
    if (step.ulid === undefined) return;
    if (seen.has(step.ulid)) {
      throw validationFailed('A step is listed twice', { path: [...pathPrefix, index, 'ulid'] });
    }
    seen.add(step.ulid);
    if (!existing.has(step.ulid)) throw notFound('Test case step');
  });
}

/**
 * Indexes (into `sequence`) of a longest increasing subsequence: the kept steps that stayed in
 * order. Every other kept step is one the caller moved.
 */
function longestIncreasing(sequence: number[]): Set<number> {
  const length = sequence.map(() => 1);
  const previous = sequence.map(() => -1);
  for (let i = 0; i < sequence.length; i++) {
    for (let j = 0; j < i; j++) {
      if (sequence[j]! < sequence[i]! && length[j]! + 1 >= length[i]!) {
        length[i] = length[j]! + 1;
        previous[i] = j;
      }
    }
  }
  const stayed = new Set<number>();
  let at = length.indexOf(Math.max(0, ...length));
  while (at >= 0) {
    stayed.add(at);
    at = previous[at]!;
  }
  return stayed;
}

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, index) => id === b[index]);

function snapshot(
  entry: Omit<StepChangeEntry, 'action' | 'previousAction' | 'truncated'>,
  action: string,
  previousAction?: string,
): StepChangeEntry {
  const clipped = clipSnapshot(action);
  const result: StepChangeEntry = { ...entry, action: clipped.text };
  let truncated = clipped.truncated;
  if (previousAction !== undefined) {
    const before = clipSnapshot(previousAction);
    result.previousAction = before.text;
    truncated ||= before.truncated;
  }
  if (truncated) result.truncated = true;
  return result;
}

/**
 * Makes `input` the steps of a case, inside the caller's transaction: an entry with the `ulid`
 * of a step of this case keeps that step (updated in place; an omitted `expectedResult` or
 * `attachments` leaves that part as it is), an entry without `ulid` adds a step, and steps left
 * out are deleted (their files released once the transaction commits). Returns what changed,
 * for the audit event's `stepsChange`, or null when nothing did.
 */
export async function saveSteps(
  tx: Db,
  ctx: RequestContext,
  caseId: string,
  input: StepInput[],
  pathPrefix: Array<string | number> = ['steps'],
): Promise<StepsChange | null> {
  const rows = await tx.testCaseStep.findMany({
    where: { caseId },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    include: { attachments: { select: { id: true }, orderBy: { position: 'asc' } } },
  });
  const existing = new Map(rows.map((row) => [row.id, row]));
  checkStepUlids(input, existing, pathPrefix);
  const steps = ordered(input, pathPrefix);
  const now = new Date();

  const planned = steps.map((step, position) => ({
    step,
    position,
    id: step.ulid ?? newId(),
    before: step.ulid ? existing.get(step.ulid) : undefined,
  }));
  const added = planned.filter((entry) => !entry.before);
  if (added.length > 0) {
    await tx.testCaseStep.createMany({
      data: added.map(({ id, position, step }) => ({
        id,
        orgId: ctx.org.id,
        caseId,
        position,
        action: step.action,
        expectedResult: step.expectedResult ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    });
  }

  const modified = new Map<string, NonNullable<StepChangeEntry['fields']>>();
  const edits: Array<{ id: string; position: number; step: StepInput }> = [];
  for (const { step, position, id, before } of planned) {
    if (!before) continue;
    const fields: NonNullable<StepChangeEntry['fields']> = [];
    if (step.action !== before.action) fields.push('action');
    if (step.expectedResult !== undefined && (step.expectedResult ?? null) !== before.expectedResult) fields.push('expectedResult');
    if (
      step.attachments !== undefined &&
      (step.attachments.some((ref) => 'key' in ref) ||
        !sameIds(
          step.attachments.flatMap((ref) => ('ulid' in ref ? [ref.ulid] : [])),
          before.attachments.map((row) => row.id),
        ))
    ) {
      fields.push('attachments');
    }
    if (fields.length > 0) modified.set(id, fields);
    if (fields.length > 0 || position !== before.position) edits.push({ id, position, step });
  }
  await updateKeptSteps(tx, ctx, caseId, edits, now);

  await setStepAttachments(
    tx,
    ctx,
    caseId,
    planned.flatMap(({ step, id }) => (step.attachments === undefined ? [] : [{ stepId: id, refs: step.attachments }])),
  );

  const keptIds = new Set(planned.flatMap((entry) => (entry.before ? [entry.id] : [])));
  const removed = rows.filter((row) => !keptIds.has(row.id));
  if (removed.length > 0) {
    const stepIds = removed.map((row) => row.id);
    await releaseAttachmentsOf(tx, { stepIds });
    await tx.testCaseStep.deleteMany({ where: { id: { in: stepIds } } });
  }

  return describeChange(rows, planned, modified, removed);
}

/** Writes position, action and expected result of the kept steps that changed, in one statement. */
async function updateKeptSteps(
  tx: Db,
  ctx: RequestContext,
  caseId: string,
  edits: Array<{ id: string; position: number; step: StepInput }>,
  now: Date,
): Promise<void> {
  if (edits.length === 0) return;
  const ids = edits.map((edit) => edit.id);
  const positions = edits.map((edit) => edit.position);
  const actions = edits.map((edit) => edit.step.action);
  // An omitted expectedResult keeps the stored one.
  const keepExpected = edits.map((edit) => edit.step.expectedResult === undefined);
  const expected = edits.map((edit) => edit.step.expectedResult ?? null);
  await executeRaw(
    tx,
    sql`
    UPDATE test_case_steps
    SET position = edit.position,
        action = edit.action,
        expected_result = CASE WHEN edit.keep_expected THEN test_case_steps.expected_result ELSE edit.expected_result END,
        updated_at = ${now}
    FROM unnest(${ids}::text[], ${positions}::int[], ${actions}::text[], ${expected}::text[], ${keepExpected}::boolean[])
      AS edit(id, position, action, expected_result, keep_expected)
    WHERE test_case_steps.id = edit.id AND test_case_steps.case_id = ${caseId} AND test_case_steps.org_id = ${ctx.org.id}`,
  );
}

function describeChange(
  rows: ExistingStep[],
  planned: Array<{ step: StepInput; position: number; id: string; before: ExistingStep | undefined }>,
  modified: Map<string, NonNullable<StepChangeEntry['fields']>>,
  removed: ExistingStep[],
): StepsChange | null {
  const previousCount = rows.length;
  const nextCount = planned.length;
  if (previousCount > 0 && planned.every((entry) => entry.step.ulid === undefined)) {
    return { kind: 'replaced', previousCount, nextCount };
  }
  const kept = planned.filter((entry) => entry.before);
  const stayed = longestIncreasing(kept.map((entry) => rows.indexOf(entry.before!)));
  const moved = new Set(kept.filter((_entry, index) => !stayed.has(index)).map((entry) => entry.id));

  const entries: StepChangeEntry[] = [];
  const summary = { added: 0, removed: removed.length, modified: 0, reordered: 0 };
  for (const { step, position, id, before } of planned) {
    if (!before) {
      summary.added += 1;
      entries.push(snapshot({ ulid: id, change: 'added', position }, step.action));
      continue;
    }
    const fields = modified.get(id);
    const wasMoved = moved.has(id);
    if (!fields && !wasMoved) continue;
    if (fields) summary.modified += 1;
    else summary.reordered += 1;
    const entry: Omit<StepChangeEntry, 'action'> = { ulid: id, change: fields ? 'modified' : 'reordered', position };
    if (wasMoved) entry.previousPosition = before.position;
    if (fields) entry.fields = fields;
    entries.push(snapshot(entry, step.action, fields?.includes('action') ? before.action : undefined));
  }
  for (const row of removed) entries.push(snapshot({ ulid: row.id, change: 'removed', position: row.position }, row.action));

  if (entries.length === 0) return null;
  const change: StepsChange = { kind: 'detailed', previousCount, nextCount, summary, entries: entries.slice(0, STEPS_CHANGE_ENTRIES) };
  if (entries.length > STEPS_CHANGE_ENTRIES) change.omittedCount = entries.length - STEPS_CHANGE_ENTRIES;
  return change;
}
