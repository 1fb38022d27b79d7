import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../app/http-server.ts';
import { type Caller, signUp, useTestApp } from '../support/app.ts';

/*
 * The embedded database runs every statement on the event loop. Connections opened while the
 * service is busy must be answered in their turn, behind the requests already waiting, not after
 * the busy connections have been served many times over (src/kernel/database/embedded-turns.ts).
 */

const t = useTestApp();
const BUSY_CONNECTIONS = 10;
const FRESH_CONNECTIONS = 30;

let server: http.Server;
let port: number;
let owner: Caller;

beforeAll(async () => {
  owner = await signUp(t.http);
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** GET /api/v1/projects as the owner over `agent`; resolves with the status once the body has arrived. */
function listProjects(agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/api/v1/projects', agent, headers: owner.headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe('a service under load', () => {
  it('answers connections opened meanwhile in turn with the requests already waiting', async () => {
    const busy = new http.Agent({ keepAlive: true, maxSockets: BUSY_CONNECTIONS });
    let answered = 0;
    let stopped = false;
    let warmedUp: () => void;
    const warm = new Promise<void>((resolve) => (warmedUp = resolve));
    const clients = Array.from({ length: BUSY_CONNECTIONS }, async () => {
      while (!stopped) {
        expect(await listProjects(busy)).toBe(200);
        if (++answered === BUSY_CONNECTIONS * 5) warmedUp();
      }
    });
    await warm;

    const before = answered;
    const fresh = await Promise.all(Array.from({ length: FRESH_CONNECTIONS }, () => listProjects(new http.Agent({ keepAlive: false }))));
    const overtaking = answered - before;
    stopped = true;
    await Promise.all(clients);
    busy.destroy();

    expect(fresh).toEqual(Array.from({ length: FRESH_CONNECTIONS }, () => 200));
    // In turn, the fresh requests wait for the busy connections' requests in flight, a few times
    // over at most (13 answers here); with Node accepting one waiting connection per turn of the
    // event loop and each turn serving every busy connection, they waited for 160.
    expect(overtaking).toBeLessThan(BUSY_CONNECTIONS * 8);
  }, 60_000);
});
