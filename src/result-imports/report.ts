import { AppError } from '../kernel/errors.ts';
import type { CaseStatus } from '../kernel/statuses.ts';
import { storableCopy } from '../kernel/validation.ts';

/** Decisions §12: more tests than this in one import answer 422 too_many_cases. */
export const IMPORT_TESTS_MAX = 50_000;
/** The most attempts kept of one test: reruns past them are left out (the final outcome is always kept). */
export const ATTEMPTS_MAX = 100;
/** Result comments and attempt messages are clipped to this many characters. */
export const MESSAGE_MAX = 4_000;

export type ReportFormat = 'junit' | 'ctrf';
export type ImportStatus = Extract<CaseStatus, 'passed' | 'failed' | 'skipped' | 'blocked'>;

/** One run of a test: a retried test has several, oldest first. */
export type Attempt = { status: ImportStatus; elapsedMs: number | null; message: string | null };

/** A test as a runner reported it, before it is bound to a case. */
export type ReportedTest = {
  /** The test's name as reported (may carry a display ID or a parameter part in brackets). */
  name: string;
  /** What the automation key is built from: JUnit classname or CTRF suite (joined by `.`). */
  scope: string | null;
  /** The suites a case created for it goes to, from the root. */
  suitePath: string[];
  /** The display ID of a `tcms_case` property. */
  caseProperty: string | null;
  /** CTRF `parameters`. */
  parameters: unknown;
  /** At least one; the last is the final outcome. */
  attempts: Attempt[];
  /** The runner said so (CTRF `flaky`), besides failed-then-passed attempts. */
  flakyReported: boolean;
};

export const clip = (text: string | null | undefined) => (text ? text.slice(0, MESSAGE_MAX) : null);

/** A malformed report: 422 parse_failed naming where it went wrong. */
export const parseFailed = (message: string, line: number, column: number) =>
  new AppError('parse_failed', `The report is malformed at line ${line}, column ${column}: ${message}`, { line, column });

export const tooManyTests = () =>
  new AppError('too_many_cases', `An import holds at most ${IMPORT_TESTS_MAX} tests`, { limit: IMPORT_TESTS_MAX });

/** Passes on the tests a parser meets, their text made storable, and stops it at the first one over the limit. */
export class TestSink {
  private count = 0;
  constructor(private readonly emit: (test: ReportedTest) => void) {}
  add(test: ReportedTest): void {
    if (++this.count > IMPORT_TESTS_MAX) throw tooManyTests();
    this.emit(storableCopy(test));
  }
}

/** Where in a stream of bytes a parser is: 1-based line and column (in bytes since the line's start). */
export class Position {
  line = 1;
  private lineStart = 0;
  private consumed = 0;

  /** The bytes passed to `advance`: the offset in the stream of the chunk that comes next. */
  get offset(): number {
    return this.consumed;
  }

  /**
   * The position `at` bytes into `chunk` (a chunk not yet passed to `advance`). A negative `at`
   * is a byte of an earlier chunk on the current line (a token begun there).
   */
  within(chunk: Uint8Array, at: number): { line: number; column: number } {
    let line = this.line;
    let lineStart = this.lineStart;
    for (let index = 0; index < at && index < chunk.length; index++) {
      if (chunk[index] === 0x0a) {
        line++;
        lineStart = this.consumed + index + 1;
      }
    }
    return { line, column: this.consumed + at - lineStart + 1 };
  }

  advance(chunk: Uint8Array): void {
    const end = this.within(chunk, chunk.length);
    this.line = end.line;
    this.lineStart = this.consumed + chunk.length - (end.column - 1);
    this.consumed += chunk.length;
  }
}
