export type XmlBounds = {
  /** Characters of one run of text, CDATA section, comment or processing instruction. */
  text: number;
  /** Characters of one tag, its attributes included. */
  tag: number;
};

/** A bound passed, or a declaration (`<!DOCTYPE`, `<!ENTITY`…), which uploads never accept. */
export type XmlExcess = { bound: keyof XmlBounds | 'declaration'; offset: number };

type State = 'text' | 'open' | 'tag' | 'comment' | 'cdata' | 'instruction';
type Markup = Exclude<State, 'text' | 'open'> | 'declaration';

/** What ends each kind of markup that may hold `<` and `>` of its own. */
const CLOSERS = { comment: '-->', cdata: ']]>', instruction: '?>' } as const;

/** The markup an opening names once it can tell; null while it cannot yet. */
function markupOf(opening: string): Markup | null {
  if (opening === '?') return 'instruction';
  for (const [prefix, kind] of [
    ['!--', 'comment'],
    ['![CDATA[', 'cdata'],
  ] as const) {
    if (opening === prefix) return kind;
    if (prefix.startsWith(opening)) return null;
  }
  return opening.startsWith('!') ? 'declaration' : 'tag';
}

/**
 * The length of every piece of an XML text that a parser accumulates before it can emit it (a run
 * of text, a tag, a comment, a CDATA section, a processing instruction), checked on the text as it
 * arrives, before the parser sees it: a parser that buffers a gigabyte of one text node is never
 * fed more than the bound. A declaration is refused at its start (so no DOCTYPE, with or without an
 * internal subset, is ever buffered). Markup is told apart only as far as its length needs; the
 * parser itself judges well-formedness. The state carries across chunks.
 */
export class XmlScanner {
  private state: State = 'text';
  private length = 0;
  /** After `<`: what has arrived of `!--`, `![CDATA[` or `?`, until the kind of markup is known. */
  private opening = '';
  /** In a tag: the quote of the attribute value being read. */
  private quote = '';
  /** The last characters of a comment, CDATA section or instruction, which may begin its closer. */
  private closerTail = '';

  constructor(private readonly bounds: XmlBounds) {}

  scan(chunk: string): XmlExcess | null {
    let at = 0;
    while (at < chunk.length) {
      switch (this.state) {
        case 'text': {
          const next = chunk.indexOf('<', at);
          const end = next === -1 ? chunk.length : next;
          this.length += end - at;
          if (this.length > this.bounds.text) return { bound: 'text', offset: at };
          if (next === -1) return null;
          this.enter('open');
          at = next + 1;
          break;
        }
        case 'open': {
          this.opening += chunk[at++];
          const kind = markupOf(this.opening);
          if (kind === 'declaration') return { bound: kind, offset: at - 1 };
          if (kind) this.enter(kind);
          break;
        }
        case 'tag': {
          for (; at < chunk.length && this.state === 'tag'; at++) {
            const char = chunk[at]!;
            if (++this.length > this.bounds.tag) return { bound: 'tag', offset: at };
            if (this.quote) {
              if (char === this.quote) this.quote = '';
            } else if (char === '"' || char === "'") this.quote = char;
            else if (char === '>') this.enter('text');
          }
          break;
        }
        default: {
          // Inside a comment, CDATA section or processing instruction: up to and including its closer,
          // which may be split across chunks.
          const closer = CLOSERS[this.state];
          const seam = this.closerTail ? (this.closerTail + chunk.slice(at, at + closer.length - 1)).indexOf(closer) : -1;
          const found = seam !== -1 ? at + seam - this.closerTail.length : chunk.indexOf(closer, at);
          const end = found === -1 ? chunk.length : found + closer.length;
          this.length += end - at;
          if (this.length > this.bounds.text) return { bound: 'text', offset: at };
          if (found === -1) {
            this.closerTail = (this.closerTail + chunk.slice(at)).slice(1 - closer.length);
            return null;
          }
          this.enter('text');
          at = end;
        }
      }
    }
    return null;
  }

  private enter(state: State): void {
    this.state = state;
    this.length = 0;
    this.opening = '';
    this.quote = '';
    this.closerTail = '';
  }
}
