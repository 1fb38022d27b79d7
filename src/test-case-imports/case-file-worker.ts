import { parseTask } from '../foundation/uploads/parse-task.ts';
import { firstSignificantByte, ReadBudget, uploadedBytes } from '../foundation/uploads/upload-bytes.ts';
import { readCsv } from './csv-reader.ts';
import { CaseSink, type ImportedCase } from './imported-case.ts';
import { CASE_IMPORT_MAX_BYTES, type CaseImportFormat, type ImportWarning } from './test-case-imports.schemas.ts';
import { readTestRail } from './testrail-reader.ts';

/** What reading an import file tells besides its cases. */
export type CaseFileRead = { format: CaseImportFormat; warnings: ImportWarning[]; warningsLeftOut: number };

/**
 * The parse worker of test case imports (src/foundation/uploads/parse-pool.ts): every case of the file, in
 * order. XML (first significant byte `<`) is a TestRail export; anything else is read as CSV. A
 * gzip file is inflated, to CASE_IMPORT_MAX_BYTES at most.
 */
export default parseTask<CaseImportFormat | undefined, ImportedCase, CaseFileRead>(async (files, requested, emit) => {
  const sink = new CaseSink(emit);
  const { first, bytes } = await firstSignificantByte(uploadedBytes(files[0]!, new ReadBudget(CASE_IMPORT_MAX_BYTES)));
  const format = requested ?? (first === 0x3c ? 'testrail' : 'csv');
  await (format === 'csv' ? readCsv(bytes, sink) : readTestRail(bytes, sink));
  return { format, warnings: sink.warnings, warningsLeftOut: sink.warningsLeftOut };
});
