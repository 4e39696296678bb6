// The search benchmark's ranking metrics on hand-computed cases (bench/search/metrics.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  dedupe, firstRelevantRank, firstSentence, hitAt, ndcgAt, percentile, rankingMetrics, recallAt, reciprocalRank, wordCount,
} from '../../bench/search/metrics';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
const rel = (...keys: string[]) => new Set(keys);

test('first relevant rank is 1-based, 0 when absent', () => {
  assert.equal(firstRelevantRank(['a', 'b', 'c'], rel('c')), 3);
  assert.equal(firstRelevantRank(['a', 'b'], rel('z')), 0);
  assert.equal(firstRelevantRank([], rel('a')), 0);
});

test('NDCG@10 with one relevant item is 1/log2(rank+1) inside the cut-off', () => {
  close(ndcgAt(['x', 'a'], rel('x'), 10), 1);
  close(ndcgAt(['a', 'x'], rel('x'), 10), 1 / Math.log2(3)); // 0.6309…
  close(ndcgAt(['a', 'b', 'x'], rel('x'), 10), 0.5); // 1/log2(4)
  const ranked = [...'abcdefghi'].concat('x'); // rank 10
  close(ndcgAt(ranked, rel('x'), 10), 1 / Math.log2(11));
  close(ndcgAt([...ranked.slice(0, 9), 'y', 'x'], rel('x'), 10), 0); // rank 11
});

test('NDCG@k with two relevant items divides by the ideal DCG', () => {
  // relevant at ranks 2 and 3: (1/log2 3 + 1/log2 4) / (1 + 1/log2 3)
  const expected = (1 / Math.log2(3) + 0.5) / (1 + 1 / Math.log2(3));
  close(ndcgAt(['a', 'x', 'y'], rel('x', 'y'), 10), expected);
  close(ndcgAt(['x', 'y'], rel('x', 'y'), 10), 1);
  close(ndcgAt(['x', 'x'], rel('x'), 10), 1); // a duplicate earns nothing twice
});

test('Recall@k, reciprocal rank and hit@k', () => {
  close(recallAt(['a', 'x', 'b'], rel('x'), 10), 1);
  close(recallAt(['a', 'x', 'b'], rel('x', 'y'), 10), 0.5);
  close(recallAt(['a', 'b', 'x'], rel('x'), 2), 0);
  close(reciprocalRank(['a', 'b', 'c', 'x'], rel('x')), 0.25);
  close(reciprocalRank(['a', 'b', 'c', 'x'], rel('x'), 3), 0);
  close(reciprocalRank([], rel('x')), 0);
  assert.equal(hitAt(['x'], rel('x'), 1), 1);
  assert.equal(hitAt(['a', 'x'], rel('x'), 1), 0);
  assert.equal(hitAt(['a', 'b', 'c', 'd', 'x'], rel('x'), 5), 1);
  assert.equal(hitAt(['a', 'b', 'c', 'd', 'e', 'x'], rel('x'), 5), 0);
});

test('rankingMetrics averages over queries', () => {
  const m = rankingMetrics([
    { ranked: ['x'], relevant: rel('x') }, // ndcg 1, recall 1, rr 1
    { ranked: ['a', 'x'], relevant: rel('x') }, // ndcg 0.6309, recall 1, rr 0.5
    { ranked: ['a'], relevant: rel('x') }, // 0, 0, 0
    { ranked: ['a', 'b', 'c', 'x'], relevant: rel('x') }, // ndcg 1/log2 5, recall 1, rr 0.25
  ]);
  assert.equal(m.queries, 4);
  close(m.ndcg10, (1 + 1 / Math.log2(3) + 0 + 1 / Math.log2(5)) / 4);
  close(m.recall10, 0.75);
  close(m.mrr10, (1 + 0.5 + 0 + 0.25) / 4);
});

test('percentile is nearest-rank; dedupe keeps first occurrences', () => {
  const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(percentile(values, 50), 5);
  assert.equal(percentile(values, 95), 10);
  assert.equal(percentile(values, 90), 9);
  assert.equal(percentile([7], 95), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.deepEqual(dedupe(['a', 'b', 'a', 'c', 'b']), ['a', 'b', 'c']);
});

test('first sentence of a docstring and its word count', () => {
  assert.equal(firstSentence('Creates the loader for the Jinja2 environment.  Can be used to\noverride just the loader.'), 'Creates the loader for the Jinja2 environment.');
  assert.equal(firstSentence('Load any environment variables that start with ``FLASK_``,\ndropping the prefix.\n\nMore.'), 'Load any environment variables that start with ``FLASK_``, dropping the prefix.');
  assert.equal(firstSentence('Gets the current tracer\n\n@since 2.0.0'), 'Gets the current tracer');
  assert.equal(firstSentence('@since 2.0.0'), '');
  assert.equal(firstSentence('Return the version.\n:param x: y'), 'Return the version.');
  assert.equal(firstSentence('Return x.\n:raises ValueError: if y'), 'Return x.');
  assert.equal(firstSentence('Get the env the app runs in, indicated by the\n:envvar:`FLASK_ENV` variable.'), 'Get the env the app runs in, indicated by the :envvar:`FLASK_ENV` variable.');
  assert.equal(firstSentence('Use version 1.2 of it. Then more.'), 'Use version 1.2 of it.');
  assert.equal(wordCount('Gets the current tracer'), 4);
  assert.equal(wordCount('`x` -> 1'), 1);
});
