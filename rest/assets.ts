import type { RequestHandler } from 'express';
import { readPublicAsset } from '../src/foundation/storage/storage.service.ts';

/**
 * `GET /__assets/{avatarKey}?v={avatarVersion}`: public files such as project avatars, served
 * without a session. The version in the query makes each URL immutable, so it is cached for a year.
 */
export const serveAsset: RequestHandler = async (req, res) => {
  const asset = await readPublicAsset((req.params as { key: string[] }).key.join('/'));
  res.set({
    ETag: asset.etag,
    'Cache-Control': req.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.get('if-none-match') === asset.etag) res.status(304).end();
  else res.type(asset.contentType).send(asset.data);
};
