import sharp from 'sharp';
import { AppError } from '../errors.ts';
import { AVATAR_MAX_BYTES } from './projects.schemas.ts';

export const AVATAR_SIZE = 256;
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

/**
 * Normalizes an uploaded avatar to a 256×256 WebP. The format is read from the bytes, not from
 * the declared content type, so a renamed file cannot slip through.
 */
export async function normalizeAvatar(data: Buffer): Promise<Buffer> {
  if (data.length > AVATAR_MAX_BYTES) throw new AppError('file_too_large', 'The avatar exceeds 5 MiB');
  let format: string | undefined;
  try {
    format = (await sharp(data).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw new AppError('unsupported_media_type', 'The avatar must be a PNG, JPEG or WebP image');
  }
  return sharp(data).rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 85 }).toBuffer();
}
