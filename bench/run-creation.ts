/**
 * The run-creation measures of `npm run bench` (`BENCH_ONLY=runs` runs only them), service side
 * (bench/raw-run-creation.ts is their raw-SQL floor): issue 13's rows "run from a plan of 500 /
 * 5,000 cases" and "PUT plan selection of 5,000".
 *
 * - run from a plan: POST /api/v1/projects/{code}/runs `{ name, planUlid }` from a plan whose
 *   selection is the first PLAN_SIZES[i] cases of a project of 5,000 cases (three steps each),
 *   so each call snapshots that many run cases and three times as many steps. Every answer must
 *   report all of them untested. Also reported: how the 5,000 time grows over the 500 time (linear
 *   would be 10×).
 * - PUT plan selection: PUT /api/v1/plans/{planUlid}/cases with all 5,000 cases, in forward and
 *   reversed order by turns, so that every call moves every selection row (5,000 position
 *   updates, one plan.cases_replaced event) and answers the 5,000 items; the answer is checked.
 *
 * Each is one request at a time (nothing else runs): a warm-up (WARMUP calls and WARMUP_MS at
 * least), then REPS measured calls; the figure is their median. The project is seeded with one CSV test-case import (set-based), the
 * plans' selections through PUT, all before anything is measured.
 *
 * Peak memory of the service process during run creation: before each call the bench resets the
 * child's peak resident set size (writing 5 to /proc/<pid>/clear_refs, Linux 4.0 and later, which
 * sets VmHWM to the current VmRSS) and reads VmRSS; after the call it reads VmHWM, the kernel's
 * exact high-water mark during the call (no sampling gap). Growth = VmHWM after − VmRSS before;
 * reported: the largest growth among the measured calls and the highest VmHWM. On PGlite the
 * database runs inside the service process, so its memory is part of the figure.
 *
 * BENCH_RUNS_SCALE (default 1, at most 1) scales the case counts down for a quick check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ServiceProcess } from './child.ts';
import { send } from './runs.ts';
import { bearer, createProjectThroughApi, type Integrator, listCases } from './setup.ts';
import { type Measurement, machineBusyMeter, summarize } from './stats.ts';
import { STEPS } from './test-design.ts';

const RUNS_SCALE = Number(process.env.BENCH_RUNS_SCALE ?? '1');
if (!(RUNS_SCALE > 0 && RUNS_SCALE <= 1)) throw new Error('BENCH_RUNS_SCALE must be a number in (0, 1]');
const scaledCount = (count: number) => Math.max(2, Math.round(count * RUNS_SCALE));

/** The plan sizes runs are created from, small then large (the selection ceiling is 5,000). */
export const PLAN_SIZES = [scaledCount(500), scaledCount(5_000)] as const;
/** The selection every PUT replaces: all the project's cases. */
export const SELECTION_SIZE = PLAN_SIZES[1];
/**
 * Warm-up: at least WARMUP calls and WARMUP_MS of them. A PGlite just opened in this process runs
 * its WebAssembly unoptimized at first (V8 tiers it up as it gets hot), which would inflate the
 * floor's first calls; the service's engine has been warmed by the seeding.
 */
export const WARMUP = 3;
const WARMUP_MS = 3_000;
export const REPS = 5;
/** A run creation or PUT of 5,000 cases may take seconds on PGlite under load; never minutes. */
const CALL_TIMEOUT_MS = 120_000;

/** The project, the two run source plans and a selection plan for each side (the same start). */
export type RunCreationFixture = {
  who: Integrator;
  code: string;
  caseUlids: string[];
  sources: Array<{ size: number; planUlid: string }>;
  selection: { service: string; raw: string };
};

