import { SaxesParser, type SaxesTag } from 'saxes';
import { AppError } from '../../kernel/errors.ts';
import { type XmlExcess, XmlScanner } from './xml-scanner.ts';

/** How deep elements of an uploaded XML file may nest. */
export const XML_DEPTH_MAX = 64;
/** The most elements of one uploaded XML file. */
export const XML_ELEMENTS_MAX = 5_000_000;
/** The most attributes of one element. */
export const XML_ATTRIBUTES_MAX = 256;
/** The longest run of text (a failure message, a CDATA section, a comment), in characters. */
export const XML_TEXT_MAX = 16 * 1024 * 1024;
/** The longest tag, its attributes included, in characters. */
export const XML_TAG_MAX = 64 * 1024;

/** How a reader words a malformed upload: 422 parse_failed naming the line and column. */
export type XmlFailure = (line: number, column: number, message: string) => AppError;

/** What a reader does with the document: `text` also receives CDATA sections. */
export type XmlHandlers = {
  opentag(tag: SaxesTag): void;
  closetag(tag: SaxesTag): void;
  text?(text: string): void;
};

const EXCESS_MESSAGES: Record<XmlExcess['bound'], string> = {
  text: `a text, comment or CDATA section is longer than ${XML_TEXT_MAX} characters`,
  tag: `a tag is longer than ${XML_TAG_MAX} characters`,
  declaration: 'a DOCTYPE is not accepted (entities are never expanded)',
};

/**
 * A streaming XML parser for uploaded files (result reports, test case imports), bounded whatever
 * the input: the scanner stops a run of text or a tag past its length before the parser buffers
 * it, and the handlers below stop elements nested deeper than XML_DEPTH_MAX, more than
 * XML_ELEMENTS_MAX elements and more than XML_ATTRIBUTES_MAX attributes on one. A DOCTYPE is
 * refused, so no entity, internal or external, is ever declared, let alone expanded; the bytes
 * must be UTF-8. `fail` throws `failed` where the parser stands; `read` feeds the file through
 * the handlers, turning anything malformed into such a failure (`notUtf8` for bad bytes).
 */
export function uploadedXmlParser(failed: XmlFailure, notUtf8: string, handlers: XmlHandlers) {
  const parser = new SaxesParser({ position: true });
  const fail = (message: string): never => {
    throw failed(parser.line, parser.column + 1, message);
  };
  let depth = 0;
  let elements = 0;
  parser.on('opentag', (tag) => {
    if (++depth > XML_DEPTH_MAX) fail(`elements nest deeper than ${XML_DEPTH_MAX} levels`);
    if (++elements > XML_ELEMENTS_MAX) fail(`the file holds more than ${XML_ELEMENTS_MAX} elements`);
    if (Object.keys(tag.attributes).length > XML_ATTRIBUTES_MAX) fail(`an element has more than ${XML_ATTRIBUTES_MAX} attributes`);
    handlers.opentag(tag);
  });
  parser.on('closetag', (tag) => {
    depth--;
    handlers.closetag(tag);
  });
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  parser.on('doctype', () => fail(EXCESS_MESSAGES.declaration));

  const scanner = new XmlScanner({ text: XML_TEXT_MAX, tag: XML_TAG_MAX });
  /** Writes the text up to any excess, so that the failure names where the parser stands then. */
  const write = (text: string) => {
    const excess = scanner.scan(text);
    if (!excess) return parser.write(text);
    parser.write(text.slice(0, excess.offset));
    return fail(EXCESS_MESSAGES[excess.bound]);
  };
  const read = async (chunks: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for await (const chunk of chunks) write(decoder.decode(chunk, { stream: true }));
      write(decoder.decode());
      parser.close();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const message = error instanceof Error ? error.message.replace(/^[^:]*:\d+:\d+: /, '') : String(error);
      fail(error instanceof TypeError ? notUtf8 : message);
    }
  };
  return { parser, fail, read };
}
