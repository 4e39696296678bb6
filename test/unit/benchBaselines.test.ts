// The benches' shared baselines and held-out split (issue 34): standard Okapi BM25 counts every
// occurrence of a query term (bench/search/okapi.ts), and the seeded split is fixed and balanced
// (bench/search/split.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LUCENE, OkapiBm25 } from '../../bench/search/okapi';
import { splitHalves } from '../../bench/search/split';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
// Two files of the same length: one about parsing, one about rendering.
const docs: [string, string[]][] = [
  ['render.py', ['render', 'page', 'templat']],
  ['parse.py', ['pars', 'page', 'header']],
  ['cache.py', ['cach', 'key', 'valu']],
];

test('Okapi BM25 scores a term as Lucene does: idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl))', () => {
  const bm25 = new OkapiBm25(docs);
  // 'pars' is in 1 of 3 documents; every document has the average length, so the length factor is 1.
  const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
  close(bm25.scores(['pars']).get('parse.py')!, (idf * 1 * 2.2) / (1 + 1.2));
});

test('a query term said twice counts twice in standard BM25, once with `distinct`', () => {
  const standard = new OkapiBm25(docs);
  const distinct = new OkapiBm25(docs, { ...LUCENE, distinct: true });
  const query = ['render', 'pars', 'pars'];
  close(standard.scores(query).get('parse.py')!, 2 * standard.scores(['pars']).get('parse.py')!);
  assert.deepEqual(standard.search(query, 2), ['parse.py', 'render.py']);
  // Counted once, the two files tie and keep their order.
  assert.deepEqual(distinct.search(query, 2), ['render.py', 'parse.py']);
});

test('k1 changes how fast a repeated word saturates in a document', () => {
  const repeated: [string, string[]][] = [['a', ['x', 'x', 'x', 'y']], ['b', ['y', 'z', 'w', 'v']]];
  const at12 = new OkapiBm25(repeated).scores(['x']).get('a')!;
  const at15 = new OkapiBm25(repeated, { ...LUCENE, k1: 1.5 }).scores(['x']).get('a')!;
  assert.ok(at15 > at12);
});

test('the held-out split is fixed by its seed and balances the weights', () => {
  const weights = { 'sympy/sympy': 130, 'sphinx-doc/sphinx': 57, 'matplotlib/matplotlib': 50, 'scikit-learn/scikit-learn': 46, 'pytest-dev/pytest': 34, 'pydata/xarray': 26, 'astropy/astropy': 24, 'pylint-dev/pylint': 15, 'psf/requests': 13, 'mwaskom/seaborn': 6, 'pallets/flask': 4 };
  const split = splitHalves(weights);
  assert.deepEqual(splitHalves(weights), split);
  const tuning = Object.keys(split).filter((r) => split[r] === 'tuning').sort();
  assert.deepEqual(tuning, ['matplotlib/matplotlib', 'psf/requests', 'pytest-dev/pytest', 'sympy/sympy']);
  const load = (h: string) => Object.entries(weights).reduce((a, [r, w]) => a + (split[r] === h ? w : 0), 0);
  assert.ok(Math.abs(load('tuning') - load('heldOut')) <= 130);
  assert.notDeepEqual(splitHalves(weights, 35), split);
});
