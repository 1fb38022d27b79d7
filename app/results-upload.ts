import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

/**
 * `tcms results upload`: sends test runner reports to POST /projects/{code}/result-imports over
 * HTTP (TCMS_URL, TCMS_TOKEN), for CI. One request carries every file, gzip-compressed, with one
 * Idempotency-Key for all of its attempts, so that a retry never duplicates results.
 */

export type UploadOutput = { out(line: string): void; err(line: string): void; isTTY?: boolean; progress?(line: string): void };

export const RESULTS_USAGE = `  tcms results upload <file or glob…> --project CODE [--run ULID | --run-name NAME]
                     [--plan ULID] [--environment ID] [--milestone ID] [--format junit|ctrf]
                     [--no-create-cases] [--fail-on-failed-tests]
      Upload JUnit XML or CTRF JSON reports into a new run (or the open run --run) over HTTP:
      TCMS_URL is the server's address, TCMS_TOKEN an API token. Retries on 429 (after
      Retry-After) and on network errors with the same Idempotency-Key. Exits 1 when the
      upload failed, or with --fail-on-failed-tests when the run has failed cases.`;

const OPTIONS = {
  project: { type: 'string' },
  run: { type: 'string' },
  'run-name': { type: 'string' },
  plan: { type: 'string' },
  environment: { type: 'string' },
  milestone: { type: 'string' },
  format: { type: 'string' },
  'no-create-cases': { type: 'boolean' },
  'fail-on-failed-tests': { type: 'boolean' },
} as const;

/** Attempts of one upload in all (the first and its retries). */
const MAX_ATTEMPTS = 6;
/** A Retry-After longer than this is not waited for. */
const MAX_WAIT_SECONDS = 120;
const CHUNK_BYTES = 64 * 1024;

export class UploadUsageError extends Error {}

