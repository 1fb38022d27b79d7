const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [0x5b, 0x5d, 0x7b, 0x7d];
const [SPACE, TAB, LINE_FEED, CARRIAGE_RETURN, COLON] = [0x20, 0x09, 0x0a, 0x0d, 0x3a];

export type JsonBounds = {
  /** Arrays and objects open at once. */
  depth: number;
  /** Values, counted by their separators (commas and opening brackets). */
  values: number;
  /** Bytes of one string, or of one number or literal. */
  token: number;
};

export type JsonExcess = { bound: keyof JsonBounds; offset: number };

/**
 * The bounds of a JSON text, checked on its UTF-8 bytes as they arrive, before any parser sees
 * them (bytes of multi-byte characters are never ASCII, so no bracket, comma or quote can be
 * mistaken). Each chunk is one pass without allocation; the state carries across chunks.
 */
export class JsonScanner {
  private depth = 0;
  private values = 0;
  private inString = false;
  private escaped = false;
  private tokenBytes = 0;

  constructor(private readonly bounds: JsonBounds) {}

  /** The first bound `bytes` passes, with the offset in `bytes` where it did; null when none. */
  scan(bytes: Uint8Array): JsonExcess | null {
    const { bounds } = this;
    for (let at = 0; at < bytes.length; at++) {
      const byte = bytes[at]!;
      if (this.inString) {
        if (++this.tokenBytes > bounds.token) return { bound: 'token', offset: at };
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
        this.tokenBytes = 0;
      } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        this.tokenBytes = 0;
        if (++this.depth > bounds.depth) return { bound: 'depth', offset: at };
        if (++this.values > bounds.values) return { bound: 'values', offset: at };
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        this.tokenBytes = 0;
        this.depth--;
      } else if (byte === COMMA) {
        this.tokenBytes = 0;
        if (++this.values > bounds.values) return { bound: 'values', offset: at };
      } else if (byte === SPACE || byte === TAB || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === COLON) {
        this.tokenBytes = 0;
      } else if (++this.tokenBytes > bounds.token) {
        return { bound: 'token', offset: at };
      }
    }
    return null;
  }
}
