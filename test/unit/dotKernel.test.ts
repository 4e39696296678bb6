// The WebAssembly scan of a search's vectors (src/core/models/dotKernel.ts): assembled from its source,
// running here, and to the bit what rowDot computes, so a ranking never depends on which of the two ran.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DotMatrix } from '../../src/core/models/dotKernel';
import { MemoryNodeVectors, rowDot } from '../../src/core/models/nodeVectors';
import { rng } from '../support/rng';

test('the kernel in dotKernel.ts is dotKernel.wat assembled', async () => {
  const { assembleDotKernel } = await import('../../scripts/dotKernel.mjs');
  const source = fs.readFileSync(path.join(__dirname, '../../src/core/models/dotKernel.ts'), 'utf8');
  assert.equal(/const KERNEL = '([^']*)';/.exec(source)?.[1], await assembleDotKernel(), 'run `node scripts/dotKernel.mjs` after changing dotKernel.wat');
});

test('the kernel gives every row the dot product rowDot gives it, bit for bit', () => {
  const random = rng(34);
  for (const [rows, dim] of [[1, 4], [257, 384], [1000, 768], [3, 12]]) {
    const kernel = DotMatrix.create(rows, dim);
    assert.ok(kernel, `WebAssembly SIMD runs here (${rows} x ${dim})`);
    for (let i = 0; i < kernel.matrix.length; i++) kernel.matrix[i] = random() * 2 - 1;
    for (let q = 0; q < 3; q++) {
      const query = Float32Array.from({ length: dim }, () => random() * 2 - 1);
      const dots = kernel.dots(query);
      for (let r = 0; r < rows; r++) assert.equal(dots[r], rowDot(kernel.matrix, r * dim, query), `row ${r} of ${rows} x ${dim}`);
    }
  }
  assert.equal(DotMatrix.create(10, 6), undefined, 'a dimension that is not a multiple of 4 is left to rowDot');
});

test('nearest with the kernel ranks as a scan with rowDot does', async () => {
  const random = rng(7);
  const dim = 64;
  const vectors = new MemoryNodeVectors(dim);
  const rows = new Map<string, Float32Array>();
  for (let i = 0; i < 500; i++) {
    const v = Float32Array.from({ length: dim }, () => random() * 2 - 1);
    rows.set(`n${i}`, v);
    vectors.set(`n${i}`, `h${i}`, v);
  }
  const query = Float32Array.from({ length: dim }, () => random() * 2 - 1);
  const expected = [...rows].map(([id, v]) => ({ id, score: rowDot(v, 0, query) })).sort((a, b) => b.score - a.score).slice(0, 10);
  assert.deepEqual(await vectors.nearest(query, 10), expected);
  vectors.delete('n0');
  vectors.set(expected[0].id, 'changed', new Float32Array(dim));
  const after = await vectors.nearest(query, 10);
  assert.ok(!after.some((h) => h.id === expected[0].id || h.id === 'n0'), 'a changed or deleted vector is packed again');
});
