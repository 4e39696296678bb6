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

test('vectors changed, added and removed between questions rank as a fresh set of the same vectors does', async () => {
  // Row-by-row upkeep of the packed matrix (a removed row takes the last one's place, additions use the
  // room left at the end until it is full) must not change any answer, equal scores included: several
  // nodes share each of a few vectors, as nodes with the same text do.
  for (const dim of [64, 7]) {
    let seed = dim;
    const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const shared = Array.from({ length: 5 }, () => Float32Array.from({ length: dim }, next));
    const live = new MemoryNodeVectors(dim);
    const content = new Map<string, Float32Array>();
    for (let step = 0; step < 3000; step++) {
      const r = (next() + 1) / 2;
      const id = `n${Math.floor(((next() + 1) / 2) * 600)}`;
      if (r < 0.25) {
        live.delete(id);
        content.delete(id);
      } else {
        const vector = r < 0.5 ? shared[Math.floor(((next() + 1) / 2) * shared.length)] : Float32Array.from({ length: dim }, next);
        live.set(id, `h${step}`, vector);
        content.set(id, vector);
      }
      if (step % 97 !== 0) continue;
      const query = step % 2 === 0 ? shared[step % shared.length] : Float32Array.from({ length: dim }, next);
      const fresh = new MemoryNodeVectors(dim);
      for (const [key, vector] of [...content].reverse()) fresh.set(key, 'h', vector);
      const exact = [...content]
        .map(([key, v]) => ({ id: key, score: v.reduce((s, x, i) => s + x * query[i], 0) }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      const found = await live.nearest(query, 12);
      assert.deepEqual(found, await fresh.nearest(query, 12), `dim ${dim}, step ${step}: the same answer as a fresh set`);
      assert.deepEqual(found.map((f) => f.id), exact.slice(0, 12).map((e) => e.id), `dim ${dim}, step ${step}`);
      assert.equal(live.size, content.size);
    }
  }
});
