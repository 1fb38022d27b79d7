/** A seeded PRNG (mulberry32) and the helpers the hostile walks draw from. */
export type Random = {
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
};

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { int, pick: (items) => items[int(items.length)]!, chance: (probability) => next() < probability };
}

/** The seed of a walk: HOSTILE_SEED=<seed> replays one (HOSTILE_CONCURRENCY=1: in exactly the same order). */
export const hostileSeed = () => Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));
