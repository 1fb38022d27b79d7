import express, { type Request, type Response, type Router } from 'express';
import { AppError, unreadableRequest } from '../src/errors.ts';
import { MAX_NESTING_DEPTH, nestedTooDeeply } from '../src/validation.ts';
import { JSON_BODY_LIMIT, type HttpSettings } from './http-settings.ts';
import { routeHandler, type RouteDefinition } from './route.ts';

/** `/x/{id}` → `/x/:id` (Express 5 path syntax); a literal colon (`/step-attachments:stage`) is escaped first. */
const expressPath = (path: string) => path.replace(/:/g, '\\:').replace(/\{(\w+)\}/g, ':$1');

/**
 * The most values a JSON body may hold, counted by their separators (commas and opening
 * brackets): far above the largest request (a run of 5000 cases with their assignees and 200
 * field values is about 60,000), and low enough that JSON.parse never stalls the event loop
 * (the embedded database runs on it) for long.
 */
export const MAX_BODY_VALUES = 200_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * The limit a JSON text exceeds, read from its UTF-8 bytes in one pass (bytes of multi-byte
 * characters are never ASCII, so no bracket, comma or quote can be mistaken).
 */
function exceededLimit(bytes: Buffer): 'depth' | 'values' | null {
  let depth = 0;
  let separators = 0;
  let inString = false;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (inString) {
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > MAX_NESTING_DEPTH) return 'depth';
      if (++separators > MAX_BODY_VALUES) return 'values';
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
    else if (byte === COMMA && ++separators > MAX_BODY_VALUES) return 'values';
  }
  return null;
}

/**
 * Runs on the raw body before JSON.parse, so that the parse is cheap and no deeper value ever
 * reaches the recursive code downstream. UTF-8 only (RFC 8259): in UTF-16 a byte of a character
 * could pass for a bracket.
 */
function assertParsable(_req: Request, _res: Response, bytes: Buffer, charset: string): void {
  if (charset !== 'utf-8') throw new AppError('unsupported_media_type', 'A JSON body must be encoded in UTF-8');
  const exceeded = exceededLimit(bytes);
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
