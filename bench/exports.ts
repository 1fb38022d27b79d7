/**
 * The export measures of `npm run bench` (`BENCH_ONLY=exports` runs only them): the audit export
 * of AUDIT_EVENTS events (CSV) and the project export of EXPORT_CASES cases (CSV and JSON), each
 * downloaded whole through HTTP by an owner in a session, beside a raw `COPY (SELECT …) TO STDOUT`
 * of the same rows (a pg client on the PostgreSQL server, `TO '/dev/blob'` on PGlite). Reported:
 * the best time of RUNS downloads, the bytes, and the peak resident memory of the process doing
 * the work above its resident memory before (the service's child process, sampled from
 * /proc/<pid>/status; for the raw floor this process, since the pg client or PGlite runs here).
 *
 * The fixture is written with direct SQL (INSERT … SELECT generate_series) the way the service
 * stores it: events with a user actor, cases with three steps and a priority value each.
 */
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { newId } from '../src/kernel/ids.ts';
import type { ServiceProcess } from './child.ts';
import type { Sql } from './raw.ts';
import { type SessionPerson, sessionHeaders, signUpPerson } from './setup.ts';

export const AUDIT_EVENTS = 25_000;
export const EXPORT_CASES = 10_000;
const STEPS_PER_CASE = 3;
/** Downloads per measure (the audit export allows 10 an hour per organization). */
const RUNS = 3;
const WINDOW = { from: '2021-01-01T00:00:00Z', to: '2021-01-02T00:00:00Z' };

export type ExportFixture = { owner: SessionPerson; projectId: string; code: string };
export type ExportMeasure = { ms: number; bytes: number; peakMiB: number };
export type ExportRow = { engine: string; measure: string; service: ExportMeasure; raw: ExportMeasure };

/** The owner (signed up through the API) and their project. */
export async function exportPeople(service: ServiceProcess): Promise<ExportFixture> {
  const owner = await signUpPerson(service, 'export-owner');
  const code = `X${newId().slice(-8)}`;
  const response = await fetch(`${service.baseUrl}/api/v1/projects`, {
    method: 'POST',
    headers: { ...sessionHeaders(owner, owner.orgId), 'content-type': 'application/json' },
    body: JSON.stringify({ id: code, name: 'Export bench' }),
  });
  if (response.status !== 201) throw new Error(`project creation: HTTP ${response.status} ${await response.text()}`);
  const project = (await response.json()) as { ulid: string };
  return { owner, projectId: project.ulid, code };
}

/** ULID-shaped ids `<16 random chars><10 hex digits of i>` for row i of a generate_series. */
const seriesId = () => `'${newId().slice(0, 16)}' || lpad(upper(to_hex(i)), 10, '0')`;

