import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import { createYoga, useExecutionCancellation } from 'graphql-yoga';
import type { Logger } from 'pino';
import { serveAsset } from '../rest/assets.ts';
import { CLI_DOWNLOADS, serveDownload } from '../rest/downloads.ts';
import { errorHandler, notFoundHandler } from '../rest/errors.ts';
import { httpSettings, JSON_BODY_BYTES, readSessionCookie } from '../rest/http-settings.ts';
import { OAUTH_PATHS, oauthOffered } from '../rest/oauth-paths.ts';
import type { buildOpenApiDocument } from '../rest/openapi.ts';
import { pages } from '../rest/pages/index.ts';
import { pagesRouter } from '../rest/pages/pages-router.ts';
import { requestLog } from '../rest/request-log.ts';
import { restRouter } from '../rest/router.ts';
import { sharePage } from '../rest/share-page.ts';
import { v1Routes } from '../rest/v1/index.ts';
import { compiledQueries } from '../schema/compiled-queries.ts';
import { createGraphQLContext } from '../schema/context.ts';
import { contractCodesForRequestErrors, maskGraphQLError } from '../schema/errors.ts';
import { schema } from '../schema/index.ts';
import { graphqlLimits } from '../schema/limits.ts';
import { graphqlOutcomeLog } from '../schema/request-log.ts';
import { openBillingProvider } from '../src/billing/billing.service.ts';
import { seedMissingSystemFields } from '../src/custom-fields/system-fields.service.ts';
import { onAuditCommitted } from '../src/foundation/audit/audit.service.ts';
import { startMailOutbox } from '../src/foundation/mail/mail-outbox.service.ts';
import { openFileStorage } from '../src/foundation/storage/storage.service.ts';
import { applySettings, type Config } from '../src/kernel/config.ts';
import { type OpenDatabase, openDatabase } from '../src/kernel/database/client.ts';
import { AppError } from '../src/kernel/errors.ts';
import { logger } from '../src/kernel/logger.ts';
import { startProgressFanOut } from '../src/live/progress-fanout.service.ts';
import { publishRunChange } from '../src/live/progress-signals.service.ts';
import { acceptStreams, endAllStreams, refreshAllStreams } from '../src/live/progress-streams.service.ts';
import { wakeWebhookDispatchers } from '../src/webhooks/dispatch-signal.service.ts';
import { startWebhookDispatcher } from '../src/webhooks/webhook-dispatcher.service.ts';
import { loadedOnFirstRequest } from './loaded-on-first-request.ts';
import { startMaintenance } from './maintenance.ts';
import { createMetrics } from './metrics.ts';

export type App = {
  express: Express;
  database: OpenDatabase;
  /** Ends every open live progress stream (the first step of a shutdown: they would keep the HTTP server open). */
  endStreams(): void;
  close(): Promise<void>;
};

/** Headers a browser on an allowed origin may read (WWW-Authenticate: how a browser MCP client finds the OAuth server). */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotency-Replayed',
  'WWW-Authenticate',
];

/** Names the route a request reached, for the metrics (REST routes name themselves). */
const routeLabel =
  (label: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.route = label;
    next();
  };

