import { describe, expect, it } from 'vitest';
import { analyzeChangedTables } from '../../app/maintenance.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { signUp, useTestApp } from '../support/app.ts';

/*
 * Planner statistics follow the data. PGlite never runs autovacuum, so without the maintenance
 * sweep's ANALYZE the embedded database would estimate any organization's memberships at one row
 * (and plan joins over them as nested loops over whole tables). On a PostgreSQL server
 * autovacuum does the same work; the property holds on both.
 */

const app = useTestApp();

/** The planner's row estimate of the organization's memberships. */
async function estimatedMemberships(orgId: string): Promise<number> {
  const [row] = await prisma().$queryRawUnsafe<Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>>(
    `EXPLAIN (FORMAT JSON) SELECT * FROM memberships WHERE org_id = '${orgId}'`,
  );
  return row!['QUERY PLAN'][0]!.Plan['Plan Rows'];
}

describe('planner statistics', () => {
  it('after the maintenance ANALYZE, an organization of 300 members is estimated as one of hundreds', async () => {
    const owner = await signUp(app.http);
    const userIds = Array.from({ length: 299 }, () => newId());
    await prisma().user.createMany({
      data: userIds.map((id) => ({
        id,
        email: `stats-${id.toLowerCase()}@example.test`,
        passwordHash: 'x',
        firstName: 'S',
        lastName: 'S',
      })),
    });
    await prisma().membership.createMany({ data: userIds.map((userId) => ({ id: newId(), orgId: owner.orgId, userId, role: 'member' })) });

    // The server reports changed rows to its statistics within a second or so: poll with a deadline.
    const deadline = Date.now() + 20_000;
    let estimate = await estimatedMemberships(owner.orgId);
    while (estimate < 100 && Date.now() < deadline) {
      await analyzeChangedTables(prisma());
      estimate = await estimatedMemberships(owner.orgId);
      if (estimate < 100) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(estimate).toBeGreaterThanOrEqual(100);
  }, 60_000);
});
