import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** One JSON line per request: id, method, path, organization, status, duration. */
export function requestLog(enabled: boolean): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    if (enabled) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const line = {
          time: new Date().toISOString(),
          requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          org: (res.locals.orgId as string | undefined) ?? null,
          status: res.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      });
    }
    next();
  };
}
