import { beforeAll, describe, expect, it } from 'vitest';
import { ownerWithProject, useTestApp } from '../support/app.ts';
import { type ServerProcess, useServerProcess } from '../support/processes.ts';

/**
 * Defect numbers under real concurrency: two server processes share one PostgreSQL database and
 * only the project row's counter, taken in each create's transaction, keeps numbers gapless.
 */

const t = useTestApp();

describe('defect numbers across two server processes', { timeout: 240_000 }, () => {
  const first = useServerProcess();
  const second = useServerProcess();
  let servers: ServerProcess[];

  beforeAll(() => {
    servers = [first.current, second.current];
  });

  it('numbers 50 defects created at once through both processes 1..50, unique and gapless', async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const response = await fetch(`${servers[index % 2]!.baseUrl}/api/v1/projects/${code}/defects`, {
          method: 'POST',
          headers: { ...owner.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: `Defect ${index}` }),
          signal: AbortSignal.timeout(60_000),
        });
        return { status: response.status, body: (await response.json()) as { defectNumber: number } };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    const numbers = answers.map((answer) => answer.body.defectNumber).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    const listed = await t.http.get(`/api/v1/projects/${code}/defects?pageSize=200`).set(owner.headers);
    expect(listed.body.total).toBe(50);
    expect(listed.body.items.map((item: { defectNumber: number }) => item.defectNumber)).toEqual([...numbers].reverse());
  });
});
