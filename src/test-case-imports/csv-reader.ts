import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { AppError } from '../errors.ts';
import { CaseSink, lineFailed, rowFailed, type ImportedCase } from './imported-case.ts';

/** The columns of the project export (decisions §11) that are not custom fields. */
const CASE_COLUMNS = ['display_id', 'title', 'suite_path', 'description', 'tags', 'steps', 'expected_results'] as const;
type CaseColumn = (typeof CASE_COLUMNS)[number];
const isCaseColumn = (name: string): name is CaseColumn => (CASE_COLUMNS as readonly string[]).includes(name);

/** The export defuses a cell a spreadsheet would run as a formula with a leading `'`; reading undoes it. */
const undefused = (cell: string) => (/^'[=+\-@]/.test(cell) ? cell.slice(1) : cell);

/** `A / B / C` as the export writes it, or `A > B > C` as decisions §17 spells it. */
export function splitSuitePath(cell: string): string[] {
  const separator = cell.includes(' / ') || !cell.includes(' > ') ? ' / ' : ' > ';
  return cell.split(separator).map((name) => name.trim()).filter(Boolean);
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

/**
 * Reads a CSV import (the project export's columns, decisions §17) record by record as its bytes
 * stream in, handing each case to `sink`. The header names the columns, case-insensitively; every
 * other column is a custom field (resolved by the service); a record of blank cells is skipped.
 */
export async function readCsv(chunks: AsyncIterable<Uint8Array>, sink: CaseSink): Promise<void> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const source = Readable.from(chunks);
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
        tags: (cells.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean),
        fields,
      });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const csvError = error as Partial<CsvError> & { lines?: number; column?: number | string };
    if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
      throw lineFailed(csvError.lines ?? row + 1, typeof csvError.column === 'number' ? csvError.column + 1 : 1, csvError.message ?? 'unreadable CSV');
    }
    throw error;
  }
}
