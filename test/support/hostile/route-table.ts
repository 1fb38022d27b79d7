import type { Express } from 'express';

/** A route of the app as Express holds it: its method (`*` for middleware that takes any) and its full path. */
export type TableRoute = { method: string; path: string };

type Layer = {
  rawPath?: string | string[];
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/**
 * Every route the app serves, read from Express's own route table: route layers with their
 * methods, and middleware mounted at a path of its own (`/docs`, `/graphql`), through every
 * nested router. Middleware at a router's own path (logging, CORS, a body parser, the 404 and
 * error handlers) is not a route. Paths keep Express's syntax, with escaped colons unescaped (`/x\:stage` → `/x:stage`).
 */
export function routeTable(app: Express): TableRoute[] {
  const routes: TableRoute[] = [];
  const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);
  const visit = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = join(prefix, layer.route.path.replace(/\\:/g, ':'));
        for (const method of Object.keys(layer.route.methods)) routes.push({ method: method === '_all' ? '*' : method, path });
        continue;
      }
      const rawPath = [layer.rawPath ?? '/'].flat().join();
      const path = join(prefix, rawPath);
      if (layer.handle?.stack) visit(layer.handle.stack, path === '/' ? '' : path);
      else if (rawPath !== '/') routes.push({ method: '*', path });
    }
  };
  visit((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes.filter((route, index) => routes.findIndex((other) => other.method === route.method && other.path === route.path) === index);
}

/** A path with its parameters blanked, in either syntax (`/runs/{runUlid}`, `/runs/:runUlid`, `/__assets/*key`), without a trailing slash: `/runs/{}`. */
export const routeTemplate = (path: string) => path.replace(/\{\w+\}|[:*]\w+/g, '{}').replace(/(.)\/$/, '$1');
