import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../src/errors.ts';
import { assertSafeKey, fileStorage } from '../src/storage/file-storage.ts';
import { errorBody } from './route.ts';

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };

/**
 * `GET /__assets/{avatarKey}?v={avatarVersion}`: public files such as project avatars, served
 * without a session. The version in the query makes each URL immutable, so it is cached for a year.
 */
export const serveAsset: RequestHandler = async (req, res, next) => {
  try {
    const key = (req.params as { key: string[] }).key.join('/');
    let data: Buffer | null = null;
    try {
      assertSafeKey(key);
      if (key.startsWith('avatars/')) data = await fileStorage().get(key);
    } catch {
      data = null;
    }
    if (!data) {
      res.status(404).json(errorBody(new AppError('not_found', 'Asset not found')));
      return;
    }
    const etag = `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', req.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=60');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    res.type(CONTENT_TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream').send(data);
  } catch (error) {
    next(error);
  }
};
