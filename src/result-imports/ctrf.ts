import { JSONParser, TokenParserError } from '@streamparser/json';
import { type JsonBounds, type JsonExcess, JsonScanner } from '../foundation/uploads/json-scanner.ts';
import { AppError } from '../kernel/errors.ts';
import { ATTEMPTS_MAX, type Attempt, clip, type ImportStatus, Position, parseFailed, type TestSink } from './report.ts';

type CtrfAttempt = { status?: unknown; duration?: unknown; message?: unknown; trace?: unknown };
type CtrfTest = CtrfAttempt & {
  name?: unknown;
  suite?: unknown;
  filePath?: unknown;
  retries?: unknown;
  retryAttempts?: unknown;
  flaky?: unknown;
  parameters?: unknown;
};

/** What a CTRF report may hold: nesting, values, and the bytes of one string, number or literal. */
export const CTRF_BOUNDS: JsonBounds = { depth: 64, values: 5_000_000, token: 16 * 1024 * 1024 };

const EXCESS_MESSAGES: Record<JsonExcess['bound'], string> = {
  depth: `arrays and objects nest deeper than ${CTRF_BOUNDS.depth} levels`,
  values: `the report holds more than ${CTRF_BOUNDS.values} values`,
  token: `a string, number or literal is longer than ${CTRF_BOUNDS.token} bytes`,
};

/** Decisions §12: passed, failed, skipped; pending → skipped; anything else → blocked. */
function statusOf(status: unknown): ImportStatus {
  if (status === 'passed' || status === 'failed' || status === 'skipped') return status;
  return status === 'pending' ? 'skipped' : 'blocked';
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

const duration = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(Math.round(value), 2_147_483_647) : null;

function attemptOf(run: CtrfAttempt): Attempt {
  const message = [text(run.message), text(run.trace)].filter(Boolean).join('\n');
  return { status: statusOf(run.status), elapsedMs: duration(run.duration), message: clip(message) };
}

/**
 * The attempts of a CTRF test, oldest first: its `retryAttempts` when the reporter lists them,
 * else `retries` failed attempts (CTRF counts retries of a test that ends as reported), then the
 * final outcome.
 */
function attemptsOf(test: CtrfTest): Attempt[] {
  const final = attemptOf(test);
  if (Array.isArray(test.retryAttempts) && test.retryAttempts.length > 0) {
    return [...test.retryAttempts.slice(1 - ATTEMPTS_MAX).map((each) => attemptOf(each as CtrfAttempt)), final];
  }
  const retries =
    typeof test.retries === 'number' && Number.isSafeInteger(test.retries) ? Math.min(Math.max(test.retries, 0), ATTEMPTS_MAX - 1) : 0;
  return [...Array.from({ length: retries }, (): Attempt => ({ status: 'failed', elapsedMs: null, message: null })), final];
}

/** CTRF `parameters`: the arguments by name; a value that is no object is not kept. */
const parametersOf = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null);

/** CTRF `suite`: a string, or (newer reporters) the chain of suite names. */
function suiteNames(test: CtrfTest): string[] {
  if (Array.isArray(test.suite)) return test.suite.filter((name): name is string => typeof name === 'string' && name !== '');
  return text(test.suite) ? [test.suite as string] : [];
}

/**
 * Reads a CTRF JSON report from its bytes, handing each entry of `results.tests` to `sink` as
 * soon as it is complete: only one test is ever held, whatever the report's size. The bytes pass
 * CTRF_BOUNDS before the parser sees them.
 */
export async function parseCtrf(chunks: AsyncIterable<Uint8Array>, sink: TestSink): Promise<void> {
  const parser = new JSONParser({ paths: ['$.results.tests.*'], keepStack: false });
  const scanner = new JsonScanner(CTRF_BOUNDS);
  const position = new Position();
  let failure: Error | null = null;
  let current: Uint8Array = new Uint8Array();
  /** Where in the stream the last token the parser was given begins. */
  let tokenOffset = 0;
  parser.onToken = ({ offset }) => {
    tokenOffset = offset;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  parser.onValue = ({ value }) => {
    if (failure) return;
    try {
      const test = (value && typeof value === 'object' ? value : {}) as CtrfTest;
      const suites = suiteNames(test);
      const filePath = text(test.filePath);
      sink.add({
        name: text(test.name) ?? '',
        scope: suites.length > 0 ? suites.join('.') : null,
        suitePath: suites.length > 0 ? suites : filePath ? [filePath] : [],
        caseProperty: null,
        parameters: parametersOf(test.parameters),
        attempts: attemptsOf(test),
        flakyReported: test.flaky === true,
      });
    } catch (error) {
      failure = error as Error;
    }
  };
  // The tokenizer names the byte it refuses; the token parser names none, so it broke at the
  // token it was last given; anything else (a document ending early) at the end of what was read.
  const failedAt = (error: Error) => {
    const absolute = /absolute position "(\d+)"/.exec(error.message);
    if (absolute) return Number(absolute[1]);
    return error instanceof TokenParserError ? tokenOffset : position.offset + current.length;
  };
  const check = () => {
    if (!failure) return;
    if (failure instanceof AppError) throw failure;
    const where = position.within(current, failedAt(failure) - position.offset);
    throw parseFailed(failure.message.replace(/ at chunk position.*$/, ''), where.line, where.column);
  };
  for await (const chunk of chunks) {
    current = chunk;
    const excess = scanner.scan(chunk);
    if (excess) {
      const where = position.within(chunk, excess.offset);
      throw parseFailed(EXCESS_MESSAGES[excess.bound], where.line, where.column);
    }
    parser.write(chunk);
    check();
    position.advance(chunk);
  }
  current = new Uint8Array();
  try {
    if (!parser.isEnded) parser.end();
  } catch (error) {
    failure ??= error as Error;
  }
  check();
}
