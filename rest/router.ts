import express, { type Router } from 'express';
import { JSON_BODY_LIMIT, type HttpSettings } from './http-settings.ts';
import { routeHandler, type RouteDefinition } from './route.ts';

/** `/x/{id}` → `/x/:id` (Express 5 path syntax); a literal colon (`/step-attachments:stage`) is escaped first. */
const expressPath = (path: string) => path.replace(/:/g, '\\:').replace(/\{(\w+)\}/g, ':$1');

/** Every `/api/v1` route; body-parser failures reach the app's error handler as contract errors. */
export function restRouter(routes: RouteDefinition[], settings: HttpSettings): Router {
  const router = express.Router();
  router.use(express.json({ limit: JSON_BODY_LIMIT }));
  for (const route of routes) router[route.method](expressPath(route.path), routeHandler(route, settings));
  return router;
}
