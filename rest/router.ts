import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { AppError } from '../src/errors.ts';
import type { HttpSettings } from './http-settings.ts';
import { errorBody, routeHandler, type RouteDefinition } from './route.ts';

export const JSON_BODY_LIMIT = '10mb';

/** `/projects/{projectId}` → `/projects/:projectId` (Express 5 path syntax). */
/** `/x/{id}` → `/x/:id`; a literal colon (`/step-attachments:stage`) is escaped first. */
const expressPath = (path: string) => path.replace(/:/g, '\\:').replace(/\{(\w+)\}/g, ':$1');

export function restRouter(routes: RouteDefinition[], settings: HttpSettings): Router {
  const router = express.Router();
  router.use(express.json({ limit: JSON_BODY_LIMIT }));
  router.use(bodyParserErrors);
  for (const route of routes) router[route.method](expressPath(route.path), routeHandler(route, settings));
  return router;
}

/** Malformed or oversized JSON bodies answer the contract's envelope, never an HTML page. */
const bodyParserErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res.status(400).json(errorBody(new AppError('validation_failed', 'The request body is not valid JSON', {
      details: { code: 'malformed_json' },
    })));
  } else if (type === 'entity.too.large') {
    res.status(413).json(errorBody(new AppError('validation_failed', `The request body exceeds ${JSON_BODY_LIMIT}`, {
      status: 413,
      details: { code: 'body_too_large' },
    })));
  } else if (type?.startsWith('encoding.') || type === 'charset.unsupported') {
    res.status(415).json(errorBody(new AppError('unsupported_media_type', 'Unsupported body encoding')));
  } else {
    next(error);
  }
};

/** Everything no route matched: unknown paths, unversioned `/api/...`, wrong methods. */
export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(errorBody(new AppError('not_found', `No route for ${req.method} ${req.path}`)));
};

/** The last resort: whatever escaped becomes a JSON 500 without a stack trace. */
export const unexpectedErrorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  console.error(error);
  if (res.headersSent) return;
  res.status(500).json(errorBody(new AppError('internal_error', 'Internal server error')));
};