const GLOB = /[*?[{]/;

/** The files an argument names: itself, or the files under its directory part that match it as a glob. */
async function filesOf(pattern: string): Promise<string[]> {
  if (!GLOB.test(pattern)) return [pattern];
  const segments = pattern.split(/[\\/]/);
  const fixed = segments.findIndex((segment) => GLOB.test(segment));
  const base = segments.slice(0, fixed).join(path.sep) || '.';
  const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => path.matchesGlob(path.normalize(file), path.normalize(pattern)))
    .sort();
}

/** A multipart/form-data body of gzip-compressed `file` parts. */
async function multipartBody(files: string[]) {
  const boundary = `tcms-${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    const name = path.basename(file).replace(/["\r\n]/g, '_');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
      ),
      gzipSync(await readFile(file)),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The body as a stream of slices, reporting how much was taken (by the network) so far. */
function streamed(body: Buffer, onProgress: (sent: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= body.length) return controller.close();
      const slice = body.subarray(sent, sent + CHUNK_BYTES);
      sent += slice.length;
      onProgress(sent);
      controller.enqueue(slice);
    },
  });
}

const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

function progressReporter(output: UploadOutput, total: number) {
  let lastTenth = -1;
  return (sent: number) => {
    const share = total === 0 ? 1 : sent / total;
    if (output.isTTY && output.progress) {
      const filled = Math.round(share * 30);
      output.progress(`\r[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${Math.round(share * 100)}% of ${total} bytes`);
    } else if (Math.floor(share * 10) > lastTenth) {
      lastTenth = Math.floor(share * 10);
      output.out(`uploaded ${sent} of ${total} bytes`);
    }
  };
}

type Parsed = { files: string[]; project: string; query: URLSearchParams; failOnFailed: boolean };

async function parse(argv: string[]): Promise<Parsed> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UploadUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (!values.project) throw new UploadUsageError('--project CODE is required');
  if (positionals.length === 0) throw new UploadUsageError('Name at least one report file or glob');
  if (values.run && values['run-name']) throw new UploadUsageError('Give --run or --run-name, not both');
  if (values.format && values.format !== 'junit' && values.format !== 'ctrf') throw new UploadUsageError('--format is junit or ctrf');
  const files = [...new Set((await Promise.all(positionals.map(filesOf))).flat())];
  const query = new URLSearchParams();
  const add = (name: string, value: string | undefined) => value !== undefined && query.set(name, value);
  add('runUlid', values.run);
  add('runName', values['run-name']);
  add('planUlid', values.plan);
  add('environmentId', values.environment);
  add('milestoneId', values.milestone);
  add('format', values.format);
  if (values['no-create-cases']) query.set('createCases', 'false');
  return { files, project: values.project, query, failOnFailed: values['fail-on-failed-tests'] === true };
}

/** `tcms results upload …`: answers the exit code (0 uploaded, 1 failed, 2 usage); throws UploadUsageError. */
export async function uploadResults(argv: string[], output: UploadOutput, env: NodeJS.ProcessEnv): Promise<number> {
  const { files, project, query, failOnFailed } = await parse(argv);
  const baseUrl = env.TCMS_URL?.replace(/\/+$/, '');
  if (!baseUrl || !env.TCMS_TOKEN) throw new UploadUsageError('Set TCMS_URL (the server) and TCMS_TOKEN (an API token)');
  if (files.length === 0) {
    output.err('tcms: no report file matches');
    return 1;
  }
  for (const file of files) {
    if (!(await stat(file).catch(() => null))?.isFile()) {
      output.err(`tcms: ${file} is not a file`);
      return 1;
    }
  }
  const { body, contentType } = await multipartBody(files);
  output.out(`uploading ${files.length} report${files.length === 1 ? '' : 's'} (${body.length} bytes compressed) to project ${project}`);
  const headers = { Authorization: `Bearer ${env.TCMS_TOKEN}`, 'Idempotency-Key': randomUUID(), 'Content-Type': contentType };
  const url = `${baseUrl}/api/v1/projects/${encodeURIComponent(project)}/result-imports?${query}`;

  let response: Response | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: streamed(body, progressReporter(output, body.length)),
        duplex: 'half',
      } as RequestInit);
      if (output.isTTY && output.progress) output.progress('\n');
      if (response.status !== 429 || attempt === MAX_ATTEMPTS) break;
      const seconds = Math.min(Number(response.headers.get('retry-after')) || 1, MAX_WAIT_SECONDS);
      output.out(`rate limited (429): retrying in ${seconds}s`);
      await response.body?.cancel();
      await wait(seconds);
    } catch (error) {
      if (attempt === MAX_ATTEMPTS) {
        output.err(`tcms: upload failed: ${(error as Error).cause ?? (error as Error).message}`);
        return 1;
      }
      const seconds = 2 ** (attempt - 1);
      output.out(
        `network error (${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message}): retrying in ${seconds}s`,
      );
      await wait(seconds);
    }
  }
  const answer = (await response!.json().catch(() => null)) as Record<string, unknown> | null;
  if (response!.status !== 201 || !answer) {
    const error = answer?.error as { code?: string; message?: string } | undefined;
    output.err(`tcms: upload failed: ${response!.status} ${error?.code ?? ''} ${error?.message ?? ''}`.trim());
    return 1;
  }
  const replayed = response!.headers.get('idempotency-replayed') === 'true' ? ' (replayed)' : '';
  output.out(`run: ${baseUrl}/api/v1/runs/${answer.runUlid}${replayed}`);
  output.out(
    `tests ${answer.tests}, results ${answer.results}, attempts ${answer.attempts}, ` +
      `matched cases ${answer.matchedCases}, created cases ${answer.createdCases}, unmatched ${(answer.unmatched as unknown[]).length}`,
  );
  const run = await fetch(`${baseUrl}/api/v1/runs/${answer.runUlid}`, { headers: { Authorization: headers.Authorization } });
  const counts = run.ok ? ((await run.json()) as { counts: Record<string, number> }).counts : null;
  if (counts)
    output.out(
      `run cases: ${Object.entries(counts)
        .map(([status, count]) => `${status} ${count}`)
        .join(', ')}`,
    );
  if (failOnFailed && (!counts || counts.failed! > 0)) {
    output.err(`tcms: the run has ${counts?.failed ?? 'unknown'} failed cases`);
    return 1;
  }
  return 0;
}
