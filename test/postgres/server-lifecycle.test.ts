import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.ts';
import { exitWithin, killNow, logMessages, startServer } from '../support/processes.ts';

/** The server as it runs in production: SIGTERM stops accepting, drains, closes, exits 0. */

const SERVER_LIMIT_MS = 120_000;

describe('the server process on SIGTERM', { timeout: 180_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const start = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tcms-lifecycle-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startServer({ dataDir, limitMs: SERVER_LIMIT_MS, listenTimeoutMs: 100_000 });
    cleanups.push(async () => {
      await killNow(server);
    });
    return server;
  };

  it('finishes the request in flight, refuses new connections, then prints "stopped" and exits 0', async () => {
    const server = await start();
    // One connection, kept alive, as a proxy or a load balancer would hold it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    const send = (method: string, path: string, body?: string) => {
      const request = http.request({
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      request.setTimeout(20_000, () => request.destroy(new Error('request timed out')));
      const answered = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, body: text, connection: response.headers.connection }));
          response.on('error', reject);
        });
        request.on('error', reject);
      });
      return { request, answered };
    };

    const body = JSON.stringify({
      email: `drain-${newId().toLowerCase()}@example.test`,
      password: 'correct horse battery',
      firstName: 'Drain',
      lastName: 'Test',
    });
    const signup = send('POST', '/api/v1/auth/signup', body);
    // Headers and part of the body: the server holds a request that cannot finish yet.
    signup.request.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    server.process.kill('SIGTERM');
    await server.waitFor(/SIGTERM received: draining requests/);
    // No longer accepting…
    await expect(fetch(`http://127.0.0.1:${server.port}/api/v1/health`, { signal: AbortSignal.timeout(10_000) })).rejects.toThrow();
    expect(server.process.exitCode).toBeNull();

    // …but the request in flight completes,
    signup.request.end(body.slice(10));
    const response = await signup.answered;
    expect(response.status, response.body).toBe(201);
    expect(JSON.parse(response.body)).toMatchObject({ user: { email: expect.stringMatching(/^drain-/) } });
    // and its connection is closed rather than kept alive for more requests.
    expect(response.connection).toBe('close');

    // A client that goes on sending on that connection (every 200 ms, for at most 12 s) does not
    // keep the process alive.
    const later: Array<number | string> = [];
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline && server.process.exitCode === null) {
      const next = send('GET', '/api/v1/health');
      next.request.end();
      later.push(
        await next.answered.then(
          (answer) => answer.status,
          (error: Error) => error.message,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await exitWithin(server, 5_000), `${JSON.stringify(later)}\n${server.output()}`).toEqual({ code: 0, signal: null });
    expect(later).not.toContain(200);
    expect(logMessages(server.output())).toContain('stopped');
  });

  it('stops at once when idle', async () => {
    const server = await start();
    const health = await fetch(`http://127.0.0.1:${server.port}/api/v1/health`);
    expect(health.status).toBe(200);

    server.process.kill('SIGTERM');
    expect(await exitWithin(server, 15_000), server.output()).toEqual({ code: 0, signal: null });
    const messages = logMessages(server.output());
    expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('SIGTERM received: draining requests'));
    expect(messages.indexOf('SIGTERM received: draining requests')).toBeGreaterThanOrEqual(0);
  });
});