/** The entitlement, the events, the cases with steps and priority values; then ANALYZE. */
export async function seedExports(sql: Sql, fixture: ExportFixture): Promise<void> {
  const { owner, projectId } = fixture;
  await sql.transaction(async (query) => {
    await query('UPDATE organizations SET audit_export_enabled_override = true WHERE id = $1', [owner.orgId]);
    await query(
      `INSERT INTO audit_events (id, org_id, action, actor_kind, actor_user_id, actor_email, actor_name, entity_type, entity_ulid,
         entity_label, metadata, created_at)
       SELECT ${seriesId()}, $1, 'test_case.updated', 'user', $2, 'bench@example.test', 'Bench Owner', 'test_case', ${seriesId()},
         'BENCH-' || i || ' · a case title of some length', jsonb_build_object('changes', jsonb_build_object('title', jsonb_build_object('from', 'old ' || i, 'to', 'new ' || i))),
         $3::timestamptz + i * interval '1 second'
       FROM generate_series(1, $4::int) AS i`,
      [owner.orgId, owner.userId, WINDOW.from, AUDIT_EVENTS],
    );
    await query(
      `INSERT INTO test_cases (id, org_id, project_id, case_number, title, description, tags)
       SELECT ${seriesId()}, $1, $2, i, 'Case ' || i || ': the checkout accepts a card', 'Preconditions and notes of case ' || i, ARRAY['smoke', 'checkout']
       FROM generate_series(1, $3::int) AS i`,
      [owner.orgId, projectId, EXPORT_CASES],
    );
    await query('UPDATE projects SET last_case_number = $2 WHERE id = $1', [projectId, EXPORT_CASES]);
    for (let position = 1; position <= STEPS_PER_CASE; position++) {
      await query(
        `INSERT INTO test_case_steps (id, org_id, case_id, position, action, expected_result)
         SELECT ${seriesId()}, c.org_id, c.id, $2::int, 'Step ' || $2::int || ' of case ' || c.case_number, 'Result ' || $2::int
         FROM test_cases c, LATERAL (SELECT c.case_number AS i) AS n WHERE c.project_id = $1`,
        [projectId, position],
      );
    }
    await query(
      `INSERT INTO test_case_field_values (case_id, field_id, org_id, value)
       SELECT c.id, f.id, c.org_id, to_jsonb(o.id::text)
       FROM test_cases c JOIN custom_fields f ON f.org_id = c.org_id AND f.system_key = 'priority'
       JOIN custom_field_options o ON o.field_id = f.id AND o.seed_key = 'high'
       WHERE c.project_id = $1`,
      [projectId],
    );
  });
  await sql.query('ANALYZE audit_events, test_cases, test_case_steps, test_case_field_values', []);
}

const residentMiB = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
};

/** Runs `work` while sampling `pid`'s resident memory every 5 ms; the peak is above the level before. */
async function sampled(pid: number, work: () => Promise<number>): Promise<ExportMeasure> {
  const base = residentMiB(pid);
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, residentMiB(pid));
  }, 5);
  const started = performance.now();
  try {
    const bytes = await work();
    const ms = performance.now() - started;
    peak = Math.max(peak, residentMiB(pid));
    return { ms, bytes, peakMiB: peak - base };
  } finally {
    clearInterval(timer);
  }
}

/** The best of RUNS measures (time), with the highest memory peak among them. */
async function best(work: () => Promise<ExportMeasure>): Promise<ExportMeasure> {
  const runs: ExportMeasure[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await work());
  return {
    ms: Math.min(...runs.map((each) => each.ms)),
    bytes: runs[0]!.bytes,
    peakMiB: Math.max(...runs.map((each) => each.peakMiB)),
  };
}

async function download(service: ServiceProcess, fixture: ExportFixture, path: string): Promise<number> {
  const response = await fetch(`${service.baseUrl}${path}`, { headers: sessionHeaders(fixture.owner, fixture.owner.orgId) });
  if (response.status !== 200 || !response.body) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return bytes;
}

const PATHS = (fixture: ExportFixture) => ({
  audit: `/api/v1/orgs/${fixture.owner.orgId}/audit-events/export?from=${WINDOW.from}&to=${WINDOW.to}`,
  csv: `/api/v1/projects/${fixture.code}/exports?format=csv`,
  json: `/api/v1/projects/${fixture.code}/exports?format=json`,
});
export const EXPORT_MEASURES = {
  audit: `GET  audit-events/export (${AUDIT_EVENTS} events, CSV)`,
  csv: `GET  projects/{code}/exports (${EXPORT_CASES} cases, CSV)`,
  json: `GET  projects/{code}/exports (${EXPORT_CASES} cases, JSON)`,
} as const;
export type ExportMeasureName = keyof typeof EXPORT_MEASURES;

export const serviceExport = (service: ServiceProcess, fixture: ExportFixture, name: ExportMeasureName) =>
  best(() => sampled(service.pid, () => download(service, fixture, PATHS(fixture)[name])));

