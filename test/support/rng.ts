// Seeded pseudo-random numbers, shared by the tests and the reranker's training (train/reranker/learn.ts).
export { rng } from '../../src/core/random';
