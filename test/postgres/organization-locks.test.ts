import { describe, expect, it } from 'vitest';
import { createProject, ownerWithProject, useTestApp } from '../support/app.ts';
import { useLockHolder } from '../support/lock-holder.ts';
import { createCases, createRun } from '../support/runs.ts';

/*
 * The changes that take turns on an organization's quotas lock its row FOR NO KEY UPDATE: every
 * other write in the organization holds the row FOR KEY SHARE through its foreign key (an audit
 * event, say) and must not wait for them. Found by the GraphQL hostile walk on PostgreSQL (seed
 * 1139311927): a project's deletion and a run's deletion in the same project deadlocked.
 */

const t = useTestApp();

const holder = useLockHolder();

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
    await holder.untilWaitingForLocks();

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
    await holder.untilWaitingForLocks();
    expect(created).toBe(false);
    await holder.query('ROLLBACK');
    await creation;
    expect(created).toBe(true);
  });
});
