import { createServer, type RequestListener, type Server } from 'node:http';
import { errorReply } from '../rest/errors.ts';
import { AppError } from '../src/kernel/errors.ts';
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

/** What every request gets while the app is still being built: 503 in the error envelope, retry in a second. */
const answerStarting: RequestListener = (_request, response) => {
  const reply = errorReply(new AppError('service_unavailable', 'tcms is starting; try again in a moment', { retryAfterSeconds: 1 }));
  response.writeHead(reply.status, { ...reply.headers, 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(reply.body));
};

export type StartingHttpServer = {
  server: Server;
  /** From now on, requests go to the app. */
  serve(app: App): void;
};

/**
 * A server that can listen before the app exists: start-up holds its port (a busy one fails at
 * once, before any database work) and answers 503 until `serve` hands the requests to the app.
 */
export function createStartingHttpServer(): StartingHttpServer {
  let listener = answerStarting;
  const server = Object.assign(
    createServer((request, response) => listener(request, response)),
    SERVER_TIMEOUTS,
  );
  return {
    server,
    serve: (app) => {
      listener = app.express;
    },
  };
}
