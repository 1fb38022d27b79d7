import { SaxesParser } from 'saxes';
import { AppError } from './errors.ts';

/** How a reader words a malformed upload: 422 parse_failed naming the line and column. */
export type XmlFailure = (line: number, column: number, message: string) => AppError;

/**
 * A streaming XML parser for uploaded files (result reports, test case imports). A DOCTYPE is
 * refused, so no entity, internal or external, is ever declared, let alone expanded; the bytes
 * must be UTF-8. `fail` throws `failed` where the parser stands; `read` feeds the file through
 * the parser's handlers, turning anything malformed into such a failure (`notUtf8` for bad bytes).
 */
export function uploadedXmlParser(failed: XmlFailure, notUtf8: string) {
  const parser = new SaxesParser({ position: true });
  const fail = (message: string): never => {
    throw failed(parser.line, parser.column + 1, message);
  };
  parser.on('doctype', () => fail('a DOCTYPE is not accepted (entities are never expanded)'));
  const read = async (chunks: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for await (const chunk of chunks) parser.write(decoder.decode(chunk, { stream: true }));
      parser.write(decoder.decode());
      parser.close();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const message = error instanceof Error ? error.message.replace(/^[^:]*:\d+:\d+: /, '') : String(error);
      fail(error instanceof TypeError ? notUtf8 : message);
    }
  };
  return { parser, fail, read };
}
