import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { CsvScanner } from '../foundation/uploads/csv-scanner.ts';
import { AppError } from '../kernel/errors.ts';
import { type CaseSink, type ImportedCase, lineFailed, rowFailed } from './imported-case.ts';

/** The columns of the project export (contract §11) that are not custom fields. */
const CASE_COLUMNS = ['display_id', 'title', 'suite_path', 'description', 'tags', 'steps', 'expected_results'] as const;
type CaseColumn = (typeof CASE_COLUMNS)[number];
const isCaseColumn = (name: string): name is CaseColumn => (CASE_COLUMNS as readonly string[]).includes(name);

/** The longest CSV record, in characters: past it, 422 parse_failed (an unclosed quote ends there). */
export const CSV_RECORD_MAX = 16 * 1024 * 1024;
/** The most cells of a CSV record: far more than the case columns and every custom field. */
export const CSV_CELLS_MAX = 500;

/** The export defuses a cell a spreadsheet would run as a formula with one more leading `'` (src/exports/csv.ts); reading undoes it. */
const undefused = (cell: string) => (/^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** `A / B / C` as the export writes it, or `A > B > C` as contract §17 spells it. */
export function splitSuitePath(cell: string): string[] {
  const separator = cell.includes(' / ') || !cell.includes(' > ') ? ' / ' : ' > ';
  return cell
    .split(separator)
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * A steps or expected results cell as the export writes it: `1. first\n2. second`, a line that does
 * not start with the next number continuing the entry before it. A cell not starting with `1.` is
 * one entry.
 */
export function numberedEntries(cell: string): string[] {
  const text = cell.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return [];
  if (!/^1\. ?/.test(text)) return [text.trim()];
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${entries.length + 1}\\. ?(.*)$`).exec(line);
    if (match) entries.push(match[1]!);
    else entries[entries.length - 1] += `\n${line}`;
  }
  return entries.map((entry) => entry.trim());
}

function stepsOf(row: number, stepsCell: string, expectedCell: string): ImportedCase['steps'] {
  const actions = numberedEntries(stepsCell);
  const expected = numberedEntries(expectedCell);
  if (expected.length > actions.length) {
    throw rowFailed(row, `expected_results has ${expected.length} entries for ${actions.length} steps`);
  }
  return actions.map((action, index) => {
    if (action === '') throw rowFailed(row, `step ${index + 1} has no action`);
    return { action, expectedResult: expected[index] || null };
  });
}

/** The bytes of a CSV import, stopped with 422 parse_failed on the line where a record passes CSV_CELLS_MAX cells. */
async function* withinCellBound(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const scanner = new CsvScanner(CSV_CELLS_MAX);
  for await (const chunk of chunks) {
    const excess = scanner.scan(chunk);
    if (excess) throw lineFailed(excess.line, 1, `a record has more than ${CSV_CELLS_MAX} cells`);
    yield chunk;
  }
}

/**
 * Reads a CSV import (the project export's columns, contract §17) record by record as its bytes
 * stream in, handing each case to `sink`; a record is at most CSV_RECORD_MAX characters and
 * CSV_CELLS_MAX cells (counted before the parser builds it). The header names the columns,
 * case-insensitively; every other column is a custom field (resolved by the service); a record of
 * blank cells is skipped.
 */
export async function readCsv(chunks: AsyncIterable<Uint8Array>, sink: CaseSink): Promise<void> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: CSV_RECORD_MAX });
  const source = Readable.from(withinCellBound(chunks));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);

  let header: string[] | null = null;
  let row = 0;
  try {
    for await (const { record } of parser as AsyncIterable<{ record: string[] }>) {
      row++;
      if (record.every((cell) => cell.trim() === '')) continue;
      if (!header) {
        header = record.map((name) => name.trim());
        if (!header.some((name) => name.toLowerCase() === 'title')) throw rowFailed(1, 'the header has no title column');
        continue;
      }
      const cells: Partial<Record<CaseColumn, string>> = {};
      const fields: ImportedCase['fields'] = [];
      header.forEach((name, index) => {
        const cell = undefused(record[index] ?? '');
        const key = name.toLowerCase();
        if (isCaseColumn(key)) cells[key] = cell;
        else if (name !== '') fields.push({ column: name, text: cell });
      });
      const title = (cells.title ?? '').trim();
      if (title === '') throw rowFailed(row, 'the title is empty');
      const description = cells.description?.trim() ? cells.description : null;
      sink.add({
        row,
        displayId: cells.display_id?.trim() || null,
        title,
        suitePath: splitSuitePath(cells.suite_path ?? ''),
        description,
        steps: stepsOf(row, cells.steps ?? '', cells.expected_results ?? ''),
        tags: (cells.tags ?? '')
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
        fields,
      });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Not every code of csv-parse starts with CSV_ (INVALID_OPENING_QUOTE does not): its class tells.
    if (error instanceof CsvError) {
      const at = error as CsvError & { lines?: number; column?: number | string };
      throw lineFailed(at.lines ?? row + 1, typeof at.column === 'number' ? at.column + 1 : 1, at.message);
    }
    throw error;
  }
}