/** Swagger UI's page and assets at /docs, reading /openapi/v1.json. */
async function swaggerUiRouter(): Promise<RequestHandler> {
  const { default: swaggerUi } = await import('swagger-ui-express');
  return express.Router().use(swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/openapi/v1.json' } }));
}

/**
 * The composition root: wires the core to its two front doors, Express (REST) and Yoga (GraphQL).
 * `startUpLog` hears the database steps (the server's start-up lines).
 */
export async function createApp(config: Config, startUpLog?: Logger): Promise<App> {
  applySettings(config);
  logger.level = config.logLevel;
  openBillingProvider(config);
  await openFileStorage(config);
  const database = await openDatabase(config, 'server', startUpLog);
  await seedMissingSystemFields();
  const stopMaintenance = startMaintenance({ analyze: database.engine === 'pglite', client: database.backgroundClient });
  const http = httpSettings(config);
  const metrics = createMetrics(database);
  const mailOutbox = await startMailOutbox(config, database.backgroundClient, metrics.countMail);
  const webhookDispatcher = config.webhooks.dispatch
    ? startWebhookDispatcher(config.webhooks, database.backgroundClient, metrics.countWebhookDelivery)
    : undefined;
  acceptStreams();
  // The audit hub's listeners: live progress hears the runs that changed, the webhook dispatchers the deliveries queued.
  const stopHearingAudit = onAuditCommitted((event) => {
    if (event.runId) publishRunChange({ orgId: event.orgId, runId: event.runId, planId: event.planId });
    if (event.deliveries > 0) wakeWebhookDispatchers();
  });
  // Across server processes through LISTEN/NOTIFY; the embedded database has one server process, which hears its own changes.
  const progressFanOut =
    database.engine === 'postgres' && config.databaseUrl ? await startProgressFanOut(config.databaseUrl, refreshAllStreams) : undefined;

  const yoga = createYoga<{ req: express.Request; res: express.Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL's page and assets come from the installed package: it works offline.
    graphiql: config.development,
    // Its page is a 9 MB module (30 MB of heap): loaded when it is first served, not on every start.
    renderGraphiQL: config.development
      ? async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options)
      : undefined,
    landingPage: false,
    logging: false,
    // CORS is the app's (one allowlist for REST and GraphQL), not Yoga's reflect-any-origin default.
    cors: false,
    batching: false,
    // As for REST JSON bodies; GraphQL takes no file uploads.
    maxRequestBodySize: JSON_BODY_BYTES,
    multipart: false,
    context: async ({ request, req, res }) => {
      const context = await createGraphQLContext(
        request,
        (cookie) => readSessionCookie(cookie, http),
        req.ip ?? req.socket.remoteAddress ?? 'unknown',
      );
      if (context.caller) res.locals.orgId = context.caller.org.id;
      return context;
    },
    maskedErrors: { maskError: maskGraphQLError },
    plugins: [
      ...graphqlLimits({ production: config.production }),
      useExecutionCancellation(),
      ...compiledQueries(),
      contractCodesForRequestErrors,
      graphqlOutcomeLog,
    ],
  });

  let openApiDocument: Promise<ReturnType<typeof buildOpenApiDocument>> | undefined;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(requestLog(config.logRequests), metrics.measure);
  if (config.corsOrigins.length > 0) app.use(cors({ origin: config.corsOrigins, credentials: true, exposedHeaders: EXPOSED_HEADERS }));
  app.get('/metrics', routeLabel('/metrics'), async (req, res) => {
    if (config.metricsToken && req.get('authorization') !== `Bearer ${config.metricsToken}`) {
      throw new AppError('unauthorized', 'GET /metrics needs Authorization: Bearer <TCMS_METRICS_TOKEN>');
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.use('/api/v1', restRouter(v1Routes, http));
  app.get('/openapi/v1.json', routeLabel('/openapi/v1.json'), async (_req, res) => {
    // Built when first asked for: it took a second of every start-up.
    openApiDocument ??= import('../rest/openapi.ts').then((openapi) => openapi.buildOpenApiDocument(v1Routes));
    res.json(await openApiDocument);
  });
  app.use('/docs', routeLabel('/docs'), loadedOnFirstRequest(swaggerUiRouter));
  app.get('/share/runs/:token', routeLabel('/share/runs/{token}'), sharePage);
  app.get('/__assets/*key', routeLabel('/__assets/{key}'), serveAsset);
  for (const download of CLI_DOWNLOADS) app.get(download.path, routeLabel(download.path), serveDownload(download));
  if (oauthOffered()) {
    for (const path of OAUTH_PATHS) app.use(path, routeLabel(path));
    // Not mounted under a path: the router matches whole paths. Only a request to one of them loads it.
    const oauth = loadedOnFirstRequest(async () => (await import('../rest/oauth.ts')).oauthRouter(http));
    const isOAuthPath = (path: string) => OAUTH_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    app.use((req, res, next) => (isOAuthPath(req.path) ? oauth(req, res, next) : next()));
  }
  app.use(yoga.graphqlEndpoint, routeLabel('/graphql'), yoga as unknown as RequestHandler);
  app.use(
    '/mcp',
    routeLabel('/mcp'),
    loadedOnFirstRequest(async () => (await import('../rest/mcp/server.ts')).mcpRouter()),
  );
  app.use(pagesRouter(pages, http));
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    express: app,
    database,
    endStreams: endAllStreams,
    close: async () => {
      stopHearingAudit();
      endAllStreams();
      await progressFanOut?.stop();
      await stopMaintenance();
      await mailOutbox.stop();
      await webhookDispatcher?.stop();
      await database.close();
    },
  };
}
