// The in-memory vector scan behind vector search: exact top k by dot product, best first, for any
// dimension (the scan sums four lanes at a time; what is left over is summed on its own).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryNodeVectors } from '../../src/core/models/nodeVectors';

test('nearest returns the k rows with the largest dot product, best first, for a dimension not a multiple of four', async () => {
  const dim = 7;
  const vectors = new MemoryNodeVectors(dim);
  let seed = 7;
  const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const rows = new Map<string, Float32Array>();
  for (let i = 0; i < 200; i++) {
    const v = Float32Array.from({ length: dim }, next);
    rows.set(`n${i}`, v);
    vectors.set(`n${i}`, `h${i}`, v);
  }
  const query = Float32Array.from({ length: dim }, next);
  const exact = [...rows].map(([id, v]) => ({ id, score: v.reduce((s, x, i) => s + x * query[i], 0) })).sort((a, b) => b.score - a.score);
  const found = await vectors.nearest(query, 5);
  assert.deepEqual(found.map((f) => f.id), exact.slice(0, 5).map((e) => e.id));
  found.forEach((f, i) => assert.ok(Math.abs(f.score - exact[i].score) < 1e-9));
  // The last lane alone decides: a row equal to the query but in its seventh coordinate loses to it.
  vectors.set('last', 'h', Float32Array.from(query, (x, i) => (i === dim - 1 ? x + 10 * Math.sign(query[dim - 1]) : x)));
  assert.equal((await vectors.nearest(query, 1))[0].id, 'last');
});
