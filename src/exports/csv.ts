import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';

/** What a spreadsheet would run as a formula (OWASP: `=`, `+`, `-`, `@`, TAB, CR), also behind apostrophes. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * Such a cell gets a leading `'` (before the writer quotes it). One already starting with `'` and
 * a formula character gets one more, so that taking one `'` off every cell matching
 * /^'+[=+\-@\t\r]/ (the test case import) reads back exactly what was exported.
 */
export const defused = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** One batch of rows as CSV text, every cell defused; the first batch carries the header. */
export const csvRows = (rows: string[][], header?: readonly string[]) =>
  stringify(header ? [[...header], ...rows] : rows, { cast: { string: defused }, eof: true, record_delimiter: 'unix' }).toString();

/**
 * The chunks of an answer as a byte stream: a chunk is produced only when the client has taken the
 * previous ones (backpressure), and a client that goes away stops the producer.
 */
export const streamOf = (chunks: () => AsyncGenerator<string>) => Readable.from(chunks(), { objectMode: false });
