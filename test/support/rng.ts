// Seeded pseudo-random numbers, shared by the tests and the reranker's training (train/reranker/learn.ts).

/** Deterministic pseudo-random numbers (mulberry32) so a failing sequence can be replayed by seed. */
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