/** The same rows as each export, as COPY selects them (no HTTP, no service). */
function copySelect(fixture: ExportFixture, name: ExportMeasureName): string {
  const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
  if (name === 'audit') {
    return `SELECT created_at, id, action, actor_kind, coalesce(actor_user_id, actor_token_id), actor_name || ' <' || actor_email || '>',
        entity_type, entity_ulid, entity_label, run_id, metadata
      FROM audit_events WHERE org_id = ${literal(fixture.owner.orgId)}
        AND created_at >= ${literal(WINDOW.from)} AND created_at < ${literal(WINDOW.to)}
      ORDER BY created_at, id`;
  }
  const steps = (column: string) =>
    `(SELECT string_agg(s.position || '. ' || coalesce(${column}, ''), E'\\n' ORDER BY s.position) FROM test_case_steps s WHERE s.case_id = c.id)`;
  const row = `SELECT ${literal(fixture.code)} || '-' || c.case_number AS display_id, c.title, c.description,
        array_to_string(c.tags, ', ') AS tags, ${steps('s.action')} AS steps, ${steps('s.expected_result')} AS expected_results,
        (SELECT o.name_en FROM test_case_field_values v JOIN custom_field_options o ON o.id = v.value #>> '{}' WHERE v.case_id = c.id) AS priority
      FROM test_cases c WHERE c.project_id = ${literal(fixture.projectId)} AND c.archived_at IS NULL ORDER BY c.case_number`;
  return name === 'json' ? `SELECT row_to_json(r) FROM (${row}) AS r` : row;
}

const copyStatement = (fixture: ExportFixture, name: ExportMeasureName, target: string) =>
  `COPY (${copySelect(fixture, name)}) TO ${target} WITH (FORMAT ${name === 'json' ? 'text' : 'csv, HEADER'})`;

/** COPY … TO STDOUT through a pg client, counting the bytes as they arrive. */
export const rawExportPostgres = (client: pg.Client, fixture: ExportFixture, name: ExportMeasureName) =>
  best(() =>
    sampled(process.pid, async () => {
      let bytes = 0;
      const count = (message: { chunk: Buffer }) => {
        bytes += message.chunk.length;
      };
      const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      connection.on('copyData', count);
      try {
        await client.query(copyStatement(fixture, name, 'STDOUT'));
      } finally {
        connection.off('copyData', count);
      }
      return bytes;
    }),
  );

/** COPY … TO '/dev/blob' on PGlite (its STDOUT): the whole result as one blob. */
export const rawExportPglite = (db: PGlite, fixture: ExportFixture, name: ExportMeasureName) =>
  best(() =>
    sampled(process.pid, async () => {
      const result = await db.query(copyStatement(fixture, name, `'/dev/blob'`));
      return result.blob?.size ?? 0;
    }),
  );

const mib = (value: number) => `${value.toFixed(1)} MiB`;
const side = (m: ExportMeasure) =>
  `${m.ms.toFixed(0).padStart(6)} ms  ${(m.bytes / 2 ** 20).toFixed(1).padStart(5)} MiB out  peak +${mib(m.peakMiB).padStart(9)}`;

export function exportReport(rows: ExportRow[]): string {
  const width = Math.max(...rows.map((row) => row.measure.length));
  return [
    '',
    `tcms bench, exports: best of ${RUNS} downloads (an owner's session, whole body read), bytes, and peak resident memory above the level before`,
    `  service: the service's child process; raw: COPY (SELECT the same rows) TO STDOUT via a pg client / TO '/dev/blob' on PGlite, memory of this process`,
    '',
    ...rows.map((row) =>
      [
        row.engine.padEnd(8),
        row.measure.padEnd(width),
        side(row.service),
        '|',
        'raw',
        side(row.raw),
        '|',
        `time ${(row.service.ms / row.raw.ms).toFixed(1)}x`,
      ].join('  '),
    ),
    '',
  ].join('\n');
}
