import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { glob, isDynamicPattern } from 'tinyglobby';

/**
 * `tcms results upload`: sends test runner reports to POST /projects/{code}/result-imports over
 * HTTP (TCMS_URL, TCMS_TOKEN), for CI. One request carries every file, gzip-compressed, with one
 * Idempotency-Key for all of its attempts, so that a retry never duplicates results. Shared by the
 * operator command (app/tcms.ts) and the client the service serves (app/cli-package/tcms-cli.ts).
 */

export type UploadOutput = { out(line: string): void; err(line: string): void };

/** How an upload ends, as its exit code. */
export const EXIT = { ok: 0, failed: 1, usage: 2, failedTests: 3 } as const;

/** Attempts of one upload in all (the first and its retries). */
const MAX_ATTEMPTS = 6;
/** A Retry-After longer than this is not waited for. */
const MAX_WAIT_SECONDS = 120;

export const RESULTS_USAGE = `  tcms results upload <file or glob…> --project CODE [--run ULID | --run-name NAME]
                     [--plan ULID] [--environment ID] [--milestone ID] [--format junit|ctrf]
                     [--no-create-cases] [--fail-on-failed-tests]
      Upload JUnit XML or CTRF JSON reports into a new run (or the open run --run) over HTTP:
      TCMS_URL is the server's address, TCMS_TOKEN an API token. Quote a glob ('reports/*.xml')
      to leave it to tcms. Up to ${MAX_ATTEMPTS} attempts with the same Idempotency-Key, so results are
      never written twice: after a network error, a 429, 502, 503 or 504, or a 409 saying an
      earlier attempt is still being imported (waiting for Retry-After when given).`;

export const RESULTS_EXIT_CODES = `Exit codes:
  ${EXIT.ok}  uploaded (or --version, help)
  ${EXIT.failed}  the upload failed: no report file matched, the server refused it (its error is
     printed), or it could not be reached in ${MAX_ATTEMPTS} attempts
  ${EXIT.usage}  usage error: an unknown command or option, a missing argument, TCMS_URL or
     TCMS_TOKEN not set
  ${EXIT.failedTests}  uploaded, and with --fail-on-failed-tests the run has failed cases`;

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

class UploadUsageError extends Error {}

/** How the uploader waits before a retry; tests pass one that does not. */
type RetryPacing = { pause?: (seconds: number) => Promise<void> };

const wait = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

/** The files an argument names: itself, or the files matching it as a glob, sorted. */
async function filesOf(pattern: string): Promise<string[]> {
  if (!isDynamicPattern(pattern)) return [pattern];
  return (await glob(pattern, { onlyFiles: true, expandDirectories: false })).sort();
}

/** A multipart/form-data body of gzip-compressed `file` parts. */
async function multipartBody(files: string[]) {
  const boundary = `tcms-${randomUUID()}`;
  const parts: BlobPart[] = [];
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
  return { body: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

type Parsed = { patterns: string[]; project: string; query: URLSearchParams; failOnFailed: boolean };

function parse(argv: string[]): Parsed {
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
  const query = new URLSearchParams();
  const add = (name: string, value: string | undefined) => value !== undefined && query.set(name, value);
  add('runUlid', values.run);
  add('runName', values['run-name']);
  add('planUlid', values.plan);
  add('environmentId', values.environment);
  add('milestoneId', values.milestone);
  add('format', values.format);
  if (values['no-create-cases']) query.set('createCases', 'false');
  return { patterns: positionals, project: values.project, query, failOnFailed: values['fail-on-failed-tests'] === true };
}

/** Why an answer deserves another attempt with the same key, or null when it is the final one. */
function retryReason(response: Response): string | null {
  switch (response.status) {
    case 429:
      return 'rate limited (429)';
    case 409:
      // The key's earlier attempt is still being imported (a lost answer's); other conflicts are final.
      return response.headers.has('retry-after') ? 'an earlier attempt is still being imported (409)' : null;
    case 502:
    case 503:
    case 504:
      return `server unavailable (${response.status})`;
    default:
      return null;
  }
}

/** What a failed fetch ran into: the socket's error code (ECONNREFUSED, ECONNRESET…) when there is one. */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

const retryAfterSeconds = (response: Response) => {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, MAX_WAIT_SECONDS) : undefined;
};

type Post = { url: string; headers: Record<string, string>; body: Blob };

/**
 * POSTs until an answer is final or the attempts run out, printing each retry with its reason.
 * Answers the final response, or the network error of the last attempt when none came.
 */
async function postWithRetries(post: Post, output: UploadOutput, pause: (seconds: number) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    let seconds: number;
    try {
      const response = await fetch(post.url, { method: 'POST', headers: post.headers, body: post.body });
      const retry = retryReason(response);
      if (!retry || attempt === MAX_ATTEMPTS) return { response };
      await response.body?.cancel();
      reason = retry;
      seconds = retryAfterSeconds(response) ?? 2 ** (attempt - 1);
    } catch (error) {
      reason = `network error (${networkCause(error)})`;
      if (attempt === MAX_ATTEMPTS) return { unreachable: reason };
      seconds = 2 ** (attempt - 1);
    }
    output.out(`${reason}: retrying in ${seconds}s (attempt ${attempt + 1} of ${MAX_ATTEMPTS})`);
    await pause(seconds);
  }
}

