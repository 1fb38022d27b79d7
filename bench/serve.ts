/**
 * The service under test, run as a child process of bench/run.ts (forked with an IPC channel).
 *
 * It is app/server.ts minus two things the benchmark cannot have: it binds to 127.0.0.1 only
 * (app/server.ts listens on every interface) and it reports its ephemeral port over IPC instead
 * of printing it. Configuration comes from the environment exactly as for app/server.ts
 * (DATABASE_URL or TCMS_DATA_DIR, TCMS_DB_POOL_SIZE, ...). It also runs the one operator action
 * the benchmark needs, `overrideOrganizationLimits`, which is never reachable over HTTP.
 */
import type { Server } from 'node:http';
import { createApp } from '../app/app.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { overrideOrganizationLimits } from '../src/orgs/orgs.service.ts';

export type ParentMessage = { type: 'raise-limits'; id: number; orgId: string };
export type ChildMessage =
  | { type: 'ready'; port: number; engine: string; location: string }
  | { type: 'limits-raised'; id: number; error?: string };

if (!process.send) throw new Error('bench/serve.ts must be forked by bench/run.ts (it needs an IPC channel)');
const send = (message: ChildMessage) => process.send?.(message);

const app = await createApp(loadConfig());
const server: Server = await new Promise((resolve, reject) => {
  const listening = app.express.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
});
const address = server.address();
if (!address || typeof address !== 'object') throw new Error('no listening address');

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  // Never hang on a stuck connection: the parent also escalates to SIGKILL, this is belt and braces.
  setTimeout(() => process.exit(code), 10_000).unref();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close().catch((error: unknown) => console.error('close failed', error));
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
// The parent went away (crashed or was killed): do not outlive it.
process.on('disconnect', () => void shutdown(0));

process.on('message', (message: ParentMessage) => {
  if (message.type !== 'raise-limits') return;
  // Unlimited projects is not expressible as an override (null means "the plan's"), so the
  // ceilings are raised far beyond anything the benchmark reaches.
  overrideOrganizationLimits(message.orgId, { maxProjects: 1_000_000, requestsPerMinute: 1_000_000_000, maxResultsPerMonth: 1_000_000_000 })
    .then(() => send({ type: 'limits-raised', id: message.id }))
    .catch((error: unknown) => send({ type: 'limits-raised', id: message.id, error: String(error) }));
});

send({ type: 'ready', port: address.port, engine: app.database.engine, location: app.database.location });
