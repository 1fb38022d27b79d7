import type { RequestHandler } from 'express';

/**
 * A handler whose module is imported when a request first reaches it, not at start-up: the parts
 * few requests use (MCP, OAuth, the API docs) kept out of an idle server's memory. `load` runs
 * once; a failed load is retried by the next request.
 */
export function loadedOnFirstRequest(load: () => Promise<RequestHandler>): RequestHandler {
  let loading: Promise<RequestHandler> | undefined;
  return async (req, res, next) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    (await loading)(req, res, next);
  };
}
