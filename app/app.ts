import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import express, { type Express, type RequestHandler } from 'express';
import { createYoga } from 'graphql-yoga';
import swaggerUi from 'swagger-ui-express';
import { serveAsset } from '../rest/assets.ts';
import { errorHandler, notFoundHandler } from '../rest/errors.ts';
import { httpSettings, readSessionCookie } from '../rest/http-settings.ts';
import { buildOpenApiDocument } from '../rest/openapi.ts';
import { requestLog } from '../rest/request-log.ts';
import { restRouter } from '../rest/router.ts';
import { v1Routes } from '../rest/v1/index.ts';
import { createGraphQLContext } from '../schema/context.ts';
import { contractCodesForRequestErrors, maskGraphQLError } from '../schema/errors.ts';
import { schema } from '../schema/index.ts';
import type { Config } from '../src/config.ts';
import { seedMissingSystemFields } from '../src/custom-fields/system-fields.service.ts';
import { openDatabase, type OpenDatabase } from '../src/database/client.ts';
import { logger } from '../src/logger.ts';
import { startMaintenance } from '../src/maintenance.ts';
import { openFileStorage } from '../src/storage/storage.service.ts';

export type App = { express: Express; database: OpenDatabase; close(): Promise<void> };

/** The composition root: wires the core to its two front doors, Express (REST) and Yoga (GraphQL). */
export async function createApp(config: Config): Promise<App> {
  logger.level = config.logLevel;
  const database = await openDatabase(config);
  await seedMissingSystemFields();
  openFileStorage(config);
  const stopMaintenance = startMaintenance();
  const settings = httpSettings(config);

  const yoga = createYoga<{ req: express.Request; res: express.Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.development,
    landingPage: false,
    logging: false,
    context: ({ request }) => createGraphQLContext(request, (cookie) => readSessionCookie(cookie, settings)),
    maskedErrors: { maskError: maskGraphQLError },
    // The token ceiling also bounds how deeply a document nests, before graphql-js parses it recursively.
    plugins: [contractCodesForRequestErrors, maxTokensPlugin()],
  });

  const openApiDocument = buildOpenApiDocument(v1Routes);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestLog(config.logRequests));
  app.use('/api/v1', restRouter(v1Routes, settings));
  app.get('/openapi/v1.json', (_req, res) => {
    res.json(openApiDocument);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/openapi/v1.json' } }));
  app.get('/__assets/*key', serveAsset);
  app.use(yoga.graphqlEndpoint, yoga as unknown as RequestHandler);
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    express: app,
    database,
    close: async () => {
      stopMaintenance();
      await database.close();
    },
  };
}
