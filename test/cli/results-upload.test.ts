import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../app/http-server.ts';
import { runCli } from '../../app/tcms.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { overrideOrganizationLimits } from '../../src/orgs/orgs.service.ts';
import { ownerWithProject, tokenFor, useTestApp } from '../support/app.ts';
import { type TcpProxy, tcpProxy } from '../support/tcp-proxy.ts';

const t = useTestApp();
let server: Server;
let baseUrl: string;
let reports: string;

beforeAll(async () => {
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reports = await mkdtemp(path.join(os.tmpdir(), 'tcms-reports-'));
  await mkdir(path.join(reports, 'nested'));
  const fixtures = path.join(import.meta.dirname, '../fixtures/reports');
  await copyFile(path.join(fixtures, 'go-junit-report.xml'), path.join(reports, 'go.xml'));
  await copyFile(path.join(fixtures, 'surefire-flaky.xml'), path.join(reports, 'nested', 'TEST-PaymentTest.xml'));
  await copyFile(path.join(fixtures, 'ctrf.json'), path.join(reports, 'ctrf.json'));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(reports, { recursive: true, force: true });
});

/** Runs `tcms …` in this process against `url`, collecting its output. */
async function tcms(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) }, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function ciCaller() {
  const { owner, code } = await ownerWithProject(t.http);
  const token = await tokenFor(t.http, owner);
  return { owner, code, env: { TCMS_URL: baseUrl, TCMS_TOKEN: token.token } };
}

const resultCount = (orgId: string) => prisma().testRunResult.count({ where: { orgId } });

describe('tcms results upload', () => {
  it('uploads every file a glob matches into one run and prints the run and a summary', async () => {
    const { owner, code, env } = await ciCaller();
    const run = await tcms(['results', 'upload', path.join(reports, '**/*.xml'), '--project', code, '--run-name', 'CI 42'], env);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const runUlid = /runs\/([0-9A-Z]{26})/.exec(run.out)![1]!;
    expect(run.out).toContain(`run: ${baseUrl}/api/v1/runs/${runUlid}`);
    // The Surefire report's reruns are results of their own: 7 tests, 10 attempts.
    expect(run.out).toContain('tests 7, results 10');
    expect(run.out).toMatch(/uploaded \d+ bytes/);
    expect((await prisma().testRun.findUniqueOrThrow({ where: { id: runUlid } })).name).toBe('CI 42');
    expect(await resultCount(owner.orgId)).toBe(10);

    // Failed tests fail the step only when asked to.
    const strict = await tcms(
      ['results', 'upload', path.join(reports, 'ctrf.json'), '--project', code, '--run', runUlid, '--fail-on-failed-tests'],
      env,
    );
    expect(strict.code).toBe(3);
    expect(strict.err).toMatch(/failed cases/);
  });

  it('answers usage errors with 2 and a refused upload with 1', async () => {
    const { code, env } = await ciCaller();
    expect((await tcms(['results', 'upload', '--project', code], env)).code).toBe(2);
    expect((await tcms(['results', 'upload', 'x.xml', '--project', code], { TCMS_URL: baseUrl })).code).toBe(2);
    const missing = await tcms(['results', 'upload', path.join(reports, 'go.xml'), '--project', 'NOPE'], env);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/404 not_found/);
  });

  it('waits for Retry-After on 429 and retries with the same key', { timeout: 120_000 }, async () => {
    const { owner, code, env } = await ciCaller();
    await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1 });
    // The window's one request is spent: the upload is refused until the next minute.
    await t.http.get(`/api/v1/projects/${code}`).set({ Authorization: `Bearer ${env.TCMS_TOKEN}` });
    const run = await tcms(['results', 'upload', path.join(reports, 'go.xml'), '--project', code], env);
    expect(run.out).toMatch(/rate limited \(429\): retrying in \d+s/);
    expect(run.code, run.err).toBe(0);
    expect(await resultCount(owner.orgId)).toBe(3);
  });

  it('retries an upload whose answer was lost with the same Idempotency-Key: the results are written once', async () => {
    const { owner, code, env } = await ciCaller();
    const port = Number(new URL(baseUrl).port);
    const proxy: TcpProxy = await tcpProxy({ host: '127.0.0.1', port }, { cutFirstAnswer: true });
    try {
      const run = await tcms(['results', 'upload', path.join(reports, 'go.xml'), '--project', code], {
        ...env,
        TCMS_URL: `http://127.0.0.1:${proxy.port}`,
      });
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(/network error .*retrying/);
      expect(run.out).toContain('(replayed)');
      expect(await resultCount(owner.orgId)).toBe(3);
      expect(await prisma().testRun.count({ where: { orgId: owner.orgId } })).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});
