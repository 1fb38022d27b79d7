import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { logger } from '../src/kernel/logger.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The process's logger bound to the request's id: every line about the request (a 500's stack) carries it. */
    log: Logger;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

const pathOf = (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];

/** What the handlers noted on the response: the organization, and for GraphQL its error count. */
function outcomeOf(res: ServerResponse) {
  const locals = (res as ServerResponse & { locals?: { orgId?: string; graphql?: unknown } }).locals;
  return { org: locals?.orgId ?? null, ...(locals?.graphql ? { graphql: locals.graphql } : {}) };
}

/**
 * Every request gets an id (a well-formed incoming X-Request-Id, else a new UUID), echoed in the
 * response and bound to `req.log`, so a 500's stack can be found by the id the client saw. With
 * `logRequests`, one JSON line per request once its answer is finished (or the client went away):
 * id, method, path, organization, status, duration, at level error for a 5xx. Headers are never
 * logged (they carry credentials). `req.log` is pino's child logger, made when a request first
 * logs: most never do, and a child per request cost a tenth of a mark's CPU (pino-http made two).
 */
export function requestLog(logRequests: boolean): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    let bound: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, get: () => (bound ??= logger.child({ requestId })) });
    if (logRequests) {
      const started = Date.now();
      res.once('close', () => {
        const line = {
          requestId,
          req: { method: req.method, path: pathOf(req) },
          res: { status: res.statusCode },
          durationMs: Date.now() - started,
          ...outcomeOf(res),
        };
        const summary = `${req.method} ${pathOf(req)} ${res.statusCode}`;
        if (res.statusCode >= 500) logger.error(line, summary);
        else logger.info(line, summary);
      });
    }
    next();
  };
}
