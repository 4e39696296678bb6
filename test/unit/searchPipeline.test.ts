// The natural-language pipeline around RANGER's MCTS: model-free stand-in scorers, the traversal wired
// into createSearcher (root + seeds), and the model path with deterministic fake models (vector seeds,
// cosine similarity from stored vectors, reranker relevance) — logic only, no quality claims.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { BUNDLED_EMBEDDING_MODEL, SHIPPED_MODEL_FUSION } from '../../src/core/models/bundled';
import type { Embedder, NodeVectors, Reranker, SearchModels } from '../../src/core/models/types';
import { createSearcher } from '../../src/core/search';
import { LexicalIndex } from '../../src/core/search/lexical';
import { modelFreeScorers } from '../../src/core/search/modelFreeScorers';
import { MIN_SEED_SIMILARITY } from '../../src/core/search/modelScorers';
import { FIXTURES, buildGraph, readTree } from './helpers';

let ranger: RepositoryGraph;
before(async () => {
  ranger = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
});

test('model-free scorers credit a container with its best descendant, less than the descendant itself', async () => {
  const matches = (await LexicalIndex.build(ranger.graph)).scores('divide by the inverse');
  const scorers = modelFreeScorers(ranger.graph, matches);
  const ids = ['extended.py#Scientific.divide', 'extended.py#Scientific', 'extended.py', 'dir:.', 'base.py#precision'];
  const [method, cls, mod, root, unrelated] = await scorers.similarity('divide by the inverse', ids);
  assert.ok(method > 0, 'the method matches on its own');
  assert.ok(cls > 0 && cls < method && mod > 0 && root > 0, `containers inherit a discounted score: ${[method, cls, mod, root]}`);
  assert.equal(unrelated, 0);
  const [rMethod, rRoot] = await scorers.relevance('divide by the inverse', ['extended.py#Scientific.divide', 'dir:.']);
  assert.ok(rMethod > rRoot, 'the reward favours the node over the folder it sits in');
});

test('without a model, natural language is answered from lexical seeds and says it ran model-free', async () => {
  const result = await createSearcher({ graph: ranger }).search('divide two numbers by the inverse', 5);
  assert.equal(result.route, 'natural-language');
  assert.match(result.reason, /model-free/);
  assert.equal(result.hits[0].id, 'extended.py#Scientific.divide');
  assert.ok(result.hits.every((h) => h.via === 'lexical'));
  assert.equal(result.timingsMs.mcts, undefined, 'MCTS is off without a model unless asked');
});

test('MCTS forced on model-free: hits carry the tree path from the repository root or a seed', async () => {
  const result = await createSearcher({ graph: ranger }, { mcts: { enabled: true, safetyMs: Infinity } }).search('divide two numbers by the inverse', 10);
  assert.ok(result.timingsMs.mctsIterations > 0);
  const viaMcts = result.hits.filter((h) => h.via === 'mcts' || h.path);
  assert.ok(viaMcts.length > 0, 'some hit was ranked highest by the traversal or carries its path');
  for (const hit of viaMcts) {
    assert.ok(hit.path && hit.path.at(-1) === hit.id, `path ends at the hit: ${hit.path}`);
    for (let i = 1; i < hit.path.length; i++) {
      const [a, b] = [hit.path[i - 1], hit.path[i]];
      assert.ok(ranger.graph.someEdge(a, b, () => true) || ranger.graph.someEdge(b, a, () => true), `${a} → ${b} is a graph edge`);
    }
  }
});

/** Deterministic stand-ins: a node's vector is a one-hot on a word bucket, the query's too. */
function fakeModels(calls: { embed: string[][]; rerank: string[][] }): SearchModels {
  const dim = 8;
  const bucket = (text: string) => (/divid|inverse/i.test(text) ? 0 : /add|sum/i.test(text) ? 1 : 2);
  const oneHot = (i: number) => Object.assign(new Float32Array(dim), { [i]: 1 });
  const embedder: Embedder = {
    id: 'fake-embedder',
    dim,
    embed: async (texts) => {
      calls.embed.push(texts);
      return texts.map((t) => oneHot(bucket(t)));
    },
  };
  const reranker: Reranker = {
    id: 'fake-reranker',
    score: async (_q, passages) => {
      calls.rerank.push(passages);
      return passages.map((p) => (/quick_add/.test(p) ? 5 : -1));
    },
  };
  // Only three nodes have vectors: the rest fall back to the lexical similarity.
  const stored = new Map([
    ['extended.py#quick_add', oneHot(0)],
    ['base.py#Calculator.add', oneHot(1)],
    ['base.py#Calculator', oneHot(2)],
  ]);
  const vectors: NodeVectors = {
    size: stored.size,
    get: (id) => stored.get(id),
    nearest: async (q, k) => [...stored].map(([id, v]) => ({ id, score: v.reduce((s, x, i) => s + x * q[i], 0) })).sort((a, b) => b.score - a.score).slice(0, k),
  };
  return { embedder, reranker, vectors, status: 'fake models for tests' };
}

test('with models: vector seeds join the lexical ones, MCTS runs by default and the reranker scores passages', async () => {
  const calls = { embed: [] as string[][], rerank: [] as string[][] };
  const models = fakeModels(calls);
  const searcher = createSearcher({ graph: ranger }, { models: () => models, mcts: { safetyMs: Infinity } });
  const result = await searcher.search('inverse multiplication', 10);
  assert.match(result.reason, /fake models for tests/);
  assert.deepEqual(calls.embed, [['inverse multiplication']], 'the query is embedded once; node vectors come from the store');
  assert.ok(result.timingsMs.mctsIterations > 0, 'MCTS runs when a model is loaded');
  assert.ok(calls.rerank.length > 0 && calls.rerank.flat().some((p) => p.includes('def quick_add(a, b)')), 'passages carry the signature');
  const ids = result.hits.map((h) => h.id);
  assert.ok(ids.includes('extended.py#quick_add'), 'the nearest stored vector is a seed even though no word of the query matches it');
  assert.equal(result.hits[0].id, 'extended.py#quick_add', 'vector seed + top reranker score + MCTS: ranked first');
});