/** One CSV import of `count` cases with the three STEPS each (the project export's columns). */
async function importCases(service: ServiceProcess, who: Integrator, code: string, count: number): Promise<void> {
  const column = (field: 'action' | 'expectedResult') => `"${STEPS.map((step, index) => `${index + 1}. ${step[field]}`).join('\n')}"`;
  const rows = Array.from({ length: count }, (_, index) => `Plan case ${index},${column('action')},${column('expectedResult')}`);
  const response = await fetch(`${service.baseUrl}/api/v1/projects/${code}/test-case-imports`, {
    method: 'POST',
    headers: { ...bearer(who), 'content-type': 'text/csv' },
    body: `title,steps,expected_results\n${rows.join('\n')}\n`,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const body = await response.text();
  if (response.status !== 201) throw new Error(`test case import: HTTP ${response.status} ${body.slice(0, 500)}`);
  if (JSON.parse(body).createdCases !== count) throw new Error(`test case import: ${body.slice(0, 500)}`);
}

const putSelection = (service: ServiceProcess, who: Integrator, planUlid: string, caseUlids: string[]) =>
  send(service, who, 'PUT', `/api/v1/plans/${planUlid}/cases`, { caseUlids }, CALL_TIMEOUT_MS);

async function planOf(service: ServiceProcess, who: Integrator, code: string, name: string, caseUlids: string[]): Promise<string> {
  const plan = await send(service, who, 'POST', `/api/v1/projects/${code}/plans`, { name, status: 'active' });
  await putSelection(service, who, plan.ulid, caseUlids);
  return plan.ulid;
}

export async function seedRunCreation(service: ServiceProcess, who: Integrator, code: string): Promise<RunCreationFixture> {
  await createProjectThroughApi(service, who, code, `Run creation ${code}`);
  await importCases(service, who, code, SELECTION_SIZE);
  const caseUlids = (await listCases(service, who, code)).map((each) => each.ulid);
  if (caseUlids.length !== SELECTION_SIZE) throw new Error(`the project holds ${caseUlids.length} cases, not ${SELECTION_SIZE}`);
  const sources = [];
  for (const size of PLAN_SIZES)
    sources.push({ size, planUlid: await planOf(service, who, code, `Source of ${size}`, caseUlids.slice(0, size)) });
  const selection = {
    service: await planOf(service, who, code, 'Service selection', caseUlids),
    raw: await planOf(service, who, code, 'Raw selection', caseUlids),
  };
  return { who, code, caseUlids, sources, selection };
}

/** Forward and reversed by turns: call `index` (warm-up included) of a selection measure. */
export const selectionOrder = (fixture: RunCreationFixture, index: number) =>
  index % 2 === 0 ? [...fixture.caseUlids].reverse() : fixture.caseUlids;

/** The warm-up, then REPS sequential calls of `call(index)`; their latencies as a Measurement (p50 = the median). */
export async function repeated(call: (index: number, warmup: boolean) => Promise<void>): Promise<Measurement> {
  const warming = performance.now();
  let index = 0;
  while (index < WARMUP || performance.now() - warming < WARMUP_MS) await call(index++, true);
  const latencies: number[] = [];
  const busy = machineBusyMeter();
  const started = performance.now();
  for (const end = index + REPS; index < end; index++) {
    const begin = performance.now();
    await call(index, false);
    latencies.push(performance.now() - begin);
  }
  return summarize(latencies, 0, performance.now() - started, false, busy());
}

const statusKiB = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
};

/** Peak resident memory of the service during one call: VmHWM reset before, read after. */
export type Memory = { beforeMiB: number; peakMiB: number };

async function withPeak(pid: number, work: () => Promise<void>): Promise<Memory> {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch (error) {
    throw new Error(`cannot reset the service's peak RSS (/proc/${pid}/clear_refs, Linux 4.0+): ${String(error)}`);
  }
  const beforeMiB = statusKiB(pid, 'VmRSS') / 1024;
  await work();
  return { beforeMiB, peakMiB: statusKiB(pid, 'VmHWM') / 1024 };
}

export type RunCreationMeasure = { measurement: Measurement; memory: Memory[] };

/** Runs created from the plan of `size` cases; every answer must hold them all, untested. */
export async function serviceRunFromPlan(service: ServiceProcess, fixture: RunCreationFixture, size: number): Promise<RunCreationMeasure> {
  const { planUlid } = fixture.sources.find((source) => source.size === size)!;
  const memory: Memory[] = [];
  const measurement = await repeated(async (index, warmup) => {
    const create = async () => {
      const run = await send(
        service,
        fixture.who,
        'POST',
        `/api/v1/projects/${fixture.code}/runs`,
        { name: `Service run ${index}`, planUlid },
        CALL_TIMEOUT_MS,
      );
      if (run.total !== size || run.counts.untested !== size)
        throw new Error(`run from a plan of ${size}: ${JSON.stringify(run).slice(0, 500)}`);
    };
    if (warmup) await create();
    else memory.push(await withPeak(service.pid, create));
  });
  return { measurement, memory };
}

/** PUT selection of all the cases, the order turning each call; every answer must be that order. */
export const servicePutSelection = (service: ServiceProcess, fixture: RunCreationFixture): Promise<Measurement> =>
  repeated(async (index) => {
    const order = selectionOrder(fixture, index);
    const answer = await putSelection(service, fixture.who, fixture.selection.service, order);
    if (answer.items.length !== order.length || answer.items[0].caseUlid !== order[0] || answer.items.at(-1).caseUlid !== order.at(-1)) {
      throw new Error(`PUT selection: ${answer.items.length} items, not the order sent`);
    }
  });

// ---- report -------------------------------------------------------------------------------------

export type RunCreationRow = {
  engine: string;
  runs: Array<{ size: number; service: RunCreationMeasure; raw: Measurement }>;
  selection: { service: Measurement; raw: Measurement };
};

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const times = (value: number) => `${value.toFixed(1)}×`;
const side = (m: Measurement) => `p50 ${ms(m.p50).padStart(9)}  max ${ms(m.p99).padStart(9)}`;

export function runCreationReport(rows: RunCreationRow[]): string {
  const [small, large] = PLAN_SIZES;
  const endpoints = {
    run: (size: number) => `POST /api/v1/projects/{code}/runs (plan of ${size})`,
    selection: `PUT  /api/v1/plans/{plan}/cases (${SELECTION_SIZE})`,
  };
  const width = Math.max(...PLAN_SIZES.map((size) => endpoints.run(size).length), endpoints.selection.length);
  const line = (engine: string, endpoint: string, service: Measurement, raw: Measurement, extra: string[] = []) =>
    [
      engine.padEnd(8),
      endpoint.padEnd(width),
      side(service),
      '|',
      'raw',
      side(raw),
      '|',
      `${times(service.p50 / raw.p50)} slower`,
      ...extra,
    ].join('  ');
  const table = rows.flatMap((row) => {
    const bySize = (size: number) => row.runs.find((run) => run.size === size)!;
    const runLines = row.runs.map((run) => {
      const growth = Math.max(...run.service.memory.map((each) => each.peakMiB - each.beforeMiB));
      const peak = Math.max(...run.service.memory.map((each) => each.peakMiB));
      return line(row.engine, endpoints.run(run.size), run.service.measurement, run.raw, [
        '|',
        `RSS growth +${growth.toFixed(0)} MiB (peak ${peak.toFixed(0)} MiB)`,
      ]);
    });
    const linear = (pick: (size: number) => Measurement) => times(pick(large).p50 / pick(small).p50);
    return [
      ...runLines,
      `${row.engine.padEnd(8)}  ${`linearity ${large} vs ${small}`.padEnd(width)}  service ${linear((size) => bySize(size).service.measurement)}  raw ${linear((size) => bySize(size).raw)}  (linear: ${times(large / small)})`,
      line(row.engine, endpoints.selection, row.selection.service, row.selection.raw),
    ];
  });
  return [
    '',
    `tcms bench, run creation and plan selection: median (p50) and max of ${REPS} sequential calls after a warm-up (${WARMUP} calls and ${WARMUP_MS / 1000} s at least), each beside its raw floor`,
    `  run = POST …/runs { planUlid } from a plan of the first N of ${SELECTION_SIZE} cases (3 steps each); every answer checked (total = untested = N)`,
    `  PUT = the selection of all ${SELECTION_SIZE} cases, forward and reversed by turns (every row moves, one event); every answer checked`,
    `  raw = the same reads and writes in one transaction, set-based, without the service (bench/raw-run-creation.ts)`,
    `  RSS growth = the service process's peak (VmHWM, reset before each call via /proc/<pid>/clear_refs) above its VmRSS before the call, largest of the ${REPS};`,
    `    on PGlite the database runs in the service process and counts too`,
    '',
    ...table,
    '',
  ].join('\n');
}
