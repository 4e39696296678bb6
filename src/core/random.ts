// Seeded pseudo-random numbers: what must come out the same every run (the functional areas' community
// detection, the tests' edit sequences, the reranker's training) draws from here, never Math.random.

/** Deterministic pseudo-random numbers (mulberry32), replayable by seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