test('a question of only one-letter and common words: model-free it says why nothing matched; with an embedder it is still searched', async () => {
  const free = await createSearcher({ graph: ranger }).search("'a.m.' or 'p.m.'", 5);
  assert.deepEqual(free.hits, []);
  assert.match(free.reason, /nothing to search for: one-letter and common words \(a, m, or, p\) are not indexed/);
  const calls = { embed: [] as string[][], rerank: [] as string[][] };
  const withModels = await createSearcher({ graph: ranger }, { models: () => fakeModels(calls) }).search('what is the', 5);
  assert.deepEqual(calls.embed, [['what is the']], 'the embedder still sees the question');
  assert.ok(withModels.hits.length > 0 && !/nothing to search for/.test(withModels.reason), 'vector seeds answer it');
});

test('vector neighbours below the similarity floor are no answer: nonsense finds nothing with a model too', async () => {
  const models = fakeModels({ embed: [], rerank: [] });
  const unrelated: SearchModels = { ...models, vectors: { ...models.vectors!, nearest: async () => [{ id: 'extended.py#quick_add', score: MIN_SEED_SIMILARITY / 2 }] } };
  const result = await createSearcher({ graph: ranger }, { models: () => unrelated, mcts: { safetyMs: Infinity } }).search('xyzzy plugh frobnicate', 10);
  assert.deepEqual(result.hits, [], 'neither a seed nor a traversal of unrelated nodes');
  const related: SearchModels = { ...models, vectors: { ...models.vectors!, nearest: async () => [{ id: 'extended.py#quick_add', score: MIN_SEED_SIMILARITY }] } };
  const found = await createSearcher({ graph: ranger }, { models: () => related, mcts: { safetyMs: Infinity } }).search('xyzzy plugh frobnicate', 10);
  assert.ok(found.hits.some((h) => h.id === 'extended.py#quick_add'), 'a neighbour at the floor is a seed');
});

test('a vector store still filling (size 0) gives no vector seeds and never throws', async () => {
  const calls = { embed: [] as string[][], rerank: [] as string[][] };
  const models = { ...fakeModels(calls), vectors: { size: 0, get: () => undefined, nearest: async () => [] } };
  const result = await createSearcher({ graph: ranger }, { models: () => models, mcts: { safetyMs: Infinity } }).search('divide by the inverse', 5);
  assert.ok(!result.hits.some((h) => h.via === 'vector'));
  assert.ok(result.hits.length > 0);
});

test('the traversal has a budget of its own: slow seeds leave it its iterations, and only the safety cap cuts it', async () => {
  const calls = { embed: [] as string[][], rerank: [] as string[][] };
  const models = fakeModels(calls);
  // Embedding the query takes 80 ms, more than the traversal's whole safety cap here.
  const slow = { ...models, embedder: { ...models.embedder!, embed: async (texts: string[]) => (await new Promise((r) => setTimeout(r, 80)), models.embedder!.embed(texts)) } };
  const result = await createSearcher({ graph: ranger }, { models: () => slow, mcts: { safetyMs: 50 } }).search('inverse multiplication', 10);
  assert.ok(result.timingsMs.mctsIterations > 0, 'the seeds took none of the iterations');
  assert.equal(result.timingsMs.mctsCut, undefined);
  // A cross-encoder slower than the cap: cut, and said.
  const stalled = { ...models, reranker: { ...models.reranker!, score: async (q: string, texts: string[]) => (await new Promise((r) => setTimeout(r, 80)), models.reranker!.score(q, texts)) } };
  const cut = await createSearcher({ graph: ranger }, { models: () => stalled, mcts: { safetyMs: 50 } }).search('inverse multiplication', 10);
  assert.equal(cut.timingsMs.mctsCut, 1);
  assert.ok(cut.hits.length > 0, 'the seeds still answer');
});

test("the shipped model's vector seeds count half in the fused ranking; other models' count fully", async () => {
  const calls = { embed: [] as string[][], rerank: [] as string[][] };
  const scoreOfVectorOnlyHit = async (embedderId: string) => {
    const models = fakeModels(calls);
    const withId = { ...models, reranker: undefined, embedder: { ...models.embedder!, id: embedderId } };
    // The fusion's own scores: the learned reranker (on by default for the shipped model) rescales them.
    const searcher = createSearcher({ graph: ranger }, { models: () => withId, mcts: { enabled: false }, rerank: false });
    const hit = (await searcher.search('inverse multiplication', 10)).hits.find((h) => h.id === 'extended.py#quick_add');
    assert.equal(hit?.via, 'vector', 'found by its vector alone: no word of the query matches it');
    return hit.score;
  };
  const other = await scoreOfVectorOnlyHit('fake-embedder');
  const shipped = await scoreOfVectorOnlyHit(BUNDLED_EMBEDDING_MODEL);
  assert.equal(other, 1, 'the best vector seed, weight 1');
  assert.equal(shipped, SHIPPED_MODEL_FUSION.vector);
  assert.equal(SHIPPED_MODEL_FUSION.vector, 0.5);
});
