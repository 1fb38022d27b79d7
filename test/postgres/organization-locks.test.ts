import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProject, ownerWithProject, useTestApp } from '../support/app.ts';
import { createCases, createRun } from '../support/runs.ts';

/*
 * The changes that take turns on an organization's quotas lock its row FOR NO KEY UPDATE: every
 * other write in the organization holds the row FOR KEY SHARE through its foreign key (an audit
 * event, say) and must not wait for them. Found by the GraphQL hostile walk on PostgreSQL (seed
 * 1139311927): a project's deletion and a run's deletion in the same project deadlocked.
 */

const t = useTestApp();

let holder: pg.Client;
beforeEach(async () => {
  holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
});
afterEach(async () => {
  await holder.query('ROLLBACK');
  await holder.end();
});

async function untilWaitingForLocks() {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await holder.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the request never waited for a lock');
}

describe('the organization row lock', { timeout: 60_000 }, () => {
  it("lets a run's deletion that locked its run write its audit event while the project's deletion waits for that run", async () => {
    const { owner, code } = await ownerWithProject(t.http);
    const cases = await createCases(t.http, owner, code, 1, 1);
    const run = await createRun(t.http, owner, code, { caseUlids: cases.map((each) => each.ulid) });

    // What DELETE /runs/{runUlid} holds when it writes its audit event: the run, FOR UPDATE.
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM test_runs WHERE id = $1 FOR UPDATE', [run.ulid]);
    const projectDeletion = t.http
      .delete(`/api/v1/projects/${code}`)
      .set(owner.headers)
      .then((response) => response);
    await untilWaitingForLocks();

    // Its audit event's foreign key to the organization: held at once, not behind the project's deletion.
    await holder.query("SET LOCAL lock_timeout = '5s'");
    await holder.query('SELECT id FROM organizations WHERE id = $1 FOR KEY SHARE', [owner.orgId]);
    await holder.query('ROLLBACK');

    const deleted = await projectDeletion;
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
  });

  it('makes two changes that take turns on the organization wait for each other', async () => {
    const { owner } = await ownerWithProject(t.http);
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [owner.orgId]);
    let created = false;
    const creation = createProject(t.http, owner).then(() => {
      created = true;
    });
    await untilWaitingForLocks();
    expect(created).toBe(false);
    await holder.query('ROLLBACK');
    await creation;
    expect(created).toBe(true);
  });
});
