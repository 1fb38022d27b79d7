import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IMPORT_SLOTS,
  IMPORT_SLOTS_PER_ORGANIZATION,
  IMPORT_WAIT_MAX_MS,
  IMPORTS_WAITING_PER_ORGANIZATION,
  withImportSlot,
} from '../../src/foundation/uploads/import-slots.ts';
import { AppError } from '../../src/kernel/errors.ts';

/**
 * The import slots of a process (taken by the import routes before any transaction): an
 * organization never holds more than its share, a freed slot goes to the organizations waiting in
 * turn, and an import that would wait too long is refused with 429. The slots are this process's,
 * so they are driven here directly, with imports that end when the test says so.
 */

type Held = { started: Promise<void>; finish(): void; done: Promise<unknown> };

/** An import of `orgId` that holds its slot until `finish`. */
function hold(orgId: string): Held {
  let started!: () => void;
  let finish!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const done = withImportSlot(orgId, async () => {
    started();
    await finished;
  });
  done.catch(() => undefined);
  return { started: startedPromise, finish, done };
}

const isStarted = async (held: Held) =>
  Promise.race([held.started.then(() => true), new Promise((resolve) => setTimeout(resolve, 20, false))]);

afterEach(() => vi.useRealTimers());

describe('import slots', () => {
  it('an organization runs at most its share; another starts at once beside it', async () => {
    const first = Array.from({ length: IMPORT_SLOTS_PER_ORGANIZATION }, () => hold('org-a'));
    await Promise.all(first.map((held) => held.started));
    const waiting = hold('org-a');
    const other = hold('org-b');
    await other.started;
    expect(await isStarted(waiting)).toBe(false);
    first[0]!.finish();
    await waiting.started;
    for (const held of [...first, waiting, other]) held.finish();
    await Promise.all([...first, waiting, other].map((held) => held.done));
  });

  it('a freed slot goes to the organizations waiting in turn, not to the one that queued most', async () => {
    // Every slot busy with an organization of its own.
    const busy = Array.from({ length: IMPORT_SLOTS }, (_, index) => hold(`busy-${index}`));
    await Promise.all(busy.map((held) => held.started));
    const many = Array.from({ length: 3 }, () => hold('org-many'));
    const one = hold('org-one');
    busy[0]!.finish();
    await many[0]!.started;
    busy[1]!.finish();
    await one.started;
    expect(await isStarted(many[1]!)).toBe(false);
    for (const held of [...busy, ...many, one]) held.finish();
    await Promise.all([...busy, ...many, one].map((held) => held.done));
  });

  it(`past ${IMPORTS_WAITING_PER_ORGANIZATION} waiting, or after waiting ${IMPORT_WAIT_MAX_MS / 1000} s, an import is refused with 429`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const running = Array.from({ length: IMPORT_SLOTS_PER_ORGANIZATION }, () => hold('org-c'));
    const waiting = Array.from({ length: IMPORTS_WAITING_PER_ORGANIZATION }, () => hold('org-c'));
    const refused = await withImportSlot('org-c', async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'too_many_requests', details: { retryAfterSeconds: 5 } });

    vi.advanceTimersByTime(IMPORT_WAIT_MAX_MS);
    for (const held of waiting) await expect(held.done).rejects.toMatchObject({ code: 'too_many_requests' });
    for (const held of running) held.finish();
    await Promise.all(running.map((held) => held.done));
    expect(await withImportSlot('org-c', async () => 'ran')).toBe('ran');
  });
});
