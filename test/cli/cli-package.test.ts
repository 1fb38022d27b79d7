import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useListeningApp } from '../support/event-streams.ts';
import { ROOT, spawnWatched } from '../support/processes.ts';

/**
 * The client a CI job installs from the service: `npx --yes <server>/downloads/tcms-cli.tgz …`
 * run as a new user would, in a directory outside the checkout with an empty npm cache, against
 * the app listening on a port.
 */

const t = useTestApp();
const listening = useListeningApp(t);
const BUNDLE = path.join(ROOT, 'dist', 'tcms-cli', 'tcms.mjs');

/** A stand-in npm registry that records every request: a client that needs nothing from one asks it nothing. */
let registry: { server: Server; url: string; requests: string[] };
/** The CI job's working directory, with the report a real runner wrote (jest 30 with jest-junit). */
let job: string;

beforeAll(async () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
  job = await mkdtemp(path.join(os.tmpdir(), 'tcms-ci-job-'));
  await mkdir(path.join(job, 'reports'));
  await copyFile(path.join(ROOT, 'test/fixtures/reports/jest-junit.xml'), path.join(job, 'reports', 'TEST-cart.xml'));
});
afterAll(async () => {
  await new Promise((resolve) => registry?.server.close(resolve));
  if (job) await rm(job, { recursive: true, force: true });
});

/** The environment of a CI job: none of the npm settings this test run may have inherited, an empty npm cache of its own. */
function jobEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited = Object.keys(process.env).filter((name) => /^npm_/i.test(name));
  return {
    ...Object.fromEntries(inherited.map((name) => [name, undefined])),
    npm_config_cache: path.join(job, 'npm-cache'),
    npm_config_registry: registry.url,
    npm_config_update_notifier: 'false',
    ...env,
  };
}

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawnWatched(command, args, { cwd: job, env: jobEnv(env), limitMs: 120_000 });
  const { code } = await child.closed;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

const cliUrl = () => `${listening.baseUrl}/downloads/tcms-cli.tgz`;

describe('the command-line client the service serves', () => {
  it('runs with npx from anywhere: --version, then a real upload with npm offline', { timeout: 180_000 }, async () => {
    const owner = await signUp(t.http);
    const { token } = await tokenFor(t.http, owner);
    const project = await createProject(t.http, owner);

    const versioned = await run('npx', ['--yes', cliUrl(), '--version']);
    expect(versioned.stderr).not.toMatch(/Warning/);
    expect(versioned.code, versioned.stderr).toBe(0);
    expect(versioned.stdout.trim()).toBe(version);

    // Offline, npm fetches nothing at all: the package (cached by the first call) needs nothing more.
    const uploaded = await run(
      'npx',
      ['--yes', cliUrl(), 'results', 'upload', 'reports/*.xml', '--project', project.id, '--run-name', 'CI 7'],
      {
        npm_config_offline: 'true',
        TCMS_URL: listening.baseUrl,
        TCMS_TOKEN: token,
      },
    );
    expect(uploaded.stderr).not.toMatch(/Warning/);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const runUlid = /^run: \S+\/api\/v1\/runs\/([0-9A-Z]{26})$/m.exec(uploaded.stdout)?.[1];
    expect(uploaded.stdout).toMatch(/^uploaded \d+ bytes$/m);
    expect(uploaded.stdout).toContain(`run: ${listening.baseUrl}/api/v1/runs/${runUlid}\n`);
    expect(uploaded.stdout).toContain('tests 6, results 6');
    expect(uploaded.stdout).toContain('run cases: passed 4, failed 1, blocked 0, skipped 1, untested 0');

    const stored = await t.http.get(`/api/v1/runs/${runUlid}`).set({ Authorization: `Bearer ${token}` });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ name: 'CI 7', counts: { passed: 4, failed: 1, blocked: 0, skipped: 1, untested: 0 } });
    expect(registry.requests).toEqual([]);
  });

  it('serves the latest and the versioned package with their caching, and 404 for anything else under /downloads', async () => {
    const latest = await fetch(cliUrl());
    expect(latest.status).toBe(200);
    expect(
      Object.fromEntries(['content-type', 'content-disposition', 'cache-control'].map((name) => [name, latest.headers.get(name)])),
    ).toEqual({
      'content-type': 'application/gzip',
      'content-disposition': 'attachment; filename=tcms-cli.tgz',
      'cache-control': 'public, max-age=300',
    });
    const etag = latest.headers.get('etag')!;
    // Not fetch(): it adds Cache-Control: no-cache to a conditional request, which asks for the file again.
    expect((await t.http.get('/downloads/tcms-cli.tgz').set('If-None-Match', etag)).status).toBe(304);

    const pinned = await fetch(`${listening.baseUrl}/downloads/tcms-cli-${version}.tgz`);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await pinned.arrayBuffer())).toEqual(Buffer.from(await latest.arrayBuffer()));

    for (const other of ['/downloads/tcms-cli-0.0.0.tgz', '/downloads/', '/downloads/tcms.mjs']) {
      const answer = await fetch(`${listening.baseUrl}${other}`);
      expect(answer.status, other).toBe(404);
      expect((await answer.json()).error.code).toBe('not_found');
    }
  });

  it('shows the npx line on the home page', async () => {
    const home = await t.http.get('/');
    expect(home.text).toContain('npx --yes &quot;$TCMS_URL/downloads/tcms-cli.tgz&quot; results upload');
  });

  it('answers --help with its exit codes, and an unknown command with 2, without a warning', async () => {
    const help = await run(process.execPath, [BUNDLE, '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    const exitCodes = help.stdout.slice(help.stdout.indexOf('Exit codes:'));
    for (const line of ['0  uploaded', '1  the upload failed', '2  usage error', '3  uploaded, and with --fail-on-failed-tests']) {
      expect(exitCodes).toContain(`\n  ${line}`);
    }
    const unknown = await run(process.execPath, [BUNDLE, 'org', 'list']);
    expect(unknown).toMatchObject({ code: 2, stderr: 'tcms: unknown command "org" (see "tcms help")\n' });
  });
});
