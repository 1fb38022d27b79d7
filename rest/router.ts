import express, { type Request, type Response, type Router } from 'express';
import { JsonScanner } from '../src/foundation/uploads/json-scanner.ts';
import { AppError, unreadableRequest } from '../src/kernel/errors.ts';
import { MAX_NESTING_DEPTH, nestedTooDeeply } from '../src/kernel/validation.ts';
import { type HttpSettings, JSON_BODY_LIMIT } from './http-settings.ts';
import { type RouteDefinition, routeHandler } from './route.ts';

/** `/x/{id}` → `/x/:id` (Express 5 path syntax); a literal colon (`/step-attachments:stage`) is escaped first. */
const expressPath = (path: string) => path.replace(/:/g, '\\:').replace(/\{(\w+)\}/g, ':$1');

/**
 * The most values a JSON body may hold, counted by their separators (commas and opening
 * brackets): far above the largest request (a run of 5000 cases with their assignees and 200
 * field values is about 60,000), and low enough that JSON.parse never stalls the event loop
 * (the embedded database runs on it) for long.
 */
export const MAX_BODY_VALUES = 200_000;

/**
 * Runs on the raw body before JSON.parse, so that the parse is cheap and no deeper value ever
 * reaches the recursive code downstream. UTF-8 only (RFC 8259): in UTF-16 a byte of a character
 * could pass for a bracket. Strings are not bounded here: the body's size is (JSON_BODY_LIMIT).
 */
function assertParsable(_req: Request, _res: Response, bytes: Buffer, charset: string): void {
  if (charset !== 'utf-8') throw new AppError('unsupported_media_type', 'A JSON body must be encoded in UTF-8');
  const exceeded = new JsonScanner({ depth: MAX_NESTING_DEPTH, values: MAX_BODY_VALUES, token: Infinity }).scan(bytes)?.bound;
  if (exceeded === 'depth') throw nestedTooDeeply([], 'body');
  if (exceeded === 'values') throw unreadableRequest('body_too_large', `The request body holds more than ${MAX_BODY_VALUES} values`);
}

/** The JSON body parser of every JSON route (`/api/v1`, `/mcp`): the limits above, then JSON.parse. */
export const jsonBody = () => express.json({ limit: JSON_BODY_LIMIT, verify: assertParsable });

/** Every `/api/v1` route; body-parser failures reach the app's error handler as contract errors. */
export function restRouter(routes: RouteDefinition[], settings: HttpSettings): Router {
  const router = express.Router();
  const serve = (route: RouteDefinition) => router[route.method](expressPath(route.path), routeHandler(route, settings));
  // Routes that take a raw body stream it themselves: they come before the JSON parser reads it.
  const raw = routes.filter((route) => route.upload?.rawTypes);
  raw.forEach(serve);
  router.use(jsonBody());
  routes.filter((route) => !raw.includes(route)).forEach(serve);
  return router;
}
