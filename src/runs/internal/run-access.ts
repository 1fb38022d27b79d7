import { authorize, type Capability } from '../../auth/policy.ts';
import type { RequestContext } from '../../context.ts';
import type { Db, Prisma } from '../../database/client.ts';
import { conflict, notFound } from '../../errors.ts';
import { assertProjectUnlocked } from '../../projects/projects.service.ts';
import { RUN_INCLUDE } from './run-record.ts';
import { settingValues, resolveRunSettings, type RunSettings } from '../../run-settings/run-settings.service.ts';
import { lockRow } from '../../database/locks.ts';

/** A run with what reads and mutations of it need: its project (code, lock, run settings). */
const ACCESS_INCLUDE = {
  ...RUN_INCLUDE,
  project: { include: { org: { select: { runSettings: true } } } },
} satisfies Prisma.TestRunInclude;

export type AccessedRun = Prisma.TestRunGetPayload<{ include: typeof ACCESS_INCLUDE }>;
export type LockedRun = AccessedRun & { settings: RunSettings };

/** A run of the active organization by ULID, for reading; a locked project answers 403 project_locked. */
export async function resolveRun(ctx: RequestContext, runUlid: string, options: { db?: Db } = {}): Promise<AccessedRun> {
  authorize(ctx, 'project.read');
  const run = await (options.db ?? ctx.db).testRun.findFirst({ where: { id: runUlid }, include: ACCESS_INCLUDE });
  if (!run) throw notFound('Run');
  assertProjectUnlocked(run.project);
  return run;
}

/**
 * The gate of every run mutation, called first inside its transaction: checks the capability,
 * takes the run's row lock (so that mutations of one run apply one after another and its
 * counters stay exact), and refuses an aborted run (409) and a closed run while the setting
 * allowResultsInClosedRuns is off (409). `allowClosed: 'always'` lets close-independent
 * operations through (delete), `allowAborted` even an aborted run.
 */
export async function lockRun(
  tx: Db,
  ctx: RequestContext,
  runUlid: string,
  options: { capability?: Capability; allowClosed?: 'by-setting' | 'always'; allowAborted?: boolean } = {},
): Promise<LockedRun> {
  authorize(ctx, options.capability ?? 'result.execute');
  if (!(await lockRow(tx, 'test_runs', runUlid, { orgId: ctx.org.id, strength: 'no key update' }))) throw notFound('Run');
  const run = await resolveRun(ctx, runUlid, { db: tx });
  const settings = settingValues(resolveRunSettings(run.project.org.runSettings, run.project.runSettings));
  if (run.abortedAt && !options.allowAborted) throw conflict('The run was aborted; it accepts no further changes');
  if (run.state === 'closed' && !run.abortedAt && options.allowClosed !== 'always' && !settings.allowResultsInClosedRuns) {
    throw conflict('The run is closed and the run settings do not allow changes to closed runs');
  }
  return { ...run, settings };
}
