import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { killNow, logMessages, spawnServer, untilListening } from '../support/processes.ts';
import { type TcpProxy, tcpProxy } from '../support/tcp-proxy.ts';

/**
 * The service on a PostgreSQL server that goes away and comes back: readiness says so, start-up
 * waits for it within a bound, and no statement runs longer than the statement timeout.
 */

const serverUrl = new URL(process.env.DATABASE_URL!);
const target = { host: serverUrl.hostname, port: Number(serverUrl.port || 5432) };
const viaProxy = (proxy: TcpProxy) => {
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
};

describe('readiness and the statement timeout', { timeout: 120_000 }, () => {
  let proxy: TcpProxy;
  let app: App;
  let dataDir: string;

  beforeAll(async () => {
    proxy = await tcpProxy(target);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-outage-'));
    app = await createApp(
      loadConfig({
        ...process.env,
        DATABASE_URL: viaProxy(proxy),
        TCMS_DATA_DIR: dataDir,
        NODE_ENV: 'test',
        TCMS_STATEMENT_TIMEOUT_MS: '300',
      }),
    );
  });

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is unreachable and 200 again once it is back', async () => {
    const http = request(app.express);
    expect((await http.get('/api/v1/health/ready')).status).toBe(200);

    await proxy.stop();
    const down = await http.get('/api/v1/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'down' } });
    // Liveness is about the process, which is fine.
    expect((await http.get('/api/v1/health')).status).toBe(200);

    await proxy.start();
    let ready = await http.get('/api/v1/health/ready');
    for (let attempt = 0; ready.status !== 200 && attempt < 20; attempt += 1) ready = await http.get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'up' } });
  });

  it('cancels a statement that runs longer than TCMS_STATEMENT_TIMEOUT_MS', async () => {
    const startedAt = Date.now();
    await expect(prisma().$queryRaw`SELECT pg_sleep(5)`).rejects.toThrow(/statement timeout|57014/);
    expect(Date.now() - startedAt).toBeLessThan(4_000);
  });
});

describe('start-up while the database is not reachable yet', { timeout: 120_000 }, () => {
  it('retries with back-off and starts once it is', async () => {
    const proxy = await tcpProxy(target, { listening: false });
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-late-db-'));
    const server = spawnServer({ dataDir, env: { DATABASE_URL: viaProxy(proxy), TCMS_DB_CONNECT_TIMEOUT_MS: '60000' } });
    try {
      await server.waitFor(/is not reachable yet \(connection refused\); retrying in \d+ ms/, 30_000);
      await proxy.start();
      const { baseUrl } = await untilListening(server, 60_000);
      expect((await fetch(`${baseUrl}/api/v1/health/ready`)).status).toBe(200);
      expect(logMessages(server.output()).some((message) => message.startsWith('tcms cannot start'))).toBe(false);
    } finally {
      await killNow(server);
      await proxy.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
