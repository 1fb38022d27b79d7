import { Prisma } from '../../../prisma/generated/client/client.ts';
import type { Db } from './client.ts';
import { queryRaw, sql } from './raw-sql.ts';

/**
 * The rows the services lock, by table; every tenant table also carries org_id. An organization's
 * row is locked to take turns on its quotas and counters, never to change its key: FOR NO KEY
 * UPDATE by default, which the foreign-key checks of every other write in the organization (FOR
 * KEY SHARE) neither wait for nor hold up. FOR UPDATE there would deadlock a project's deletion
 * with a run's deletion that had locked the run and then inserted its audit event.
 */
const LOCKABLE = {
  organizations: { tenant: false, strength: 'no key update' },
  projects: { tenant: true },
  test_cases: { tenant: true },
  comments: { tenant: true },
  defects: { tenant: true },
  custom_fields: { tenant: true },
  configuration_groups: { tenant: true },
  test_plans: { tenant: true },
  test_runs: { tenant: true },
  user_groups: { tenant: true },
  webhooks: { tenant: true },
} satisfies Record<string, Lockable>;

type Lockable = { tenant: boolean; strength?: LockStrength };

export type LockableTable = keyof typeof LOCKABLE;

/**
 * - `update`: the row is about to change, or its children are (a project's tree, a group's values,
 *   a run's cases: this also waits for the marks of a run, which hold its key share, see lockRunCase).
 * - `no key update`: the row changes but others may still reference it meanwhile (a plan).
 * - `share`: the row must not change until commit (a parent that a new child refers to).
 */
export type LockStrength = 'update' | 'no key update' | 'share';

/**
 * Locks rows of `table` until the transaction `tx` ends, in ULID order (the one lock order, so
 * that two transactions locking the same rows cannot deadlock). Rows of another organization are
 * not locked: pass `orgId` for tenant tables. Answers the ids that were found and locked.
 */
export async function lockRows(
  tx: Db,
  table: LockableTable,
  ids: string[],
  options: { orgId?: string; strength?: LockStrength } = {},
): Promise<string[]> {
  if (ids.length === 0) return [];
  const lockable: Lockable = LOCKABLE[table];
  if (lockable.tenant && options.orgId === undefined) throw new Error(`Locking ${table} needs the organization`);
  const tenant = options.orgId === undefined ? Prisma.empty : sql`AND org_id = ${options.orgId}`;
  const rows = await queryRaw<Array<{ id: string }>>(
    tx,
    sql`
    SELECT id FROM ${Prisma.raw(table)} WHERE id = ANY(${ids}::char(26)[]) ${tenant}
    ORDER BY id FOR ${Prisma.raw((options.strength ?? lockable.strength ?? 'update').toUpperCase())}`,
  );
  return rows.map((row) => row.id);
}

/** `lockRows` of one row: whether it was found. */
export const lockRow = async (tx: Db, table: LockableTable, id: string, options: { orgId?: string; strength?: LockStrength } = {}) =>
  (await lockRows(tx, table, [id], options)).length === 1;
