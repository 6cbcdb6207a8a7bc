// A seeded source of randomness for the experiments: the same seed draws the same corpus, the same kills and
// the same simulated defects, so a table can be run again and checked (mulberry32: 32 bits of state, plenty here).
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [low, high], both ends included. */
  between(low: number, high: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** `count` distinct items of `items`, in a random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (low, high) => low + Math.floor(next() * (high - low + 1)),
    chance: (p) => next() < p,
    sample(items, count) {
      const pool = [...items];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [pool[i], pool[j]] = [pool[j], pool[i]];
      }
      return pool.slice(0, Math.min(count, pool.length));
    },
  };
}
