import type { UploadedFile } from '../foundation/storage/storage.service.ts';
import { AppError, validationFailed } from '../kernel/errors.ts';
import { AVATAR_MAX_BYTES } from './projects.schemas.ts';

export const AVATAR_SIZE = 256;
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

/**
 * Normalizes an uploaded avatar to a 256×256 WebP, decoding it from its file. The format is read
 * from the bytes, not from the declared content type, so a renamed file cannot slip through: one
 * that is no PNG, JPEG or WebP answers 415; one that is but does not decode (a truncated PNG …)
 * answers 422 validation_failed, as any content that is malformed.
 */
export async function normalizeAvatar(upload: Pick<UploadedFile, 'path' | 'sizeBytes'>): Promise<Buffer> {
  if (upload.sizeBytes > AVATAR_MAX_BYTES) throw new AppError('file_too_large', 'The avatar exceeds 5 MiB');
  // Image processing (libvips) is loaded by the first avatar, not by every server start.
  const { default: sharp } = await import('sharp');
  let format: string | undefined;
  try {
    format = (await sharp(upload.path).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw new AppError('unsupported_media_type', 'The avatar must be a PNG, JPEG or WebP image');
  }
  try {
    return await sharp(upload.path).rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 85 }).toBuffer();
  } catch {
    throw validationFailed(`The ${format.toUpperCase()} image could not be decoded: it is damaged or incomplete`, { path: ['file'] });
  }
}
