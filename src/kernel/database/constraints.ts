import { AppError } from '../errors.ts';

/**
 * Runs a write guarded by a unique index (a live name, a slug, a project code): its violation,
 * also by a concurrent request, answers 409 conflict naming the field. The index is the rule, so
 * no check-then-write can race it.
 */
export async function uniqueOrConflict<T>(write: () => Promise<T>, conflict: { field: string; message: string }): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'P2002') {
      throw new AppError('conflict', conflict.message, { path: [conflict.field] });
    }
    throw error;
  }
}
