import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useServerProcess } from '../support/processes.ts';

/**
 * The built server loads the parts few requests use — image processing, object storage, MCP, the
 * OAuth endpoints, the API docs, GraphiQL — when they are first used, not at start-up: each of
 * them cost resident memory in every idle server. A probe (`--import`) lists every module the
 * server process loads (import and require alike) when it is sent SIGUSR2.
 */

const probeDir = mkdtempSync(path.join(os.tmpdir(), 'tcms-lazy-loading-'));
const probe = path.join(probeDir, 'probe.mjs');
const listing = path.join(probeDir, 'loaded.txt');
writeFileSync(
  probe,
  `import { registerHooks } from 'node:module';
import { renameSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
const loaded = new Set();
registerHooks({ load(url, context, nextLoad) { loaded.add(url); return nextLoad(url, context); } });
if (isMainThread) process.on('SIGUSR2', () => {
  writeFileSync(${JSON.stringify(`${listing}.partial`)}, [...loaded].join('\\n'));
  renameSync(${JSON.stringify(`${listing}.partial`)}, ${JSON.stringify(listing)});
});
`,
);

afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

// Development: the mode in which GraphiQL is served.
const server = useServerProcess({ NODE_OPTIONS: `--import ${probe}`, NODE_ENV: 'development' });

/** The modules the server has loaded so far. */
async function loadedModules(): Promise<string[]> {
  rmSync(listing, { force: true });
  server.current.process.kill('SIGUSR2');
  for (let waited = 0; !existsSync(listing); waited += 50) {
    if (waited > 10_000) throw new Error('the probe wrote no list of modules');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return readFileSync(listing, 'utf8').split('\n');
}

/** What each part loads first, as a path inside node_modules. */
const RARELY_USED = {
  'image processing': '/node_modules/sharp/',
  'object storage': '/node_modules/@aws-sdk/client-s3/',
  'the MCP server': '/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js',
  'the OAuth endpoints': '/node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/handlers/',
  'the API docs': '/node_modules/swagger-ui-express/',
  'the OpenAPI document': '/node_modules/@asteasolutions/zod-to-openapi/',
  GraphiQL: '/node_modules/@graphql-yoga/render-graphiql/',
};

const loadedOf = (modules: string[], part: string) => modules.some((module) => module.includes(part));

describe('lazy loading', { timeout: 60_000 }, () => {
  it('has loaded none of the rarely used parts once it answered everyday requests', async () => {
    const { baseUrl } = server.current;
    expect((await fetch(`${baseUrl}/api/v1/health`)).status).toBe(200);
    const graphql = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(200);
    const modules = await loadedModules();
    // The probe sees what the server loads.
    expect(loadedOf(modules, '/node_modules/express/')).toBe(true);
    expect(Object.entries(RARELY_USED).filter(([, part]) => loadedOf(modules, part))).toEqual([]);
  });

  it('loads each part when a request first reaches it', async () => {
    const { baseUrl } = server.current;
    expect((await fetch(`${baseUrl}/docs/`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/openapi/v1.json`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/graphql`, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await fetch(`${baseUrl}/.well-known/oauth-authorization-server`)).status).toBe(200);
    // No credential: refused, after the MCP router was loaded.
    const mcp = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    const modules = await loadedModules();
    const { 'image processing': _avatar, 'object storage': _bucket, ...reached } = RARELY_USED;
    expect(Object.entries(reached).filter(([, part]) => !loadedOf(modules, part))).toEqual([]);
  });
});
