const QUOTE = 0x22;
const COMMA = 0x2c;
const LINE_FEED = 0x0a;

/** A record with more cells than allowed: the 1-based line where it passed the bound, and the offset in the chunk. */
export type CsvExcess = { line: number; offset: number };

/**
 * The cells of each record of a CSV text (comma-separated, `"` quoted, a doubled quote inside
 * quotes), counted on its UTF-8 bytes as they arrive, before a parser builds a record out of them:
 * a record of millions of cells costs a parser seconds per million. The state carries across chunks.
 */
export class CsvScanner {
  private quoted = false;
  private cells = 1;
  private line = 1;

  constructor(private readonly maxCells: number) {}

  scan(bytes: Uint8Array): CsvExcess | null {
    for (let at = 0; at < bytes.length; at++) {
      const byte = bytes[at];
      // A doubled quote inside quotes toggles twice: out and back in.
      if (byte === QUOTE) this.quoted = !this.quoted;
      else if (byte === LINE_FEED) {
        this.line++;
        if (!this.quoted) this.cells = 1;
      } else if (byte === COMMA && !this.quoted && ++this.cells > this.maxCells) return { line: this.line, offset: at };
    }
    return null;
  }
}
