import type { Server, ServerResponse } from 'node:http';
import { createApp } from './app.ts';
import { loadConfig } from '../src/config.ts';

const config = loadConfig();
const app = await createApp(config);
const server: Server = app.express.listen(config.port, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`tcms listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql, docs /docs)`);
  console.log(
    app.database.engine === 'pglite'
      ? `database: embedded PostgreSQL (PGlite) in ${app.database.location}`
      : `database: PostgreSQL server at ${app.database.location}`,
  );
});

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database. */
let stopping = false;
// While draining, responses close their connection: a keep-alive client that goes on sending
// requests on it would otherwise keep the server (and so the process) up indefinitely.
const unanswered = new Set<ServerResponse>();
const closeConnectionAfter = (response: ServerResponse) => {
  if (!response.headersSent) response.setHeader('Connection', 'close');
};
server.on('request', (_request, response: ServerResponse) => {
  if (stopping) return closeConnectionAfter(response);
  unanswered.add(response);
  response.once('close', () => unanswered.delete(response));
});
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: draining requests`);
  for (const response of unanswered) closeConnectionAfter(response);
  server.close(async () => {
    await app.close();
    console.log('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
