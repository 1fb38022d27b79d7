import express, { type Express, type RequestHandler } from 'express';
import { createYoga } from 'graphql-yoga';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from '../rest/openapi.ts';
import { serveAsset } from '../rest/assets.ts';
import { httpSettings, readSessionCookie } from '../rest/http-settings.ts';
import { requestLog } from '../rest/request-log.ts';
import { notFoundHandler, restRouter, unexpectedErrorHandler } from '../rest/router.ts';
import { v1Routes } from '../rest/v1/index.ts';
import { createGraphQLContext } from '../schema/context.ts';
import { contractCodesForRequestErrors, maskGraphQLError } from '../schema/errors.ts';
import { schema } from '../schema/index.ts';
import type { Config } from './config.ts';
import { seedMissingSystemFields } from './custom-fields/system-fields.ts';
import { openDatabase, type OpenDatabase } from './database/client.ts';
import { startMaintenance } from './maintenance.ts';
import { LocalDirectoryStorage, useFileStorage } from './storage/file-storage.ts';
import { S3Storage } from './storage/s3-storage.ts';
import path from 'node:path';

export type App = { express: Express; database: OpenDatabase; close(): Promise<void> };

/** The composition root: the only module that wires the core to Express and Yoga. */
export async function createApp(config: Config): Promise<App> {
  const database = await openDatabase(config);
  await seedMissingSystemFields();
  useFileStorage(config.s3 ? new S3Storage(config.s3) : new LocalDirectoryStorage(path.join(config.dataDir, 'files')));
  const stopMaintenance = startMaintenance((error) => console.error('maintenance sweep failed', error));
  const settings = httpSettings(config);

  const yoga = createYoga<{ req: express.Request; res: express.Response }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.development,
    landingPage: false,
    logging: false,
    context: ({ request }) => createGraphQLContext(request, (cookie) => readSessionCookie(cookie, settings)),
    maskedErrors: { maskError: maskGraphQLError },
    plugins: [contractCodesForRequestErrors],
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
  app.use(unexpectedErrorHandler);

  return {
    express: app,
    database,
    close: async () => {
      stopMaintenance();
      await database.close();
    },
  };
}
