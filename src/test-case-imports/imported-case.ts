import { AppError } from '../kernel/errors.ts';
import { storableCopy } from '../kernel/validation.ts';
import { IMPORT_CASES_MAX, type ImportWarning } from './test-case-imports.schemas.ts';

/** A custom field value as the file spells it: the column (system key or title) and its text. */
export type FieldCell = {
  column: string;
  text: string;
  /** A value the field does not know is a warning instead of parse_failed (TestRail's own fields). */
  lenient?: boolean;
};

/** One case as read from a file, before it is checked against the project. */
export type ImportedCase = {
  /** CSV: the record number (the header is row 1); TestRail XML: the line of `<case>`. */
  row: number;
  displayId: string | null;
  title: string;
  suitePath: string[];
  description: string | null;
  steps: Array<{ action: string; expectedResult: string | null }>;
  tags: string[];
  fields: FieldCell[];
};

/** A file that cannot be read, or a cell that cannot be: 422 parse_failed naming the row (or line). */
export const rowFailed = (row: number, message: string) => new AppError('parse_failed', `Row ${row}: ${message}`, { row });

export const lineFailed = (line: number, column: number, message: string) =>
  new AppError('parse_failed', `The file is malformed at line ${line}, column ${column}: ${message}`, { line, column });

/** The most warnings an answer lists; one more entry says how many were left out. */
export const IMPORT_WARNINGS_MAX = 1_000;

/** The warnings an answer lists: at most IMPORT_WARNINGS_MAX, then a count of those left out (row 0). */
export function listedWarnings(warnings: ImportWarning[], leftOut = 0): ImportWarning[] {
  const unlisted = leftOut + Math.max(0, warnings.length - IMPORT_WARNINGS_MAX);
  if (unlisted === 0) return warnings;
  return [...warnings.slice(0, IMPORT_WARNINGS_MAX), { row: 0, message: `${unlisted} more warnings are not listed` }];
}

/** Passes on the cases a reader finds, their text made storable; stops it at the first case over the limit, and keeps its warnings (the listed ones). */
export class CaseSink {
  private count = 0;
  readonly warnings: ImportWarning[] = [];
  warningsLeftOut = 0;
  constructor(private readonly emit: (testCase: ImportedCase) => void) {}
  add(testCase: ImportedCase): void {
    if (++this.count > IMPORT_CASES_MAX) {
      throw new AppError('too_many_cases', `An import holds at most ${IMPORT_CASES_MAX} cases`, { limit: IMPORT_CASES_MAX });
    }
    this.emit(storableCopy(testCase));
  }
  warn(row: number, message: string): void {
    if (this.warnings.length < IMPORT_WARNINGS_MAX) this.warnings.push({ row, message });
    else this.warningsLeftOut++;
  }
}