/** The report files the patterns name; prints why and answers null when there is none, or one is not a file. */
async function reportFiles(patterns: string[], output: UploadOutput): Promise<string[] | null> {
  const files = [...new Set((await Promise.all(patterns.map(filesOf))).flat())];
  if (files.length === 0) {
    output.err('tcms: no report file matches');
    return null;
  }
  for (const file of files) {
    if (!(await stat(file).catch(() => null))?.isFile()) {
      output.err(`tcms: ${file} is not a file`);
      return null;
    }
  }
  return files;
}

/** Prints the run's case counts, and answers them (null when the run could not be read). */
async function printRunCounts(runUrl: string, authorization: string, output: UploadOutput) {
  const run = await fetch(runUrl, { headers: { Authorization: authorization } }).catch(() => null);
  const counts = run?.ok ? ((await run.json()) as { counts: Record<string, number> }).counts : null;
  if (counts)
    output.out(
      `run cases: ${Object.entries(counts)
        .map(([status, count]) => `${status} ${count}`)
        .join(', ')}`,
    );
  return counts;
}

/** TCMS_URL without its trailing slashes; a usage error when it or TCMS_TOKEN is missing, or it is no http(s) address. */
function serverUrl(env: NodeJS.ProcessEnv): string {
  if (!env.TCMS_URL || !env.TCMS_TOKEN) throw new UploadUsageError('Set TCMS_URL (the server) and TCMS_TOKEN (an API token)');
  if (!URL.canParse(env.TCMS_URL) || !/^https?:$/.test(new URL(env.TCMS_URL).protocol)) {
    throw new UploadUsageError(`TCMS_URL must be the server's http(s) address, not "${env.TCMS_URL}"`);
  }
  return env.TCMS_URL.replace(/\/+$/, '');
}

type ImportSummary = {
  runUlid: string;
  tests: number;
  results: number;
  attempts: number;
  matchedCases: number;
  createdCases: number;
  unmatched: unknown[];
};

/** The import's summary from a 201, or null after printing why the server refused the upload. */
async function importSummary(response: Response, output: UploadOutput): Promise<ImportSummary | null> {
  const answer = (await response.json().catch(() => null)) as (ImportSummary & { error?: { code?: string; message?: string } }) | null;
  if (response.status === 201 && answer) return answer;
  output.err(`tcms: upload failed: ${response.status} ${answer?.error?.code ?? ''} ${answer?.error?.message ?? ''}`.trim());
  return null;
}

/** The exit code of an imported upload: with --fail-on-failed-tests, whether the run has failed cases. */
function importedExitCode(counts: Record<string, number> | null, failOnFailed: boolean, output: UploadOutput): number {
  if (!failOnFailed) return EXIT.ok;
  if (!counts) {
    output.err('tcms: the run could not be read to check for failed cases');
    return EXIT.failed;
  }
  if (counts.failed! > 0) {
    output.err(`tcms: the run has ${counts.failed} failed cases`);
    return EXIT.failedTests;
  }
  return EXIT.ok;
}

/** `tcms results upload …`: answers the exit code (EXIT); throws UploadUsageError. */
async function uploadResults(argv: string[], output: UploadOutput, env: NodeJS.ProcessEnv, { pause = wait }: RetryPacing): Promise<number> {
  const { patterns, project, query, failOnFailed } = parse(argv);
  const baseUrl = serverUrl(env);
  const files = await reportFiles(patterns, output);
  if (!files) return EXIT.failed;
  const { body, contentType } = await multipartBody(files);
  output.out(`uploading ${files.length} report${files.length === 1 ? '' : 's'} (${body.size} bytes compressed) to project ${project}`);
  const authorization = `Bearer ${env.TCMS_TOKEN}`;
  const url = `${baseUrl}/api/v1/projects/${encodeURIComponent(project)}/result-imports?${query}`;
  const headers = { Authorization: authorization, 'Idempotency-Key': randomUUID(), 'Content-Type': contentType };
  const sent = await postWithRetries({ url, headers, body }, output, pause);
  if ('unreachable' in sent) {
    output.err(`tcms: upload failed: ${baseUrl} could not be reached in ${MAX_ATTEMPTS} attempts (last: ${sent.unreachable})`);
    return EXIT.failed;
  }
  const summary = await importSummary(sent.response, output);
  if (!summary) return EXIT.failed;
  // Only the answer proves the server has the bytes: nothing before it says "uploaded".
  const replayed = sent.response.headers.get('idempotency-replayed') === 'true' ? ' (replayed): an earlier attempt had been imported' : '';
  output.out(`uploaded ${body.size} bytes${replayed}`);
  const runUrl = `${baseUrl}/api/v1/runs/${summary.runUlid}`;
  output.out(`run: ${runUrl}`);
  output.out(
    `tests ${summary.tests}, results ${summary.results}, attempts ${summary.attempts}, ` +
      `matched cases ${summary.matchedCases}, created cases ${summary.createdCases}, unmatched ${summary.unmatched.length}`,
  );
  return importedExitCode(await printRunCounts(runUrl, authorization, output), failOnFailed, output);
}

/** `tcms results …`: talks HTTP to a server, never to a database. Answers the exit code (EXIT); never throws. */
export async function runResults(argv: string[], output: UploadOutput, env: NodeJS.ProcessEnv, options: RetryPacing = {}): Promise<number> {
  try {
    if (argv[0] !== 'upload')
      throw new UploadUsageError(argv[0] === undefined ? 'Missing results command: upload' : `Unknown results command "${argv[0]}"`);
    return await uploadResults(argv.slice(1), output, env, options);
  } catch (error) {
    const usage = error instanceof UploadUsageError;
    output.err(`tcms: ${(error as Error).message}${usage ? ' (see "tcms help")' : ''}`);
    return usage ? EXIT.usage : EXIT.failed;
  }
}
