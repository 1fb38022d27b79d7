import type { MessagePort } from 'node:worker_threads';
import { AppError } from '../../kernel/errors.ts';
import type { UploadedFile } from '../storage/storage.service.ts';

/** What a parse worker is given: the request's files, the reader's options, and a port to answer on. */
export type ParseTask<Options> = { files: UploadedFile[]; options: Options; port: MessagePort };

/** What a parse worker posts: items in batches as they are read, then how it ended. */
export type ParseMessage<Item, Summary> =
  | { items: Item[] }
  | { done: Summary }
  | { failed: { code: AppError['code']; message: string; details: AppError['details'] } };

/** Items cross to the request's thread this many at a time: each batch is one short deserialization there. */
const BATCH_SIZE = 500;

/**
 * The default export of a parse worker (run by src/foundation/uploads/parse-pool.ts): `read` reads the files
 * and hands each item it finds to `emit`; the items reach the request's thread in batches, and
 * its summary, or the AppError that stopped it, last. Anything else it throws is a failure of
 * the service, passed on as such.
 */
export function parseTask<Options, Item, Summary>(
  read: (files: UploadedFile[], options: Options, emit: (item: Item) => void) => Promise<Summary>,
) {
  return async ({ files, options, port }: ParseTask<Options>): Promise<void> => {
    const post = (message: ParseMessage<Item, Summary>) => port.postMessage(message);
    let batch: Item[] = [];
    const flush = () => {
      if (batch.length > 0) post({ items: batch });
      batch = [];
    };
    try {
      const summary = await read(files, options, (item) => {
        batch.push(item);
        if (batch.length >= BATCH_SIZE) flush();
      });
      flush();
      post({ done: summary });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      post({ failed: { code: error.code, message: error.message, details: error.details } });
    } finally {
      port.close();
    }
  };
}
