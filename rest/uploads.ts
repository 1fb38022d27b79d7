import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError, fromValidationIssues } from '../src/errors.ts';
import type { UploadedFile } from '../src/storage/storage.service.ts';
import type { RouteDefinition } from './route.ts';

/**
 * The `file` parts of a multipart upload route: one, or with `maxFiles` up to maxFiles + 1 (so
 * that the service answers its own error for one too many).
 */
export function receiveUpload(req: Request, res: Response, upload: NonNullable<RouteDefinition['upload']>): Promise<UploadedFile[]> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new AppError('unsupported_media_type', 'Send the file as multipart/form-data'));
  }
  const { maxBytes } = upload;
  const parts = upload.maxFiles ? upload.maxFiles + 1 : 1;
  const parser = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: parts } }).array('file', parts);
  return new Promise((resolve, reject) => {
    parser(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') reject(new AppError('file_too_large', `The file exceeds ${maxBytes} bytes`));
        else reject(fromValidationIssues([{ path: ['file'], message: error.message }], 'file'));
      } else if (error) {
        reject(fromValidationIssues([{ path: ['file'], message: 'Malformed multipart body' }], 'file'));
      } else {
        const received = (req.files as Express.Multer.File[] | undefined) ?? [];
        if (received.length === 0) reject(fromValidationIssues([{ path: ['file'], message: 'A `file` part is required' }], 'file'));
        else {
          resolve(
            received.map((part) => ({
              buffer: part.buffer,
              fileName: part.originalname,
              contentType: part.mimetype,
              sha256: createHash('sha256').update(part.buffer).digest('hex'),
            })),
          );
        }
      }
    });
  });
}
