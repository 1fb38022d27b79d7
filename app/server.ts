import type { Server, ServerResponse } from 'node:http';
import { applySettings, type Config, ConfigurationError, listeningOn, loadConfig } from '../src/kernel/config.ts';
import { logger } from '../src/kernel/logger.ts';
import { type App, createApp } from './app.ts';
import { createHttpServer } from './http-server.ts';

const LISTEN_ERRORS: Record<string, (port: number) => string> = {
  EADDRINUSE: (port) => `port ${port} is already in use (set PORT to another one)`,
  EACCES: (port) => `no permission to listen on port ${port} (set PORT to one above 1023)`,
  EADDRNOTAVAIL: (port) => `cannot listen on port ${port}: the address is not available`,
};

/** A start-up failure as one line, then exit 1: never a stack (it goes to the debug level). */
function failStart(error: unknown, config?: Config): never {
  const code = String((error as { code?: unknown } | null)?.code);
  const message =
    error instanceof ConfigurationError
      ? error.message
      : config && LISTEN_ERRORS[code]
        ? LISTEN_ERRORS[code](config.port)
        : `start-up failed: ${error instanceof Error ? error.message : String(error)}`;
  logger.debug({ err: error }, 'start-up failure');
  logger.fatal(`tcms cannot start: ${message}`);
  process.exit(1);
}

async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    failStart(error);
  }
  logger.level = config.logLevel;
  const app = await createApp(config).catch((error: unknown) => failStart(error, config));
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => {
    server.once('error', (error) => {
      void app.close().finally(() => failStart(error, config));
    });
    server.listen(config.port, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Before any request is read: the links of every answer and mail name the port bound.
  applySettings(listeningOn(config, port));
  logger.info(`tcms listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql, docs /docs)`);
  logger.info(
    app.database.engine === 'pglite'
      ? `database: embedded PostgreSQL (PGlite) in ${app.database.location}`
      : `database: PostgreSQL server at ${app.database.location}`,
  );
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
