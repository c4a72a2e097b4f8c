/**
 * A small seeded PRNG (mulberry32): values in [0, 1). Fault and crash tests draw their choices from it and
 * print the seed, so a failing run can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed from `variable` in the environment (to replay a run), else a fresh one. */
export function seedFrom(variable: string): number {
  const given = process.env[variable];
  return given === undefined || given === '' ? Date.now() % 2 ** 31 : Number(given);
}
