import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { projectCode, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useServerProcess } from '../support/processes.ts';

/**
 * A 500 tells the client nothing but the envelope and its request id; the server's log has the
 * stack under that same id. The failure is a real one: a trigger that makes the insert fail.
 */

const t = useTestApp();
const server = useServerProcess({ TCMS_LOG_REQUESTS: 'true' });

describe('an unexpected failure', () => {
  it('answers 500 internal_error without a stack, and logs the stack with the request id', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const code = projectCode();
    const fn = `tcms_test_fail_${code.toLowerCase()}`;
    await prisma().$executeRawUnsafe(
      `CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END; $$`,
    );
    try {
      await prisma().$executeRawUnsafe(
        `CREATE TRIGGER "${fn}" BEFORE INSERT ON "projects" FOR EACH ROW WHEN (NEW."code" = '${code}') EXECUTE FUNCTION "${fn}"()`,
      );
      const response = await fetch(`${server.current.baseUrl}/api/v1/projects`, {
        method: 'POST',
        headers: { ...token.headers, 'Content-Type': 'application/json', 'X-Request-Id': `trace-${code}` },
        body: JSON.stringify({ name: 'Fails', id: code }),
      });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } });
      expect(text).not.toMatch(/injected|stack|\.ts:\d+/);
      expect(response.headers.get('x-request-id')).toBe(`trace-${code}`);

      await server.current.waitFor(new RegExp(`"requestId":"trace-${code}".*"msg":"POST /api/v1/projects 500"`), 10_000);
      const lines = server.current
        .output()
        .split('\n')
        .filter((line) => line.includes(`"requestId":"trace-${code}"`))
        .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { stack?: string } });
      const failure = lines.find((line) => line.msg === 'request failed unexpectedly');
      expect(failure?.level).toBe('error');
      expect(failure?.err?.stack).toMatch(/injected failure/);
      expect(failure?.err?.stack).toMatch(/\n\s+at /);
    } finally {
      await prisma().$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${fn}" ON "projects"`);
      await prisma().$executeRawUnsafe(`DROP FUNCTION IF EXISTS "${fn}"()`);
    }
  });
});
