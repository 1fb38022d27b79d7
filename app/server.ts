import type { Server, ServerResponse } from 'node:http';
import { type Config, ConfigurationError, listeningOn, loadConfig } from '../src/kernel/config.ts';
import { logger } from '../src/kernel/logger.ts';
import { SERVICE_VERSION } from '../src/kernel/version.ts';
import type { App } from './app.ts';
import { createStartingHttpServer } from './http-server.ts';

const LISTEN_ERRORS: Record<string, (port: number) => string> = {
  EADDRINUSE: (port) => `port ${port} is already in use (set PORT to another one)`,
  EACCES: (port) => `no permission to listen on port ${port} (set PORT to one above 1023)`,
  EADDRNOTAVAIL: (port) => `cannot listen on port ${port}: the address is not available`,
};

/** A start-up failure as one line, then exit 1: never a stack (it goes to the debug level). `port`: listening on it failed. */
function failStart(error: unknown, port?: number): never {
  const code = String((error as { code?: unknown } | null)?.code);
  const message =
    error instanceof ConfigurationError
      ? error.message
      : port !== undefined && LISTEN_ERRORS[code]
        ? LISTEN_ERRORS[code](port)
        : `start-up failed: ${error instanceof Error ? error.message : String(error)}`;
  logger.debug({ err: error }, 'start-up failure');
  // A bad configuration names each bad variable on a line of its own.
  for (const line of message.split('\n')) logger.fatal(`tcms cannot start: ${line}`);
  process.exit(1);
}

/** Listens on `port` (0: one the system chooses); answers the port bound. */
function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * The port first, then the database and the app: a port in use fails at once, not after the
 * migrations, and no other process can take the port meanwhile. Until the app is ready every
 * request answers 503. The app's modules are imported only then, so that the bundle's entry
 * (scripts/build.mjs splits it there) binds the port before loading them.
 */
async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    failStart(error);
  }
  logger.level = config.logLevel;
  const { server, serve } = createStartingHttpServer();
  const port = await listen(server, config.port).catch((error: unknown) => failStart(error, config.port));
  logger.info(`tcms ${SERVICE_VERSION} starting on port ${port} (it answers 503 until ready)`);
  // The links of every answer and mail name the port bound, not PORT=0.
  const app = await import('./app.ts')
    .then(({ createApp }) => createApp(listeningOn(config, port), logger))
    .catch((error: unknown) => failStart(error));
  serve(app);
  logger.info(`tcms listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql, docs /docs)`);
  logger.info(`ready in ${Math.round(performance.now())} ms`);
  drainOnSignals(server, app);
}

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database and exit 0. */
function drainOnSignals(server: Server, app: App): void {
  let stopping = false;
  // While draining, responses close their connection: a keep-alive client that goes on sending
  // requests on it would otherwise keep the server (and so the process) up indefinitely.
  const unanswered = new Set<ServerResponse>();
  const closeConnectionAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
    else {
      // A streamed answer (live progress) sent its headers long ago: its connection ends with it.
      // The socket is taken now: the response lets go of it as it finishes.
      const socket = response.socket;
      if (response.writableFinished) socket?.end();
      else response.once('finish', () => socket?.end());
    }
  };
  server.on('request', (_request, response: ServerResponse) => {
    if (stopping) return closeConnectionAfter(response);
    unanswered.add(response);
    response.once('close', () => unanswered.delete(response));
  });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: draining requests`);
    for (const response of unanswered) closeConnectionAfter(response);
    app.endStreams();
    server.close(async () => {
      await app.close();
      logger.info('stopped');
      // pino writes asynchronously: exiting before its pending writes end could print "stopped" before them.
      logger.flush(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

process.on('uncaughtException', (error) => {
  logger.fatal({ err: error }, 'uncaught exception: the process stops');
  process.exit(1);
});

await start();
