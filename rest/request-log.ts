import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { logger } from '../src/logger.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Every request gets an id (a well-formed incoming X-Request-Id, else a new UUID), echoed in the
 * response and bound to `req.log`, so a 500's stack can be found by the id the client saw. With
 * `logRequests`, one JSON line per request: id, method, path, organization, status, duration.
 * Headers are never logged (they carry credentials).
 */
export function requestLog(logRequests: boolean): RequestHandler {
  return pinoHttp({
    logger,
    autoLogging: logRequests,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customProps: (_req, res) => ({ org: ((res as ServerResponse & { locals?: { orgId?: string } }).locals?.orgId) ?? null }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
  }) as unknown as RequestHandler;
}
