import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { logger } from '../src/kernel/logger.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

const pathOf = (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];
const summary = (req: IncomingMessage, res: ServerResponse) => `${req.method} ${pathOf(req)} ${res.statusCode}`;

/** What the handlers noted on the response: the organization, and for GraphQL its error count. */
function outcomeOf(res: ServerResponse) {
  const locals = (res as ServerResponse & { locals?: { orgId?: string; graphql?: unknown } }).locals;
  return { org: locals?.orgId ?? null, ...(locals?.graphql ? { graphql: locals.graphql } : {}) };
}

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
    // req.log binds only the request id, so that every line about a request (a 500's stack) has it.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: pathOf(req) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customSuccessObject: (_req, res, line) => ({ ...line, ...outcomeOf(res) }),
    customErrorObject: (_req, res, _error, line) => ({ ...line, ...outcomeOf(res) }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => summary(req, res),
    customErrorMessage: (req, res) => summary(req, res),
  }) as unknown as RequestHandler;
}
