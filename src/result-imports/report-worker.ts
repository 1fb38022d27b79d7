import type { UploadedFile } from '../foundation/storage/storage.service.ts';
import { parseTask } from '../foundation/uploads/parse-task.ts';
import { firstSignificantByte, ReadBudget, uploadedBytes } from '../foundation/uploads/upload-bytes.ts';
import { AppError } from '../kernel/errors.ts';
import { parseCtrf } from './ctrf.ts';
import { parseJunit } from './junit.ts';
import { type ReportedTest, type ReportFormat, TestSink } from './report.ts';
import { REPORT_READ_MAX_BYTES } from './result-imports.schemas.ts';

/** What reading an import's reports tells besides their tests: the format of the last one that was not blank. */
export type ReportsRead = { format: ReportFormat | null };

const FORMAT_OF_FIRST_BYTE: Record<number, ReportFormat> = { 60: 'junit', 123: 'ctrf' };

/** Streams one report into `sink`: JUnit XML when its first significant byte is `<`, CTRF JSON for `{`; answers its format (null for a blank file). */
async function parseReport(
  file: UploadedFile,
  requested: ReportFormat | undefined,
  sink: TestSink,
  budget: ReadBudget,
): Promise<ReportFormat | null> {
  const { first, bytes } = await firstSignificantByte(uploadedBytes(file, budget));
  if (first === null) return null;
  const format = requested ?? FORMAT_OF_FIRST_BYTE[first];
  if (!format) throw new AppError('unsupported_media_type', 'The report is neither JUnit XML nor CTRF JSON');
  await (format === 'junit' ? parseJunit(bytes, sink) : parseCtrf(bytes, sink));
  return format;
}

/** The parse worker of result imports (src/foundation/uploads/parse-pool.ts): every test of an import's reports, in order. */
export default parseTask<ReportFormat | undefined, ReportedTest, ReportsRead>(async (files, requested, emit) => {
  const sink = new TestSink(emit);
  const budget = new ReadBudget(REPORT_READ_MAX_BYTES);
  let format: ReportFormat | null = null;
  for (const file of files) format = (await parseReport(file, requested, sink, budget)) ?? format;
  return { format };
});
