import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { UploadedFile } from '../src/foundation/storage/storage.service.ts';
import { temporaryUploadPath } from '../src/foundation/storage/temporary-uploads.ts';
import { AppError, fromValidationIssues } from '../src/kernel/errors.ts';

/**
 * A route's multipart upload of parts named `file`: one, or up to `maxFiles` (parsing stops at
 * maxFiles + 1 parts, so the service can answer its own error for one too many).
 */
export type UploadOptions = {
  maxBytes: number;
  /** The most bytes of all parts of one request together; default maxBytes for each part. */
  maxTotalBytes?: number;
  description: string;
  maxFiles?: number;
  /** Content types also taken as the raw body (one file); such a route runs before the JSON body parser. */
  rawTypes?: string[];
  /**
   * The service reads the files (an import): the request runs in one of the process's import
   * slots, taken before any transaction opens, so that one waiting holds no connection.
   */
  import?: boolean;
};

type StoredPart = { path: string; size: number; sha256: string };

/**
 * A multer storage engine that streams each part into a temporary file of its own, hashing and
 * counting it on the way: no part is ever whole in memory. multer's `fileSize` limit ends a part
 * while it streams; a part that fails is removed here, and multer removes the others (also when
 * the client aborts) through `_removeFile`.
 */
class TemporaryFileStorage implements multer.StorageEngine {
  /** The write of each part in progress, which a removal waits for. */
  private readonly writes = new WeakMap<Express.Multer.File, Promise<StoredPart>>();

  _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<Express.Multer.File>) => void): void {
    const target = temporaryUploadPath();
    // Set before the write so that an abort finds the part to remove.
    file.path = target;
    const hash = createHash('sha256');
    const received = receivedBytes.get(req)!;
    let size = 0;
    const written = pipeline(
      file.stream,
      async function* measure(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          size += chunk.length;
          received.total += chunk.length;
          if (received.total > received.max) throw tooLarge(received.max, 'The files together exceed');
          yield chunk;
        }
      },
      createWriteStream(target),
    ).then(
      () => ({ path: target, size, sha256: hash.digest('hex') }),
      async (error: unknown) => {
        await rm(target, { force: true });
        throw error;
      },
    );
    this.writes.set(file, written);
    written.then((part) => callback(null, part), callback);
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    // A part still arriving is cut off (`stream` is only on parts multer has not finished with).
    (file.stream as Express.Multer.File['stream'] | undefined)?.destroy();
    const settled = (this.writes.get(file) ?? Promise.resolve()).catch(() => undefined);
    settled.then(() => rm(file.path, { force: true })).then(() => callback(null), callback);
  }
}

const temporaryFiles = new TemporaryFileStorage();

/** The bytes received so far of each multipart request, against the most it may send in all. */
const receivedBytes = new WeakMap<Request, { total: number; max: number }>();

const tooLarge = (bytes: number, what = 'The file exceeds') => new AppError('file_too_large', `${what} ${bytes} bytes`, { limit: bytes });

const removeAll = (files: Array<{ path: string }>) => Promise.all(files.map((file) => rm(file.path, { force: true })));

/** Removes the request's temporary files once its response is over, however it ended. */
function removeWhenClosed(res: Response, files: Array<{ path: string }>): void {
  const remove = () => void removeAll(files).catch((error: unknown) => res.req.log.warn({ err: error }, 'an upload stayed behind'));
  if (res.closed) remove();
  else res.once('close', remove);
}

/**
 * The `file` parts of a multipart upload route, streamed to temporary files: one, or with
 * `maxFiles` up to maxFiles + 1 (so that the service answers its own error for one too many).
 */
export function receiveUpload(req: Request, res: Response, upload: UploadOptions): Promise<UploadedFile[]> {
  if (upload.rawTypes && req.is(upload.rawTypes)) return receiveRawBody(req, res, upload.maxBytes);
  if (!req.is('multipart/form-data')) {
    const raw = upload.rawTypes ? ` or as the body (${upload.rawTypes.join(', ')})` : '';
    return Promise.reject(new AppError('unsupported_media_type', `Send the file as multipart/form-data${raw}`));
  }
  const { maxBytes } = upload;
  const parts = upload.maxFiles ? upload.maxFiles + 1 : 1;
  receivedBytes.set(req, { total: 0, max: upload.maxTotalBytes ?? maxBytes * parts });
  // Browsers send a file name as raw UTF-8 in `filename=`; multer would read it as Latin-1.
  const parser = multer({ storage: temporaryFiles, defParamCharset: 'utf8', limits: { fileSize: maxBytes, files: parts } }).array(
    'file',
    parts,
  );
  return new Promise((resolve, reject) => {
    parser(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') reject(tooLarge(maxBytes));
        else reject(fromValidationIssues([{ path: ['file'], message: error.message }], 'file'));
      } else if (error instanceof AppError) {
        reject(error);
      } else if (error && typeof error === 'object' && 'syscall' in error) {
        // The temporary file could not be written (a full disk …): not the client's doing.
        reject(error);
      } else if (error) {
        reject(fromValidationIssues([{ path: ['file'], message: 'Malformed multipart body' }], 'file'));
      } else {
        const received = (req.files as Express.Multer.File[] | undefined) ?? [];
        removeWhenClosed(res, received);
        if (received.length === 0) reject(fromValidationIssues([{ path: ['file'], message: 'A `file` part is required' }], 'file'));
        else {
          resolve(
            received.map((part) => ({
              path: part.path,
              fileName: part.originalname,
              contentType: part.mimetype,
              sizeBytes: part.size,
              sha256: (part as Express.Multer.File & StoredPart).sha256,
            })),
          );
        }
      }
    });
  });
}

/**
 * The raw body of a `rawTypes` route as one file, streamed to a temporary file and hashed on the
 * way, as it was sent (a gzip body stays compressed: its reader inflates it). Past `maxBytes` the
 * rest of the body is read and dropped, so that the 413 reaches the client.
 */
function receiveRawBody(req: Request, res: Response, maxBytes: number): Promise<UploadedFile[]> {
  const encoding = (req.get('content-encoding') ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    return Promise.reject(new AppError('unsupported_media_type', 'Content-Encoding must be gzip or identity'));
  }
  const target = temporaryUploadPath();
  removeWhenClosed(res, [{ path: target }]);
  const file = createWriteStream(target);
  const hash = createHash('sha256');
  let size = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      req.off('data', receive);
      file.destroy();
      req.resume();
      reject(error);
    };
    const receive = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return fail(tooLarge(maxBytes));
      hash.update(chunk);
      if (!file.write(chunk)) {
        req.pause();
        file.once('drain', () => req.resume());
      }
    };
    req.on('data', receive);
    req.once('end', () => {
      if (size > maxBytes) return;
      file.end(() =>
        resolve([
          { path: target, fileName: 'body', contentType: req.get('content-type') ?? '', sizeBytes: size, sha256: hash.digest('hex') },
        ]),
      );
    });
    req.once('error', fail);
    file.once('error', fail);
  });
}
