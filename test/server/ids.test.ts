import { describe, expect, it } from 'vitest';
import { newId, ULID_PATTERN } from '../../src/kernel/ids.ts';

describe('newId', () => {
  it('makes distinct ULIDs in creation order, with random parts drawn evenly from the whole alphabet', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(ids.every((id) => ULID_PATTERN.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);

    // The random part of each millisecond's first id is fresh (later ids of the millisecond
    // increment it): over 200 milliseconds, 3,200 symbols, each of the 32 about 1/32 of the time.
    const firstOfMillisecond = new Map<string, string>();
    while (firstOfMillisecond.size < 200) {
      const id = newId();
      if (!firstOfMillisecond.has(id.slice(0, 10))) firstOfMillisecond.set(id.slice(0, 10), id.slice(10));
    }
    const tally = new Map<string, number>();
    for (const symbol of [...firstOfMillisecond.values()].join('')) tally.set(symbol, (tally.get(symbol) ?? 0) + 1);
    expect(tally.size).toBe(32);
    for (const count of tally.values()) expect(count).toBeGreaterThan(50);
  });
});
