// Python packages that ship compiled extension modules (scipy, scikit-learn, pandas, the standard
// library's own): an import of one is of code the graph cannot read, not a miss. Before, each counted
// as an internal import left unresolved (3 % of scipy, pandas and scikit-learn's together) and a call
// through one was an unresolved reference.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertIncrementalMatchesScratch, buildGraph, type TreeOperation } from './helpers';

const TREE = new Map<string, string>([
  ['pkg/__init__.py', 'from ._speedups import escape\nfrom . import _native\n'],
  ['pkg/_speedups.cpython-311-x86_64-linux-gnu.so', '\u007fELF'],
  // Cython's source: a distribution may ship it (and its .pxd) without the binary built from it.
  ['pkg/_native.pyx', 'def fast():\n    pass\n'],
  ['pkg/lapack.py', 'from ._flapack import *\n\ndef solve(a):\n    return gesv(a)\n'],
  ['pkg/_flapack.abi3.so', '\u007fELF'],
  ['pkg/broken.py', 'from ._gone import thing\n'],
  ['app.py', 'import pkg._speedups\nfrom pkg.lapack import gesv\nfrom pkg import escape, _native\n\ndef run():\n    gesv(1)\n    escape("<")\n    _native.fast()\n    pkg._speedups.quote()\n'],
]);

test('imports of compiled extension modules resolve to them as code outside the graph, not as misses', async () => {
  const graph = await buildGraph(TREE);
  const stats = graph.importStats();
  assert.deepEqual(stats.unresolvedSamples, ['pkg/broken.py: ._gone:thing'], 'only the module that is nowhere is a miss');
  assert.equal(stats.internal - stats.resolved, 1);
  const calls = (from: string) =>
    graph.graph
      .outEdges(from)
      .map((e) => graph.graph.getEdgeAttributes(e))
      .filter((e) => e.kind === 'CALLS')
      .map((e) => e.target)
      .sort();
  assert.deepEqual(calls('app.py#run'), ['ext:py:pkg._flapack.gesv', 'ext:py:pkg._native.fast', 'ext:py:pkg._speedups.escape', 'ext:py:pkg._speedups.quote']);
  // A name lapack.py star-imports from compiled code, called in lapack.py itself.
  assert.deepEqual(calls('pkg/lapack.py#solve'), ['ext:py:pkg._flapack.gesv']);
});

test('a compiled module that appears or goes re-resolves its importers as a fresh build does', async () => {
  const binary = 'pkg/_gone.cpython-311-x86_64-linux-gnu.so';
  const operations: Record<string, TreeOperation<undefined>> = {
    build: (tree) => (tree.has(binary) ? null : (tree.set(binary, '\u007fELF'), { upsert: [binary], remove: [], describe: `add ${binary}` })),
    remove: (tree) => (tree.delete('pkg/_flapack.abi3.so') ? { upsert: [], remove: ['pkg/_flapack.abi3.so'], describe: 'remove _flapack' } : null),
    pyx: (tree) => (tree.delete('pkg/_native.pyx') ? { upsert: [], remove: ['pkg/_native.pyx'], describe: 'remove _native.pyx' } : null),
  };
  await assertIncrementalMatchesScratch(TREE, 'repo', operations, [1, 2, 3, 4], 3);
  const built = await buildGraph(new Map([...TREE, [binary, '']]));
  assert.deepEqual(built.importStats().unresolvedSamples, [], 'with its binary there, nothing is missing');
});
