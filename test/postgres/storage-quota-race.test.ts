import { beforeAll, describe, expect, it } from 'vitest';
import { PLAN_TIERS } from '../../src/kernel/billing-tiers.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { type Caller, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { useServerProcess } from '../support/processes.ts';
import { newCase, setUsedBytes, usedBytes } from '../support/uploads.ts';

/**
 * Stagings race for the last bytes of an organization's storage quota on two instances of the
 * service — this test's in-process app and a second server process — sharing one PostgreSQL
 * database. The usage row is all they share, and it must never let the quota be passed.
 */

const ROUNDS = 6;
const FREE_QUOTA = PLAN_TIERS.free.maxStorageBytes;

const t = useTestApp();

describe('stagings racing for the last bytes of the quota', { timeout: 240_000 }, () => {
  const second = useServerProcess();
  let caller: Caller;
  let caseUlid: string;

  beforeAll(async () => {
    const owner = await signUp(t.http);
    caller = await tokenFor(t.http, owner, { role: 'admin' });
    await prisma().organization.update({ where: { id: owner.orgId }, data: { requestsPerMinuteOverride: 10_000 } });
    caseUlid = (await newCase(t.http, owner)).ulid;
  }, 180_000);

  const viaTestApp = async (size: number) =>
    (
      await t.http
        .post(`/api/v1/test-cases/${caseUlid}/step-attachments:stage`)
        .set(caller.headers)
        .attach('file', Buffer.alloc(size, 1), { filename: 'a.bin', contentType: 'application/octet-stream' })
    ).status;

  const viaSecondServer = async (size: number) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(size, 2)], { type: 'application/octet-stream' }), 'b.bin');
    const response = await fetch(`${second.current.baseUrl}/api/v1/test-cases/${caseUlid}/step-attachments:stage`, {
      method: 'POST',
      headers: caller.headers,
      body: form,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return response.status;
  };

  const stagedRows = () => prisma().stagedUpload.count({ where: { orgId: caller.orgId } });

  it('lets exactly one of two instances have room for one upload', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const rowsBefore = await stagedRows();
      await setUsedBytes(caller.orgId, FREE_QUOTA - 100);
      // Alternate who is asked first, so that neither side always has the head start.
      const statuses =
        round % 2 === 0
          ? await Promise.all([viaTestApp(60), viaSecondServer(60)])
          : (await Promise.all([viaSecondServer(60), viaTestApp(60)])).reverse();
      const context = JSON.stringify({ round, statuses, server: second.current.output().slice(-2000) });
      expect([...statuses].sort(), context).toEqual([201, 413]);
      expect(await usedBytes(caller.orgId), context).toBe(FREE_QUOTA - 40);
      expect(await stagedRows(), context).toBe(rowsBefore + 1);
    }
  });

  it('never passes the quota however many race: room for three of ten', async () => {
    const rowsBefore = await stagedRows();
    await setUsedBytes(caller.orgId, FREE_QUOTA - 100);
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? viaTestApp(30) : viaSecondServer(30))));
    const context = JSON.stringify({ statuses, server: second.current.output().slice(-2000) });
    expect(
      statuses.filter((status) => status === 201),
      context,
    ).toHaveLength(3);
    expect(
      statuses.filter((status) => status === 413),
      context,
    ).toHaveLength(7);
    expect(await usedBytes(caller.orgId), context).toBe(FREE_QUOTA - 10);
    expect(await stagedRows(), context).toBe(rowsBefore + 3);
  });
});
