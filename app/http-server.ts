import { createServer, type Server } from 'node:http';
import type { App } from './app.ts';

/**
 * Timeouts for a service behind a load balancer: idle keep-alive connections outlive the usual
 * 60-second idle timeout of proxies (so the proxy never reuses a connection the server just
 * closed), headers must arrive within a minute, and a whole request (an upload) within five.
 */
export const SERVER_TIMEOUTS = { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 300_000 } as const;

export function createHttpServer(app: App): Server {
  return Object.assign(createServer(app.express), SERVER_TIMEOUTS);
}
