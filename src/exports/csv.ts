import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@]/;

/** A cell a spreadsheet would run as a formula gets a leading `'` (before the writer quotes it). */
export const defused = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** One batch of rows as CSV text, every cell defused; the first batch carries the header. */
export const csvRows = (rows: string[][], header?: readonly string[]) =>
  stringify(header ? [[...header], ...rows] : rows, { cast: { string: defused }, eof: true, record_delimiter: 'unix' }).toString();

/**
 * The chunks of an answer as a byte stream: a chunk is produced only when the client has taken the
 * previous ones (backpressure), and a client that goes away stops the producer.
 */
export const streamOf = (chunks: () => AsyncGenerator<string>) => Readable.from(chunks(), { objectMode: false });
